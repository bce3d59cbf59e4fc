//! The move generator from Python: legal moves and perft.

use damka_core::{legal_moves, notation, perft as count_leaves, Position};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::variant::{parse_variant, with_variant};

/// The legal moves of the position `fen` of `variant`, in the variant's notation.
#[pyfunction]
pub fn moves(variant: &str, fen: &str) -> PyResult<Vec<String>> {
    with_variant!(parse_variant(variant)?, V => {
        let pos: Position<V> = parse(fen)?;
        Ok(legal_moves(&pos).iter().map(|mv| notation(&pos, mv)).collect())
    })
}

/// The number of positions reached after exactly `depth` plies of legal moves
/// from `fen` (capture routes that differ only in path counted once). Releases
/// the GIL while it counts.
#[pyfunction]
pub fn perft(py: Python<'_>, variant: &str, fen: &str, depth: u32) -> PyResult<u64> {
    with_variant!(parse_variant(variant)?, V => {
        let pos: Position<V> = parse(fen)?;
        Ok(py.detach(|| count_leaves(&pos, depth)))
    })
}

/// Reads a FEN; a `ValueError` with the reason when it cannot.
fn parse<V: damka_core::Variant>(fen: &str) -> PyResult<Position<V>> {
    fen.parse()
        .map_err(|e| PyValueError::new_err(format!("bad FEN: {e}")))
}
