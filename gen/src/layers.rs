//! Exact rule values where two drawing counters run in one phase: one that only a
//! conversion restarts (R2, with the limit `unbreakable`) and one that man moves
//! restart too (R4 or I1, with the limit `resettable`), with men on the board and
//! kings on both sides.
//!
//! A DTC table alone cannot answer there (`damka_probe::limits::Phase`): a win may
//! need a man move in time to restart the resettable counter. The state of the game
//! inside a phase is (position, `c`), `c` the plies since the last man move; the
//! conversion-only counter is the plies since the phase began, so it bounds the
//! length of the whole phase. Let `D(p, c)` be the value of that game with no bound
//! on its length: win or loss in the fewest (for a win) or most (for a loss) plies
//! to the end of the phase, or a draw once `c` reaches `resettable`. Then the side
//! to move wins `p` with fresh counters exactly when `D(p, 0)` is a win in at most
//! `unbreakable` plies, because the shortest forced win of a reachability game is
//! the least number of plies in which it can be forced.
//!
//! `D` is computed without a search and without a fixpoint. Inside a unit of the
//! solver (a men placement and its flip, `crate::solve`) only king moves are
//! played, and each raises `c` by one; a man move leaves for a unit solved already,
//! at `c = 0`, and a conversion ends the phase (valued like DTC, from the RWDL
//! table it reaches). So a unit is solved layer by layer, from `c = resettable`
//! (every position a draw, unless the side to move has no move) down to `c = 0`,
//! each layer from the one above. The DTC value saves the work for most
//! positions: a draw stays a draw, and a win or loss in `d <= resettable - c` plies
//! keeps its value, since no line of it can reach the limit.

use std::sync::atomic::{AtomicU16, Ordering};

use damka_core::movegen::generate;
use damka_core::{apply, Move};
use damka_core::{Position, Variant};
use damka_formats::{Dtc, RuleWdl, Wdl};
use rayon::prelude::*;

use crate::dtc::Conversion;
use crate::exits::ExitCache;
use crate::solve::{back, Group, Metric, Unit};
use crate::store::ValueSource;

/// Positions evaluated together by one thread inside a layer.
const CHUNK: usize = 1024;

/// `D(p, c)` (see the module docs) for every position of a group whose DTC values
/// are solved and every layer `c < resettable`, as raw [`Dtc`] values, one vector
/// per slot of the group, position by position: `D(p, c)` at `index * resettable +
/// c`. These are the entries of the counted DTC tables of such a material
/// (`damka_probe::limits::Counted`, without a conditional counter).
pub(crate) fn phase_values<V: Variant>(
    group: &Group<V, Conversion<V>>,
    resettable: u32,
) -> Vec<Vec<u16>> {
    let values: Vec<Vec<AtomicU16>> = group
        .slots
        .iter()
        .map(|slot| {
            let n = slot.values.len() * resettable as usize;
            let mut values = Vec::with_capacity(n);
            values.resize_with(n, || AtomicU16::new(0));
            values
        })
        .collect();
    let layers = Layers {
        group,
        resettable,
        values: &values,
    };
    for sub in group.slots[0].indexer.sub_slices() {
        group
            .units(sub.key)
            .par_iter()
            .for_each(|unit| layers.solve_unit(unit));
    }
    values
        .into_iter()
        .map(|values| values.into_iter().map(AtomicU16::into_inner).collect())
        .collect()
}

/// The value under the rules with fresh counters of a position whose `D(p, 0)` is
/// `fresh`, when the phase may last `unbreakable` plies, next to its
/// game-theoretic value `theory`.
pub(crate) fn fresh_rule_value(theory: Wdl, fresh: Dtc, unbreakable: u32) -> RuleWdl {
    let ruled = match fresh.distance() {
        Some(d) if u32::from(d) <= unbreakable => fresh.wdl(),
        _ => Wdl::Draw,
    };
    RuleWdl::of(theory, ruled)
}

