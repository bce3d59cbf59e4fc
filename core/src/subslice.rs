//! Sub-slices: the parts of a slice with one value of the men's *advancement*.
//!
//! # Why advancement
//!
//! The advancement of a men placement is the sum, over White's men, of their rank
//! counted from White's side (0 to `WIDTH - 2`), plus the sum, over Black's men, of
//! their rank counted from Black's side (`WIDTH - 1 - rank`). It has the two
//! properties the generator needs:
//!
//! - a quiet man move steps one man one rank forward, so if it does not promote
//!   it raises the advancement by exactly 1. Captures and promotions change the
//!   material, so they lead out of the slice and its mirror anyway;
//! - the colour flip maps a White man on rank `r` to a Black man on rank
//!   `WIDTH - 1 - r`, which has the same advancement, so a slice and its mirror use
//!   the same keys.
//!
//! A quiet man move from a position of key `k` in slice `S` leads to a position of
//! key `k + 1` in `mirror(S)`. Solving a slice and its mirror together, sub-slice by
//! sub-slice in *descending* key order, every quiet man move therefore leads to a
//! sub-slice already solved. Within a sub-slice only king moves stay inside, and
//! they keep the men where they are (the block pairs of [`crate::index`]).
//!
//! The men indices of one key are scattered over the slice; [`MenIndices`] finds
//! them by a depth-first search that prunes on the advancement still reachable, so
//! it costs little more than the placements it yields.

use crate::dense::{to_dense, to_padded};
use crate::index::SliceIndexer;
use crate::position::Position;
use crate::variant::Variant;

/// The advancement of a men placement given as padded bitboards of White's and
/// Black's men: the sub-slice key.
#[inline]
pub fn advancement<V: Variant>(white_men: u64, black_men: u64) -> u32 {
    advancement_dense::<V>(to_dense::<V>(white_men), to_dense::<V>(black_men))
}

/// [`advancement`] of dense masks, man by man (cheaper than a popcount per rank
/// for the few men of a slice).
#[inline]
fn advancement_dense<V: Variant>(white_men: u64, black_men: u64) -> u32 {
    let half = V::GEOMETRY.half;
    let mut key = 0;
    let mut rest = white_men;
    while rest != 0 {
        key += rest.trailing_zeros() / half;
        rest &= rest - 1;
    }
    let mut rest = black_men;
    while rest != 0 {
        key += V::GEOMETRY.width - 1 - rest.trailing_zeros() / half;
        rest &= rest - 1;
    }
    key
}

/// One sub-slice: a key, how many men placements have it, and how many positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SubSlice {
    /// The advancement of the men.
    pub key: u32,
    /// Men placements with this key.
    pub men_placements: u64,
    /// Positions: `men_placements` times the slice's king placements.
    pub positions: u64,
}

/// A men placement found by [`MenIndices`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenPlacement {
    /// Its men index: positions `index * K .. (index + 1) * K` of the slice.
    pub index: u64,
    /// White's men, padded bitboard.
    pub white_men: u64,
    /// Black's men, padded bitboard.
    pub black_men: u64,
}

impl<V: Variant> SliceIndexer<V> {
    /// The sub-slice key of a men index.
    #[inline]
    pub fn men_key(&self, men_index: u64) -> u32 {
        let (white_men, black_men) = self.men_dense(men_index);
        advancement_dense::<V>(white_men, black_men)
    }

    /// The sub-slice key of a position.
    #[inline]
    pub fn key(&self, position: &Position<V>) -> u32 {
        let men = !position.kings();
        advancement::<V>(position.white() & men, position.black() & men)
    }

