//! `damka serve`: the web page and JSON API over a table directory.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use damka_server::{Limits, VariantSummary};

/// Arguments of `damka serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The tables' root directory (`<dir>/russian/`, `<dir>/international/`).
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Probes computed at once (default: one per core).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Milliseconds the rule searches of one probe may run before they give up
    /// and answer "unknown: time limit".
    #[arg(long, default_value_t = 10000)]
    pub time_limit_ms: u64,
}

/// Serves until Ctrl-C.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let defaults = Limits::default();
    let limits = Limits {
        workers: args.workers.unwrap_or(defaults.workers).max(1),
        time_limit: Duration::from_millis(args.time_limit_ms),
        ..defaults
    };
    damka_server::serve(&args.dir, args.addr, limits, |addr, variants| {
        for variant in variants {
            eprintln!("damka serve: {}", describe(variant));
        }
        eprintln!("damka serve: listening on http://{addr}/ (Ctrl-C stops)");
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `russian: 2 to 4 pieces (40 slices); rule tables: russian up to 4 pieces`.
fn describe(variant: &VariantSummary) -> String {
    let low = variant.pieces.first().copied().unwrap_or(0);
    let rules: Vec<String> = variant
        .rule_sets
        .iter()
        .filter(|set| set.slices > 0)
        .map(|set| format!("{} up to {} pieces", set.name, set.max_pieces))
        .collect();
    let rules = if rules.is_empty() {
        "none".to_string()
    } else {
        rules.join(", ")
    };
    format!(
        "{}: {low} to {} pieces ({} slices); rule tables: {rules}",
        variant.variant, variant.max_pieces, variant.slices
    )
}
