//! Damka's rules and probing: legal move generation for both variants, move
//! notation, perft, and the tablebase probe API.
#![warn(missing_docs)]

pub mod cache;
pub mod error;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod rules;
pub mod table;
pub mod tablebase;

pub use error::ProbeError;
pub use movegen::{generate, has_capture, legal_moves};
pub use moves::{apply, notation, parse_move, path, Move, MoveParseError};
pub use perft::perft;
pub use tablebase::{SliceTable, Tablebase, DEFAULT_CACHE_BYTES, MAX_PIECES};
