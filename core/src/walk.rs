//! Walking the positions of one block (one men placement, every king placement) in
//! index order, each position made from the one before instead of unranked.
//!
//! The generator visits every position of a block once per pass, and unranking
//! each index costs a binary search per king ([`crate::binomial::colex_unrank`]);
//! that showed as 15 % of a build's profile. Within a block the men stand still,
//! so the walk keeps each colour's kings as a *compact* set over the squares left
//! free to it (bit `r` is its `r`-th free square). Colex order of `k`-subsets is
//! numeric order of their bit masks, so the next placement is the next larger mask
//! with the same number of bits (Gosper's step), and a table maps compact bits back
//! to board squares. Black's kings run fastest, as in the index
//! ([`crate::index`]); its table is rebuilt only when White's kings move on.
//!
//! The other way, [`BlockRanks`] ranks a king placement of a known block by a
//! table from each square to its rank among the free squares, instead of
//! converting the whole position to dense masks first: the generator's backward
//! pass ranks every predecessor of every decided position this way.

use crate::binomial::{binomial, colex_rank, colex_rank_in, colex_unrank};
use crate::dense::to_padded;
use crate::index::SliceIndexer;
use crate::position::{rotate, Bits, Color, Position};
use crate::variant::Variant;

/// The next larger mask with as many bits set as `set` (which must not be 0).
#[inline]
fn next_combination(set: u64) -> u64 {
    let low = set & set.wrapping_neg();
    let ripple = set + low;
    ripple | (((set ^ ripple) >> 2) / low)
}

/// The padded bits of the compact `set` over the squares listed in `squares`.
#[inline]
fn expand(mut set: u64, squares: &[u64; 64]) -> u64 {
    let mut out = 0;
    while set != 0 {
        out |= squares[set.trailing_zeros() as usize];
        set &= set - 1;
    }
    out
}

/// The positions of one block from a starting king placement on, in index order
/// (White to move). An [`Iterator`] that ends at the block's last position.
pub struct BlockWalk<V: Variant> {
    white_men: u64,
    black_men: u64,
    /// Padded bit of each square free of men, in square order.
    free: [u64; 64],
    /// Padded bit of each square free of men and White's kings, in square order.
    black_free: [u64; 64],
    free_count: u32,
    black_kings: u32,
    /// White's kings, compact over `free`.
    white: u64,
    /// Black's kings, compact over `black_free`.
    black: u64,
    /// White's kings as padded bits.
    white_padded: u64,
    /// Black placements left for the current White placement, this one included.
    black_left: u64,
    /// Positions left in the walk.
    left: u64,
    black_placements: u64,
    _variant: std::marker::PhantomData<V>,
}

impl<V: Variant> BlockWalk<V> {
    /// The walk over block `men_index` of `indexer`, starting at the king
    /// placement `start` (below [`SliceIndexer::king_placements`]).
    pub fn new(indexer: &SliceIndexer<V>, men_index: u64, start: u64) -> BlockWalk<V> {
        let slice = indexer.slice();
        let (white_men, black_men) = indexer.men_dense(men_index);
        let squares = V::GEOMETRY.squares as u32;
        let board = (1u64 << squares) - 1;
        let mut free = [0u64; 64];
        let mut free_count = 0;
        let mut rest = board & !(white_men | black_men);
        while rest != 0 {
            free[free_count as usize] = to_padded::<V>(rest & rest.wrapping_neg());
            free_count += 1;
            rest &= rest - 1;
        }
        let (white_kings, black_kings) = (slice.white_kings(), slice.black_kings());
        let black_placements = binomial(free_count - white_kings, black_kings);
        let kings = indexer.king_placements();
        debug_assert!(start < kings);
        let (white_rank, black_rank) = (start / black_placements, start % black_placements);
        let white = colex_unrank(white_rank, white_kings, free_count);
        let black = colex_unrank(black_rank, black_kings, free_count - white_kings);
        let mut walk = BlockWalk {
            white_men: to_padded::<V>(white_men),
            black_men: to_padded::<V>(black_men),
            free,
            black_free: [0; 64],
            free_count,
            black_kings,
            white,
            black,
            white_padded: expand(white, &free),
            black_left: black_placements - black_rank,
            left: kings - start,
            black_placements,
            _variant: std::marker::PhantomData,
        };
        walk.fill_black_free();
        walk
    }

