//! Verification of the counted DTC tables (`damka verify --rules SET`): every
//! stored `D(p, c, k)` re-derived from the successors of `p` as the module docs of
//! `damka_probe::limits::counted` define it, read from the tables, and the RWDL
//! value with fresh counts checked against it.
//!
//! A conversion is valued by the probe's own reading of the table it leads to
//! (the RWDL table at an exit, the counted table of the material a promotion keeps
//! the conditional counter running into); a quiet move by the stored `D` of the
//! position it reaches, at the layer and conditional counts it leaves, one ply
//! further; a position without a move is a loss in 0. In a kings-only material only
//! layer 0 is stored, and `D(q, c, k)` is `D(q, 0, k)` when that fits the `H - c`
//! plies left, else a draw. The check is complete by induction on the layer count
//! from `H` down and on the stored distance, as for DTW.

use std::sync::Arc;

use damka_core::{apply, generate, Move, Position, Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::limits::{is_exit, Counted, RuleTablebase, MAX_COUNTERS};
use damka_probe::SliceTable;

use crate::error::GenError;

/// One move as the check reads it.
enum Step {
    /// A conversion, worth these values for the mover by conditional count (one
    /// value when the counts do not matter).
    Conversion(Vec<Dtc>),
    /// A quiet move: the counted table and index of the position reached (White
    /// to move), whether a king moved, and whether the condition holds after it.
    Quiet(usize, u64, bool, bool),
}

/// The counted-table checks of one slice.
pub(crate) struct CountedChecker<'a, V: Variant> {
    rules: &'a RuleTablebase<V>,
    plan: &'a Counted,
    /// The counted tables of the slice and of its mirror, with their slices.
    tables: [(Slice, Arc<SliceTable<V>>); 2],
}

impl<'a, V: Variant> CountedChecker<'a, V> {
    /// The checker of `slice`, or `None` when its material has no counted table.
    pub(crate) fn new(rules: &'a RuleTablebase<V>, slice: Slice) -> Result<Option<Self>, GenError> {
        let Some(plan) = rules.counted_plan(slice.material())? else {
            return Ok(None);
        };
        let table = |s: Slice| rules.table(s, ValueKind::CountedDtc).map(|t| (s, t));
        Ok(Some(CountedChecker {
            rules,
            plan,
            tables: [table(slice)?, table(slice.mirror())?],
        }))
    }

    /// The stored `D` of the position at `index` of table `t` in state `sheet`.
    fn stored(&self, t: usize, index: u64, sheet: u32) -> Dtc {
        let at = index * u64::from(self.plan.sheets()) + u64::from(sheet);
        Dtc::from_raw(self.tables[t].1.raw_at(at as usize))
    }

    /// Checks every stored state of `pos` (White to move, at `index` of the
    /// slice) and its RWDL value `rwdl`; calls `record` with the table, the stored
    /// and the expected value of each that is wrong.
    pub(crate) fn check(
        &self,
        pos: &Position<V>,
        index: u64,
        rwdl: RuleWdl,
        record: &mut dyn FnMut(&'static str, String, String),
    ) -> Result<(), GenError> {
        let steps = self.steps(pos)?;
        let plan = self.plan;
        let holds = plan.cond_holds(self.rules.set(), pos);
        for k in 0..plan.cond_limit() {
            for c in 0..plan.layers() {
                let expected = self.derive(&steps, c, if holds { k } else { 0 }, holds);
                let stored = self.stored(0, index, plan.sheet(c, k));
                if stored != expected {
                    record(
                        "cdtc",
                        format!("{stored:?} at c={c}, k={k}"),
                        format!("{expected:?}"),
                    );
                }
            }
        }
        let fresh = plan.decide(self.stored(0, index, 0), &[0; MAX_COUNTERS]);
        if fresh.wdl() != rwdl.ruled() {
            record(
                "rwdl",
                format!("{rwdl:?}"),
                format!("{} (from the counted table)", fresh.wdl()),
            );
        }
        Ok(())
    }

    /// The moves of `pos` as the check reads them.
    fn steps(&self, pos: &Position<V>) -> Result<Vec<Step>, GenError> {
        let (set, plan) = (self.rules.set(), self.plan);
        let holds = plan.cond_holds(set, pos);
        let mut moves: Vec<Move> = Vec::new();
        generate(pos, &mut moves);
        let mut steps = Vec::with_capacity(moves.len());
        for mv in &moves {
            let after = apply(pos, mv);
            let step = if after.pieces(after.side()) == 0 || is_exit(set, pos, mv, &after) {
                Step::Conversion(vec![self.rules.counted_move(
                    pos,
                    &[0; MAX_COUNTERS],
                    mv,
                )?])
            } else if mv.is_capture() || mv.is_promotion() {
                let mut values = Vec::new();
                for k in 0..plan.cond_limit() {
                    let counts = plan.cond_counts(k, holds);
                    values.push(self.rules.counted_move(pos, &counts, mv)?);
                }
                Step::Conversion(values)
            } else {
                let next = after.flipped();
                let slice = Slice::of(&next)
                    .map_err(|e| damka_probe::ProbeError::InvalidPosition(e.to_string()))?;
                let t = usize::from(slice != self.tables[0].0);
                let index = self.tables[t].1.indexer().index(&next);
                let king = pos.kings() & (1u64 << mv.from_bit()) != 0;
                Step::Quiet(t, index, king, plan.cond_holds(set, &after))
            };
            steps.push(step);
        }
        Ok(steps)
    }

    /// `D(p, c, k)` from the moves `steps` of `p`, where the condition holds or
    /// not (`holds`).
    fn derive(&self, steps: &[Step], c: u32, k: u32, holds: bool) -> Dtc {
        let plan = self.plan;
        let (big_h, big_k) = (plan.layer_limit(), plan.cond_limit());
        let (mut win, mut draw, mut loss): (Option<u16>, bool, Option<u16>) = (None, false, None);
        for step in steps {
            let value = match step {
                Step::Conversion(values) => values[(k as usize).min(values.len() - 1)],
                &Step::Quiet(t, index, king, after) => {
                    let next_c = if king || !plan.men() { c + 1 } else { 0 };
                    let next_k = if after && holds { k + 1 } else { 0 };
                    let moves = self.stored(t, index, 0) != Dtc::loss(0);
                    if next_c >= big_h || (after && next_k >= big_k) {
                        if moves {
                            Dtc::DRAW
                        } else {
                            Dtc::win(1)
                        }
                    } else if plan.men() {
                        self.stored(t, index, plan.sheet(next_c, next_k)).back()
                    } else {
                        let layer0 = self.stored(t, index, plan.sheet(0, next_k));
                        match layer0.distance() {
                            Some(d) if u32::from(d) <= big_h - next_c => layer0.back(),
                            _ => Dtc::DRAW,
                        }
                    }
                }
            };
            match (value.wdl(), value.distance()) {
                (Wdl::Win, Some(d)) => win = Some(win.map_or(d, |w| w.min(d))),
                (Wdl::Loss, Some(d)) => loss = Some(loss.map_or(d, |l| l.max(d))),
                _ => draw = true,
            }
        }
        match (win, draw, loss) {
            (Some(d), _, _) => Dtc::win(d),
            (None, true, _) => Dtc::DRAW,
            (None, false, Some(d)) => Dtc::loss(d),
            (None, false, None) => Dtc::loss(0),
        }
    }
}
