//! The solve of a kings-only group in two bytes per position.
//!
//! A kings-only group (`0M4K-0M3K` and its mirror) is a single unit: every
//! position reaches every other by king moves, so it cannot be split into
//! sub-slices, and the general solve's working cell (8 bytes) plus its values
//! (2 bytes and a bit) made it the largest piece of work of a set: International
//! 7's `0M4K-0M3K` would need 118 GiB. But a kings-only position is simple:
//! either its side to move must capture, and all its moves leave the group (the
//! forward pass decides it), or all its moves are king moves inside the group.
//! So two bytes per position, four positions to an atomic word, hold
//! everything the backward pass needs:
//!
//! - the low byte is the stored value ([`Metric::encode`], 0 while undecided),
//!   which is also the ply at which the position joins the frontier;
//! - the high byte counts the king moves not yet known to lose, or is
//!   [`KINGS_CAPTURE`] for a position that must capture (never a predecessor).
//!
//! The backward pass settles ply after ply: the frontier of ply `d` is every
//! position whose value says `d`, found by scanning the words, four entries at
//! a time, in the chunks that a per-chunk mask says hold such a value. A frontier loss makes each
//! undecided predecessor a win at `d + 1`; a frontier win lowers each
//! predecessor's count, and the last one makes it a loss at `d + 1`. Both are a
//! single compare-and-swap of the entry's word, so threads share the frontier freely;
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

/// Every lane of a word: the low bit of each of its four entries.
const LANES: u64 = 0x0001_0001_0001_0001;

/// Changes the entry of position `i` of a block (four to a word of `words`)
/// by `change`, which gives the new entry or `None` to leave it, atomically;
/// returns the new entry.
#[inline]
fn update(words: &[AtomicU64], i: usize, change: impl Fn(u16) -> Option<u16>) -> Option<u16> {
    let shift = 16 * (i % 4);
    let word = &words[i / 4];
    let mut current = word.load(Ordering::Relaxed);
    loop {
        let new = change((current >> shift) as u16)?;
        let replaced = current & !(0xFFFF << shift) | u64::from(new) << shift;
        match word.compare_exchange_weak(current, replaced, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(new),
            Err(seen) => current = seen,
        }
    }
}

/// Calls `f` with each position among `first..first + len` of a block (four
/// to a word of `words`; `first` a multiple of 4) whose value byte is `raw`.
#[inline]
fn for_each_with_value(
    words: &[AtomicU64],
    (first, len): (usize, usize),
    raw: u16,
    mut f: impl FnMut(usize),
) {
    debug_assert_eq!(first % 4, 0);
    let pattern = u64::from(raw) * LANES;
    let span = &words[first / 4..(first + len).div_ceil(4)];
    for (w, word) in (first / 4..).zip(span) {
        // A lane of `x` is zero where the value matches, and `0x100 - lane`
        // has bit 8 set only then (lanes are below 0x100: nothing borrows).
        let x = (word.load(Ordering::Relaxed) & (0xFF * LANES)) ^ pattern;
        let mut hits = (0x100 * LANES).wrapping_sub(x) & (0x100 * LANES);
        while hits != 0 {
            let i = 4 * w + hits.trailing_zeros() as usize / 16;
            if i < first + len {
                f(i);
            }
            hits &= hits - 1;
        }
    }
}