    /// Rebuilds the table of squares left to Black's kings.
    fn fill_black_free(&mut self) {
        let mut n = 0;
        for r in 0..self.free_count as usize {
            if self.white >> r & 1 == 0 {
                self.black_free[n] = self.free[r];
                n += 1;
            }
        }
    }

    /// Moves to the next king placement (there must be one).
    #[inline]
    fn advance(&mut self) {
        self.black_left -= 1;
        if self.black_left > 0 {
            self.black = next_combination(self.black);
            return;
        }
        self.white = next_combination(self.white);
        self.white_padded = expand(self.white, &self.free);
        self.black = (1u64 << self.black_kings) - 1;
        self.black_left = self.black_placements;
        self.fill_black_free();
    }
}

impl<V: Variant> Iterator for BlockWalk<V> {
    type Item = Position<V>;

    #[inline]
    fn next(&mut self) -> Option<Position<V>> {
        if self.left == 0 {
            return None;
        }
        let black_padded = expand(self.black, &self.black_free);
        let position = Position::from_bitboards_unchecked(
            self.white_men | self.white_padded,
            self.black_men | black_padded,
            self.white_padded | black_padded,
            Color::White,
        );
        self.left -= 1;
        // Kings-only or one-king sides: a set of 0 bits has no successor, and the
        // walk never asks for one, since it ends first.
        if self.left > 0 {
            self.advance();
        }
        Some(position)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.left).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

/// The positions of a slice at the indices a caller asks for, mostly in
/// increasing order: each index one past the last is made from the position
/// before ([`BlockWalk`]), any other unranked. For readers that walk a slice
/// run by run, such as verification.
pub struct IndexWalk<V: Variant> {
    /// The index the walk gives next.
    next: u64,
    walk: Option<BlockWalk<V>>,
}

impl<V: Variant> Default for IndexWalk<V> {
    fn default() -> Self {
        IndexWalk {
            next: 0,
            walk: None,
        }
    }
}

impl<V: Variant> IndexWalk<V> {
    /// The position at `index` of `indexer`'s slice, which must be below its size
    /// (and the same slice at every call).
    #[inline]
    pub fn position(&mut self, indexer: &SliceIndexer<V>, index: u64) -> Position<V> {
        if index == self.next {
            if let Some(pos) = self.walk.as_mut().and_then(Iterator::next) {
                self.next += 1;
                return pos;
            }
        }
        let block = indexer.king_placements();
        let mut walk = BlockWalk::new(indexer, index / block, index % block);
        let pos = walk.next().expect("a block walk starts at a position");
        (self.next, self.walk) = (index + 1, Some(walk));
        pos
    }
}

/// The king placements of one block, ranked by table: [`BlockRanks::kings_index`]
/// equals [`SliceIndexer::kings_index`] for the block's positions.
pub struct BlockRanks {
    /// Rank among the squares free of men, by padded square.
    rank: [u8; 64],
    black_placements: u64,
}

impl BlockRanks {
    /// The ranks of block `men_index` of `indexer`.
    pub fn new<V: Variant>(indexer: &SliceIndexer<V>, men_index: u64) -> BlockRanks {
        let (white_men, black_men) = indexer.men(men_index);
        BlockRanks::of(indexer, white_men | black_men, |square| square)
    }

    /// The ranks of the block whose men are `white_men` and `black_men` (padded,
    /// legal for `indexer`'s slice), with each square looked up *rotated by 180
    /// degrees*: [`BlockRanks::kings_index`] takes the kings of the position
    /// before the flip. The generator's forward pass ranks the successors of a
    /// quiet man move this way, the block it leads to being the same for every
    /// king placement, without flipping each successor and indexing it whole.
    pub fn rotated<V: Variant>(
        indexer: &SliceIndexer<V>,
        white_men: u64,
        black_men: u64,
    ) -> BlockRanks {
        BlockRanks::of(indexer, white_men | black_men, rotate::<V>)
    }

    /// The ranks of the squares free of `men` (padded), each stored at the bit
    /// `place` gives its padded bit.
    fn of<V: Variant>(
        indexer: &SliceIndexer<V>,
        men: u64,
        place: impl Fn(u64) -> u64,
    ) -> BlockRanks {
        let mut rank = [0u8; 64];
        let mut rest = V::GEOMETRY.mask & !men;
        let mut r = 0;
        while rest != 0 {
            let square = rest & rest.wrapping_neg();
            rank[place(square).trailing_zeros() as usize] = r;
            r += 1;
            rest &= rest - 1;
        }
        let slice = indexer.slice();
        BlockRanks {
            rank,
            black_placements: binomial(u32::from(r) - slice.white_kings(), slice.black_kings()),
        }
    }