    /// The sub-slices that are not empty, in solving order: key descending. Counted
    /// by a small dynamic programme over the squares, without enumerating.
    pub fn sub_slices(&self) -> Vec<SubSlice> {
        let g = V::GEOMETRY;
        let (white, black) = (
            self.slice().white_men() as usize,
            self.slice().black_men() as usize,
        );
        let keys = (white + black) * (g.width as usize - 2) + 1;
        let states = (white + 1) * (black + 1);
        // counts[(i * (black + 1) + j) * keys + k]: placements of i White and j Black
        // men on the squares seen so far with advancement k.
        let mut counts = vec![0u128; states * keys];
        counts[0] = 1;
        for square in 0..g.squares {
            let rank = g.rank(square) as usize;
            let top = g.width as usize - 1;
            for i in (0..=white).rev() {
                for j in (0..=black).rev() {
                    let cell = (i * (black + 1) + j) * keys;
                    if i > 0 && rank < top {
                        let from = ((i - 1) * (black + 1) + j) * keys;
                        for k in (rank..keys).rev() {
                            counts[cell + k] += counts[from + k - rank];
                        }
                    }
                    if j > 0 && rank > 0 {
                        let from = (i * (black + 1) + j - 1) * keys;
                        let step = top - rank;
                        for k in (step..keys).rev() {
                            counts[cell + k] += counts[from + k - step];
                        }
                    }
                }
            }
        }
        let last = (states - 1) * keys;
        (0..keys)
            .rev()
            .filter(|&k| counts[last + k] != 0)
            .map(|k| {
                let men_placements = counts[last + k] as u64;
                SubSlice {
                    key: k as u32,
                    men_placements,
                    positions: men_placements * self.king_placements(),
                }
            })
            .collect()
    }

    /// The men placements of the sub-slice with key `key`, each once, in no
    /// particular order of men index. The iterator is `Send`, so a generator can
    /// spread it over threads (for example with rayon's `par_bridge`).
    pub fn men_indices(&self, key: u32) -> MenIndices<'_, V> {
        MenIndices::new(self, key)
    }
}

/// Most men in a slice (20 per side on the International board).
const MAX_SLOTS: usize = 40;

/// Iterator over the men placements of one sub-slice; see
/// [`SliceIndexer::men_indices`].
///
/// A depth-first search places White's men on ascending squares, then Black's.
/// Before it descends, it checks that the advancement still needed lies between
/// the least and the most that the men left to place could add (ignoring that they
/// may block each other), and it places the last man only on the rank that
/// completes the key.
#[derive(Debug, Clone)]
pub struct MenIndices<'a, V: Variant> {
    indexer: &'a SliceIndexer<V>,
    key: u32,
    white: usize,
    slots: usize,
    depth: usize,
    /// Squares not yet tried for each slot, dense.
    candidates: [u64; MAX_SLOTS],
    /// Squares taken by the slots before each slot, dense.
    taken: [u64; MAX_SLOTS + 1],
    /// Advancement of the slots before each slot.
    sum: [u32; MAX_SLOTS + 1],
    /// For kings-only slices: whether the one (empty) placement is still to come.
    empty_pending: bool,
}

impl<'a, V: Variant> MenIndices<'a, V> {
    const HALF: u32 = V::GEOMETRY.half;
    const TOP: u32 = V::GEOMETRY.width - 1;
    const SQUARES: u32 = V::GEOMETRY.squares as u32;
    /// Dense squares where White's men may stand.
    const WHITE_DOMAIN: u64 = (1 << (Self::SQUARES - Self::HALF)) - 1;
    /// Dense squares where Black's men may stand.
    const BLACK_DOMAIN: u64 = ((1 << Self::SQUARES) - 1) & !((1 << Self::HALF) - 1);

    fn new(indexer: &'a SliceIndexer<V>, key: u32) -> Self {
        let white = indexer.slice().white_men() as usize;
        let slots = indexer.slice().men() as usize;
        let mut iter = MenIndices {
            indexer,
            key,
            white,
            slots,
            depth: 0,
            candidates: [0; MAX_SLOTS],
            taken: [0; MAX_SLOTS + 1],
            sum: [0; MAX_SLOTS + 1],
            empty_pending: slots == 0 && key == 0,
        };
        if slots > 0 {
            iter.candidates[0] = iter.first_candidates(0, None);
        }
        iter
    }

    #[inline]
    fn rank(square: u32) -> u32 {
        square / Self::HALF
    }

    /// Sum of the ranks of the squares `from..to`.
    fn rank_sum(from: u32, to: u32) -> u32 {
        (from..to).map(Self::rank).sum()
    }

    /// Sum of the advancements, for Black's men, of the squares `from..to`.
    fn black_sum(from: u32, to: u32) -> u32 {
        (to - from) * Self::TOP - Self::rank_sum(from, to)
    }

