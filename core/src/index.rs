//! The index of a slice: a bijection between its positions and `0..size`, with no
//! holes and no illegal positions, built from the combinatorial number system
//! ([`crate::binomial`]).
//!
//! # Layout
//!
//! ```text
//! index = men_index * K + kings_index
//! ```
//!
//! where `K` is the number of ways to place the kings once the men stand
//! ([`SliceIndexer::king_placements`]). Each men placement is one contiguous block
//! of `K` positions. A king move keeps the men where they are: it leads from a
//! block of slice `S` to the block of the flipped men placement in `mirror(S)`.
//! King moves, the only moves that can cycle, therefore stay inside such a pair of
//! blocks, and the generator can solve each pair as a small, cache-friendly
//! subgame, many pairs in parallel. A man move leaves the pair, and the sub-slice
//! key ([`crate::subslice`]) orders the blocks so that it always leads to one
//! solved earlier.
//!
//! ## Men
//!
//! White's men stand on the squares below rank `WIDTH - 1`; Black's men on the
//! squares above rank 0 that White's men leave free. How many squares that leaves
//! Black depends on how many White men stand on the shared ranks, so the men
//! placements are grouped by `m`, the number of White men off White's back rank:
//!
//! ```text
//! men_index = offset[m] + (back * C(MIDDLE, m) + middle) * C(BLACK - m, black_men) + black
//! ```
//!
//! with `back` the colex rank of White's men on rank 0 (`H` squares), `middle` that of
//! White's other men among the `MIDDLE = N - 2H` squares of ranks `1..WIDTH-1`, and
//! `black` that of Black's men among the `BLACK - m` squares left to them
//! (`BLACK = N - H`).
//!
//! ## Kings
//!
//! ```text
//! kings_index = white_kings_rank * C(N - men - white_kings, black_kings) + black_kings_rank
//! ```
//!
//! White's kings are ranked among the squares the men leave, Black's among those
//! left after White's kings. A square's rank among the free squares is a popcount of
//! the dense mask ([`crate::dense`]) below it; the inverse selects the `r`-th free
//! square by a short fixed-point iteration. Unranking finds each member of a set
//! by a branch-free binary search in a row of the binomial table, the lowest two by
//! one lookup, and divides by multiplying with precomputed reciprocals. Both
//! directions read only shared static tables and a few per-slice constants: no
//! allocation, no per-call tables.
//!
//! # Side to move and material
//!
//! The index covers White-to-move positions of exactly the slice's material. Probing
//! code flips a Black-to-move position first ([`crate::slice::white_to_move`]).
//! [`SliceIndexer::index`] only checks this with `debug_assert!` (it is on the hot
//! path); [`SliceIndexer::try_index`] checks it and returns an [`IndexError`].
//!
//! # No kings-only symmetry
//!
//! In a kings-only slice the reflection in the long diagonal (a1–h8, 46–5), the
//! reflection in the perpendicular diagonal (a8–h1, over light squares) and their
//! product, the 180° rotation, map positions to positions of equal value, so an
//! index over symmetry classes would be nearly 4 times smaller. It is not done: the
//! squares of the long diagonal are fixed points of its reflection, so the classes
//! do not all have 4 members, and a hole-free index over them needs a case split
//! per fixed-point pattern: a second indexing scheme to test and to keep fast, for
//! little gain. Kings-only positions are a small share of
//! every piece count, falling by about half per extra piece (measured by the test
//! `kings_only_share_is_small` in `core/tests/index.rs`; positions per side to move):
//!
//! | pieces | Russian: kings-only / all    | share   | International: kings-only / all  | share   |
//! |-------:|-----------------------------:|--------:|---------------------------------:|--------:|
//! | 2      | 992 / 3,488                  | 28.44 % | 2,450 / 8,845                    | 27.70 % |
//! | 3      | 29,760 / 196,032             | 15.18 % | 117,600 / 806,300                | 14.59 % |
//! | 4      | 503,440 / 6,209,316          | 8.11 %  | 3,224,200 / 41,971,200           | 7.68 %  |
//! | 5      | 6,041,280 / 139,450,808      | 4.33 %  | 63,562,800 / 1,570,600,750       | 4.05 %  |
//! | 6      | 56,183,904 / 2,426,085,676   | 2.32 %  | 985,223,400 / 46,198,758,750     | 2.13 %  |
//! | 7      | 424,097,856 / 34,243,113,624 | 1.24 %  | 12,585,434,400 / 1,119,691,797,720 | 1.12 % |
//!
//! Saving 3/4 of the kings-only positions would shrink the 7-piece tables by 0.93 %
//! (Russian) and 0.84 % (International), and everything up to 7 pieces by 0.99 % and
//! 0.88 %: not worth a second, harder index.

