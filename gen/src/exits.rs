//! Where a capture or promotion leads: the table of the material it reaches,
//! and the index of the position reached in it.
//!
//! The forward pass looks up the value of every capture and promotion of every
//! position. Indexing each position reached from scratch (flipping it, ranking
//! its men and kings) took about a tenth of a men-and-kings group's
//! instructions. But the positions of one block (one men placement) that make
//! the same capture reach the same block of the same table: only their kings
//! differ. So an [`ExitCache`] keeps the last blocks reached, each with its
//! first index and its rank table, and ranks only the kings.

use damka_core::position::rotate;
use damka_core::{BlockRanks, Material, Position, SliceIndexer, Variant};
use damka_formats::Wdl;

/// Keys of materials with fewer than 8 pieces of each kind.
const MATERIAL_KEYS: usize = 1 << 12;
/// No table of that material.
const NO_TABLE: u8 = u8::MAX;
/// Blocks shorter than this are not worth a rank table: their positions are
/// indexed whole.
pub const TABLED_BLOCK: u64 = 64;
/// Blocks an [`ExitCache`] keeps.
const CACHED_BLOCKS: usize = 16;

/// The key of a material with fewer than 8 pieces of each kind, or `None`.
#[inline]
fn material_key(m: &Material) -> Option<usize> {
    let counts = [m.white_men, m.white_kings, m.black_men, m.black_kings];
    if counts.iter().any(|&c| c >= 8) {
        return None;
    }
    Some(counts.iter().fold(0, |key, &c| key << 3 | c as usize))
}

/// The materials a group's conversions lead to, numbered as the metric numbers
/// its tables.
pub(crate) struct Exits<V: Variant> {
    indexers: Vec<SliceIndexer<V>>,
    /// The table of each material, by [`material_key`] ([`NO_TABLE`] where none).
    by_key: Box<[u8; MATERIAL_KEYS]>,
}

impl<V: Variant> Exits<V> {
    /// The exits to the slices of `indexers`, table `i` being `indexers[i]`.
    pub(crate) fn new(indexers: Vec<SliceIndexer<V>>) -> Exits<V> {
        let mut by_key = Box::new([NO_TABLE; MATERIAL_KEYS]);
        for (table, indexer) in indexers.iter().enumerate().take(usize::from(NO_TABLE)) {
            if let Some(key) = material_key(&indexer.slice().material()) {
                by_key[key] = table as u8;
            }
        }
        Exits { indexers, by_key }
    }

    /// The number of the table of `material`.
    #[inline]
    fn table_of(&self, material: &Material) -> usize {
        match material_key(material).map(|key| self.by_key[key]) {
            Some(table) if table != NO_TABLE => usize::from(table),
            _ => self
                .indexers
                .iter()
                .position(|i| i.slice().material() == *material)
                .unwrap_or_else(|| unreachable!("the table of {material:?} was not opened")),
        }
    }

    /// Where the value of the conversion that led to `after` is, with the
    /// table's entry prefetched by `prefetch` (given the table and index).
    #[inline]
    pub(crate) fn located(
        &self,
        after: &Position<V>,
        cache: &mut ExitCache,
        prefetch: impl FnOnce(usize, usize),
    ) -> Located {
        match self.locate(after, cache) {
            None => Located::Known(Wdl::Win, 1),
            Some((table, index)) => {
                prefetch(table as usize, index);
                Located::Entry { table, index }
            }
        }
    }

    /// The table and index of `after` (Black to move) flipped: the
    /// White-to-move position its table stores; `None` if Black has no piece
    /// left (the move won).
    #[inline]
    pub(crate) fn locate(
        &self,
        after: &Position<V>,
        cache: &mut ExitCache,
    ) -> Option<(u32, usize)> {
        if after.black() == 0 {
            return None;
        }
        if cache.off {
            let flipped = after.flipped();
            let table = self.table_of(&flipped.material());
            return Some((table as u32, self.indexers[table].index(&flipped) as usize));
        }
        let kings = after.kings();
        let (white_men, black_men) = (after.white() & !kings, after.black() & !kings);
        let hit = cache.blocks[..cache.len].iter().position(|b| {
            b.men == (white_men, black_men) && b.kings_per_side == kings_per_side(after)
        });
        let at = match hit {
            Some(at) => at,
            None => {
                let table = self.table_of(&after.flipped().material());
                let indexer = &self.indexers[table];
                let (white, black) = (rotate::<V>(black_men), rotate::<V>(white_men));
                let block = CachedBlock {
                    men: (white_men, black_men),
                    kings_per_side: kings_per_side(after),
                    table: table as u32,
                    base: indexer.men_index(white, black) * indexer.king_placements(),
                    ranks: BlockRanks::rotated(indexer, white, black),
                };
                cache.insert(block)
            }
        };
        let block = &cache.blocks[at];
        let offset = block
            .ranks
            .kings_index(after.black() & kings, after.white() & kings);
        Some((block.table, (block.base + offset) as usize))
    }
}