    /// The least advancement `count` Black men can have: on the top squares.
    fn black_least(count: u32) -> u32 {
        Self::black_sum(Self::SQUARES - count, Self::SQUARES)
    }

    /// The most advancement `count` Black men can have: on the lowest squares
    /// Black may use.
    fn black_most(count: u32) -> u32 {
        Self::black_sum(Self::HALF, Self::HALF + count)
    }

    /// The squares slot `slot` may try, once the slots before it are placed (the
    /// previous one on `previous`).
    fn first_candidates(&self, slot: usize, previous: Option<u32>) -> u64 {
        let above = previous.map_or(!0, |s| !0u64 << s << 1);
        let mut candidates = if slot < self.white {
            Self::WHITE_DOMAIN & above
        } else if slot == self.white {
            Self::BLACK_DOMAIN & !self.taken[slot]
        } else {
            Self::BLACK_DOMAIN & !self.taken[slot] & above
        };
        if slot + 1 == self.slots {
            // The last man must complete the key exactly: one rank only.
            let need = self.key.checked_sub(self.sum[slot]);
            let rank = match need {
                Some(need) if slot < self.white && need < Self::TOP => need,
                Some(need) if slot >= self.white && need < Self::TOP => Self::TOP - need,
                _ => return 0,
            };
            candidates &= ((1 << Self::HALF) - 1) << (rank * Self::HALF);
        }
        candidates
    }

    /// The placement once the last slot has taken its square (`taken` has all men).
    fn emit(&self, taken: u64) -> MenPlacement {
        let white_men = if self.white == self.slots {
            taken
        } else {
            self.taken[self.white]
        };
        let black_men = taken & !white_men;
        MenPlacement {
            index: self.indexer.men_index_dense(white_men, black_men),
            white_men: to_padded::<V>(white_men),
            black_men: to_padded::<V>(black_men),
        }
    }
}

impl<V: Variant> Iterator for MenIndices<'_, V> {
    type Item = MenPlacement;

    fn next(&mut self) -> Option<MenPlacement> {
        if self.slots == 0 {
            let pending = std::mem::take(&mut self.empty_pending);
            return pending.then_some(MenPlacement {
                index: 0,
                white_men: 0,
                black_men: 0,
            });
        }
        loop {
            let slot = self.depth;
            let candidates = self.candidates[slot];
            if candidates == 0 {
                if slot == 0 {
                    return None;
                }
                self.depth -= 1;
                continue;
            }
            let square = candidates.trailing_zeros();
            self.candidates[slot] = candidates & (candidates - 1);
            let last = slot + 1 == self.slots;
            let total;
            if slot < self.white {
                total = self.sum[slot] + Self::rank(square);
                if !last {
                    // Higher squares only raise both bounds: stop when too high.
                    let more_white = (self.white - 1 - slot) as u32;
                    let black = (self.slots - self.white) as u32;
                    let white_end = Self::SQUARES - Self::HALF;
                    if square + more_white >= white_end
                        || total
                            + Self::rank_sum(square + 1, square + 1 + more_white)
                            + Self::black_least(black)
                            > self.key
                    {
                        self.candidates[slot] = 0;
                        continue;
                    }
                    if total
                        + Self::rank_sum(white_end - more_white, white_end)
                        + Self::black_most(black)
                        < self.key
                    {
                        continue;
                    }
                }
            } else {
                total = self.sum[slot] + Self::TOP - Self::rank(square);
                if !last {
                    // Higher squares only lower both bounds: stop when too low.
                    let more = (self.slots - 1 - slot) as u32;
                    if square + more >= Self::SQUARES
                        || total + Self::black_sum(square + 1, square + 1 + more) < self.key
                    {
                        self.candidates[slot] = 0;
                        continue;
                    }
                    if total + Self::black_least(more) > self.key {
                        continue;
                    }
                }
            }
            let taken = self.taken[slot] | 1 << square;
            if last {
                return Some(self.emit(taken));
            }
            self.taken[slot + 1] = taken;
            self.sum[slot + 1] = total;
            self.candidates[slot + 1] = self.first_candidates(slot + 1, Some(square));
            self.depth = slot + 1;
        }
    }
}
