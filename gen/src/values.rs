//! The solved values of one slice of a solve group, kept by sub-slice so that a
//! group larger than the memory budget can be solved with only two sub-slices in
//! memory.
//!
//! Solving key `k` reads only key `k` (king moves) and key `k + 1` of the mirror
//! slice (quiet man moves, [`damka_core::subslice`]). So once key `k` is solved,
//! key `k + 1` is never read again by the solve, and [`SlotValues::spill`] may
//! write it to a temporary file and free it. Writing the tables afterwards reads
//! every block back, from memory or from that file, in index order
//! ([`SlotValues`] is a [`ValueSource`]), so the files come out the same whether
//! or not anything was spilled.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

use bitvec::vec::BitVec;
use damka_core::huge::HugeArray;
use damka_core::{SliceIndexer, Variant};
use rayon::prelude::*;

use crate::error::GenError;
use crate::scratch;
use crate::store::ValueSource;
use crate::streamed::BlockStream;

/// Where the values of one sub-slice are.
enum Place {
    /// Not allocated yet.
    Absent,
    /// In memory: a raw value and a capture bit per position, blocks in the
    /// order of their ordinal within the key.
    Resident {
        values: HugeArray<AtomicU16>,
        captures: HugeArray<AtomicU64>,
    },
    /// In the spill file, from byte `offset`: the values (little-endian `u16`),
    /// then the capture words (little-endian `u64`).
    Spilled { offset: u64 },
}

/// The values of one slice, by sub-slice.
pub struct SlotValues {
    /// Positions per block.
    block: usize,
    /// Positions in the slice.
    len: usize,
    /// Per men index: its key and its ordinal among the blocks of that key
    /// (empty when every key is in memory at once).
    blocks: Vec<(u32, u32)>,
    /// Blocks per key.
    counts: Vec<u32>,
    /// Per key.
    places: Vec<Place>,
    /// Where spilled keys go, created on the first spill.
    spill_path: PathBuf,
    /// The spill file, once something was spilled, and its length.
    spill: Option<(File, u64)>,
    /// With [`SlotValues::in_memory`]: every value and capture bit by index,
    /// read and written directly (no key lookup on the solver's hot path).
    flat: Option<(HugeArray<AtomicU16>, HugeArray<AtomicU64>)>,
    /// With [`SlotValues::kings_only`]: two bytes per position, four to a word
    /// (position `i` in bits `16 * (i % 4)..` of word `i / 4`): the value (raw,
    /// in the low byte) and the kings-only solve's count (high byte), which is
    /// [`KINGS_CAPTURE`] where the side to move must capture ([`crate::kings`]).
    kings: Option<HugeArray<AtomicU64>>,
    /// With [`SlotValues::streamed`]: every block on disk as its unit finishes,
    /// the key being read kept a byte per position.
    stream: Option<BlockStream>,
}

/// Gives the raw values of a range of indices into a buffer as long as the
/// range: the source of [`SlotValues::load`].
pub(crate) type ReadValues<'a> =
    dyn Fn(Range<usize>, &mut [u16]) -> Result<(), GenError> + Sync + 'a;

/// The count byte of a kings-only entry whose side to move must capture.
pub const KINGS_CAPTURE: u16 = 0xFF;

impl SlotValues {
    /// Empty storage for the slice of `indexer`; spilled keys go to `spill_path`
    /// (a file left there by a killed build is removed).
    pub fn new<V: Variant>(indexer: &SliceIndexer<V>, spill_path: PathBuf) -> SlotValues {
        let _ = fs::remove_file(&spill_path);
        let mut values = SlotValues::keyed(indexer);
        values.spill_path = spill_path;
        values
    }

