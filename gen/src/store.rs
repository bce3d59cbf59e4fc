//! Where solved tables go: the [`TableStore`] trait, so the algorithm does not know
//! the file format, and [`FileStore`], the compressed format of
//! [`damka_formats::table`]: a DTW file per slice, and one WDL file per solve group
//! (a slice and its mirror), for whichever of the two compresses smaller; the
//! probe resolves the other side by a one-ply search.

use std::fs::{self, File};
use std::io::BufWriter;
use std::ops::Range;
use std::path::{Path, PathBuf};

use bitvec::slice::BitSlice;
use bitvec::vec::BitVec;
use damka_core::{Slice, VariantKind};
use damka_formats::{
    table::compress, table::encode_dtw, table::rule_table_file_name, table::table_file_name,
    table::Encoding, table::TableWriter, table::ValueKind,
};
use rayon::prelude::*;

use crate::error::GenError;

/// Where the writer reads a slice's solved values from, range by range, so that
/// a group need not be in memory as a whole (the solver may spill its values to
/// disk).
pub trait ValueSource: Sync {
    /// Number of entries.
    fn len(&self) -> usize;

    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The raw [`Value`]s of the entries `range` and their capture bits (the side
    /// to move must capture).
    fn read(&self, range: Range<usize>) -> Result<(Vec<u16>, BitVec<u64>), GenError>;
}

/// Solved values held in memory: a raw [`Value`] and a capture bit per index.
pub struct InMemory<'a> {
    /// The raw values.
    pub values: &'a [u16],
    /// The capture bits.
    pub captures: &'a BitSlice<u64>,
}

impl ValueSource for InMemory<'_> {
    fn len(&self) -> usize {
        self.values.len()
    }

    fn read(&self, range: Range<usize>) -> Result<(Vec<u16>, BitVec<u64>), GenError> {
        Ok((
            self.values[range.clone()].to_vec(),
            self.captures[range].to_bitvec(),
        ))
    }
}

/// The solved values of one slice.
pub type SolvedSlice<'a> = (Slice, &'a dyn ValueSource);