/// Where a conversion's value is: known at once, or an entry of a dependency.
#[derive(Clone, Copy)]
pub enum Located {
    /// The value, for the side that played the move.
    Known(Wdl, u16),
    /// Entry `index` of the metric's dependency number `table`.
    Entry {
        /// The dependency, numbered by the metric.
        table: u32,
        /// The position's index in it.
        index: usize,
    },
}

/// The number of kings of each side (White's, Black's): with the men, it fixes
/// the material, so the table.
#[inline]
fn kings_per_side<V: Variant>(pos: &Position<V>) -> (u8, u8) {
    let kings = pos.kings();
    (
        (pos.white() & kings).count_ones() as u8,
        (pos.black() & kings).count_ones() as u8,
    )
}

/// One block reached by conversions, as [`Exits::locate`] keeps it.
struct CachedBlock {
    /// The men of the position reached, before the flip (White's, Black's).
    men: (u64, u64),
    /// Its kings per side, before the flip.
    kings_per_side: (u8, u8),
    /// The table.
    table: u32,
    /// The block's first index in the table.
    base: u64,
    /// The block's ranks, seen before the flip.
    ranks: BlockRanks,
}

/// The blocks that conversions reached last, kept by one thread between the
/// positions it examines.
#[derive(Default)]
pub struct ExitCache {
    /// Index every position reached whole: positions come from blocks too short
    /// for a block to be reached twice.
    off: bool,
    blocks: Vec<CachedBlock>,
    /// Blocks in use.
    len: usize,
    /// The next to replace once full.
    next: usize,
}

impl ExitCache {
    /// Makes the cache one for positions from blocks of `block_size` positions:
    /// off for short blocks (men-heavy slices), where making a block's rank
    /// table costs more than indexing a few positions whole.
    pub fn set_block_size(&mut self, block_size: u64) {
        self.off = block_size < TABLED_BLOCK;
    }

    /// Keeps `block`, replacing the oldest once full; returns where it is.
    fn insert(&mut self, block: CachedBlock) -> usize {
        if self.len < CACHED_BLOCKS {
            self.blocks.push(block);
            self.len += 1;
            return self.len - 1;
        }
        let at = self.next;
        self.blocks[at] = block;
        self.next = (at + 1) % CACHED_BLOCKS;
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_core::{apply, legal_moves, Russian, Slice};

    /// Every capture and promotion of every position of a slice, located with a
    /// cache, lands where indexing the flipped position says.
    #[test]
    fn cached_blocks_index_like_the_indexer() {
        let slice: Slice = "2M1K-1M1K".parse().unwrap();
        let indexer = SliceIndexer::<Russian>::new(slice).unwrap();
        let targets: Vec<Slice> = damka_core::dependencies(slice);
        let exits = Exits::new(
            targets
                .iter()
                .map(|&t| SliceIndexer::<Russian>::new(t).unwrap())
                .collect(),
        );
        let mut caches = [ExitCache::default(), ExitCache::default()];
        caches[0].set_block_size(1);
        caches[1].set_block_size(indexer.king_placements());
        let mut checked = 0;
        for index in (0..indexer.size()).step_by(7) {
            let pos = indexer.position(index);
            for mv in legal_moves(&pos) {
                if !(mv.is_capture() || mv.is_promotion()) {
                    continue;
                }
                let after = apply(&pos, &mv);
                if after.black() == 0 {
                    continue;
                }
                for cache in &mut caches {
                    let (table, at) = exits.locate(&after, cache).expect("Black has pieces");
                    let flipped = after.flipped();
                    let target = &exits.indexers[table as usize];
                    assert_eq!(target.slice().material(), flipped.material());
                    assert_eq!(at as u64, target.index(&flipped));
                }
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} conversions checked");
    }
}