    /// Empty storage for the slice of `indexer`, with its map from blocks to
    /// sub-slices, nothing allocated and no spill file.
    fn keyed<V: Variant>(indexer: &SliceIndexer<V>) -> SlotValues {
        let keys = indexer.sub_slices();
        let top = keys.iter().map(|s| s.key as usize).max().unwrap_or(0);
        let mut counts = vec![0u32; top + 1];
        let mut blocks = vec![(0, 0); indexer.men_placements() as usize];
        for sub in &keys {
            for men in indexer.men_indices(sub.key) {
                blocks[men.index as usize] = (sub.key, 0);
            }
        }
        // Ordinals in men-index order within each key, so that a spilled key is
        // read back in increasing offsets when the tables are written.
        for entry in blocks.iter_mut() {
            let count = &mut counts[entry.0 as usize];
            entry.1 = *count;
            *count += 1;
        }
        let places = (0..=top).map(|_| Place::Absent).collect();
        SlotValues {
            block: indexer.king_placements() as usize,
            len: indexer.size() as usize,
            blocks,
            counts,
            places,
            spill_path: PathBuf::new(),
            spill: None,
            flat: None,
            kings: None,
            stream: None,
        }
    }

    /// Storage for the slice of `indexer` written to `path` a block at a time
    /// as the units solving it finish, with only the key being read in memory, a
    /// byte per position ([`crate::streamed`]).
    pub fn streamed<V: Variant>(
        indexer: &SliceIndexer<V>,
        path: PathBuf,
    ) -> Result<SlotValues, GenError> {
        let mut values = SlotValues::keyed(indexer);
        values.stream = Some(BlockStream::create(
            path,
            values.blocks.len(),
            values.block,
        )?);
        Ok(values)
    }

    /// Writes solved blocks of streamed values: one record per block of `men`
    /// (men indices), in that order, made by `crate::streamed::push_record`.
    pub(crate) fn write_blocks(&self, men: &[usize], records: &[u8]) -> Result<(), GenError> {
        self.stream
            .as_ref()
            .expect("streamed values")
            .write_blocks(men, records)
    }

    /// Reads key `key` of streamed values back into memory, a byte per
    /// position, for the solve of the key below it to read (the key read back
    /// before is dropped); with no key, drops it.
    pub(crate) fn read_back(&mut self, key: Option<u32>) -> Result<(), GenError> {
        let blocks = &self.blocks;
        let stream = self.stream.as_mut().expect("streamed values");
        match key {
            Some(key) => {
                let men: Vec<usize> = (0..blocks.len()).filter(|&m| blocks[m].0 == key).collect();
                stream.load_key(key, &men)
            }
            None => {
                stream.drop_key();
                Ok(())
            }
        }
    }

    /// Storage for the slice of `indexer` with every value in memory at once, in
    /// index order, for a group that fits the budget: it is never spilled, so it
    /// needs no map from blocks to sub-slices.
    pub fn in_memory<V: Variant>(indexer: &SliceIndexer<V>) -> SlotValues {
        let mut values = SlotValues::unkeyed(indexer);
        values.flat = Some(zeroed(values.len));
        values
    }

    /// Storage for a kings-only slice solved two bytes per position
    /// ([`crate::kings`]): never spilled, read and written through
    /// [`SlotValues::kings_entries`].
    pub fn kings_only<V: Variant>(indexer: &SliceIndexer<V>) -> SlotValues {
        let mut values = SlotValues::unkeyed(indexer);
        values.kings = Some(HugeArray::zeroed(values.len.div_ceil(4)));
        values
    }

    /// Storage with no map from blocks to sub-slices and nothing allocated yet.
    fn unkeyed<V: Variant>(indexer: &SliceIndexer<V>) -> SlotValues {
        SlotValues {
            block: indexer.king_placements() as usize,
            len: indexer.size() as usize,
            blocks: Vec::new(),
            counts: Vec::new(),
            places: Vec::new(),
            spill_path: PathBuf::new(),
            spill: None,
            flat: None,
            kings: None,
            stream: None,
        }
    }

    /// The entries of a kings-only slice, four to a word.
    pub(crate) fn kings_entries(&self) -> &[AtomicU64] {
        self.kings.as_deref().expect("a kings-only slice's values")
    }

    /// Positions of key `key`.
    pub fn key_positions(&self, key: u32) -> u64 {
        u64::from(self.counts.get(key as usize).copied().unwrap_or(0)) * self.block as u64
    }