/// The layered solve of one group.
struct Layers<'a, V: Variant> {
    group: &'a Group<V, Conversion<V>>,
    resettable: u32,
    /// `D(p, c)` by slot, at `index * resettable + c`, written as units finish.
    values: &'a [Vec<AtomicU16>],
}

impl<V: Variant> Layers<'_, V> {
    fn solve_unit(&self, unit: &Unit) {
        let k = self.group.block_size() as usize;
        let n = k * unit.count;
        let dtc: Vec<Dtc> = (0..n)
            .map(|local| {
                let (slot, index) = self.global(unit, local);
                Dtc::from_raw(self.group.slots[slot].values.get(index))
            })
            .collect();
        // The layer c = resettable: the limit is reached, a draw unless the side to
        // move has no move (then it has lost, which the DTC value says: a loss in 0).
        let mut above: Vec<Dtc> = dtc
            .iter()
            .map(|&v| if v == Dtc::loss(0) { v } else { Dtc::DRAW })
            .collect();
        let mut layer = vec![Dtc::DRAW; n];
        for c in (0..self.resettable).rev() {
            let room = self.resettable - c;
            layer
                .par_chunks_mut(CHUNK)
                .enumerate()
                .for_each(|(chunk, values)| {
                    let mut moves = Vec::with_capacity(64);
                    let mut exits = ExitCache::default();
                    for (i, value) in values.iter_mut().enumerate() {
                        let local = chunk * CHUNK + i;
                        *value = match dtc[local].distance() {
                            None => Dtc::DRAW,
                            Some(d) if u32::from(d) <= room => dtc[local],
                            Some(_) => self.evaluate(unit, local, &above, (&mut moves, &mut exits)),
                        };
                    }
                });
            for (local, value) in layer.iter().enumerate() {
                let (slot, index) = self.global(unit, local);
                let at = index * self.resettable as usize + c as usize;
                self.values[slot][at].store(value.raw(), Ordering::Relaxed);
            }
            std::mem::swap(&mut above, &mut layer);
        }
    }

    /// `(slot, index)` of a unit-local index.
    fn global(&self, unit: &Unit, local: usize) -> (usize, usize) {
        let k = self.group.block_size() as usize;
        let (slot, men) = unit.blocks[local / k];
        (slot, men as usize * k + local % k)
    }

    /// `D(p, c)` of the position at `local`, from `above`, the layer `c + 1`.
    fn evaluate(
        &self,
        unit: &Unit,
        local: usize,
        above: &[Dtc],
        (moves, exits): (&mut Vec<Move>, &mut ExitCache),
    ) -> Dtc {
        let k = self.group.block_size() as usize;
        let block = local / k;
        let partner_block = if unit.count == 2 { 1 - block } else { 0 };
        let slot = unit.blocks[block].0;
        let partner_slot = self.group.partner_slot(slot);
        let pos = self.group.position(unit, local);
        moves.clear();
        generate(&pos, moves);
        let (mut win, mut draw, mut loss): (Option<u16>, bool, Option<u16>) = (None, false, None);
        for mv in moves.iter() {
            let after = apply(&pos, mv);
            let (wdl, d) = if mv.is_capture() || mv.is_promotion() {
                self.group.metric.conversion(&pos, mv, &after, exits)
            } else {
                let next = after.flipped();
                let value = if is_king_move(&pos, mv) {
                    above[self.group.local(unit, partner_block, &next)]
                } else {
                    let target = &self.group.slots[partner_slot];
                    let at = target.indexer.index(&next) as usize * self.resettable as usize;
                    Dtc::from_raw(self.values[partner_slot][at].load(Ordering::Relaxed))
                };
                back((value.wdl(), value.distance().unwrap_or(0)))
            };
            match wdl {
                Wdl::Win => win = Some(win.map_or(d, |w| w.min(d))),
                Wdl::Draw => draw = true,
                Wdl::Loss => loss = Some(loss.map_or(d, |l| l.max(d))),
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

/// Whether the quiet move `mv` moves a king.
#[inline]
fn is_king_move<V: Variant>(pos: &Position<V>, mv: &Move) -> bool {
    pos.kings() & (1u64 << mv.from_bit()) != 0
}
