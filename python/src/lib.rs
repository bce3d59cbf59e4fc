//! The Python package `damka`: Damka's endgame tables of Russian and International
//! draughts from Python, built with PyO3 and maturin (`pip install ./python`).
//!
//! - [`Tablebase`](tables::Tablebase): `probe`, `probe_many` (which releases the
//!   GIL and probes on all cores), `probe_rules`, `pv`, `max_pieces`.
//! - [`moves`](play::moves) and [`perft`](play::perft): the move generator.
//! - Errors: `ValueError` for bad input (a FEN, a variant, a rule set, played
//!   counts), and the `TableError` family for table problems ([`errors`]).
//!
//! The type stubs are `damka.pyi` beside this crate's `Cargo.toml`.
#![warn(missing_docs)]

mod answers;
mod errors;
mod play;
mod tables;
mod variant;

use pyo3::prelude::*;

/// The module `damka`.
#[pymodule]
fn damka(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<tables::Tablebase>()?;
    m.add_class::<answers::Probe>()?;
    m.add_class::<answers::RulesProbe>()?;
    m.add_function(wrap_pyfunction!(play::moves, m)?)?;
    m.add_function(wrap_pyfunction!(play::perft, m)?)?;
    errors::register(m)?;
    Ok(())
}