/// A destination for solved tables.
pub trait TableStore: Sync {
    /// Whether a finished table for `slice` is already there.
    fn contains(&self, slice: Slice) -> bool;
    /// Stores the values of `slice` atomically: either the whole table lands or
    /// nothing does. The capture bits mark the positions whose side to move must
    /// capture: a format may store anything there, since probes resolve them by a
    /// capture search.
    fn write(&self, slice: Slice, values: &dyn ValueSource) -> Result<(), GenError>;
    /// Stores the slices of one solve group (a slice and its mirror, or a slice
    /// that is its own mirror). By default, each on its own.
    fn write_group(&self, group: &[SolvedSlice<'_>]) -> Result<(), GenError> {
        for &(slice, values) in group {
            self.write(slice, values)?;
        }
        Ok(())
    }
}

/// Blocks compressed in parallel before being written in order: bounds the
/// compressed bytes held in memory to one batch.
const BATCH_BLOCKS: usize = 256;
/// The fast zstd level that ranks the two sides of a group by WDL size.
const ESTIMATE_LEVEL: i32 = 3;

/// Compressed table files in one directory. Each file is written block by block to
/// a temporary file, synced, then renamed into place.
pub struct FileStore {
    dir: PathBuf,
    variant: VariantKind,
}

impl FileStore {
    /// A store writing into `dir` (created if needed) for `variant`.
    pub fn new(dir: &Path, variant: VariantKind) -> Result<FileStore, GenError> {
        fs::create_dir_all(dir).map_err(|e| GenError::Write {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(FileStore {
            dir: dir.to_path_buf(),
            variant,
        })
    }

    fn path(&self, slice: Slice, kind: ValueKind) -> PathBuf {
        self.dir.join(table_file_name(slice, kind))
    }

    /// Writes one file of `kind`, whose raw block bytes `encode` makes from the
    /// block's entry range.
    fn write_kind(
        &self,
        slice: Slice,
        kind: ValueKind,
        entries: usize,
        encode: &(dyn Fn(Range<usize>) -> Result<Vec<u8>, GenError> + Sync),
    ) -> Result<(), GenError> {
        self.write_file(&self.path(slice, kind), slice, kind, 0, entries, encode)
    }

    /// Writes the `kind` table (a [`ValueKind::Dtc`] or [`ValueKind::RuleWdl`]
    /// one) of `slice` built under the rule set `rules` (name and fingerprint):
    /// one raw `u16` per index.
    pub fn write_rule_table(
        &self,
        slice: Slice,
        rules: (&str, u64),
        kind: ValueKind,
        values: &[u16],
    ) -> Result<(), GenError> {
        let path = self.dir.join(rule_table_file_name(slice, rules.0, kind));
        self.write_file(&path, slice, kind, rules.1, values.len(), &|range| {
            Ok(encode_dtw(&values[range]))
        })
    }

    /// Writes the `kind` table of `slice` under the rule set `rules` (name and
    /// fingerprint), like [`FileStore::write_rule_table`], reading the values
    /// range by range from `values` (a solve's values, never copied whole).
    pub fn write_rule_table_from(
        &self,
        slice: Slice,
        rules: (&str, u64),
        kind: ValueKind,
        values: &dyn ValueSource,
    ) -> Result<(), GenError> {
        self.write_rule_table_by(slice, rules, kind, values.len(), &|range| {
            Ok(values.read(range)?.0)
        })
    }

    /// Writes the `kind` table of `slice` under the rule set `rules` (name and
    /// fingerprint), `entries` raw `u16` values, which `values` makes range by
    /// range: a table computed from others is never held whole.
    pub fn write_rule_table_by(
        &self,
        slice: Slice,
        (rules, fingerprint): (&str, u64),
        kind: ValueKind,
        entries: usize,
        values: &(dyn Fn(Range<usize>) -> Result<Vec<u16>, GenError> + Sync),
    ) -> Result<(), GenError> {
        self.write_file(
            &self.dir.join(rule_table_file_name(slice, rules, kind)),
            slice,
            kind,
            fingerprint,
            entries,
            &|range| Ok(encode_dtw(&values(range)?)),
        )
    }

    /// Writes the `kind` table of `slice` that no rule set qualifies (an
    /// [`ValueKind::Mtc`] one), encoded as DTW entries are: one raw `u16` per
    /// index.
    pub fn write_table(
        &self,
        slice: Slice,
        kind: ValueKind,
        values: &[u16],
    ) -> Result<(), GenError> {
        let path = self.path(slice, kind);
        self.write_file(&path, slice, kind, 0, values.len(), &|range| {
            Ok(encode_dtw(&values[range]))
        })
    }

    /// Writes the `kind` table of `slice` that no rule set qualifies, like
    /// [`FileStore::write_table`], reading the values range by range from
    /// `values` (a group solved with its sub-slices spilled is never all in
    /// memory).
    pub fn write_table_from(
        &self,
        slice: Slice,
        kind: ValueKind,
        values: &dyn ValueSource,
    ) -> Result<(), GenError> {
        self.write_file(
            &self.path(slice, kind),
            slice,
            kind,
            0,
            values.len(),
            &|range| Ok(encode_dtw(&values.read(range)?.0)),
        )
    }

    /// Whether the `kind` table of `slice` that no rule set qualifies is there.
    pub fn contains_table(&self, slice: Slice, kind: ValueKind) -> bool {
        self.path(slice, kind).is_file()
    }

    /// Writes the `kind` table of `slice` under the rule set called `rules`,
    /// like [`FileStore::write_rule_table`], from its `blocks` blocks compressed
    /// already by [`compressed_values_block`], which `block` gives by number:
    /// `entries` entries in all.
    pub fn write_rule_blocks(
        &self,
        slice: Slice,
        (rules, fingerprint): (&str, u64),
        kind: ValueKind,
        entries: usize,
        blocks: usize,
        block: &(dyn Fn(usize) -> Result<Vec<u8>, GenError> + Sync),
    ) -> Result<(), GenError> {
        let path = self.dir.join(rule_table_file_name(slice, rules, kind));
        if blocks != entries.div_ceil(kind.block_entries() as usize) {
            return Err(GenError::Write {
                path,
                message: format!("{blocks} blocks for {entries} entries"),
            });
        }
        let header = (slice, kind, fingerprint, Encoding::Exact);
        self.write_blocks(&path, header, entries, block)
    }

    /// Whether the rule table of `kind` of `slice` under `rules` is there.
    pub fn contains_rule_table(&self, slice: Slice, rules: &str, kind: ValueKind) -> bool {
        self.dir
            .join(rule_table_file_name(slice, rules, kind))
            .is_file()
    }

    /// Writes one file at `path` through a temporary file and a rename.
    fn write_file(
        &self,
        path: &Path,
        slice: Slice,
        kind: ValueKind,
        rules: u64,
        entries: usize,
        encode: &(dyn Fn(Range<usize>) -> Result<Vec<u8>, GenError> + Sync),
    ) -> Result<(), GenError> {
        let per_block = kind.block_entries() as usize;
        self.write_blocks(
            path,
            (slice, kind, rules, Encoding::Exact),
            entries,
            &|block| {
                let range = block * per_block..((block + 1) * per_block).min(entries);
                kind.compress_block(&encode(range)?)
                    .map_err(|e| GenError::Write {
                        path: path.to_path_buf(),
                        message: e.to_string(),
                    })
            },
        )
    }

    /// Writes the compact DTW file of `slice` ([`Encoding::Compact`]), of
    /// `entries` entries, from its compressed `blocks`.
    pub fn write_compact_dtw(
        &self,
        slice: Slice,
        entries: usize,
        blocks: &[Vec<u8>],
    ) -> Result<(), GenError> {
        let header = (slice, ValueKind::Dtw, 0, Encoding::Compact);
        let path = self.path(slice, ValueKind::Dtw);
        self.write_blocks(&path, header, entries, &|block| Ok(blocks[block].clone()))
    }

    /// Writes one file at `path` through a temporary file and a rename, its
    /// `entries` entries in the compressed blocks that `block` makes by number.
    fn write_blocks(
        &self,
        path: &Path,
        (slice, kind, rules, encoding): (Slice, ValueKind, u64, Encoding),
        entries: usize,
        block: &(dyn Fn(usize) -> Result<Vec<u8>, GenError> + Sync),
    ) -> Result<(), GenError> {
        let path = path.to_path_buf();
        let temporary = path.with_extension("dkt.tmp");
        let fail = |e: std::io::Error| GenError::Write {
            path: temporary.clone(),
            message: e.to_string(),
        };
        let out = BufWriter::new(File::create(&temporary).map_err(fail)?);
        let mut writer =
            TableWriter::new(out, self.variant, slice, kind, entries as u64).map_err(fail)?;
        writer.set_rules(rules);
        writer.set_encoding(encoding);
        let per_block = writer.block_entries() as usize;
        let blocks = entries.div_ceil(per_block);
        for first in (0..blocks).step_by(BATCH_BLOCKS) {
            let last = (first + BATCH_BLOCKS).min(blocks);
            let compressed: Vec<Vec<u8>> = (first..last)
                .into_par_iter()
                .map(block)
                .collect::<Result<_, _>>()?;
            for block in &compressed {
                writer.push_block(block).map_err(fail)?;
            }
        }
        let (out, _) = writer.finish().map_err(fail)?;
        let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        fs::rename(&temporary, &path).map_err(|e| GenError::Write {
            path: path.clone(),
            message: e.to_string(),
        })
    }

    fn write_dtw(&self, slice: Slice, values: &dyn ValueSource) -> Result<(), GenError> {
        self.write_kind(slice, ValueKind::Dtw, values.len(), &|range| {
            Ok(encode_dtw(&values.read(range)?.0))
        })
    }

    fn write_wdl(&self, slice: Slice, values: &dyn ValueSource) -> Result<(), GenError> {
        self.write_kind(slice, ValueKind::Wdl, values.len(), &|range| {
            wdl_block(values, range)
        })
    }

    /// Removes a file if it is there.
    fn remove(&self, slice: Slice, kind: ValueKind) -> Result<(), GenError> {
        let path = self.path(slice, kind);
        match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(GenError::Write {
                path,
                message: e.to_string(),
            }),
            _ => Ok(()),
        }
    }
}

/// One block of a table of raw `u16` values of `kind` (DTC, RWDL, DTZ, counted
/// DTC, MTC), encoded and compressed as [`FileStore`] writes it.
pub fn compressed_values_block(kind: ValueKind, values: &[u16]) -> std::io::Result<Vec<u8>> {
    kind.compress_block(&encode_dtw(values))
}

/// The packed WDL block of the entries `range`.
fn wdl_block(values: &dyn ValueSource, range: Range<usize>) -> Result<Vec<u8>, GenError> {
    let (values, captures) = values.read(range)?;
    Ok(packed_wdl_block(&values, captures.as_raw_slice()))
}

/// About how many bytes the WDL file of a slice takes: its blocks compressed at a
/// fast level.
fn estimate_wdl(values: &dyn ValueSource) -> Result<usize, GenError> {
    let per_block = ValueKind::Wdl.block_entries() as usize;
    (0..values.len().div_ceil(per_block))
        .into_par_iter()
        .map(|block| {
            let range = block * per_block..((block + 1) * per_block).min(values.len());
            Ok(
                compress(&wdl_block(values, range)?, ESTIMATE_LEVEL)
                    .map_or(usize::MAX, |c| c.len()),
            )
        })
        .sum()
}

/// The two-bit WDL codes of a block, packed four to a byte as
/// [`damka_formats::table::pack_wdl`] packs them, with the don't-care entries
/// (capture positions) filled to compress well: each takes the code before it,
/// so a run of don't-cares extends the run of values it interrupts (a run at the
/// block's start takes the first cared-for code). Entry `i` is a capture
/// position where bit `i % 64` of `captures[i / 64]` is set.
///
/// Written a capture word at a time, straight into the packed bytes: the writer
/// makes the codes of every block three times (two size estimates and the file).
pub fn packed_wdl_block(values: &[u16], captures: &[u64]) -> Vec<u8> {
    // A raw Value: 0 a draw, odd a loss, even a win (codes 1, 0 and 2).
    let code = |v: u16| if v == 0 { 1 } else { 2 * (1 - (v & 1) as u8) };
    let first = values
        .chunks(64)
        .zip(captures)
        .find_map(|(chunk, &word)| {
            let free = !word & (u64::MAX >> (64 - chunk.len()));
            (free != 0).then(|| code(chunk[free.trailing_zeros() as usize]))
        })
        .unwrap_or(1);
    let mut out = Vec::with_capacity(values.len().div_ceil(4));
    let mut previous = first;
    for (chunk, &word) in values.chunks(64).zip(captures) {
        for (q, four) in chunk.chunks(4).enumerate() {
            let mut byte = 0;
            for (i, &v) in four.iter().enumerate() {
                if word >> (4 * q + i) & 1 == 0 {
                    previous = code(v);
                }
                byte |= previous << (2 * i);
            }
            out.push(byte);
        }
    }
    out
}

impl TableStore for FileStore {
    fn contains(&self, slice: Slice) -> bool {
        self.path(slice, ValueKind::Dtw).is_file()
            && (self.path(slice, ValueKind::Wdl).is_file()
                || self.path(slice.mirror(), ValueKind::Wdl).is_file())
    }

