//! Running a server: the tables opened, a socket bound, requests answered until
//! Ctrl-C.

use std::net::SocketAddr;
use std::path::Path;

use crate::catalog::{Catalog, VariantSummary};
use crate::error::ServeError;
use crate::limits::Limits;
use crate::routes::router;

/// Serves the tables under `dir` on `addr` until Ctrl-C, on a runtime of its
/// own. `ready` is called once the socket listens, with its address and what
/// the tables cover.
pub fn serve(
    dir: &Path,
    addr: SocketAddr,
    limits: Limits,
    ready: impl FnOnce(SocketAddr, &[&VariantSummary]),
) -> Result<(), ServeError> {
    let catalog = Catalog::open(dir)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?, &catalog.summaries());
        let app = router(catalog, limits);
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                if tokio::signal::ctrl_c().await.is_err() {
                    // No signal handler: run until the process is killed.
                    std::future::pending::<()>().await;
                }
            })
            .await?;
        Ok(())
    })
}