impl<V: Variant, M: Metric<V>> Group<V, M> {
    /// Solves the kings-only group's single unit in its two-byte entries.
    /// Returns `false`, having decided nothing for good, if some value does not
    /// fit in a byte (the caller then solves the group the general way).
    pub(crate) fn solve_kings_only(&self, unit: &Unit, progress: &(dyn Fn(u64) + Sync)) -> bool {
        let k = self.block_size() as usize;
        let n = k * unit.count;
        let words: [&[AtomicU64]; 2] =
            [0, unit.count - 1].map(|b| self.slots[unit.blocks[b].0].values.kings_entries());
        // Per block, per chunk of it: the plies (mod 64) of the values it holds.
        let chunks = k.div_ceil(SCAN_CHUNK);
        let masks: Vec<AtomicU64> = (0..unit.count * chunks)
            .map(|_| AtomicU64::new(0))
            .collect();
        // Read before written: most marks find their bit set already, and a
        // read keeps the mask's cache line shared between the threads.
        let mark = |local: usize, ply: u16| {
            let mask = &masks[local / k * chunks + local % k / SCAN_CHUNK];
            let bit = 1 << (ply % 64);
            if mask.load(Ordering::Relaxed) & bit == 0 {
                mask.fetch_or(bit, Ordering::Relaxed);
            }
        };
        let reported = AtomicU64::new(0);
        let overflow = AtomicBool::new(false);
        let highest = AtomicU16::new(0);
        let decided = |local: usize, ply: u16| {
            mark(local, ply);
            if highest.load(Ordering::Relaxed) < ply {
                highest.fetch_max(ply, Ordering::Relaxed);
            }
        };

        // The forward pass: every position's captures valued, king moves counted
        // (a word may straddle two chunks: entries are written by compare-and-swap).
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
                        let entry = count << 8 | (value & 0xFF);
                        update(words[local / k], local % k, |_| Some(entry));
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
            let outcome = |won| if won { Wdl::Win } else { Wdl::Loss };
            let raw = self.metric.encode(outcome(won), ply);
            let next = ply + 1;
            let next_raw = self.metric.encode(outcome(!won), next);
            let bit = 1u64 << (ply % 64);
            let scan = |(chunk, mask): (usize, &AtomicU64), scratch: &mut Scratch| {
                if mask.load(Ordering::Relaxed) & bit == 0 {
                    return;
                }
                let (updates, frontier) = scratch;
                let (block, c) = (chunk / chunks, chunk % chunks);
                let start = c * SCAN_CHUNK;
                let span = (start, SCAN_CHUNK.min(k - start));
                frontier.clear();
                for_each_with_value(words[block], span, raw, |i| frontier.push(block * k + i));
                for batch in frontier.chunks(BATCH) {
                    // First every predecessor of the batch, prefetched; then the
                    // updates, so that their cache misses overlap.
                    updates.clear();
                    for &local in batch {
                        let block = local / k;
                        let partner = if unit.count == 2 { 1 - block } else { 0 };
                        let pos = self.position(unit, local);
                        for_each_predecessor(&pos, &ranks[partner], |offset| {
                            prefetch(&words[partner][offset as usize / 4]);
                            updates.push(partner * k + offset as usize);
                        });
                    }
                    for &q in updates.iter() {
                        let decision = update(words[q / k], q % k, |entry| {
                            let count = entry >> 8;
                            if entry & 0xFF != 0 || count == KINGS_CAPTURE {
                                None
                            } else if !won {
                                // A losing successor: the predecessor wins.
                                Some(entry | next_raw)
                            } else if count == 1 {
                                // Its last king move not known to lose: it loses.
                                Some(next_raw)
                            } else {
                                Some(entry - (1 << 8))
                            }
                        });
                        if decision.is_some_and(|entry| entry & 0xFF != 0) {
                            decided(q, next);
                        }
                    }
                }
            };
            if next_raw > MAX_RAW {
                // Nothing may be decided at the next ply: it would not fit. If
                // something is, the solve gives up.
                let before = highest.load(Ordering::Relaxed);
                masks
                    .par_iter()
                    .enumerate()
                    .for_each_init(Scratch::default, |scratch, chunk| scan(chunk, scratch));
                if highest.load(Ordering::Relaxed) > before.max(ply) {
                    return false;
                }
            } else {
                masks
                    .par_iter()
                    .enumerate()
                    .for_each_init(Scratch::default, |scratch, chunk| scan(chunk, scratch));
            }
            ply = next;
        }
        progress(n as u64 - reported.load(Ordering::Relaxed));
        true
    }
}

/// A task's lists in the backward pass: predecessors to update, and the
/// frontier positions of a chunk.
type Scratch = (Vec<usize>, Vec<usize>);
