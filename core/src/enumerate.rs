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

/// `slice`, its mirror, and every slice either depends on, directly or through
/// others ([`dependencies`]), with their mirrors (a solve group is built
/// whole): all that must be built to build `slice`. Sorted.
pub fn closure(slice: Slice) -> Vec<Slice> {
    let mut out = vec![slice, slice.mirror()];
    let mut next = 0;
    while next < out.len() {
        for dep in dependencies(out[next]) {
            for member in [dep, dep.mirror()] {
                if !out.contains(&member) {
                    out.push(member);
                }
            }
        }
        next += 1;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{International, Russian};
    use std::collections::HashMap;

    fn slice(name: &str) -> Slice {
        name.parse().unwrap()
    }

    fn check_order<V: Variant>(max_pieces: u32, expected_slices: usize) {
        let order = build_order::<V>(max_pieces);
        assert_eq!(order.len(), expected_slices);
        let position: HashMap<Slice, usize> =
            order.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        assert_eq!(position.len(), order.len(), "no slice twice");
        for (i, &s) in order.iter().enumerate() {
            for dep in dependencies(s) {
                assert!(position[&dep] < i, "{dep} must come before {s}");
            }
            if !s.is_self_mirror() {
                let j = position[&s.mirror()];
                assert!(j + 1 == i || i + 1 == j, "{s} and its mirror are adjacent");
            }
        }
        // Solve groups start together: a slice's mirror never splits another pair.
        let mut i = 0;
        while i < order.len() {
            i += if order[i].is_self_mirror() { 1 } else { 2 };
        }
        assert_eq!(i, order.len());
    }

    #[test]
    fn build_order_is_topological() {
        // Every split of the pieces into four counts with a piece on each side.
        let count = |max: u32| -> usize {
            (2..=max)
                .flat_map(|p| (1..p).map(move |w| ((w + 1) * (p - w + 1)) as usize))
                .sum()
        };
        check_order::<Russian>(7, count(7));
        check_order::<International>(7, count(7));
        assert_eq!(build_order::<Russian>(2).len(), 4);
    }

    #[test]
    fn two_piece_dependencies() {
        assert_eq!(dependencies(slice("0M1K-0M1K")), vec![]);
        assert_eq!(dependencies(slice("1M0K-0M1K")), vec![slice("0M1K-0M1K")]);
        // Capturing the last man ends the game; promoting leads to 1M0K-0M1K.
        assert_eq!(dependencies(slice("1M0K-1M0K")), vec![slice("1M0K-0M1K")]);
        assert_eq!(
            successors(slice("1M0K-1M0K")),
            vec![slice("1M0K-0M1K"), slice("1M0K-1M0K")]
        );
    }

    #[test]
    fn dependencies_cover_captures_and_promotions() {
        let expected = [
            // White promotes quietly (capturing Black's man ends the game).
            "1M0K-0M2K",
            // Black promotes.
            "1M1K-0M1K",
            // Black captures White's man, without or with promoting.
            "0M1K-1M0K",
            "0M1K-0M1K",
            // Black captures White's king, without or with promoting.
            "1M0K-1M0K",
            "1M0K-0M1K",
        ];
        let mut expected: Vec<Slice> = expected.iter().map(|n| slice(n)).collect();
        expected.sort();
        assert_eq!(dependencies(slice("1M1K-1M0K")), expected);
        assert_eq!(dependencies(slice("1M0K-1M1K")), expected);
    }

    #[test]
    fn a_closure_holds_what_the_build_order_puts_first() {
        assert_eq!(closure(slice("0M1K-0M1K")), vec![slice("0M1K-0M1K")]);
        let expected = ["0M1K-0M1K", "0M1K-1M0K", "1M0K-0M1K", "1M0K-1M0K"];
        let expected: Vec<Slice> = expected.iter().map(|n| slice(n)).collect();
        assert_eq!(closure(slice("1M0K-1M0K")), expected);
        // Every dependency of a member is a member, and every member but the
        // slice and its mirror comes before them in the build order.
        let order = build_order::<Russian>(5);
        let at = |s: Slice| order.iter().position(|&o| o == s).unwrap();
        let target = slice("2M1K-1M1K");
        let members = closure(target);
        assert!(members.contains(&target.mirror()));
        for &member in &members {
            assert!(dependencies(member).iter().all(|d| members.contains(d)));
            if member != target && member != target.mirror() {
                assert!(at(member) < at(target).min(at(target.mirror())), "{member}");
            }
        }
        // Kings only: no promotion, so no five-piece slice with a man.
        assert!(closure(slice("0M3K-0M2K")).iter().all(|s| s.men() == 0));
        assert!(members.len() < order.len());
    }

    #[test]
    fn summaries_agree_with_the_indexer() {
        let summaries = summaries::<Russian>(3).unwrap();
        assert_eq!(summaries.len(), build_order::<Russian>(3).len());
        let total: u64 = summaries.iter().map(|s| s.positions).sum();
        assert_eq!(total, 3488 + 196_032);
        for s in &summaries {
            let sub: u64 = s.sub_slices.iter().map(|x| x.positions).sum();
            assert_eq!(sub, s.positions);
        }
    }
}
