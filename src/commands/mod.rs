//! One module per subcommand; each exposes its clap arguments and a `run` function.

pub mod input;
pub mod moves;
pub mod perft;
pub mod slices;
