//! Every legal move of a position with the value it leads to, for the side that
//! plays it, sorted as syzygy-tables.info sorts its moves: wins first, the
//! shortest first, then draws, then losses, the longest first; under a rule set,
//! by the value under the rules (win, cursed win, draw, blessed loss, loss,
//! unknown), then by the theoretical value.

use std::cmp::Ordering;

use damka_core::{apply, legal_moves};
use damka_probe::limits::{Counters, RuleSession, RuleTablebase};
use damka_probe::{Position, ProbeError, RuleWdl, Tablebase, Value, Variant};

use crate::json::{MoveJson, MoveRulesJson, MoveValueJson};

/// The rule set a move list is valued under, with the counts played in the
/// position.
pub struct UnderRules<'a, 's, V: Variant> {
    /// The rule tables.
    pub tables: &'a RuleTablebase<V>,
    /// The session the moves are asked in (shared with the position's own
    /// query, whose search states the moves' queries reuse).
    pub session: &'s mut RuleSession<'a, V>,
    /// The counts played in the position.
    pub played: &'a Counters,
}

/// One entry before it is turned into JSON: its sort keys and its answer.
struct Entry {
    value: Value,
    ruled: Option<(Option<RuleWdl>, Option<u16>)>,
    json: MoveValueJson,
}

/// Every legal move of `pos` with its value for the side that plays it, sorted
/// best first (see the module docs).
pub fn move_list<V: Variant>(
    tables: &Tablebase<V>,
    mut rules: Option<UnderRules<'_, '_, V>>,
    pos: &Position<V>,
) -> Result<Vec<MoveValueJson>, ProbeError> {
    let mut entries = Vec::new();
    for mv in legal_moves(pos) {
        let after = apply(pos, &mv);
        let value = tables.probe_value(after)?.back();
        let mut ruled = None;
        let rules_json = match &mut rules {
            None => None,
            Some(under) => {
                let played = under.tables.set().advance(under.played, pos, &mv);
                let outcome = under.session.probe_rules_value(after, &played)?;
                let wdl = outcome.wdl.map(RuleWdl::negate);
                let distance = outcome.distance.map(|d| d.saturating_add(1));
                ruled = Some((wdl, distance));
                Some(MoveRulesJson {
                    wdl: wdl.map_or("unknown", |w| w.name()),
                    rule: outcome.rule,
                    distance,
                    reason: outcome.unknown,
                    played: played.to_string(),
                })
            }
        };
        entries.push(Entry {
            value,
            ruled,
            json: MoveValueJson {
                mv: MoveJson::of(pos, &mv),
                wdl: value.wdl().name(),
                dtw: value.dtw(),
                rules: rules_json,
            },
        });
    }
    entries.sort_by(|a, b| {
        rule_order(a.ruled, b.ruled)
            .then_with(|| theory_order(a.value, b.value))
            .then_with(|| a.json.mv.notation.cmp(&b.json.mv.notation))
    });
    Ok(entries.into_iter().map(|e| e.json).collect())
}

/// Best first for the side to move, by the theoretical value.
fn theory_order(a: Value, b: Value) -> Ordering {
    if a.better_than(b) {
        Ordering::Less
    } else if b.better_than(a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// Best first by the value under the rules: a win (the shortest first), a cursed
/// win, a draw, a blessed loss, a loss (the longest first), and unknown values
/// last. Equal when there are no rules.
fn rule_order(
    a: Option<(Option<RuleWdl>, Option<u16>)>,
    b: Option<(Option<RuleWdl>, Option<u16>)>,
) -> Ordering {
    let key = |ruled: Option<(Option<RuleWdl>, Option<u16>)>| -> (u8, i32) {
        let Some((wdl, distance)) = ruled else {
            return (0, 0);
        };
        let d = i32::from(distance.unwrap_or(0));
        match wdl {
            Some(RuleWdl::Win) => (0, d),
            Some(RuleWdl::CursedWin) => (1, 0),
            Some(RuleWdl::Draw) => (2, 0),
            Some(RuleWdl::BlessedLoss) => (3, 0),
            Some(RuleWdl::Loss) => (4, -d),
            None => (5, 0),
        }
    };
    key(a).cmp(&key(b))
}
