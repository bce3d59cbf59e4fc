//! The C ABI of Damka: open a directory of tables, probe positions given as FEN
//! or as bitboards, probe under the move-limit draw rules, and name the errors.
//!
//! The header `include/damka.h` is generated from this crate by cbindgen (see
//! `cbindgen.toml`; `tests/header.rs` fails when the checked-in header is stale).
//! The library is built as `libdamka_ffi.so` (cdylib) and `libdamka_ffi.a`
//! (staticlib); the rlib lets Rust tests call the same functions.
//!
//! Every function catches panics (module `guard`), so that a Rust panic never crosses
//! into C: it comes back as [`DAMKA_ERR_PANIC`]. A handle is `Send + Sync`: any
//! number of threads may probe one handle at once.
#![warn(missing_docs)]

mod error;
mod guard;
mod handle;
mod last_error;
mod layout;
mod open;
mod probe;
mod rules;
mod text;

pub use error::*;
pub use handle::damka_tb;
pub use last_error::damka_last_error;
pub use open::{damka_close, damka_max_pieces, damka_open};
pub use probe::{damka_probe_bits, damka_probe_fen, damka_probe_wdl_bits, damka_result};
pub use rules::{damka_probe_rules_fen, damka_rules_result};
