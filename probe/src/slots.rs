//! The lazily opened tables of a directory: one slot per material, filled on first
//! use, so the hot path finds a slice's table without a lock. The game-theoretic
//! tables ([`crate::Tablebase`]) and the rule tables ([`crate::limits::RuleTablebase`])
//! both keep their files this way and read entries through the shared block cache.

use std::path::Path;

use damka_core::{Material, Position, Slice, SliceIndexer, Variant};
use damka_formats::table::{Block, ValueKind};
use rayon::prelude::*;

use crate::cache::BlockCache;
use crate::error::ProbeError;
use crate::table::{Access, TableFile};

/// The most pieces a position may have for the tables to cover it.
pub const MAX_PIECES: u32 = 8;

/// Counts per side and kind are below 8 when a position has at most
/// [`MAX_PIECES`] pieces and both sides have one.
const SLOT_BASE: usize = MAX_PIECES as usize;

/// The slot of a material, or `None` if it has too many pieces.
#[inline]
pub(crate) fn slot_of(m: Material) -> Option<usize> {
    let counts = [m.white_men, m.white_kings, m.black_men, m.black_kings];
    if m.pieces() > MAX_PIECES || counts.iter().any(|&c| c as usize >= SLOT_BASE) {
        return None;
    }
    Some(
        counts
            .iter()
            .fold(0, |acc, &c| acc * SLOT_BASE + c as usize),
    )
}

/// One `T` per material with at most [`MAX_PIECES`] pieces, by [`slot_of`].
#[derive(Debug)]
pub(crate) struct Slots<T> {
    slots: Box<[T]>,
}

impl<T: Default> Slots<T> {
    /// Every slot at its default (nothing opened).
    pub(crate) fn new() -> Slots<T> {
        Slots {
            slots: (0..SLOT_BASE.pow(4)).map(|_| T::default()).collect(),
        }
    }
}

impl<T> Slots<T> {
    /// The slot of `material`, or why there is none.
    #[inline]
    pub(crate) fn get(&self, material: Material) -> Result<&T, ProbeError> {
        match slot_of(material) {
            Some(slot) => Ok(&self.slots[slot]),
            None => Err(ProbeError::NotCovered {
                pieces: material.pieces(),
                max: MAX_PIECES,
            }),
        }
    }
}

/// An opened table file with its slice's index.
#[derive(Debug)]
pub(crate) struct Opened<V: Variant> {
    pub(crate) file: TableFile,
    pub(crate) indexer: SliceIndexer<V>,
    /// The table's number in the block cache's keys.
    pub(crate) id: u32,
}

impl<V: Variant> Opened<V> {
    /// Opens the `kind` table of `slice` at `path` for queries, checked against the
    /// slice's index times `per_position` entries and the rule set with fingerprint
    /// `rules`; `id` is its number in the block cache's keys.
    pub(crate) fn open(
        path: &Path,
        (slice, kind, per_position): (Slice, ValueKind, u64),
        rules: u64,
        access: Access,
        id: u32,
    ) -> Result<Opened<V>, ProbeError> {
        let (file, indexer) = open_checked(path, slice, kind, rules, access, per_position)?;
        Ok(Opened { file, indexer, id })
    }

    /// Reads entry `entry` with `read`, through the block cache.
    #[inline]
    pub(crate) fn read_entry<R>(
        &self,
        cache: &BlockCache,
        entry: u64,
        read: impl Fn(&Block, usize) -> R,
    ) -> Result<R, ProbeError> {
        let per_block = self.file.header().block_entries as u64;
        let (block, local) = (entry / per_block, (entry % per_block) as usize);
        cache.read(
            (self.id, block),
            || self.file.decode_block(block),
            |b| read(b, local),
        )
    }

