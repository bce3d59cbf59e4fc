//! Damka's shared vocabulary: board geometry, squares and PDN notation, positions,
//! material slices, combinatorial indexing and the on-disk table format.
//!
//! Nothing here knows the rules of play; those live in `damka-probe`.
#![warn(missing_docs)]

pub mod binomial;
pub mod dense;
pub mod enumerate;
pub mod error;
pub mod fen;
pub mod index;
pub mod position;
pub mod slice;
pub mod subslice;
pub mod table;
pub mod value;
pub mod variant;
pub mod walk;

pub use enumerate::{build_order, dependencies, summaries, SliceSummary};
pub use error::{FenError, IndexError, PositionError, SliceError};
pub use fen::{parse_fen, to_fen};
pub use index::SliceIndexer;
pub use position::{Bits, Color, Material, PieceKind, Position};
pub use slice::{white_to_move, Slice};
pub use subslice::{advancement, MenIndices, MenPlacement, SubSlice};
pub use value::{Dtc, RuleWdl, Value, Wdl};
pub use variant::{International, Russian, Variant, VariantKind};
pub use walk::{BlockRanks, BlockWalk};
