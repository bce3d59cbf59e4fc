//! The values of one slice written to disk a block at a time, as the units that
//! solve them finish: the least memory a group's own values can be solved in.
//!
//! Solving sub-slice `k` writes only the blocks of key `k` (each unit its own
//! two) and reads only the values of key `k + 1` of the mirror slice (quiet man
//! moves, [`damka_core::subslice`]). So while key `k` is solved, nothing of it
//! needs to stay in memory once a unit is done, and key `k + 1` is needed only
//! for reading: [`BlockStream::load_key`] reads it back into a byte per position
//! (a value that needs two is kept aside), without its capture bits. That is a
//! byte per position of one key, against two bytes and a bit per position of two
//! keys when whole sub-slices are spilled ([`crate::values`]).
//!
//! The file holds one record per block, in the order the units finished (the
//! records of one task in one write): the block's raw values (little-endian
//! `u16`), then its capture bits (little-endian `u64` words). Each block's offset
//! is kept, so the tables are written from it in index order, the same bytes as
//! from memory. Records that lie together are read together
//! ([`BlockStream::read_blocks`]): a key read back is one stretch of the file.

use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use damka_core::huge::HugeArray;

use crate::error::GenError;
use crate::scratch::{self, write_error};

/// No record written yet.
const UNWRITTEN: u64 = u64::MAX;

/// One key's values read back, a byte per position.
struct NarrowKey {
    key: u32,
    /// By the block's ordinal within the key, then the king placement: the raw
    /// value, or [`u8::MAX`] where it needs two bytes.
    bytes: HugeArray<u8>,
    /// The values that need two bytes, by position in `bytes`, in order.
    wide: Vec<(u64, u16)>,
}

/// The records of one slice's blocks in a spill file, and the key read back.
pub(crate) struct BlockStream {
    /// Positions per block.
    block: usize,
    path: PathBuf,
    file: File,
    /// Where the next record goes.
    end: AtomicU64,
    /// Each block's record offset, by men index.
    offsets: Vec<AtomicU64>,
    narrow: Option<NarrowKey>,
}

impl BlockStream {
    /// An empty stream of `blocks` blocks of `block` positions into a new file
    /// at `path` (a file left there by a killed build is replaced).
    pub(crate) fn create(path: PathBuf, blocks: usize, block: usize) -> Result<Self, GenError> {
        let file = scratch::create(&path)?;
        Ok(BlockStream {
            block,
            path,
            file,
            end: AtomicU64::new(0),
            offsets: (0..blocks).map(|_| AtomicU64::new(UNWRITTEN)).collect(),
            narrow: None,
        })
    }

    /// Bytes of one record.
    fn record_len(&self) -> usize {
        2 * self.block + 8 * self.block.div_ceil(64)
    }

    /// Writes solved blocks: `records` holds one record per block of `men` (men
    /// indices), in that order, as [`push_record`] makes them. One write for
    /// all: the units of a task, when blocks are small, share it.
    pub(crate) fn write_blocks(&self, men: &[usize], records: &[u8]) -> Result<(), GenError> {
        debug_assert_eq!(records.len(), men.len() * self.record_len());
        let at = self.end.fetch_add(records.len() as u64, Ordering::Relaxed);
        self.file
            .write_all_at(records, at)
            .map_err(|e| write_error(&self.path, e))?;
        for (i, &m) in men.iter().enumerate() {
            self.offsets[m].store(at + (i * self.record_len()) as u64, Ordering::Release);
        }
        Ok(())
    }

