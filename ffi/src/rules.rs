//! Probing a position under a rule set of move-limit draw rules.

use std::ffi::{c_char, c_int};
use std::fmt::Write;

use damka_core::write_notation;
use damka_probe::limits::{RuleAnswer, RuleTablebase};
use damka_probe::{Position, ProbeError, Variant};

use crate::error::{Failure, DAMKA_ERR_UNKNOWN};
use crate::guard::guard;
use crate::handle::{damka_tb, handle, with_tables};
use crate::probe::null_out;
use crate::text::{arg, FixedText};

/// The answer to a probe under a rule set, for the side to move.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct damka_rules_result {
    /// 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss, -3 unknown (the
    /// tables and a bounded search could not make the answer exact).
    pub value: i32,
    /// For a cursed win or a blessed loss, the counter whose limit draws the game
    /// (`R1`), NUL-terminated; empty otherwise.
    pub rule: [c_char; 16],
    /// For a win or a loss, plies to the end of the current phase under best play
    /// (the next capture or other conversion after which every counter starts
    /// afresh); 0 otherwise.
    pub distance: i32,
    /// The move that keeps the win inside the limits; for a loss, the longest
    /// defence; for a draw, a move that keeps it. NUL-terminated; empty if none.
    pub best_move: [c_char; 64],
}

/// The answer for `pos` with the counts `played` (text such as `R1=4,R4=2.5`).
fn answer<V: Variant>(
    rules: &RuleTablebase<V>,
    pos: Position<V>,
    played: &str,
) -> Result<damka_rules_result, Failure> {
    let played = rules.set().parse_counters(played)?;
    let outcome = rules.probe_rules(pos, &played)?;
    let mut result = damka_rules_result {
        value: 0,
        rule: [0; 16],
        distance: 0,
        best_move: [0; 64],
    };
    let mut rule = None;
    (result.value, result.distance) = match outcome.answer() {
        RuleAnswer::Win { distance } => (2, distance.into()),
        RuleAnswer::CursedWin { rule: r } => {
            rule = Some(r);
            (1, 0)
        }
        RuleAnswer::Draw => (0, 0),
        RuleAnswer::BlessedLoss { rule: r } => {
            rule = Some(r);
            (-1, 0)
        }
        RuleAnswer::Loss { distance } => (-2, distance.into()),
        RuleAnswer::Unknown { .. } => (-3, 0),
        other => {
            return Err(Failure::new(
                DAMKA_ERR_UNKNOWN,
                format!("a rule answer this library cannot give to C: {other}"),
            ))
        }
    };
    if let Some(rule) = rule {
        FixedText::fill(&mut result.rule, "the rule's name", |text| {
            text.write_str(&rule)
        })?;
    }
    if let Some(mv) = outcome.best_move {
        FixedText::fill(&mut result.best_move, "the best move", |text| {
            write_notation(&pos, &mv, text)
        })?;
    }
    Ok(result)
}

/// Probes a position given as PDN FEN under the rule set `rule_set` — a preset
/// (`"russian"`, `"russian-1900"`, `"fmjd"`, `"none"`) or the path of a TOML file
/// — given the moves of each counter already played (`played`, as `"R1=4"` or
/// `"R1=9.5,R4=3"`; NULL or `""` for none). Needs the set's rule tables (`damka gen
/// --rules SET`). Each set is opened on its first use and kept with the handle.
/// Returns 0 and fills `out`, or a negative `DAMKA_ERR_*` code and leaves `out`
/// untouched.
///
/// # Safety
///
/// `tb` must be NULL or a handle from `damka_open` not yet closed; `fen`,
/// `rule_set` and `played` NULL or NUL-terminated strings; `out` NULL or a
/// writable `damka_rules_result`.
#[no_mangle]
pub unsafe extern "C" fn damka_probe_rules_fen(
    tb: *mut damka_tb,
    fen: *const c_char,
    rule_set: *const c_char,
    played: *const c_char,
    out: *mut damka_rules_result,
) -> c_int {
    guard(|| {
        // SAFETY: the caller's contract, passed on.
        let (tb, fen, rule_set) =
            unsafe { (handle(tb)?, arg(fen, "fen")?, arg(rule_set, "rule_set")?) };
        let played = if played.is_null() {
            ""
        } else {
            // SAFETY: NUL-terminated by the caller's contract.
            unsafe { arg(played, "played")? }
        };
        if out.is_null() {
            return Err(null_out());
        }
        let result = with_tables!(tb, t => {
            let pos = fen.parse().map_err(ProbeError::Fen)?;
            answer(&*t.rules(rule_set)?, pos, played)?
        });
        // SAFETY: `out` is non-NULL, so writable by the caller's contract.
        unsafe { out.write(result) };
        Ok(0)
    })
}
