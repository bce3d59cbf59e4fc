//! The JSON answers of Damka: the objects `damka probe --json` and `damka moves
//! --json` print, which the server's API returns too, and the move list with
//! values that only the server adds.
//!
//! Every answer is built by one function here, so the command line and the server
//! cannot drift apart.

use damka_core::{apply, legal_moves, path};
use damka_probe::limits::{Counters, RuleOutcome, RuleSession, RuleTablebase};
use damka_probe::{notation, Move, Position, ProbeError, Tablebase, Variant};
use serde::Serialize;

/// One legal move, as `damka moves --json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveJson {
    /// The square the piece starts on.
    pub from: String,
    /// The square it ends on.
    pub to: String,
    /// The squares of the captured pieces, in board order.
    pub captures: Vec<String>,
    /// Every square the piece stands on, from the first to the last.
    pub path: Vec<String>,
    /// The move in notation (`c3-d4`, `e3:g5:e7`).
    pub notation: String,
    /// The position after the move, in PDN FEN.
    pub after: String,
}

impl MoveJson {
    /// The move `mv`, legal in `pos`.
    pub fn of<V: Variant>(pos: &Position<V>, mv: &Move) -> MoveJson {
        let name = |s: &usize| V::square_name(*s);
        let mut captures: Vec<String> = mv.captured_squares::<V>().iter().map(name).collect();
        captures.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
        MoveJson {
            from: V::square_name(mv.from_square::<V>()),
            to: V::square_name(mv.to_square::<V>()),
            captures,
            path: path(pos, mv).iter().map(name).collect(),
            notation: notation(pos, mv),
            after: apply(pos, mv).to_string(),
        }
    }
}

/// The legal moves of a position, as `damka moves --json` prints them.
#[derive(Debug, Clone, Serialize)]
pub struct MovesJson {
    /// The position as it was given.
    pub fen: String,
    /// Every legal move, in the move generator's order.
    pub moves: Vec<MoveJson>,
}

impl MovesJson {
    /// The moves of `pos`, given as `fen`.
    pub fn of<V: Variant>(fen: &str, pos: &Position<V>) -> MovesJson {
        MovesJson {
            fen: fen.to_string(),
            moves: legal_moves(pos)
                .iter()
                .map(|mv| MoveJson::of(pos, mv))
                .collect(),
        }
    }
}

/// The answer of a probe, as `damka probe --json` prints it; the server adds the
/// move list.
#[derive(Debug, Clone, Serialize)]
pub struct ProbeJson {
    /// The position as it was given.
    pub fen: String,
    /// `win`, `draw` or `loss` for the side to move, with no move-limit rules.
    pub wdl: &'static str,
    /// Plies to the end of the game under best play, for a win or a loss.
    pub dtw: Option<u16>,
    /// A best move in notation, if there is a legal move.
    pub best_move: Option<String>,
    /// Moves to conversion in plies (`formats/FORMAT.md`, "MTC tables"), when
    /// the slice has an MTC table: absent without one, `null` for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mtc: Option<Option<u16>>,
    /// The principal variation in notation, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
    /// The answer under a rule set, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesJson>,
    /// Every legal move with the value it leads to (the server's answer only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveValueJson>>,
}

impl ProbeJson {
    /// The game-theoretic answer for `pos`, given as `fen`; with `with_pv`, the
    /// principal variation too.
    pub fn of<V: Variant>(
        tables: &Tablebase<V>,
        fen: &str,
        pos: &Position<V>,
        with_pv: bool,
    ) -> Result<ProbeJson, ProbeError> {
        let value = tables.probe_value(pos)?;
        let pv = if with_pv {
            Some(line_notation(pos, &tables.pv(pos)?))
        } else {
            None
        };
        Ok(ProbeJson {
            fen: fen.to_string(),
            wdl: value.wdl().name(),
            dtw: value.dtw(),
            best_move: tables.best_move(pos)?.map(|mv| notation(pos, &mv)),
            mtc: match tables.probe_mtc(pos) {
                Ok(mtc) => Some(mtc.distance()),
                Err(ProbeError::MissingTable { .. }) => None,
                Err(other) => return Err(other),
            },
            pv,
            rules: None,
            moves: None,
        })
    }
}

