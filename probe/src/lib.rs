//! Damka's rules and probing: legal move generation for both variants, move
//! notation and perft.
#![warn(missing_docs)]

pub mod movegen;
pub mod moves;
pub mod perft;

pub use movegen::{generate, has_capture, legal_moves};
pub use moves::{apply, notation, parse_move, path, Move, MoveParseError};
pub use perft::perft;
