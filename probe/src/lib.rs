//! Probing Damka's endgame tables of Russian and International draughts: the value
//! of a position (win, draw or loss), its distance to win (DTW), a best move and
//! the principal variation, and the answer under the official move-limit draw
//! rules ([`limits`]) given the moves already played.
//!
//! A [`Tablebase`] is `Send + Sync`: share one between threads. Tables are
//! memory-mapped and opened on first use; decoded blocks are kept in a cache with a
//! byte budget ([`Tablebase::open_with_cache`]).
//!
//! The README's embedding program (`examples/embedding.rs`; `tests/embedding.rs`
//! runs it on real tables, and this doctest compiles it):
//!
#![doc = concat!("```no_run\n", include_str!("../../examples/embedding.rs"), "```")]
#![warn(missing_docs)]

mod cache;
mod error;
pub mod limits;
mod paged;
mod query;
mod slice_table;
mod slots;
mod table;
mod tablebase;

pub use damka_core::{notation, International, Move, Position, Russian, Variant, VariantKind};
pub use damka_formats::{RuleWdl, Value, Wdl};
pub use error::ProbeError;
pub use query::Query;
pub use slots::MAX_PIECES;
pub use tablebase::{Tablebase, DEFAULT_CACHE_BYTES, PV_DRAW_PLIES};

#[doc(hidden)]
pub use cache::BlockCache;
#[doc(hidden)]
pub use paged::{PageBudget, PAGE_SLOT_BYTES};
#[doc(hidden)]
pub use slice_table::SliceTable;
