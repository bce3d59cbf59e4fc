//! All slices up to a number of pieces, what each depends on, and an order to
//! build them in.
//!
//! # Dependencies
//!
//! A move from a White-to-move position of slice `S` gives a Black-to-move
//! position, stored in the slice of its flipped material:
//!
//! - a quiet move that promotes nothing keeps the material: it leads to
//!   `mirror(S)`;
//! - a promotion (quiet, or at the end of a capture) turns a man into a king;
//! - a capture removes at least one enemy piece. A capture that leaves the enemy
//!   no pieces ends the game and needs no table.
//!
//! The dependencies of `S` are the slices one move from `S` or from `mirror(S)`,
//! other than those two. `S` and `mirror(S)` form one *solve group*: they depend
//! on each other through quiet moves, so they are solved together (sub-slice by
//! sub-slice, see [`crate::subslice`]) and listed next to each other.
//!
//! Dependencies are computed on the material alone: every capture of one to all of
//! the enemy's pieces counts, whether or not the board allows it. That is a
//! superset of the true dependencies, which is what a build order needs.
//!
//! # Build order
//!
//! By number of pieces, then by number of men, ascending. A capture lowers the
//! piece count and a promotion the men count, so every dependency comes first;
//! within the same counts the solve groups are listed with the side with more
//! pieces (then more men) as White first.

use std::cmp::Reverse;

use crate::error::IndexError;
use crate::index::SliceIndexer;
use crate::slice::Slice;
use crate::subslice::SubSlice;
use crate::variant::Variant;

/// Every slice of variant `V` with at most `max_pieces` pieces, in build order:
/// dependencies before dependants, a slice and its mirror adjacent.
pub fn build_order<V: Variant>(max_pieces: u32) -> Vec<Slice> {
    let mut slices = Vec::new();
    for pieces in 2..=max_pieces {
        for white in 1..pieces {
            let black = pieces - white;
            for white_men in 0..=white {
                for black_men in 0..=black {
                    let Ok(slice) =
                        Slice::new(white_men, white - white_men, black_men, black - black_men)
                    else {
                        continue;
                    };
                    // Keep slices too large for a u64 index: `summaries` reports them.
                    let fits = !matches!(
                        SliceIndexer::<V>::new(slice),
                        Err(IndexError::DoesNotFit { .. })
                    );
                    if fits {
                        slices.push(slice);
                    }
                }
            }
        }
    }
    slices.sort_by_key(|&slice| order_key(slice));
    slices
}

/// Sort key of the build order; see the module docs.
fn order_key(slice: Slice) -> (u32, u32, Reverse<(u32, u32, u32)>, bool) {
    let first = group_key(slice).max(group_key(slice.mirror()));
    (
        slice.pieces(),
        slice.men(),
        Reverse(first),
        group_key(slice) != first,
    )
}

/// White's pieces, White's men, Black's men: with the total counts, these name a
/// slice.
fn group_key(slice: Slice) -> (u32, u32, u32) {
    (
        slice.white_men() + slice.white_kings(),
        slice.white_men(),
        slice.black_men(),
    )
}

/// The slices one White move from `slice` can lead to, each as the slice of the
/// resulting Black-to-move position (so with the material flipped). Includes
/// `mirror(slice)` when a quiet move is possible.
pub fn successors(slice: Slice) -> Vec<Slice> {
    let (wm, wk, bm, bk) = (
        slice.white_men(),
        slice.white_kings(),
        slice.black_men(),
        slice.black_kings(),
    );
    // White's men and kings after the move, without captures.
    let mut movers = Vec::new();
    if wm + wk > 0 {
        movers.push((wm, wk));
    }
    if wm > 0 {
        movers.push((wm - 1, wk + 1));
    }
    let mut out = Vec::new();
    for &(men, kings) in &movers {
        for black_men in 0..=bm {
            for black_kings in 0..=bk {
                // After the move Black is to move: store the flipped material.
                if let Ok(next) = Slice::new(black_men, black_kings, men, kings) {
                    out.push(next);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The slices that must be built before `slice` (and its mirror): those one move
/// from either, other than the two themselves. Sorted.
pub fn dependencies(slice: Slice) -> Vec<Slice> {
    let mut out = successors(slice);
    out.extend(successors(slice.mirror()));
    out.retain(|&s| s != slice && s != slice.mirror());
    out.sort();
    out.dedup();
    out
}

/// What `damka slices` reports about one slice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceSummary {
    /// The slice.
    pub slice: Slice,
    /// Its number of positions.
    pub positions: u64,
    /// Its non-empty sub-slices, in solving order.
    pub sub_slices: Vec<SubSlice>,
    /// What must be built first.
    pub dependencies: Vec<Slice>,
}

/// The summaries of every slice of `V` up to `max_pieces` pieces, in build order.
pub fn summaries<V: Variant>(max_pieces: u32) -> Result<Vec<SliceSummary>, IndexError> {
    build_order::<V>(max_pieces)
        .into_iter()
        .map(|slice| {
            let indexer = SliceIndexer::<V>::new(slice)?;
            Ok(SliceSummary {
                slice,
                positions: indexer.size(),
                sub_slices: indexer.sub_slices(),
                dependencies: dependencies(slice),
            })
        })
        .collect()
}
