//! `damka serve`: a web page with a board, and the JSON API behind it, answering
//! from Damka's tables: the value of a position, every move's value, and the
//! answer under the move-limit rules given the moves already played.
//!
//! - `GET /`: the page (HTML, CSS and JavaScript embedded in the program).
//! - `GET /api/health`: the variants, their piece counts and rule sets.
//! - `GET /api/probe?variant=russian&fen=...&rules=russian&played=R1=9[&pv=true]`:
//!   the object `damka probe --json` prints, with `moves`, every legal move and
//!   the value it leads to ([`json::MoveValueJson`]).
//! - `GET /api/moves?variant=...&fen=...`: the object `damka moves --json` prints.
//! - `GET /api/board?variant=...[&fen=...]`: the board's squares and a position's
//!   pieces; `GET /api/counters?variant=...&rules=...&fen=...`: the counters of a
//!   rule set in force in a position.
//!
//! Errors are JSON, `{"error": ..., "kind": ...}`: 400 for bad input (a malformed
//! FEN, an impossible position, too many pieces, an unknown rule set, a counter
//! not in force), 404 for a missing table, 500 for a corrupt one, 503 when every
//! worker stayed busy. The server is read-only: rule sets are presets chosen by
//! name, and no parameter reaches a file path. [`Limits`] bounds the rest.
#![warn(missing_docs)]

mod assets;
mod board;
mod catalog;
mod counters;
mod error;
pub mod json;
mod limits;
mod move_list;
mod params;
mod probe;
mod routes;
mod serve;

pub use catalog::{Catalog, RuleSetSummary, VariantSummary};
pub use error::{ApiError, ServeError};
pub use limits::Limits;
pub use routes::router;
pub use serve::serve;
