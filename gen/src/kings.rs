//! The solve of a kings-only group in two bytes per position.
//!
//! A kings-only group (`0M4K-0M3K` and its mirror) is a single unit: every
//! position reaches every other by king moves, so it cannot be split into
//! sub-slices, and the general solve's working cell (8 bytes) plus its values
//! (2 bytes and a bit) made it the largest piece of work of a set: International
//! 7's `0M4K-0M3K` would need 118 GiB. But a kings-only position is simple:
//! either its side to move must capture, and all its moves leave the group (the
//! forward pass decides it), or all its moves are king moves inside the group.
//! So one `u16` per position holds everything the backward pass needs:
//!
//! - the low byte is the stored value ([`Metric::encode`], 0 while undecided),
//!   which is also the ply at which the position joins the frontier;
//! - the high byte counts the king moves not yet known to lose, or is
//!   [`KINGS_CAPTURE`] for a position that must capture (never a predecessor).
//!
//! The backward pass settles ply after ply: the frontier of ply `d` is every
//! position whose value says `d`, found by scanning the entries (only the chunks
//! that a per-chunk mask says hold such a value). A frontier loss makes each
//! undecided predecessor a win at `d + 1`; a frontier win lowers each
//! predecessor's count, and the last one makes it a loss at `d + 1`. Both are a
//! single compare-and-swap of the entry, so threads share the frontier freely;
//! and a count reaches zero only when every successor wins, so no position is
//! offered a win and a loss in the same ply. Distances are those of the general
//! solve (shortest wins, longest losses), and the tables are the same bytes.
//!
//! The entries are the group's values too ([`SlotValues::kings_only`]): the
//! table writer reads them directly, so the group takes two bytes per position
//! in all. A value that does not fit in the low byte (a distance of more than
//! 253 plies) makes the solve give up, and the group is solved the general way.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};

use damka_core::prefetch::prefetch;
use damka_core::{BlockRanks, Variant};
use damka_formats::Wdl;
use rayon::prelude::*;

use crate::solve::{for_each_predecessor, Group, Metric, Unit, FORWARD_CHUNK};
use crate::values::KINGS_CAPTURE;

/// Positions per chunk of the frontier scan, each with a mask of the plies (mod
/// 64) its values hold.
const SCAN_CHUNK: usize = 1 << 12;
/// Frontier positions whose predecessors are prefetched together.
const BATCH: usize = 16;
/// The largest value the low byte holds (the high byte's capture mark aside).
const MAX_RAW: u16 = 0xFE;

/// The result of the forward pass for one position, as the entry stores it.
#[derive(Clone, Copy)]
pub(crate) struct Forward {
    /// The side to move must capture.
    pub(crate) capture: bool,
    /// The position's value if the forward pass decided it: the outcome and its
    /// ply.
    pub(crate) decided: Option<(Wdl, u16)>,
    /// Its king moves (0 for a capture position).
    pub(crate) king_moves: u8,
}

