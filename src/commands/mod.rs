//! One module per subcommand; each exposes its clap arguments and a `run` function.

pub mod bars;
pub mod compact;
pub mod gen;
pub mod input;
pub mod moves;
pub mod perft;
pub mod plan;
pub mod probe;
pub mod rules;
pub mod serve;
pub mod slices;
pub mod stats;
pub mod verify;

/// The tables a command builds, checks or counts, beside the game-theoretic
/// WDL and DTW tables every command reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// Distance to win: the WDL and DTW tables.
    Dtw,
    /// Moves to conversion: the MTC tables (`formats/FORMAT.md`, "MTC tables").
    Mtc,
}

/// Sizes rayon's global pool: `threads` workers, or one per core.
pub fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()?;
    }
    Ok(())
}
