//! Damka's generator: retrograde analysis of every slice up to a number of pieces,
//! table writing, and verification of built tables.
#![warn(missing_docs)]

mod best;
mod block_file;
pub mod budget;
pub mod build;
pub mod checkpoint;
pub mod compact;
mod counted;
mod dtc;
pub mod error;
pub mod exits;
pub(crate) mod kings;
mod layers;
pub mod mtc;
pub mod plan;
pub mod progress;
mod rule_reads;
pub mod rules;
mod scratch;
pub mod solve;
mod spare;
mod spill;
pub mod store;
mod streamed;
pub mod values;
pub mod verify;
pub mod verify_compact;
mod verify_counted;
pub mod verify_mtc;
pub mod verify_rules;
mod zeroing;

pub use build::{build, BuildOptions, BuildReport, BuiltGroup};
pub use error::GenError;
pub use mtc::build_mtc;
pub use progress::{OnProgress, Progress};
pub use rules::{build_rules, check_rule_budget, RuleBuildOptions};