    /// The offset in the block of the position with these kings (padded bits,
    /// White to move): White's kings ranked among the free squares, Black's among
    /// those White's kings leave.
    #[inline]
    pub fn kings_index(&self, white_kings: u64, black_kings: u64) -> u64 {
        self.compact_index(self.compact(white_kings), self.compact(black_kings))
    }

    /// The kings `kings` (padded bits) as a compact set: bit `r` for the `r`-th
    /// square free of men.
    #[inline]
    pub fn compact(&self, kings: u64) -> u64 {
        Bits(kings).fold(0u64, |set, square| set | self.compact_bit(square))
    }

    /// The compact bit of the padded square `square`.
    #[inline]
    pub fn compact_bit(&self, square: u32) -> u64 {
        1 << self.rank[square as usize]
    }

    /// [`BlockRanks::kings_index`] of kings given as compact sets
    /// ([`BlockRanks::compact`]): the generator's backward pass, which ranks
    /// many placements that differ in one king, makes the sets once.
    #[inline]
    pub fn compact_index(&self, white: u64, black: u64) -> u64 {
        colex_rank(white) * self.black_placements + colex_rank_in(black, !white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slice::Slice;
    use crate::variant::{International, Russian};

    fn walks_like_unranking<V: Variant>(name: &str) {
        let indexer = SliceIndexer::<V>::new(name.parse::<Slice>().unwrap()).unwrap();
        let k = indexer.king_placements();
        let blocks = indexer.men_placements();
        for men in [0, blocks / 3, blocks - 1] {
            let mut starts = vec![0, 1.min(k - 1), k / 2, k - 1];
            starts.dedup();
            for start in starts {
                let walked: Vec<_> = BlockWalk::new(&indexer, men, start).collect();
                assert_eq!(walked.len() as u64, k - start, "{name} block {men}");
                let ranks = BlockRanks::new(&indexer, men);
                for (i, pos) in walked.iter().enumerate() {
                    let offset = start + i as u64;
                    assert_eq!(*pos, indexer.position(men * k + offset), "{name}");
                    let in_block = indexer.position_in_block(indexer.men(men), offset);
                    assert_eq!(*pos, in_block, "{name}");
                    let (kings, white, black) = (pos.kings(), pos.white(), pos.black());
                    assert_eq!(ranks.kings_index(white & kings, black & kings), offset);
                    // The same block seen rotated: rank the kings of the flipped position.
                    let (white_men, black_men) = indexer.men(men);
                    let rotated = BlockRanks::rotated(&indexer, white_men, black_men);
                    let flipped = pos.flipped();
                    let (fk, fw, fb) = (flipped.kings(), flipped.white(), flipped.black());
                    assert_eq!(rotated.kings_index(fb & fk, fw & fk), offset);
                }
            }
        }
    }

    #[test]
    fn walk_equals_unranking() {
        for name in [
            "0M3K-0M1K",
            "0M2K-0M2K",
            "1M1K-1M1K",
            "2M0K-1M0K",
            "1M0K-0M3K",
            "2M2K-1M0K",
        ] {
            walks_like_unranking::<Russian>(name);
        }
        for name in ["0M2K-0M1K", "1M1K-1M0K", "2M0K-0M2K"] {
            walks_like_unranking::<International>(name);
        }
    }

    #[test]
    fn index_walk_equals_unranking_in_runs_and_jumps() {
        for name in ["1M1K-1M1K", "2M2K-1M0K", "0M3K-0M1K"] {
            let indexer = SliceIndexer::<Russian>::new(name.parse::<Slice>().unwrap()).unwrap();
            let (size, k) = (indexer.size(), indexer.king_placements());
            // Runs across block ends, a jump back, a jump ahead and a repeat.
            let indices = (0..2 * k + 3)
                .chain([k - 1, size / 2, size / 2 + 1, size / 2 + 1])
                .chain(size.saturating_sub(k + 2)..size)
                .filter(|&i| i < size);
            let mut walk = IndexWalk::default();
            for index in indices {
                assert_eq!(
                    walk.position(&indexer, index),
                    indexer.position(index),
                    "{name} {index}"
                );
            }
        }
    }
}