/// The answer under a rule set, the `rules` object of `damka probe --json`.
#[derive(Debug, Clone, Serialize)]
pub struct RulesJson {
    /// The rule set's name.
    pub set: String,
    /// The counts already played, in moves (`R1=4`), as given.
    pub played: String,
    /// `win`, `cursed-win`, `draw`, `blessed-loss`, `loss`, or `unknown`.
    pub wdl: &'static str,
    /// The counter whose limit draws a cursed win or a blessed loss.
    pub rule: Option<String>,
    /// Plies to the end of the current phase, for a win or a loss.
    pub distance: Option<u16>,
    /// The best move under the rules, in notation.
    pub best_move: Option<String>,
    /// Plies to the next zeroing move, where the material has a DTZ table.
    pub dtz: Option<u16>,
    /// Why the answer is unknown, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The principal variation under the rules, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
}

impl RulesJson {
    /// The answer for `pos` under the set of `rules`, with the counts `played`,
    /// asked in `session` (a session of `rules`, which may carry a deadline);
    /// with `with_pv`, the line under the rules too.
    pub fn of<V: Variant>(
        rules: &RuleTablebase<V>,
        session: &mut RuleSession<'_, V>,
        played: &Counters,
        pos: &Position<V>,
        with_pv: bool,
    ) -> Result<RulesJson, ProbeError> {
        let outcome = session.probe_rules(pos, played)?;
        let pv = if with_pv {
            Some(line_notation(pos, &session.pv_rules(pos, played)?))
        } else {
            None
        };
        Ok(RulesJson {
            set: rules.set().name.clone(),
            played: played.to_string(),
            wdl: outcome_name(&outcome),
            rule: outcome.rule,
            distance: outcome.distance,
            best_move: outcome.best_move.map(|mv| notation(pos, &mv)),
            dtz: rules.dtz(pos)?.and_then(|v| v.distance()),
            reason: outcome.unknown,
            pv,
        })
    }
}

/// The name of an outcome's value under the rules, `unknown` when it has none.
pub fn outcome_name(outcome: &RuleOutcome) -> &'static str {
    outcome.wdl.map_or("unknown", |w| w.name())
}

/// One legal move with the value it leads to, for the side that plays it: an
/// entry of the server's move list.
#[derive(Debug, Clone, Serialize)]
pub struct MoveValueJson {
    /// The move, as `damka moves --json` prints it.
    #[serde(flatten)]
    pub mv: MoveJson,
    /// `win`, `draw` or `loss` for the side that plays the move.
    pub wdl: &'static str,
    /// Plies to the end of the game, counting this move, for a win or a loss.
    pub dtw: Option<u16>,
    /// The value under the rules, when a rule set was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<MoveRulesJson>,
}

/// The value a move leads to under a rule set, for the side that plays it.
#[derive(Debug, Clone, Serialize)]
pub struct MoveRulesJson {
    /// `win`, `cursed-win`, `draw`, `blessed-loss`, `loss`, or `unknown`.
    pub wdl: &'static str,
    /// The counter whose limit draws a cursed win or a blessed loss.
    pub rule: Option<String>,
    /// Plies to the end of the phase, counting this move, for a win or a loss.
    pub distance: Option<u16>,
    /// Why the value is unknown, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The counts after the move (`R1=5`): what to give with the position after
    /// it.
    pub played: String,
}

/// The notation of each move of `line`, played from `pos`.
pub fn line_notation<V: Variant>(pos: &Position<V>, line: &[Move]) -> Vec<String> {
    let mut current = *pos;
    line.iter()
        .map(|mv| {
            let text = notation(&current, mv);
            current = apply(&current, mv);
            text
        })
        .collect()
}