use std::marker::PhantomData;

use crate::binomial::{binomial, colex_rank, colex_rank_in, colex_unrank, colex_unrank_in};
use crate::dense::{to_dense, to_padded};
use crate::error::IndexError;
use crate::position::{Color, Position};
use crate::slice::{material_name, Slice};
use crate::variant::Variant;

/// Most White men a slice may have (the International starting count).
const MAX_MEN: usize = 20;

/// The men placements with `m` White men off White's back rank.
#[derive(Debug, Clone, Copy, Default)]
struct MenGroup {
    /// First men index of the group.
    offset: u64,
    /// One past its last men index.
    end: u64,
    /// Placements of the `m` White men on the middle ranks.
    middle: Divisor,
    /// Placements of Black's men on the squares left to them.
    black: Divisor,
}

/// A divisor with its precomputed reciprocal, so that unranking divides by
/// multiplying: with `M = ceil(2^128 / d)`, `floor(n / d) = floor(M * n / 2^128)` for
/// every 64-bit `n` (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019). Two 64-bit multiplications instead of a division.
#[derive(Debug, Clone, Copy, Default)]
struct Divisor {
    value: u64,
    /// `ceil(2^128 / value)`, or 0 for 0 and 1 (which are not divided by that way).
    magic: u128,
}

impl Divisor {
    fn new(value: u64) -> Divisor {
        let magic = if value > 1 {
            u128::MAX / value as u128 + 1
        } else {
            0
        };
        Divisor { value, magic }
    }

    /// `(n / value, n % value)`.
    #[inline]
    fn div_rem(self, n: u64) -> (u64, u64) {
        let quotient = if self.magic == 0 {
            n
        } else {
            let low = (self.magic as u64 as u128 * n as u128) >> 64;
            (((self.magic >> 64) * n as u128 + low) >> 64) as u64
        };
        (quotient, n - quotient * self.value)
    }
}

/// The index of one slice of variant `V`: built once per slice, then
/// [`SliceIndexer::index`] and [`SliceIndexer::position`] are cheap, allocation-free
/// inverses. See the module docs for the layout.
#[derive(Debug, Clone)]
pub struct SliceIndexer<V: Variant> {
    slice: Slice,
    white_men: u32,
    white_kings: u32,
    black_men: u32,
    black_kings: u32,
    groups: [MenGroup; MAX_MEN + 1],
    men_placements: u64,
    king_placements: Divisor,
    black_king_placements: Divisor,
    size: u64,
    variant: PhantomData<V>,
}

impl<V: Variant> SliceIndexer<V> {
    /// Squares per rank.
    const HALF: u32 = V::GEOMETRY.half;
    /// Dark squares on the board.
    const SQUARES: u32 = V::GEOMETRY.squares as u32;
    /// Dense mask of rank 0, White's back rank.
    const BACK_RANK: u64 = (1 << Self::HALF) - 1;

    /// Builds the index of `slice`, or says why the slice does not fit the variant.
    pub fn new(slice: Slice) -> Result<Self, IndexError> {
        let (white_men, white_kings) = (slice.white_men(), slice.white_kings());
        let (black_men, black_kings) = (slice.black_men(), slice.black_kings());
        let half = Self::HALF;
        let squares = Self::SQUARES;
        let legal = squares - half;
        let middle_squares = squares - 2 * half;
        let fits = white_men + white_kings <= V::MAX_PIECES_PER_SIDE
            && black_men + black_kings <= V::MAX_PIECES_PER_SIDE
            && white_men as usize <= MAX_MEN
            && slice.pieces() <= squares;
        if !fits {
            return Err(IndexError::DoesNotFit {
                slice: slice.name(),
                variant: V::KIND.name(),
            });
        }
        let too_large = || IndexError::TooLarge(slice.name());
        let mut groups = [MenGroup::default(); MAX_MEN + 1];
        let mut offset = 0u64;
        for (m, group) in groups.iter_mut().enumerate().take(white_men as usize + 1) {
            let m = m as u32;
            let back = binomial(half, white_men - m);
            let middle = binomial(middle_squares, m);
            let black = if black_men + m <= legal {
                binomial(legal - m, black_men)
            } else {
                0
            };
            let count = back
                .checked_mul(middle)
                .and_then(|n| n.checked_mul(black))
                .ok_or_else(too_large)?;
            let end = offset.checked_add(count).ok_or_else(too_large)?;
            *group = MenGroup {
                offset,
                end,
                middle: Divisor::new(middle),
                black: Divisor::new(black),
            };
            offset = end;
        }
        let men_placements = offset;
        let free = squares - slice.men();
        let black_king_placements = binomial(free - white_kings, black_kings);
        let king_placements = binomial(free, white_kings)
            .checked_mul(black_king_placements)
            .ok_or_else(too_large)?;
        let size = men_placements
            .checked_mul(king_placements)
            .ok_or_else(too_large)?;
        if size == 0 {
            return Err(IndexError::DoesNotFit {
                slice: slice.name(),
                variant: V::KIND.name(),
            });
        }
        Ok(SliceIndexer {
            slice,
            white_men,
            white_kings,
            black_men,
            black_kings,
            groups,
            men_placements,
            king_placements: Divisor::new(king_placements),
            black_king_placements: Divisor::new(black_king_placements),
            size,
            variant: PhantomData,
        })
    }