    /// Reads the records of the blocks `men` (men indices), calling
    /// `each(i, record)` for `men[i]`, in file order: records that lie together
    /// (written by one task, or all of a key) are read together, a large piece
    /// at a time, so that blocks of a few positions do not cost a read each.
    pub(crate) fn read_blocks(
        &self,
        men: &[usize],
        mut each: impl FnMut(usize, &[u8]),
    ) -> Result<(), GenError> {
        let mut order = Vec::with_capacity(men.len());
        for (i, &m) in men.iter().enumerate() {
            let at = self.offsets[m].load(Ordering::Acquire);
            if at == UNWRITTEN {
                return Err(GenError::Write {
                    path: self.path.clone(),
                    message: format!("block {m} was read before it was solved"),
                });
            }
            order.push((at, i));
        }
        order.sort_unstable();
        let len = self.record_len();
        let per_read = (READ_BYTES / len).max(1);
        let mut buf = Vec::new();
        for run in order.chunk_by(|a, b| b.0 == a.0 + len as u64) {
            for piece in run.chunks(per_read) {
                buf.resize(piece.len() * len, 0);
                self.file
                    .read_exact_at(&mut buf, piece[0].0)
                    .map_err(|e| write_error(&self.path, e))?;
                for (record, &(_, i)) in buf.chunks_exact(len).zip(piece) {
                    each(i, record);
                }
            }
        }
        Ok(())
    }

    /// The raw values and capture words of a record.
    pub(crate) fn split_record<'r>(&self, record: &'r [u8]) -> (&'r [u8], &'r [u8]) {
        record.split_at(2 * self.block)
    }

    /// Reads key `key` back, a byte per position, its blocks `blocks` (men
    /// indices, in the order of their ordinal within the key), for the solve
    /// of the key below to read; the key read back before is dropped first.
    /// The key's records were all written while it was solved, so they lie
    /// together in the file and are read front to back.
    pub(crate) fn load_key(&mut self, key: u32, blocks: &[usize]) -> Result<(), GenError> {
        self.narrow = None;
        let mut bytes = HugeArray::<u8>::zeroed(blocks.len() * self.block);
        let mut wide = Vec::new();
        let block = self.block;
        self.read_blocks(blocks, |ordinal, record| {
            let first = ordinal * block;
            for (i, pair) in record[..2 * block].chunks_exact(2).enumerate() {
                let value = u16::from_le_bytes([pair[0], pair[1]]);
                bytes[first + i] = match u8::try_from(value) {
                    Ok(byte) if byte != u8::MAX => byte,
                    _ => {
                        wide.push(((first + i) as u64, value));
                        u8::MAX
                    }
                };
            }
        })?;
        wide.sort_unstable();
        self.narrow = Some(NarrowKey { key, bytes, wide });
        Ok(())
    }

    /// Drops the key read back.
    pub(crate) fn drop_key(&mut self) {
        self.narrow = None;
    }

    /// The raw value at `at` (the block's ordinal within the key times the
    /// block, plus the king placement) of key `key`, which must be the key read
    /// back.
    #[inline]
    pub(crate) fn get(&self, key: u32, at: usize) -> u16 {
        let narrow = self.narrow(key);
        match narrow.bytes[at] {
            u8::MAX => {
                let i = narrow
                    .wide
                    .binary_search_by_key(&(at as u64), |&(p, _)| p)
                    .expect("a byte u8::MAX has its wide value");
                narrow.wide[i].1
            }
            byte => u16::from(byte),
        }
    }

    /// Asks for the cache line of the value at `at` of key `key` (see
    /// [`BlockStream::get`]).
    #[inline]
    pub(crate) fn prefetch(&self, key: u32, at: usize) {
        damka_core::prefetch::prefetch(&self.narrow(key).bytes[at]);
    }

    #[inline]
    fn narrow(&self, key: u32) -> &NarrowKey {
        match &self.narrow {
            Some(narrow) if narrow.key == key => narrow,
            _ => unreachable!("the solve of key k reads only key k + 1, read back"),
        }
    }
}

impl Drop for BlockStream {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Bytes of records read at once, at most.
const READ_BYTES: usize = 256 << 10;

/// Appends to `out` the record of a block: its raw values, then its capture
/// bits (`capture(i)` for position `i`) in words of 64, the lowest bit first.
pub(crate) fn push_record(
    out: &mut Vec<u8>,
    values: impl ExactSizeIterator<Item = u16>,
    capture: impl Fn(usize) -> bool,
) {
    let n = values.len();
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for w in 0..n.div_ceil(64) {
        let mut word = 0u64;
        for i in 64 * w..n.min(64 * w + 64) {
            word |= u64::from(capture(i)) << (i % 64);
        }
        out.extend_from_slice(&word.to_le_bytes());
    }
}
