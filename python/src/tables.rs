//! `damka.Tablebase`: a directory of tables of one variant, and its probes.

use std::collections::BTreeMap;
use std::path::PathBuf;

use damka_core::{apply, notation, Move};
use damka_probe::limits::{RuleAnswer, RuleTablebase};
use damka_probe::{Position, ProbeError, Tablebase as Tables, Variant, Wdl};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::answers::{Probe, RulesProbe};
use crate::errors::{counters_error, probe_error};
use crate::variant::{parse_variant, with_tables, AnyTables};

/// The tables of one variant under a directory, as `damka gen --dir DIR` writes
/// them (`DIR/<variant>/`). Safe to share between threads.
#[pyclass(module = "damka", frozen)]
pub struct Tablebase {
    tables: AnyTables,
    dir: PathBuf,
    variant: &'static str,
}

/// The answer for the position `fen`.
fn probe_fen<V: Variant>(tb: &Tables<V>, fen: &str) -> Result<Probe, ProbeError> {
    let pos: Position<V> = fen.parse()?;
    let value = tb.probe_value(pos)?;
    Ok(Probe {
        wdl: match value.wdl() {
            Wdl::Win => 1,
            Wdl::Draw => 0,
            Wdl::Loss => -1,
        },
        dtw: value.dtw().map(u32::from),
        best_move: tb.best_move(pos)?.map(|mv| notation(&pos, &mv)),
    })
}

/// The notation of each move of `line`, played from `pos`.
fn line_notation<V: Variant>(pos: Position<V>, line: &[Move]) -> Vec<String> {
    let mut current = pos;
    line.iter()
        .map(|mv| {
            let text = notation(&current, mv);
            current = apply(&current, mv);
            text
        })
        .collect()
}

/// The played counts as `damka probe --played` reads them: `R1=4,R4=2.5`.
fn played_text(played: &BTreeMap<String, f64>) -> PyResult<String> {
    let mut items = Vec::new();
    for (id, &moves) in played {
        let plies = moves * 2.0;
        if !(0.0..=f64::from(u32::MAX)).contains(&plies) || plies.fract() != 0.0 {
            return Err(PyValueError::new_err(format!(
                "bad played counts: {id}={moves} is not a whole number of moves, \
                 or one ending in .5"
            )));
        }
        let plies = plies as u64;
        let half = if plies % 2 == 1 { ".5" } else { "" };
        items.push(format!("{id}={}{half}", plies / 2));
    }
    Ok(items.join(","))
}

/// The rule answer for `fen`.
fn probe_rules_fen<V: Variant>(
    rules: &RuleTablebase<V>,
    fen: &str,
    played: &str,
) -> PyResult<RulesProbe> {
    let played = rules.set().parse_counters(played).map_err(counters_error)?;
    let pos: Position<V> = fen.parse().map_err(|e| probe_error(ProbeError::Fen(e)))?;
    let outcome = rules.probe_rules(pos, &played).map_err(probe_error)?;
    let value = match outcome.answer() {
        RuleAnswer::Win { .. } => 2,
        RuleAnswer::CursedWin { .. } => 1,
        RuleAnswer::Draw => 0,
        RuleAnswer::BlessedLoss { .. } => -1,
        RuleAnswer::Loss { .. } => -2,
        _ => -3,
    };
    Ok(RulesProbe {
        value,
        name: outcome.wdl.map_or("unknown", |w| w.name()).to_string(),
        rule: outcome.rule.clone(),
        distance: outcome.distance.map(u32::from),
        best_move: outcome.best_move.map(|mv| notation(&pos, &mv)),
        reason: outcome.unknown.clone(),
    })
}

#[pymethods]
impl Tablebase {
    /// Opens the tables of `variant` (`"russian"` or `"international"`) under
    /// `dir`. Raises `MissingTableError` when there are none.
    #[new]
    fn new(dir: PathBuf, variant: &str) -> PyResult<Tablebase> {
        let kind = parse_variant(variant)?;
        let tables = AnyTables::open(&dir, kind).map_err(probe_error)?;
        Ok(Tablebase {
            tables,
            dir,
            variant: kind.name(),
        })
    }

    /// The most pieces of any table present.
    #[getter]
    fn max_pieces(&self) -> u32 {
        with_tables!(&self.tables, t => t.tablebase.max_pieces())
    }

    /// The value, distance to win and a best move of the position `fen`.
    fn probe(&self, fen: &str) -> PyResult<Probe> {
        with_tables!(&self.tables, t => probe_fen(&t.tablebase, fen)).map_err(probe_error)
    }

    /// Probes every FEN of `fens` on all cores, without the GIL. Returns a dict of
    /// three lists in the order of `fens`: `wdl`, `dtw` and `best_move` (ready for
    /// `pandas.DataFrame`). Raises for the first position that has no answer,
    /// naming it.
    fn probe_many<'py>(&self, py: Python<'py>, fens: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
        let answers: Vec<Result<Probe, ProbeError>> = py.detach(|| {
            with_tables!(&self.tables, t => fens
                .par_iter()
                .map(|fen| probe_fen(&t.tablebase, fen))
                .collect())
        });
        let mut wdl = Vec::with_capacity(answers.len());
        let mut dtw = Vec::with_capacity(answers.len());
        let mut best_move = Vec::with_capacity(answers.len());
        for (i, answer) in answers.into_iter().enumerate() {
            let probe = answer.map_err(|error| {
                let err = probe_error(error);
                let message = format!("position {i} (`{}`): {}", fens[i], err.value(py));
                PyErr::from_type(err.get_type(py), message)
            })?;
            wdl.push(probe.wdl);
            dtw.push(probe.dtw);
            best_move.push(probe.best_move);
        }
        let out = PyDict::new(py);
        out.set_item("wdl", wdl)?;
        out.set_item("dtw", dtw)?;
        out.set_item("best_move", best_move)?;
        Ok(out)
    }

    /// The value of `fen` under a rule set of move-limit draw rules — a preset
    /// (`"russian"`, `"russian-1900"`, `"fmjd"`, `"none"`) or a TOML file — given
    /// the moves of each counter already played (`{"R1": 4}`; `4.5` for one ply
    /// more). Needs the set's rule tables (`damka gen --rules SET`).
    #[pyo3(signature = (fen, rule_set = "russian", played = None))]
    fn probe_rules(
        &self,
        py: Python<'_>,
        fen: &str,
        rule_set: &str,
        played: Option<BTreeMap<String, f64>>,
    ) -> PyResult<RulesProbe> {
        let played = played_text(&played.unwrap_or_default())?;
        py.detach(
            || with_tables!(&self.tables, t => probe_rules_fen(&*t.rules(rule_set)?, fen, &played)),
        )
    }

    /// The principal variation of `fen`: best moves to the end of the game (for a
    /// draw, its first moves), in the variant's notation.
    fn pv(&self, fen: &str) -> PyResult<Vec<String>> {
        with_tables!(&self.tables, t => {
            let pos = fen.parse().map_err(|e| probe_error(ProbeError::Fen(e)))?;
            let line = t.tablebase.pv(pos).map_err(probe_error)?;
            Ok(line_notation(pos, &line))
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase({:?}, {:?})",
            self.dir.display().to_string(),
            self.variant
        )
    }
}