    /// Allocates key `key` in memory (every value a draw, no capture).
    pub fn allocate(&mut self, key: u32) {
        let (values, captures) = zeroed(self.key_positions(key) as usize);
        self.places[key as usize] = Place::Resident { values, captures };
    }

    /// Writes key `key` to the spill file and frees its memory (nothing to do
    /// if it is not in memory).
    pub fn spill(&mut self, key: u32) -> Result<(), GenError> {
        let Some(place) = self.places.get_mut(key as usize) else {
            return Ok(());
        };
        if !matches!(place, Place::Resident { .. }) {
            return Ok(());
        }
        let Place::Resident { values, captures } = std::mem::replace(place, Place::Absent) else {
            unreachable!("checked above");
        };
        let path = self.spill_path.clone();
        let fail = |e: std::io::Error| scratch::write_error(&path, e);
        if self.spill.is_none() {
            let file = scratch::create(&path)?;
            self.spill = Some((file, 0));
        }
        let (file, end) = self.spill.as_mut().expect("opened above");
        let offset = *end;
        let mut out = BufWriter::new(&*file);
        for v in values.iter() {
            out.write_all(&v.load(Ordering::Relaxed).to_le_bytes())
                .map_err(fail)?;
        }
        for w in captures.iter() {
            out.write_all(&w.load(Ordering::Relaxed).to_le_bytes())
                .map_err(fail)?;
        }
        out.flush().map_err(fail)?;
        *end += 2 * values.len() as u64 + 8 * captures.len() as u64;
        self.places[key as usize] = Place::Spilled { offset };
        Ok(())
    }

    /// Spills every key above `key` that is still in memory.
    pub fn spill_above(&mut self, key: u32) -> Result<(), GenError> {
        for above in key + 1..self.places.len() as u32 {
            self.spill(above)?;
        }
        Ok(())
    }

    /// Frees every key, in memory or spilled, and removes the spill file.
    pub fn discard(&mut self) {
        self.flat = None;
        self.kings = None;
        for place in &mut self.places {
            *place = Place::Absent;
        }
        if self.spill.take().is_some() {
            let _ = fs::remove_file(&self.spill_path);
        }
        self.stream = None;
    }

    /// The values and capture words of the resident key of the block of
    /// `index`, with the block's offset into them.
    #[inline]
    fn resident(&self, index: usize) -> (&[AtomicU16], &[AtomicU64], usize) {
        if let Some((values, captures)) = &self.flat {
            return (values, captures, index);
        }
        let (key, at) = self.key_and_offset(index);
        match &self.places[key as usize] {
            Place::Resident { values, captures } => (values, captures, at),
            _ => unreachable!("the solve reads only the two resident sub-slices"),
        }
    }

    /// The raw value at `index`, whose sub-slice must be in memory.
    #[inline]
    pub fn get(&self, index: usize) -> u16 {
        if let Some(stream) = &self.stream {
            let (key, at) = self.key_and_offset(index);
            return stream.get(key, at);
        }
        let (values, _, at) = self.resident(index);
        values[at].load(Ordering::Relaxed)
    }

    /// The key of the block of `index`, and the offset of `index` in that key.
    #[inline]
    fn key_and_offset(&self, index: usize) -> (u32, usize) {
        let (key, ordinal) = self.blocks[index / self.block];
        (key, ordinal as usize * self.block + index % self.block)
    }

    /// Asks for the cache line of the value at `index` (whose sub-slice must be
    /// in memory) ahead of a [`SlotValues::get`].
    #[inline]
    pub fn prefetch(&self, index: usize) {
        if let Some(stream) = &self.stream {
            let (key, at) = self.key_and_offset(index);
            return stream.prefetch(key, at);
        }
        let (values, _, at) = self.resident(index);
        damka_core::prefetch::prefetch(&values[at]);
    }

    /// Stores the raw value at `index` and whether its side to move must
    /// capture; its sub-slice must be in memory.
    #[inline]
    pub fn set(&self, index: usize, value: u16, capture: bool) {
        let (values, captures, at) = self.resident(index);
        values[at].store(value, Ordering::Relaxed);
        if capture {
            captures[at / 64].fetch_or(1 << (at % 64), Ordering::Relaxed);
        }
    }

