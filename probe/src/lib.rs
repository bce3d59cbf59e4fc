//! Damka's rules and probing: legal move generation for both variants, move
//! notation, perft, and the tablebase probe API.
#![warn(missing_docs)]

pub mod cache;
pub mod error;
pub mod rules;
pub mod table;
pub mod tablebase;

pub use error::ProbeError;
pub use tablebase::{SliceTable, Tablebase, DEFAULT_CACHE_BYTES, MAX_PIECES};
