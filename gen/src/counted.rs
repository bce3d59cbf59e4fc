//! The counted DTC tables of the materials of a counter with a position condition
//! (R3's: three kings, two kings and a man, a king and two men against a lone
//! king; the other counted materials are solved by `crate::layers`), and their
//! RWDL values, without a search (`damka_probe::limits::Counted`
//! defines `D(p, c, k)` and how the probe reads it; `formats/FORMAT.md`, "Counted
//! DTC tables").
//!
//! The state of a sub-phase is (position, layer count `c`, conditional count `k`).
//! Every move but a man move raises `c` by one; a man move sets it to 0 and moves
//! a man forward, so it raises the men's advancement (`damka_core::advancement`);
//! captures and promotions end the sub-phase. So the positions of a group are
//! solved by advancement, the most advanced first, and inside one advancement
//! layer by layer, from `c = H - 1` (the layer `H` is a draw) down to 0: a king
//! move reads the layer above, a man move the layer 0 of a more advanced position,
//! solved already, and a conversion the RWDL table it exits into, or the counted
//! table of the material a promotion leads to with `k` still running. No fixpoint
//! and no search. `k` runs from 0 to `K - 1` where the condition holds, and is 0
//! elsewhere.

use std::sync::atomic::{AtomicU16, Ordering};

use damka_core::movegen::generate;
use damka_core::{advancement, apply, Move, Position, Slice, SliceIndexer, Variant};
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_probe::limits::{is_exit, Counted, RuleTablebase, MAX_COUNTERS};
use rayon::prelude::*;

use crate::error::GenError;

/// Positions evaluated together by one thread inside a layer.
const CHUNK: usize = 256;

/// One move out of a position, as the layered pass reads it.
#[derive(Debug, Clone, Copy)]
enum Edge {
    /// A conversion whose value for the mover does not depend on the counts (an
    /// exit, or the capture of the last piece).
    Fixed(Dtc),
    /// A conversion that keeps the conditional counter running: its values for
    /// the mover by conditional count, at this offset of the promotion values.
    Running(u32),
    /// A quiet move to the group's position `to` (White to move), by a king or
    /// not, after which the condition holds or not.
    Quiet { to: u32, king: bool, holds: bool },
}

/// What the pass knows of one position of the group.
struct Node {
    /// Its moves.
    edges: Vec<Edge>,
    /// Whether the conditional counter is in force.
    holds: bool,
    /// Advancement of the men: a man move raises it.
    level: u32,
}

/// A group's counted tables: per slice of the group, the counted DTC entries
/// (`plan.sheets()` per position) and the RWDL codes.
pub(crate) type CountedTables = Vec<(Slice, Vec<u16>, Vec<u16>)>;

/// Solves the counted tables of the group of `head`, whose material has the
/// counted phase `plan` (both slices of a group do: the classes are symmetric in
/// colour). The RWDL tables of the materials its captures reach and the counted
/// tables of those its promotions reach must be written.
pub(crate) fn counted_tables<V: Variant>(
    rules: &RuleTablebase<V>,
    head: Slice,
    plan: &Counted,
) -> Result<CountedTables, GenError> {
    let slices = if head.is_self_mirror() {
        vec![head]
    } else {
        vec![head, head.mirror()]
    };
    let indexers: Vec<SliceIndexer<V>> = slices
        .iter()
        .map(|&s| SliceIndexer::new(s))
        .collect::<Result<_, _>>()?;
    let mut offsets = vec![0u64];
    for indexer in &indexers {
        offsets.push(offsets.last().unwrap() + indexer.size());
    }
    let total = *offsets.last().unwrap() as usize;
    let group = Group {
        rules,
        plan,
        slices: &slices,
        indexers: &indexers,
        offsets: &offsets,
    };
    let mut running = Vec::new();
    let mut nodes = Vec::with_capacity(total);
    for indexer in &indexers {
        let built: Vec<(Node, Vec<Dtc>)> = (0..indexer.size())
            .into_par_iter()
            .map(|i| group.node(&indexer.position(i)))
            .collect::<Result<_, GenError>>()?;
        for (mut node, values) in built {
            for edge in &mut node.edges {
                if let Edge::Running(at) = edge {
                    *at += running.len() as u32;
                }
            }
            running.extend(values);
            nodes.push(node);
        }
    }
    let layer = || {
        (0..total * plan.cond_limit() as usize)
            .map(|_| AtomicU16::new(0))
            .collect()
    };
    let solved = Pass {
        plan,
        nodes: &nodes,
        running: &running,
        work: (0..plan.layer_limit()).map(|_| layer()).collect(),
    }
    .solve();
    group.tables(&nodes, &solved)
}