impl<V: Variant, M: Metric<V>> Group<V, M> {
    /// Solves the kings-only group's single unit in its two-byte entries.
    /// Returns `false`, having decided nothing for good, if some value does not
    /// fit in a byte (the caller then solves the group the general way).
    pub(crate) fn solve_kings_only(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> bool {
        let k = self.block_size() as usize;
        let n = k * unit.count;
        let entries: [&[AtomicU16]; 2] =
            [0, unit.count - 1].map(|b| self.slots[unit.blocks[b].0].values.kings_entries());
        let entry = |local: usize| &entries[local / k][local % k];
        // Per block, per chunk of it: the plies (mod 64) of the values it holds.
        let chunks = k.div_ceil(SCAN_CHUNK);
        let masks: Vec<AtomicU64> = (0..unit.count * chunks)
            .map(|_| AtomicU64::new(0))
            .collect();
        let mark = |local: usize, ply: u16| {
            let chunk = local / k * chunks + local % k / SCAN_CHUNK;
            masks[chunk].fetch_or(1 << (ply % 64), Ordering::Relaxed);
        };
        let reported = AtomicU64::new(0);
        let overflow = AtomicBool::new(false);
        let highest = AtomicU16::new(0);
        let decided = |local: usize, ply: u16| {
            mark(local, ply);
            highest.fetch_max(ply, Ordering::Relaxed);
        };

        // The forward pass: every position's captures valued, king moves counted.
        (0..n.div_ceil(FORWARD_CHUNK))
            .into_par_iter()
            .for_each_init(
                || (self.examine_scratch(), Vec::new()),
                |(scratch, results), chunk| {
                    let first = chunk * FORWARD_CHUNK;
                    let len = FORWARD_CHUNK.min(n - first);
                    self.forward_results(unit, first, len, scratch, results);
                    for (i, result) in results.iter().enumerate() {
                        let local = first + i;
                        let mut value = 0;
                        if let Some((wdl, ply)) = result.decided {
                            value = self.metric.encode(wdl, ply);
                            if value > MAX_RAW {
                                overflow.store(true, Ordering::Relaxed);
                            }
                            decided(local, ply);
                        }
                        let count = if result.capture {
                            KINGS_CAPTURE
                        } else {
                            u16::from(result.king_moves)
                        };
                        entry(local).store(count << 8 | value, Ordering::Relaxed);
                    }
                    // Half the work is the backward pass, reported at the end.
                    reported.fetch_add(len as u64 / 2, Ordering::Relaxed);
                    progress(len as u64 / 2);
                },
            );
        if overflow.load(Ordering::Relaxed) {
            return false;
        }

        // Each block's ranks seen from its partner (see `solve_unit`).
        let ranks = [0, unit.count - 1].map(|b| {
            let (white_men, black_men) = unit.men[b];
            BlockRanks::rotated(&self.slots[unit.blocks[b].0].indexer, white_men, black_men)
        });
        let mut ply = 0u16;
        while ply <= highest.load(Ordering::Relaxed) {
            let won = ply % 2 == 1;
            let raw = self
                .metric
                .encode(if won { Wdl::Win } else { Wdl::Loss }, ply);
            let next = ply + 1;
            let next_raw = self
                .metric
                .encode(if won { Wdl::Loss } else { Wdl::Win }, next);
            if next_raw > MAX_RAW {
                // Nothing may be decided at the next ply: it would not fit.
                overflow.store(true, Ordering::Relaxed);
            }
            let bit = 1u64 << (ply % 64);
            let scan = |(chunk, mask): (usize, &AtomicU64), updates: &mut Vec<usize>| {
                if mask.load(Ordering::Relaxed) & bit == 0 {
                    return;
                }
                let (block, c) = (chunk / chunks, chunk % chunks);
                let start = c * SCAN_CHUNK;
                let span = &entries[block][start..((c + 1) * SCAN_CHUNK).min(k)];
                let frontier: Vec<usize> = span
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.load(Ordering::Relaxed) & 0xFF == raw)
                    .map(|(i, _)| block * k + start + i)
                    .collect();
                for batch in frontier.chunks(BATCH) {
                    updates.clear();
                    for &local in batch {
                        let block = local / k;
                        let partner = if unit.count == 2 { 1 - block } else { 0 };
                        let pos = self.position(unit, local);
                        for_each_predecessor(&pos, &ranks[partner], |offset| {
                            let q = partner * k + offset as usize;
                            prefetch(entry(q));
                            updates.push(q);
                        });
                    }
                    for &q in updates.iter() {
                        let cell = entry(q);
                        let mut current = cell.load(Ordering::Relaxed);
                        loop {
                            let count = current >> 8;
                            if current & 0xFF != 0 || count == KINGS_CAPTURE {
                                break;
                            }
                            let new = if !won {
                                // A losing successor: the predecessor wins.
                                current | next_raw
                            } else if count == 1 {
                                // Its last king move not known to lose: it loses.
                                next_raw
                            } else {
                                current - (1 << 8)
                            };
                            match cell.compare_exchange_weak(
                                current,
                                new,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            ) {
                                Ok(_) => {
                                    if new & 0xFF != 0 {
                                        decided(q, next);
                                    }
                                    break;
                                }
                                Err(seen) => current = seen,
                            }
                        }
                    }
                }
            };
            masks
                .par_iter()
                .enumerate()
                .for_each_init(Vec::new, |updates, chunk| scan(chunk, updates));
            if overflow.load(Ordering::Relaxed) && highest.load(Ordering::Relaxed) >= next {
                return false;
            }
            ply = next;
        }
        progress(n as u64 - reported.load(Ordering::Relaxed));
        true
    }
}