    /// Fills every value from `read`, which gives the raw values of a range of
    /// indices, with every capture bit clear: the values of a group solved by an
    /// earlier build, read back from its tables, so that the work after the solve
    /// can run without solving again (`crate::rules`). Storage made by
    /// [`SlotValues::new`] is filled a sub-slice at a time, each spilled once
    /// filled; storage made by [`SlotValues::in_memory`] is filled whole.
    /// Kings-only and streamed storage cannot be filled.
    pub(crate) fn load(&mut self, read: &ReadValues<'_>) -> Result<(), GenError> {
        if self.kings.is_some() || self.stream.is_some() {
            return Err(GenError::Usage(
                "kings-only or streamed values cannot be read back from a table".into(),
            ));
        }
        if self.flat.is_some() {
            let all: Vec<usize> = (0..self.len / self.block.max(1)).collect();
            return self.load_blocks(&all, read);
        }
        for key in 0..self.places.len() as u32 {
            let men: Vec<usize> = (0..self.blocks.len())
                .filter(|&m| self.blocks[m].0 == key)
                .collect();
            if men.is_empty() {
                continue;
            }
            self.allocate(key);
            self.load_blocks(&men, read)?;
            self.spill(key)?;
        }
        Ok(())
    }

    /// Fills the blocks of the men indices `men`, which must be in memory, from
    /// `read`.
    fn load_blocks(&self, men: &[usize], read: &ReadValues<'_>) -> Result<(), GenError> {
        let k = self.block;
        men.par_iter().try_for_each_init(
            || vec![0u16; k],
            |buf, &m| {
                read(m * k..(m + 1) * k, buf)?;
                for (i, &value) in buf.iter().enumerate() {
                    self.set(m * k + i, value, false);
                }
                Ok(())
            },
        )
    }

    /// Every value and capture bit, by index (for callers that want them all in
    /// memory, such as the rule tables' solve).
    pub fn to_vecs(&self) -> Result<(Vec<u16>, BitVec<u64>), GenError> {
        let n = self.len;
        let mut values = vec![0u16; n];
        let mut captures = BitVec::repeat(false, n);
        self.read_into(0..n, &mut values, &mut captures)?;
        Ok((values, captures))
    }

    /// Reads `range` into `values` and `captures` (as long as the range).
    fn read_into(
        &self,
        range: Range<usize>,
        values: &mut [u16],
        captures: &mut BitVec<u64>,
    ) -> Result<(), GenError> {
        if let Some(words) = &self.kings {
            for (i, at) in range.enumerate() {
                let entry = (words[at / 4].load(Ordering::Relaxed) >> (16 * (at % 4))) as u16;
                values[i] = entry & 0xFF;
                captures.set(i, entry >> 8 == KINGS_CAPTURE);
            }
            return Ok(());
        }
        if let Some((v, c)) = &self.flat {
            for (out, value) in values.iter_mut().zip(&v[range.clone()]) {
                *out = value.load(Ordering::Relaxed);
            }
            if range.start % 64 == 0 {
                // Whole words (the writer's blocks start on one): the last is
                // masked to the range.
                let first = range.start / 64;
                let words = captures.as_raw_mut_slice();
                for (i, word) in words.iter_mut().enumerate() {
                    *word = c[first + i].load(Ordering::Relaxed);
                }
                if range.len() % 64 != 0 {
                    if let Some(last) = words.last_mut() {
                        *last &= (1 << (range.len() % 64)) - 1;
                    }
                }
            } else {
                for (i, at) in range.enumerate() {
                    let set = c[at / 64].load(Ordering::Relaxed) >> (at % 64) & 1 != 0;
                    captures.set(i, set);
                }
            }
            return Ok(());
        }
        if let Some(stream) = &self.stream {
            return self.read_streamed(stream, range, values, captures);
        }
        let mut at = range.start;
        while at < range.end {
            let (key, ordinal) = self.blocks[at / self.block];
            let offset = at % self.block;
            let len = (self.block - offset).min(range.end - at);
            let first = ordinal as usize * self.block + offset;
            let out = at - range.start;
            match &self.places[key as usize] {
                Place::Resident {
                    values: v,
                    captures: c,
                } => {
                    for i in 0..len {
                        values[out + i] = v[first + i].load(Ordering::Relaxed);
                        let bit = first + i;
                        let set = c[bit / 64].load(Ordering::Relaxed) >> (bit % 64) & 1 != 0;
                        captures.set(out + i, set);
                    }
                }
                Place::Spilled { offset: base } => {
                    self.read_spilled(*base, first, &mut values[out..out + len])?;
                    let words = self.key_positions(key).div_ceil(64) as usize;
                    let word_base = base + 2 * self.key_positions(key);
                    let (w0, w1) = (first / 64, (first + len - 1) / 64);
                    let mut buf = vec![0u8; 8 * (w1 - w0 + 1)];
                    debug_assert!(w1 < words);
                    self.read_at(&mut buf, word_base + 8 * w0 as u64)?;
                    for i in 0..len {
                        let bit = first + i - 64 * w0;
                        let word = u64::from_le_bytes(
                            buf[8 * (bit / 64)..8 * (bit / 64) + 8]
                                .try_into()
                                .expect("8 bytes"),
                        );
                        captures.set(out + i, word >> (bit % 64) & 1 != 0);
                    }
                }
                Place::Absent => unreachable!("every key is solved before the tables are written"),
            }
            at += len;
        }
        Ok(())
    }