    /// The raw entries from `first` on into `out` (whose length says how many),
    /// through the block cache: one lock per block, so a reader of every state
    /// of a position (`out.len()` of them, side by side) pays for one look-up.
    pub(crate) fn read_run(
        &self,
        cache: &BlockCache,
        first: u64,
        out: &mut [u16],
    ) -> Result<(), ProbeError> {
        let per_block = self.file.header().block_entries as u64;
        let mut entry = first;
        for part in self.block_parts(first, out) {
            let (block, local) = (entry / per_block, (entry % per_block) as usize);
            entry += part.len() as u64;
            let copied = cache.read(
                (self.id, block),
                || self.file.decode_block(block),
                |b| b.raw_range(local, part),
            )?;
            if !copied {
                return Err(self.not_raw());
            }
        }
        Ok(())
    }

    /// The raw entries from `first` on into `out`, decoded straight from the
    /// file, blocks in parallel, past the block cache: for a reader of a whole
    /// table a part at a time, which would only evict what the cache holds.
    pub(crate) fn decode_run(&self, first: u64, out: &mut [u16]) -> Result<(), ProbeError> {
        let per_block = self.file.header().block_entries as u64;
        let mut entry = first;
        let parts: Vec<(u64, usize, &mut [u16])> = self
            .block_parts(first, out)
            .map(|part| {
                let at = (entry / per_block, (entry % per_block) as usize, part);
                entry += at.2.len() as u64;
                at
            })
            .collect();
        parts.into_par_iter().try_for_each(|(block, local, part)| {
            if self.file.decode_block(block)?.raw_range(local, part) {
                Ok(())
            } else {
                Err(self.not_raw())
            }
        })
    }

    /// `out` cut where the blocks of the entries from `first` on end.
    fn block_parts<'o>(
        &self,
        first: u64,
        out: &'o mut [u16],
    ) -> impl Iterator<Item = &'o mut [u16]> + 'o {
        let per_block = self.file.header().block_entries as usize;
        let head = (per_block - (first % per_block as u64) as usize).min(out.len());
        let (head, rest) = out.split_at_mut(head);
        std::iter::once(head)
            .filter(|part| !part.is_empty())
            .chain(rest.chunks_mut(per_block))
    }

    /// The error for a block without raw entries (a WDL block where another
    /// kind was expected).
    #[cold]
    fn not_raw(&self) -> ProbeError {
        ProbeError::CorruptTable {
            path: self.file.path().to_path_buf(),
            reason: format!(
                "a block that is not a {} block",
                self.file.header().kind.name()
            ),
        }
    }

    /// Reads the entry of `white` (a White-to-move position of the table's slice)
    /// with `read`, through the block cache.
    #[inline]
    pub(crate) fn read<R>(
        &self,
        cache: &BlockCache,
        white: &Position<V>,
        read: impl Fn(&Block, usize) -> R,
    ) -> Result<R, ProbeError> {
        self.read_entry(cache, self.indexer.index(white), read)
    }
}

/// Opens the `kind` table of `slice` at `path` and checks it against the slice's
/// index (`per_position` entries per position) and against the rule set with
/// fingerprint `rules` (0 for the game-theoretic kinds).
pub(crate) fn open_checked<V: Variant>(
    path: &Path,
    slice: Slice,
    kind: ValueKind,
    rules: u64,
    access: Access,
    per_position: u64,
) -> Result<(TableFile, SliceIndexer<V>), ProbeError> {
    let file = TableFile::open(path, V::KIND, slice, kind, access)?;
    let corrupt = |reason: String| ProbeError::CorruptTable {
        path: path.to_path_buf(),
        reason,
    };
    let indexer = SliceIndexer::new(slice).map_err(|e| corrupt(e.to_string()))?;
    if indexer.size().checked_mul(per_position) != Some(file.header().entries) {
        return Err(corrupt(format!(
            "{} entries, the slice has {} positions of {per_position} entries",
            file.header().entries,
            indexer.size()
        )));
    }
    if file.header().rules != rules {
        return Err(ProbeError::RulesMismatch {
            path: path.to_path_buf(),
        });
    }
    Ok((file, indexer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_core::Russian;

    #[test]
    fn slots_are_distinct_and_bounded() {
        let mut seen = std::collections::HashSet::new();
        for slice in damka_core::build_order::<Russian>(MAX_PIECES) {
            let slot = slot_of(slice.material()).unwrap();
            assert!(slot < SLOT_BASE.pow(4));
            assert!(seen.insert(slot));
        }
    }
}
