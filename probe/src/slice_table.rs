//! A slice's values decoded whole into memory: what the generator reads its
//! dependencies from, and what bulk readers such as verification walk.

use std::path::Path;
use std::sync::Arc;

use damka_core::huge::HugeArray;
use damka_core::{Position, Slice, SliceIndexer, Variant};
use damka_formats::table::{Encoding, ValueKind};
use damka_formats::Value;
use rayon::prelude::*;

use crate::error::ProbeError;
use crate::paged::{PageBudget, PagedValues};
use crate::slots::open_checked;
use crate::table::{Access, TableFile};

/// One slice's exact values, decoded into memory from its DTW table: what the
/// generator reads its dependencies from, and bulk readers such as verification.
/// A byte per position when every raw value of the table fits in one (as every
/// DTW table measured so far does), else two; or, for a table too large to be
/// decoded whole, decoded a block at a time ([`SliceTable::paged`]).
#[derive(Debug)]
pub struct SliceTable<V: Variant> {
    indexer: SliceIndexer<V>,
    values: RawValues,
}

/// The raw values of a [`SliceTable`].
#[derive(Debug)]
enum RawValues {
    /// Every value fits in a byte.
    Narrow(HugeArray<u8>),
    /// Some value does not.
    Wide(HugeArray<u16>),
    /// Decoded a block at a time, on first use.
    Paged(PagedValues),
}

impl<V: Variant> SliceTable<V> {
    /// The value of a White-to-move position of this slice.
    #[inline]
    pub fn value(&self, pos: &Position<V>) -> Value {
        Value::from_raw(self.raw(pos))
    }

    /// The value at `index`, which must be below the slice's size.
    #[inline]
    pub fn get(&self, index: u64) -> Value {
        Value::from_raw(self.raw_at(index as usize))
    }

    /// The slice's index.
    pub fn indexer(&self) -> &SliceIndexer<V> {
        &self.indexer
    }

    /// The raw `u16` of a White-to-move position of this slice (for tables whose
    /// entries are not [`Value`]s).
    #[inline]
    pub fn raw(&self, pos: &Position<V>) -> u16 {
        self.raw_at(self.indexer.index(pos) as usize)
    }

    /// The raw `u16` at `index`, which must be below the slice's size.
    #[inline]
    pub fn raw_at(&self, index: usize) -> u16 {
        match &self.values {
            RawValues::Narrow(bytes) => u16::from(bytes[index]),
            RawValues::Wide(values) => values[index],
            RawValues::Paged(pages) => pages.raw_at(index),
        }
    }

    /// Asks for the cache line of the entry at `index` (below the slice's size)
    /// ahead of a read: the generator's forward pass prefetches the values of a
    /// batch of successors before reading any, so that their misses overlap.
    #[inline]
    pub fn prefetch(&self, index: usize) {
        match &self.values {
            RawValues::Narrow(bytes) => damka_core::prefetch::prefetch(&bytes[index]),
            RawValues::Wide(values) => damka_core::prefetch::prefetch(&values[index]),
            RawValues::Paged(pages) => {
                if let Some(page) = pages.load(index) {
                    damka_core::prefetch::prefetch(&page.bytes()[pages.offset(index)]);
                }
            }
        }
    }

    /// Drops the blocks a paged table ([`SliceTable::paged`]) decoded so far, and
    /// returns the first failure to decode one (a corrupt block, or the budget
    /// spent), whose entries read as draws; nothing for a table decoded whole.
    pub fn release_pages(&mut self) -> Result<(), ProbeError> {
        match &mut self.values {
            RawValues::Paged(pages) => pages.release(),
            _ => Ok(()),
        }
    }

    /// Every raw entry, by index.
    pub fn raw_values(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.len()).map(|i| self.raw_at(i))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        match &self.values {
            RawValues::Narrow(bytes) => bytes.len(),
            RawValues::Wide(values) => values.len(),
            RawValues::Paged(pages) => pages.len(),
        }
    }

    /// Whether the table has no entries (no slice is empty).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes the decoded values take in memory.
    pub fn heap_bytes(&self) -> usize {
        match &self.values {
            RawValues::Narrow(bytes) => bytes.len(),
            RawValues::Wide(values) => 2 * values.len(),
            RawValues::Paged(pages) => pages.heap_bytes(),
        }
    }
}