    /// The slice this index covers.
    #[inline]
    pub fn slice(&self) -> Slice {
        self.slice
    }

    /// Number of positions: indices run over `0..size()`.
    #[inline]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Number of men placements: men indices run over `0..men_placements()`.
    #[inline]
    pub fn men_placements(&self) -> u64 {
        self.men_placements
    }

    /// `K`, the number of king placements per men placement: the size of one block.
    #[inline]
    pub fn king_placements(&self) -> u64 {
        self.king_placements.value
    }

    /// The index of a White-to-move position of this slice's material.
    ///
    /// Other positions give a meaningless result; debug builds panic on them. Use
    /// [`SliceIndexer::try_index`] where the position is not known to fit.
    #[inline]
    pub fn index(&self, position: &Position<V>) -> u64 {
        debug_assert_eq!(
            position.side(),
            Color::White,
            "index of a Black-to-move position"
        );
        debug_assert_eq!(
            position.material(),
            self.slice.material(),
            "index of a position outside the slice"
        );
        let white = to_dense::<V>(position.white());
        let black = to_dense::<V>(position.black());
        let kings = to_dense::<V>(position.kings());
        let (white_men, black_men) = (white & !kings, black & !kings);
        self.men_index_dense(white_men, black_men) * self.king_placements.value
            + self.kings_index_dense(white_men | black_men, white & kings, black & kings)
    }

    /// The offset of a White-to-move position of this slice's material in its
    /// block: the index less the men placement's part ([`SliceIndexer::index`]
    /// is `men_index * K + kings_index`). Cheaper than the whole index when the
    /// block is known, as it is for king moves, which keep the men.
    #[inline]
    pub fn kings_index(&self, position: &Position<V>) -> u64 {
        let white = to_dense::<V>(position.white());
        let black = to_dense::<V>(position.black());
        let kings = to_dense::<V>(position.kings());
        self.kings_index_dense((white | black) & !kings, white & kings, black & kings)
    }

    /// The index of a position, checking that White is to move and that the
    /// material is the slice's.
    pub fn try_index(&self, position: &Position<V>) -> Result<u64, IndexError> {
        if position.side() != Color::White {
            return Err(IndexError::BlackToMove);
        }
        let material = position.material();
        if material != self.slice.material() {
            return Err(IndexError::WrongMaterial {
                expected: self.slice.name(),
                found: material_name(&material),
            });
        }
        Ok(self.index(position))
    }

    /// The position with a given index, White to move. `index` must be below
    /// [`SliceIndexer::size`] (checked by `debug_assert!`).
    #[inline]
    pub fn position(&self, index: u64) -> Position<V> {
        debug_assert!(index < self.size, "index {index} out of range");
        let (men_index, kings_index) = self.king_placements.div_rem(index);
        let (white_men, black_men) = self.men_dense(men_index);
        let (white_kings, black_kings) = self.kings_dense(kings_index, white_men | black_men);
        Position::from_bitboards_unchecked(
            to_padded::<V>(white_men | white_kings),
            to_padded::<V>(black_men | black_kings),
            to_padded::<V>(white_kings | black_kings),
            Color::White,
        )
    }

