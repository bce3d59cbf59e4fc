//! The rule probe in the materials of a counter with a position condition (R3):
//! the value of a (position, counts) state read from the counted DTC table
//! (`super::counted` defines it), the value of each move one ply on, and the
//! answer of [`RuleTablebase::probe_rules`] there.

use damka_core::movegen::legal_moves;
use damka_core::moves::{apply, Move};
use damka_core::{Position, Variant};
use damka_formats::{table::ValueKind, Dtc, RuleWdl, Wdl};

use super::counted::Counted;
use super::phase::is_exit;
use super::ruleset::Counts;
use super::search::RuleOutcome;
use super::tables::RuleTablebase;
use crate::error::ProbeError;

impl<V: Variant> RuleTablebase<V> {
    /// The stored `D` of `pos` (White to move or not) in state `sheet` of its
    /// material's counted table.
    fn counted_stored(
        &self,
        pos: &Position<V>,
        plan: &Counted,
        sheet: u32,
    ) -> Result<Dtc, ProbeError> {
        let white = damka_core::white_to_move(pos);
        let slice = damka_core::Slice::of(&white)
            .map_err(|e| ProbeError::InvalidPosition(e.to_string()))?;
        let raw = self.raw_entry(slice, ValueKind::CountedDtc, &white, plan.sheets(), sheet)?;
        Ok(Dtc::from_raw(raw))
    }

    /// The value under the rules, for its side to move, of `pos` with `counts`
    /// in a material with a counted table: a loss in 0 when it has no legal move
    /// (every stored state of such a position says so), a draw when a limit is
    /// reached, else the stored `D` decided by the budget.
    #[doc(hidden)]
    pub fn counted_value(&self, pos: &Position<V>, counts: &Counts) -> Result<Dtc, ProbeError> {
        if pos.pieces(pos.side()) == 0 {
            return Ok(Dtc::loss(0));
        }
        let plan = self
            .counted_plan(pos.material())?
            .ok_or_else(|| unsupported(pos))?;
        if self.set().limit_reached_at(counts, pos).is_some() {
            let stuck = self.counted_stored(pos, plan, 0)? == Dtc::loss(0);
            return Ok(if stuck { Dtc::loss(0) } else { Dtc::DRAW });
        }
        let holds = plan.cond_holds(self.set(), pos);
        let stored = self.counted_stored(pos, plan, plan.sheet_of(counts, holds))?;
        Ok(plan.decide(stored, counts))
    }

    /// The value, for the side that plays it, of the legal move `mv` from `pos`
    /// with `counts` in a counted material: a conversion ends the sub-phase one ply
    /// later with the value of the position it reaches (from the RWDL table at an
    /// exit, else under the counts it leaves running); any other move is worth the
    /// state it reaches, one ply further.
    #[doc(hidden)]
    pub fn counted_move(
        &self,
        pos: &Position<V>,
        counts: &Counts,
        mv: &Move,
    ) -> Result<Dtc, ProbeError> {
        let after = apply(pos, mv);
        if after.pieces(after.side()) == 0 {
            return Ok(Dtc::win(1));
        }
        let value = if is_exit(self.set(), pos, mv, &after) {
            match self.rwdl(&after)?.ruled() {
                Wdl::Win => Dtc::win(0),
                Wdl::Draw => Dtc::DRAW,
                Wdl::Loss => Dtc::loss(0),
            }
        } else {
            let next = self.set().advance_counts(counts, pos, mv, &after);
            let value = self.counted_value(&after, &next)?;
            if mv.is_capture() || mv.is_promotion() {
                Dtc::new(value.wdl(), 0)
            } else {
                value
            }
        };
        Ok(value.back())
    }

    /// The counter that draws a theoretical result of `pos` with `counts` in a
    /// layered material (no conditional counter), named as the search names it:
    /// where the phase has no won exit at all (a DTC draw), the counter in force
    /// nearest its limit; where the phase is longer than the unbreakable counters
    /// allow even with no other limit (the DTC distance over their budget), the
    /// unbreakable counter with the least budget; else the layer counter with the
    /// least budget, without which the win would stand.
    fn layered_binding(
        &self,
        pos: &Position<V>,
        plan: &Counted,
        counts: &Counts,
    ) -> Result<usize, ProbeError> {
        let dtc = self.dtc(pos)?;
        let set = self.set();
        let material = pos.material();
        let left = |i: usize| {
            set.counters[i]
                .limit_plies(&material)
                .map_or(u32::MAX, |l| l.saturating_sub(counts[i]))
        };
        let nearest = |ids: &mut dyn Iterator<Item = usize>| ids.min_by_key(|&i| left(i));
        let unbreakable = plan.unbreakable_counters();
        let named = match dtc.distance() {
            None => nearest(
                &mut (0..set.counters.len())
                    .filter(|&i| set.counters[i].draws && set.counters[i].applies_at(pos)),
            ),
            Some(d) if u32::from(d) > plan.budget(counts) => {
                nearest(&mut unbreakable.iter().copied())
            }
            Some(_) => None,
        };
        Ok(named
            .unwrap_or_else(|| nearest(&mut plan.layer_counters().iter().copied()).unwrap_or(0)))
    }

    /// [`RuleTablebase::probe_rules`] in a material with a counted table, for a
    /// state with a legal move and no limit reached: the stored value, the counter
    /// that draws a theoretical result, and a best move from a one-ply search over
    /// the stored values of the successors.
    pub(super) fn probe_counted(
        &self,
        pos: &Position<V>,
        counts: &Counts,
        outcome: &mut RuleOutcome,
    ) -> Result<(), ProbeError> {
        let value = self.counted_value(pos, counts)?;
        let ruled = value.wdl();
        outcome.wdl = Some(RuleWdl::of(outcome.theory, ruled));
        outcome.distance = value.distance();
        if ruled == Wdl::Draw && outcome.theory != Wdl::Draw {
            let plan = self
                .counted_plan(pos.material())?
                .ok_or_else(|| unsupported(pos))?;
            let i = if plan.cond().is_some() {
                let holds = plan.cond_holds(self.set(), pos);
                let layer = plan.layer_count(counts);
                let stored = self.counted_stored(pos, plan, plan.sheet_of(counts, holds))?;
                let relaxed = self.counted_stored(pos, plan, plan.sheet(layer, 0))?;
                plan.binding(stored, relaxed, counts, holds)
            } else {
                self.layered_binding(pos, plan, counts)?
            };
            outcome.rule = Some(self.set().counters[i].id.clone());
        }
        let mut best: Option<(Move, damka_formats::Value)> = None;
        for mv in legal_moves(pos) {
            if self.counted_move(pos, counts, &mv)? != value {
                continue;
            }
            if ruled == Wdl::Loss {
                best = Some((mv, damka_formats::Value::DRAW));
                break;
            }
            let theory = self.tablebase().probe_value(apply(pos, &mv))?.back();
            if best.is_none_or(|(_, b)| theory.better_than(b)) {
                best = Some((mv, theory));
            }
        }
        outcome.best_move = best.map(|(mv, _)| mv);
        Ok(())
    }
}

/// The error for a conversion that keeps a counter running into a material the
/// counted tables do not cover (a custom set outside the model of the module docs).
fn unsupported<V: Variant>(pos: &Position<V>) -> ProbeError {
    ProbeError::InvalidRuleSet(format!(
        "the rule set keeps a counter running into {pos}, whose material has no counted \
         rule table"
    ))
}