/// Opens the DTW table of `slice` at `path` to be decoded a block at a time, on
/// first use, the decoded blocks taking bytes from `budget` (see
/// [`crate::paged`]).
pub(crate) fn paged_table<V: Variant>(
    path: &Path,
    slice: Slice,
    budget: Arc<PageBudget>,
) -> Result<SliceTable<V>, ProbeError> {
    let (file, indexer) = open_checked::<V>(path, slice, ValueKind::Dtw, 0, Access::Random, 1)?;
    refuse_compact(&file)?;
    let values = PagedValues::new(file, budget).ok_or_else(|| ProbeError::CorruptTable {
        path: path.to_path_buf(),
        reason: "its blocks do not hold a power of two of entries".into(),
    })?;
    Ok(SliceTable {
        indexer,
        values: RawValues::Paged(values),
    })
}

/// Decodes the whole table of `kind` of `slice` at `path`, `per_position` entries
/// per position, into memory, blocks in parallel, checking that it was built under
/// the rule set with fingerprint `rules` (0 for the game-theoretic kinds).
pub(crate) fn decode_table<V: Variant>(
    path: &Path,
    (slice, kind, per_position): (Slice, ValueKind, u64),
    rules: u64,
) -> Result<Arc<SliceTable<V>>, ProbeError> {
    let (file, indexer) =
        open_checked::<V>(path, slice, kind, rules, Access::Sequential, per_position)?;
    refuse_compact(&file)?;
    let corrupt = |reason: String| ProbeError::CorruptTable {
        path: path.to_path_buf(),
        reason,
    };
    let per_block = file.header().block_entries as usize;
    let size = usize::try_from(file.header().entries)
        .map_err(|_| corrupt("table too large for this address space".into()))?;
    let not_block = |block: usize| {
        corrupt(format!(
            "block {block} is not a {} block of its length",
            kind.name()
        ))
    };
    // A byte per entry first; a block with a value that needs two bytes makes
    // the whole table wide, decoded a second time.
    let mut narrow = HugeArray::<u8>::zeroed(size);
    let fits = narrow.par_chunks_mut(per_block).enumerate().try_fold(
        || true,
        |fits, (block, out)| -> Result<bool, ProbeError> {
            match file.decode_block(block as u64)? {
                damka_formats::table::Block::Dtw(decoded) if decoded.len() == out.len() => {
                    match decoded.narrow() {
                        Some(bytes) => {
                            out.copy_from_slice(bytes);
                            Ok(fits)
                        }
                        None => Ok(false),
                    }
                }
                _ => Err(not_block(block)),
            }
        },
    );
    let fits = fits.try_reduce(|| true, |a, b| Ok(a && b))?;
    let values = if fits {
        RawValues::Narrow(narrow)
    } else {
        drop(narrow);
        let mut values = HugeArray::<u16>::zeroed(size);
        values.par_chunks_mut(per_block).enumerate().try_for_each(
            |(block, out)| -> Result<(), ProbeError> {
                match file.decode_block(block as u64)? {
                    damka_formats::table::Block::Dtw(decoded) if decoded.len() == out.len() => {
                        decoded.expand_into(out);
                        Ok(())
                    }
                    _ => Err(not_block(block)),
                }
            },
        )?;
        RawValues::Wide(values)
    };
    Ok(Arc::new(SliceTable { indexer, values }))
}

/// Fails on a compact DTW file ([`Encoding::Compact`]): the callers of a decoded
/// table (generation, verification, statistics) read every entry as exact.
fn refuse_compact(file: &TableFile) -> Result<(), ProbeError> {
    match file.header().encoding {
        Encoding::Exact => Ok(()),
        Encoding::Compact => Err(ProbeError::Version {
            path: file.path().to_path_buf(),
            reason: "a compact DTW table (`damka compact`: capture positions and one side to \
                     move left out); generation, verification and statistics read the exact \
                     tables that `damka gen` writes"
                .into(),
        }),
    }
}