    /// Reads `range` of streamed values into `values` and `captures`, from the
    /// records of its blocks.
    fn read_streamed(
        &self,
        stream: &BlockStream,
        range: Range<usize>,
        values: &mut [u16],
        captures: &mut BitVec<u64>,
    ) -> Result<(), GenError> {
        let first = range.start / self.block;
        let men: Vec<usize> = (first..range.end.div_ceil(self.block)).collect();
        stream.read_blocks(&men, |i, record| {
            let (v, c) = stream.split_record(record);
            let base = (first + i) * self.block;
            // The part of the block inside the range.
            let from = range.start.max(base);
            let to = range.end.min(base + self.block);
            for at in from..to {
                let (local, out) = (at - base, at - range.start);
                values[out] = u16::from_le_bytes([v[2 * local], v[2 * local + 1]]);
                let word = u64::from_le_bytes(
                    c[8 * (local / 64)..8 * (local / 64) + 8]
                        .try_into()
                        .expect("8 bytes"),
                );
                captures.set(out, word >> (local % 64) & 1 != 0);
            }
        })
    }

    /// Reads the spilled values `first..first + out.len()` of the key at `base`.
    fn read_spilled(&self, base: u64, first: usize, out: &mut [u16]) -> Result<(), GenError> {
        let mut buf = vec![0u8; 2 * out.len()];
        self.read_at(&mut buf, base + 2 * first as u64)?;
        for (o, pair) in out.iter_mut().zip(buf.chunks_exact(2)) {
            *o = u16::from_le_bytes([pair[0], pair[1]]);
        }
        Ok(())
    }

    /// Reads `buf.len()` bytes of the spill file at `offset`.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> Result<(), GenError> {
        let (file, _) = self.spill.as_ref().expect("a spilled key has a spill file");
        file.read_exact_at(buf, offset)
            .map_err(|e| GenError::Write {
                path: self.spill_path.clone(),
                message: e.to_string(),
            })
    }
}

/// `n` draws and `n` clear capture bits.
fn zeroed(n: usize) -> (HugeArray<AtomicU16>, HugeArray<AtomicU64>) {
    (HugeArray::zeroed(n), HugeArray::zeroed(n.div_ceil(64)))
}

impl ValueSource for SlotValues {
    fn len(&self) -> usize {
        self.len
    }

    fn read(&self, range: Range<usize>) -> Result<(Vec<u16>, BitVec<u64>), GenError> {
        let mut values = vec![0u16; range.len()];
        let mut captures = BitVec::repeat(false, range.len());
        self.read_into(range, &mut values, &mut captures)?;
        Ok((values, captures))
    }
}

impl Drop for SlotValues {
    fn drop(&mut self) {
        self.discard();
    }
}
