//! Damka's core: board geometry and square notation of both variants, positions and
//! FEN, the rules of play (legal moves, captures, perft), material slices and the
//! hole-free combinatorial index of their positions.
//!
//! This crate has no I/O: an engine that needs only the move generator depends on
//! it alone. (Its one other dependency, `memmap2`, gives [`huge`] arrays anonymous
//! memory, not files.)
#![warn(missing_docs)]

#[doc(hidden)]
pub mod binomial;
pub mod color;
#[doc(hidden)]
pub mod dense;
pub mod enumerate;
pub mod error;
pub mod fen;
#[doc(hidden)]
pub mod huge;
pub mod index;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
#[doc(hidden)]
pub mod prefetch;
#[doc(hidden)]
pub mod rays;
pub mod slice;
pub mod subslice;
pub mod variant;
#[doc(hidden)]
pub mod walk;

pub use color::Color;
pub use enumerate::{build_order, closure, dependencies, summaries, SliceSummary};
pub use error::{FenError, IndexError, PositionError, SliceError};
pub use fen::{parse_fen, to_fen};
pub use index::SliceIndexer;
pub use movegen::{generate, has_capture, legal_moves};
pub use moves::{apply, notation, parse_move, path, write_notation, Move, MoveParseError};
pub use perft::perft;
pub use position::{Bits, Material, PieceKind, Position};
pub use slice::{white_to_move, Slice};
pub use subslice::{advancement, MenIndices, MenPlacement, SubSlice};
pub use variant::{International, Russian, Variant, VariantKind};
#[doc(hidden)]
pub use walk::{BlockRanks, BlockWalk, IndexWalk};
