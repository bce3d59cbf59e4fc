//! Damka's table files: game-theoretic values and their codes, and the versioned,
//! checksummed, block-compressed file format (`formats/FORMAT.md`).
#![warn(missing_docs)]

pub mod table;
pub mod value;

pub use value::{Dtc, RuleWdl, Value, Wdl};