/// The slices of a group and how the pass names its positions: the position at
/// `index` of slice `s` is number `offsets[s] + index`.
struct Group<'a, V: Variant> {
    rules: &'a RuleTablebase<V>,
    plan: &'a Counted,
    slices: &'a [Slice],
    indexers: &'a [SliceIndexer<V>],
    offsets: &'a [u64],
}

impl<V: Variant> Group<'_, V> {
    /// The number of `white`, a White-to-move position of the group.
    fn number(&self, white: &Position<V>) -> Result<u32, GenError> {
        let s = Slice::of(white)
            .ok()
            .and_then(|slice| self.slices.iter().position(|&t| t == slice))
            .ok_or_else(|| GenError::RuleUnknown {
                position: white.to_string(),
                rules: self.rules.set().name.clone(),
                reason: "a quiet move leads out of its solve group".into(),
            })?;
        Ok((self.offsets[s] + self.indexers[s].index(white)) as u32)
    }

    /// The node of `pos` (White to move), and the values of its running
    /// conversions, `K` per conversion, by conditional count.
    fn node(&self, pos: &Position<V>) -> Result<(Node, Vec<Dtc>), GenError> {
        let set = self.rules.set();
        let plan = self.plan;
        let holds = plan.cond_holds(set, pos);
        let mut moves = Vec::new();
        generate(pos, &mut moves);
        let (mut edges, mut running) = (Vec::with_capacity(moves.len()), Vec::new());
        for mv in &moves {
            let after = apply(pos, mv);
            let conversion = mv.is_capture() || mv.is_promotion();
            let edge = if after.pieces(after.side()) == 0 || is_exit(set, pos, mv, &after) {
                Edge::Fixed(self.rules.counted_move(pos, &[0; MAX_COUNTERS], mv)?)
            } else if conversion {
                let at = running.len() as u32;
                for k in 0..plan.cond_limit() {
                    let counts = plan.cond_counts(k, holds);
                    running.push(self.rules.counted_move(pos, &counts, mv)?);
                }
                Edge::Running(at)
            } else {
                Edge::Quiet {
                    to: self.number(&after.flipped())?,
                    king: is_king_move(pos, mv),
                    holds: plan.cond_holds(set, &after),
                }
            };
            edges.push(edge);
        }
        let level = advancement::<V>(pos.white() & !pos.kings(), pos.black() & !pos.kings());
        Ok((
            Node {
                edges,
                holds,
                level,
            },
            running,
        ))
    }

    /// The counted DTC entries and RWDL codes of every slice from the solved
    /// values `solved` (`D` by `c`, then position and `k`).
    fn tables(&self, nodes: &[Node], solved: &[Vec<u16>]) -> Result<CountedTables, GenError> {
        let plan = self.plan;
        let big_k = plan.cond_limit() as usize;
        let layers = plan.layers() as usize;
        let fresh = [0; MAX_COUNTERS];
        let mut out = Vec::new();
        for (s, &slice) in self.slices.iter().enumerate() {
            let theory = self.rules.tablebase().slice_table(slice)?;
            let (start, end) = (self.offsets[s] as usize, self.offsets[s + 1] as usize);
            let mut cdtc = vec![0u16; (end - start) * big_k * layers];
            cdtc.par_chunks_mut(big_k * layers)
                .enumerate()
                .for_each(|(i, entries)| {
                    let id = start + i;
                    for k in 0..big_k {
                        let from = if nodes[id].holds { k } else { 0 };
                        for c in 0..layers {
                            entries[k * layers + c] = solved[c][id * big_k + from];
                        }
                    }
                });
            let rwdl = (0..end - start)
                .into_par_iter()
                .map(|i| {
                    let stored = Dtc::from_raw(cdtc[i * big_k * layers]);
                    let ruled = plan.decide(stored, &fresh).wdl();
                    RuleWdl::of(theory.get(i as u64).wdl(), ruled).code()
                })
                .collect();
            out.push((slice, cdtc, rwdl));
        }
        Ok(out)
    }
}

