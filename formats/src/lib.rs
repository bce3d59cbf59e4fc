//! Damka's shared vocabulary: board geometry, squares and PDN notation, positions,
//! material slices, combinatorial indexing and the on-disk table format.
//!
//! Nothing here knows the rules of play; those live in `damka-probe`.
#![warn(missing_docs)]

pub mod error;
pub mod fen;
pub mod position;
pub mod variant;

pub use error::{FenError, PositionError};
pub use fen::{parse_fen, to_fen};
pub use position::{Bits, Color, Material, PieceKind, Position};
pub use variant::{International, Russian, Variant, VariantKind};
