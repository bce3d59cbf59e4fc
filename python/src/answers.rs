//! The answers a probe returns: small immutable objects with named fields.

use pyo3::prelude::*;

/// The answer to `Tablebase.probe`, for the side to move.
#[pyclass(module = "damka", frozen, get_all, eq)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// 1 win, 0 draw, -1 loss.
    pub wdl: i32,
    /// Plies to the end of the game under best play; `None` for a draw.
    pub dtw: Option<u32>,
    /// A best move in the variant's notation; `None` with no legal move.
    pub best_move: Option<String>,
}

#[pymethods]
impl Probe {
    fn __repr__(&self) -> String {
        format!(
            "Probe(wdl={}, dtw={}, best_move={})",
            self.wdl,
            optional(&self.dtw),
            optional(&self.best_move.as_ref().map(|m| format!("'{m}'")))
        )
    }
}

/// The answer to `Tablebase.probe_rules`, for the side to move.
#[pyclass(module = "damka", frozen, get_all, eq)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesProbe {
    /// 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss, -3 unknown (as in C).
    pub value: i32,
    /// `win`, `cursed-win`, `draw`, `blessed-loss`, `loss` or `unknown` (as
    /// `damka probe --json` prints it).
    pub name: String,
    /// For a cursed win or a blessed loss, the counter whose limit draws the game.
    pub rule: Option<String>,
    /// For a win or a loss, plies to the end of the current phase under best play.
    pub distance: Option<u32>,
    /// The move that keeps the result under the rules; `None` if none.
    pub best_move: Option<String>,
    /// For `unknown`, why the answer could not be made exact.
    pub reason: Option<String>,
}

#[pymethods]
impl RulesProbe {
    fn __repr__(&self) -> String {
        let quoted = |s: &Option<String>| optional(&s.as_ref().map(|s| format!("'{s}'")));
        format!(
            "RulesProbe(value={}, name='{}', rule={}, distance={}, best_move={}, reason={})",
            self.value,
            self.name,
            quoted(&self.rule),
            optional(&self.distance),
            quoted(&self.best_move),
            quoted(&self.reason)
        )
    }
}

/// `None` or the value, as Python prints it.
fn optional<T: std::fmt::Display>(value: &Option<T>) -> String {
    value
        .as_ref()
        .map_or_else(|| "None".to_string(), |v| v.to_string())
}