/// The layered pass over a group's nodes.
struct Pass<'a> {
    plan: &'a Counted,
    nodes: &'a [Node],
    /// The values of running conversions, `K` per conversion.
    running: &'a [Dtc],
    /// `D` by layer `c`, then by position and `k`: `number * K + k`.
    work: Vec<Vec<AtomicU16>>,
}

impl Pass<'_> {
    /// Solves every state; returns `D` by layer `c`, then by position and `k`.
    fn solve(self) -> Vec<Vec<u16>> {
        let mut order: Vec<u32> = (0..self.nodes.len() as u32).collect();
        order.sort_by_key(|&id| std::cmp::Reverse(self.nodes[id as usize].level));
        let levels =
            order.chunk_by(|&a, &b| self.nodes[a as usize].level == self.nodes[b as usize].level);
        for level in levels {
            for c in (0..self.plan.layer_limit()).rev() {
                level.par_chunks(CHUNK).for_each(|ids| {
                    for &id in ids {
                        let ks = if self.nodes[id as usize].holds {
                            self.plan.cond_limit()
                        } else {
                            1
                        };
                        for k in 0..ks {
                            let at = self.at(id as usize, k);
                            let value = match self.above(c, at) {
                                Some(kept) => kept,
                                None => self.evaluate(id as usize, c, k),
                            };
                            self.work[c as usize][at].store(value.raw(), Ordering::Relaxed);
                        }
                    }
                });
            }
        }
        self.work
            .into_iter()
            .map(|layer| layer.into_iter().map(AtomicU16::into_inner).collect())
            .collect()
    }

    /// Where `D(id, c, k)` is kept in layer `c`.
    #[inline]
    fn at(&self, id: usize, k: u32) -> usize {
        id * self.plan.cond_limit() as usize + k as usize
    }

    /// `D(id, c + 1, k)` (kept at `at`) when `D(id, c, k)` is the same: a win or
    /// a loss within the `H - c - 1` plies left in layer `c + 1`. No line of it
    /// can reach the limit from layer `c + 1`, so from layer `c` it is still
    /// possible, and a shorter win (or a longer loss) from layer `c` would fit
    /// layer `c + 1` as well.
    #[inline]
    fn above(&self, c: u32, at: usize) -> Option<Dtc> {
        let room = self.plan.layer_limit().checked_sub(c + 1)?;
        let value = Dtc::from_raw(self.work.get(c as usize + 1)?[at].load(Ordering::Relaxed));
        value
            .distance()
            .filter(|&d| u32::from(d) <= room)
            .map(|_| value)
    }

    /// `D(id, c, k)` from its successors: the best for the side to move, a win by
    /// the fewest plies, a loss by the most; a loss in 0 without a move.
    fn evaluate(&self, id: usize, c: u32, k: u32) -> Dtc {
        let node = &self.nodes[id];
        let (big_h, big_k) = (self.plan.layer_limit(), self.plan.cond_limit());
        let (mut win, mut draw, mut loss): (Option<u16>, bool, Option<u16>) = (None, false, None);
        for edge in &node.edges {
            let value = match *edge {
                Edge::Fixed(value) => value,
                Edge::Running(at) => self.running[at as usize + k as usize],
                Edge::Quiet { to, king, holds } => {
                    let next_c = if king || !self.plan.men() { c + 1 } else { 0 };
                    let next_k = match (holds, node.holds) {
                        (true, true) => k + 1,
                        _ => 0,
                    };
                    let target = &self.nodes[to as usize];
                    if next_c >= big_h || (holds && next_k >= big_k) {
                        if target.edges.is_empty() {
                            Dtc::win(1)
                        } else {
                            Dtc::DRAW
                        }
                    } else {
                        let at = self.at(to as usize, next_k);
                        let raw = self.work[next_c as usize][at].load(Ordering::Relaxed);
                        Dtc::from_raw(raw).back()
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

/// Whether the quiet move `mv` moves a king.
#[inline]
fn is_king_move<V: Variant>(pos: &Position<V>, mv: &Move) -> bool {
    pos.kings() & (1u64 << mv.from_bit()) != 0
}