    /// The position at offset `kings_index` of the block whose men are `men`
    /// (White's and Black's, padded, as [`SliceIndexer::men`] gives them):
    /// [`SliceIndexer::position`] without unranking the men, for a caller that
    /// knows its block.
    #[inline]
    pub fn position_in_block(
        &self,
        (white_men, black_men): (u64, u64),
        kings_index: u64,
    ) -> Position<V> {
        debug_assert!(kings_index < self.king_placements.value);
        let men = to_dense::<V>(white_men | black_men);
        let (white_kings, black_kings) = self.kings_dense(kings_index, men);
        let (white_kings, black_kings) = (to_padded::<V>(white_kings), to_padded::<V>(black_kings));
        Position::from_bitboards_unchecked(
            white_men | white_kings,
            black_men | black_kings,
            white_kings | black_kings,
            Color::White,
        )
    }

    /// The position with a given index, or an error if it is out of range.
    pub fn try_position(&self, index: u64) -> Result<Position<V>, IndexError> {
        if index >= self.size {
            return Err(IndexError::OutOfRange {
                index,
                size: self.size,
            });
        }
        Ok(self.position(index))
    }

    /// The men index of a placement of men, given as padded bitboards of White's and
    /// Black's men (legal for this slice).
    #[inline]
    pub fn men_index(&self, white_men: u64, black_men: u64) -> u64 {
        self.men_index_dense(to_dense::<V>(white_men), to_dense::<V>(black_men))
    }

    /// The men placement with a given men index (below
    /// [`SliceIndexer::men_placements`]), as padded bitboards of White's and Black's
    /// men.
    #[inline]
    pub fn men(&self, men_index: u64) -> (u64, u64) {
        let (white_men, black_men) = self.men_dense(men_index);
        (to_padded::<V>(white_men), to_padded::<V>(black_men))
    }

    /// The men index in dense masks.
    #[inline]
    pub(crate) fn men_index_dense(&self, white_men: u64, black_men: u64) -> u64 {
        let middle = white_men >> Self::HALF;
        let group = &self.groups[middle.count_ones() as usize];
        let back_rank = colex_rank(white_men & Self::BACK_RANK);
        let middle_rank = colex_rank(middle);
        let black_rank = colex_rank_in(black_men, !(white_men | Self::BACK_RANK));
        group.offset
            + (back_rank * group.middle.value + middle_rank) * group.black.value
            + black_rank
    }

    /// The men placement of a men index in dense masks.
    #[inline]
    pub(crate) fn men_dense(&self, men_index: u64) -> (u64, u64) {
        debug_assert!(men_index < self.men_placements);
        let mut m = 0;
        while men_index >= self.groups[m].end {
            m += 1;
        }
        let group = &self.groups[m];
        let rest = men_index - group.offset;
        let (white_rank, black_rank) = group.black.div_rem(rest);
        let (back_rank, middle_rank) = group.middle.div_rem(white_rank);
        let m = m as u32;
        let white_men = colex_unrank(back_rank, self.white_men - m, Self::HALF)
            | colex_unrank(middle_rank, m, Self::SQUARES - 2 * Self::HALF) << Self::HALF;
        let black_domain = !(white_men | Self::BACK_RANK) & ((1 << Self::SQUARES) - 1);
        let black_men = colex_unrank_in(black_rank, self.black_men, black_domain);
        (white_men, black_men)
    }

    /// The kings index in dense masks, given the men.
    #[inline]
    fn kings_index_dense(&self, men: u64, white_kings: u64, black_kings: u64) -> u64 {
        let white_rank = colex_rank_in(white_kings, !men);
        let black_rank = colex_rank_in(black_kings, !(men | white_kings));
        white_rank * self.black_king_placements.value + black_rank
    }

    /// The kings of a kings index in dense masks, given the men.
    #[inline]
    fn kings_dense(&self, kings_index: u64, men: u64) -> (u64, u64) {
        let board = (1u64 << Self::SQUARES) - 1;
        let (white_rank, black_rank) = self.black_king_placements.div_rem(kings_index);
        let white_kings = colex_unrank_in(white_rank, self.white_kings, board & !men);
        let black_kings =
            colex_unrank_in(black_rank, self.black_kings, board & !(men | white_kings));
        (white_kings, black_kings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reciprocal_division_is_exact() {
        let dividends = [0, 1, 2, 3, 1000, u64::MAX / 3, u64::MAX - 1, u64::MAX];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for d in (1..2000).chain([u32::MAX as u64, 1 << 40, (1 << 63) + 1, u64::MAX]) {
            let divisor = Divisor::new(d);
            for n in dividends {
                assert_eq!(divisor.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
            for _ in 0..20 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(divisor.div_rem(x), (x / d, x % d), "{x} / {d}");
            }
        }
    }
}
