//! One module per subcommand; each exposes its clap arguments and a `run` function.

pub mod bars;
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

/// Sizes rayon's global pool: `threads` workers, or one per core.
pub fn set_threads(threads: Option<usize>) -> anyhow::Result<()> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()?;
    }
    Ok(())
}
