//! `damka serve`: a web page with a board, and the JSON API behind it, answering
//! from Damka's tables: the value of a position, every move's value, and the
//! answer under the move-limit rules given the moves already played.
//!
//! - `GET /`: the page (HTML, CSS and JavaScript embedded in the program).
//! - `GET /api/health`: the variants, their piece counts and rule sets.
//! - `GET /api/probe?variant=russian&fen=...&rules=russian&played=R1=9[&pv=true]`:
//!   the object `damka probe --json` prints, with `moves`, every legal move and
//!   the value it leads to ([`json::MoveValueJson`]).
//! - `GET /api/moves?variant=...&fen=...`: the object `damka moves --json` prints.
//! - `GET /api/board?variant=...[&fen=...]`: the board's squares and a position's
//!   pieces; `GET /api/counters?variant=...&rules=...&fen=...`: the counters of a
//!   rule set in force in a position.
//!
//! Errors are JSON, `{"error": ..., "kind": ...}`: 400 for bad input (a malformed
//! FEN, an impossible position, too many pieces, an unknown rule set, a counter
//! not in force), 404 for a missing table, 500 for a corrupt one, 503 when every
//! worker stayed busy. The server is read-only: rule sets are presets chosen by
//! name, and no parameter reaches a file path. [`Limits`] bounds the rest.
#![warn(missing_docs)]

mod assets;
mod board;
mod catalog;
mod counters;
mod error;
pub mod json;
mod limits;
mod move_list;
mod params;
mod probe;
mod routes;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

pub use catalog::{Catalog, RuleSetSummary, VariantSummary};
pub use error::ApiError;
pub use limits::Limits;
pub use routes::router;

/// Why a server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Neither variant has a table in the directory.
    #[error(
        "no tables in {} (expected {}/russian/ or {}/international/; \
         `bash scripts/quickstart.sh` builds the Russian ones)",
        .0.display(), .0.display(), .0.display()
    )]
    NoTables(PathBuf),
    /// A table directory that could not be read.
    #[error(transparent)]
    Probe(#[from] damka_probe::ProbeError),
    /// The address could not be bound, or the connection loop failed.
    #[error("cannot serve: {0}")]
    Io(#[from] std::io::Error),
}

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
