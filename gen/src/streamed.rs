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
//! The file holds one record per block, in the order the units finished: the
//! block's raw values (little-endian `u16`), then its capture bits (little-endian
//! `u64` words). Each block's offset is kept, so the tables are written from it
//! in index order, the same bytes as from memory.

use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use damka_core::huge::HugeArray;

use crate::error::GenError;

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
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| write_error(&path, e))?;
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

    /// Writes the solved block `men`: its raw values and capture bits (words of
    /// 64, the lowest bit first), as long as the block.
    pub(crate) fn write_block(
        &self,
        men: usize,
        values: &[u16],
        captures: &[u64],
    ) -> Result<(), GenError> {
        let mut record = Vec::with_capacity(self.record_len());
        record.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        record.extend(captures.iter().flat_map(|w| w.to_le_bytes()));
        debug_assert_eq!(record.len(), self.record_len());
        let at = self.end.fetch_add(record.len() as u64, Ordering::Relaxed);
        self.file
            .write_all_at(&record, at)
            .map_err(|e| write_error(&self.path, e))?;
        self.offsets[men].store(at, Ordering::Release);
        Ok(())
    }

    /// Reads the record of block `men` into `values` and `captures` (as long as
    /// the block, and its words).
    pub(crate) fn read_block(
        &self,
        men: usize,
        values: &mut [u16],
        captures: &mut [u64],
    ) -> Result<(), GenError> {
        let at = self.offsets[men].load(Ordering::Acquire);
        if at == UNWRITTEN {
            return Err(GenError::Write {
                path: self.path.clone(),
                message: format!("block {men} was read before it was solved"),
            });
        }
        let mut record = vec![0u8; self.record_len()];
        self.file
            .read_exact_at(&mut record, at)
            .map_err(|e| write_error(&self.path, e))?;
        let (v, c) = record.split_at(2 * self.block);
        for (out, pair) in values.iter_mut().zip(v.chunks_exact(2)) {
            *out = u16::from_le_bytes([pair[0], pair[1]]);
        }
        for (out, word) in captures.iter_mut().zip(c.chunks_exact(8)) {
            *out = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        }
        Ok(())
    }

    /// Reads key `key` back, a byte per position, its blocks `blocks` (men
    /// indices, in the order of their ordinal within the key), for the solve
    /// of the key below to read; the key read back before is dropped first.
    pub(crate) fn load_key(&mut self, key: u32, blocks: &[usize]) -> Result<(), GenError> {
        self.narrow = None;
        let mut bytes = HugeArray::<u8>::zeroed(blocks.len() * self.block);
        let mut wide = Vec::new();
        let mut values = vec![0u16; self.block];
        let mut captures = vec![0u64; self.block.div_ceil(64)];
        for (ordinal, &men) in blocks.iter().enumerate() {
            self.read_block(men, &mut values, &mut captures)?;
            let first = ordinal * self.block;
            for (i, &value) in values.iter().enumerate() {
                bytes[first + i] = match u8::try_from(value) {
                    Ok(byte) if byte != u8::MAX => byte,
                    _ => {
                        wide.push(((first + i) as u64, value));
                        u8::MAX
                    }
                };
            }
        }
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

fn write_error(path: &std::path::Path, error: std::io::Error) -> GenError {
    GenError::Write {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}