    fn write(&self, slice: Slice, values: &dyn ValueSource) -> Result<(), GenError> {
        // The DTW file first: `contains` needs both, so a crash between the two
        // renames leaves a table that is rebuilt.
        self.write_dtw(slice, values)?;
        self.write_wdl(slice, values)
    }

    /// Writes both DTW files, and the WDL file of only the side that compresses
    /// smaller (ranked by a fast zstd level; by measurement the smaller side takes
    /// about 30 % of the pair's bytes). Removes the other side's WDL file, if an
    /// earlier build left one.
    fn write_group(&self, group: &[SolvedSlice<'_>]) -> Result<(), GenError> {
        let [(a, a_values), (b, b_values)] = group else {
            for &(slice, values) in group {
                self.write(slice, values)?;
            }
            return Ok(());
        };
        self.write_dtw(*a, *a_values)?;
        self.write_dtw(*b, *b_values)?;
        let b_smaller = estimate_wdl(*b_values)? < estimate_wdl(*a_values)?;
        let (keep, values, drop) = if b_smaller {
            (*b, *b_values, *a)
        } else {
            (*a, *a_values, *b)
        };
        self.write_wdl(keep, values)?;
        self.remove(drop, ValueKind::Wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_formats::{table::pack_wdl, table::wdl_code, Value};

    #[test]
    fn dont_care_entries_continue_the_run() {
        let (w, d, l) = (Value::decided(1).raw(), 0, Value::LOST.raw());
        let codes = |values: &[u16], captures: &[u64]| {
            let packed = packed_wdl_block(values, captures);
            (0..values.len())
                .map(|i| packed[i / 4] >> (2 * (i % 4)) & 3)
                .collect::<Vec<u8>>()
        };
        let values = [l, w, w, d, w, w, l];
        assert_eq!(codes(&values, &[0b010_1101]), vec![2, 2, 2, 2, 2, 2, 0]);
        assert_eq!(codes(&[w, l], &[0b11]), vec![1, 1]);
        assert_eq!(codes(&[d, l, w], &[0]), vec![1, 0, 2]);
        // A block longer than a word, its first cared-for entry in the second.
        let mut long = vec![l; 70];
        long[66] = w;
        let captures = [u64::MAX, 0b11];
        // Entries 0..66 are don't-care and take the first cared-for code, 66's
        // win; 67..70 are cared-for losses.
        let expected: Vec<u8> = (0..70).map(|i| if i <= 66 { 2 } else { 0 }).collect();
        assert_eq!(codes(&long, &captures), expected);
        // Packed as pack_wdl packs codes.
        let plain: Vec<u8> = [l, d, w, w, d]
            .iter()
            .map(|&v| wdl_code(Value::from_raw(v).wdl()))
            .collect();
        assert_eq!(packed_wdl_block(&[l, d, w, w, d], &[0]), pack_wdl(&plain));
    }
}
