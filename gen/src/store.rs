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
use damka_formats::table::{
    compress, encode_dtw, pack_wdl, rule_table_file_name, table_file_name, wdl_code, TableWriter,
    ValueKind,
};
use damka_formats::{Slice, Value, VariantKind, Wdl};
use rayon::prelude::*;

use crate::error::GenError;

/// The solved values of one slice: one raw [`Value`] per index, and a bit per
/// index marking the capture positions.
pub type SolvedSlice<'a> = (Slice, &'a [u16], &'a BitSlice<u64>);

/// A destination for solved tables.
pub trait TableStore: Sync {
    /// Whether a finished table for `slice` is already there.
    fn contains(&self, slice: Slice) -> bool;
    /// Stores the values of `slice` atomically: either the whole table lands or
    /// nothing does. `captures` marks the positions whose side to move must
    /// capture: a format may store anything there, since probes resolve them by a
    /// capture search.
    fn write(&self, slice: Slice, values: &[u16], captures: &BitSlice<u64>)
        -> Result<(), GenError>;
    /// Stores the slices of one solve group (a slice and its mirror, or a slice
    /// that is its own mirror). By default, each on its own.
    fn write_group(&self, group: &[SolvedSlice<'_>]) -> Result<(), GenError> {
        for &(slice, values, captures) in group {
            self.write(slice, values, captures)?;
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
        encode: &(dyn Fn(Range<usize>) -> Vec<u8> + Sync),
    ) -> Result<(), GenError> {
        self.write_file(&self.path(slice, kind), slice, kind, 0, entries, encode)
    }

    /// Writes the `kind` table (a [`ValueKind::Dtc`] or [`ValueKind::RuleWdl`]
    /// one) of `slice` built under the rule set called `rules`, whose fingerprint
    /// is `fingerprint`: one raw `u16` per index.
    pub fn write_rule_table(
        &self,
        slice: Slice,
        rules: &str,
        fingerprint: u64,
        kind: ValueKind,
        values: &[u16],
    ) -> Result<(), GenError> {
        let path = self.dir.join(rule_table_file_name(slice, rules, kind));
        self.write_file(&path, slice, kind, fingerprint, values.len(), &|range| {
            encode_dtw(&values[range])
        })
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
        encode: &(dyn Fn(Range<usize>) -> Vec<u8> + Sync),
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
        let per_block = writer.block_entries() as usize;
        let blocks = entries.div_ceil(per_block);
        for first in (0..blocks).step_by(BATCH_BLOCKS) {
            let last = (first + BATCH_BLOCKS).min(blocks);
            let compressed: Vec<Vec<u8>> = (first..last)
                .into_par_iter()
                .map(|block| {
                    let range = block * per_block..((block + 1) * per_block).min(entries);
                    compress(&encode(range), kind.zstd_level())
                })
                .collect::<Result<_, _>>()
                .map_err(fail)?;
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

    fn write_dtw(&self, slice: Slice, values: &[u16]) -> Result<(), GenError> {
        self.write_kind(slice, ValueKind::Dtw, values.len(), &|range| {
            encode_dtw(&values[range])
        })
    }

    fn write_wdl(
        &self,
        slice: Slice,
        values: &[u16],
        captures: &BitSlice<u64>,
    ) -> Result<(), GenError> {
        self.write_kind(slice, ValueKind::Wdl, values.len(), &|range| {
            wdl_block(values, captures, range)
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

/// The packed WDL block of the entries `range`.
fn wdl_block(values: &[u16], captures: &BitSlice<u64>, range: Range<usize>) -> Vec<u8> {
    pack_wdl(&wdl_block_codes(&values[range.clone()], &captures[range]))
}

/// About how many bytes the WDL file of a slice takes: its blocks compressed at a
/// fast level.
fn estimate_wdl(values: &[u16], captures: &BitSlice<u64>) -> usize {
    let per_block = ValueKind::Wdl.block_entries() as usize;
    (0..values.len().div_ceil(per_block))
        .into_par_iter()
        .map(|block| {
            let range = block * per_block..((block + 1) * per_block).min(values.len());
            compress(&wdl_block(values, captures, range), ESTIMATE_LEVEL)
                .map_or(usize::MAX, |c| c.len())
        })
        .sum()
}

/// The two-bit WDL codes of a block, with the don't-care entries (capture
/// positions) filled to compress well: each takes the code before it, so a run of
/// don't-cares extends the run of values it interrupts (a run at the block's start
/// takes the first cared-for code).
pub fn wdl_block_codes(values: &[u16], captures: &BitSlice<u64>) -> Vec<u8> {
    let code = |v: u16| wdl_code(Value::from_raw(v).wdl());
    let first = values
        .iter()
        .zip(captures.iter())
        .find(|(_, capture)| !**capture)
        .map_or(wdl_code(Wdl::Draw), |(&v, _)| code(v));
    let mut previous = first;
    values
        .iter()
        .zip(captures.iter())
        .map(|(&v, capture)| {
            if !*capture {
                previous = code(v);
            }
            previous
        })
        .collect()
}

impl TableStore for FileStore {
    fn contains(&self, slice: Slice) -> bool {
        self.path(slice, ValueKind::Dtw).is_file()
            && (self.path(slice, ValueKind::Wdl).is_file()
                || self.path(slice.mirror(), ValueKind::Wdl).is_file())
    }

    fn write(
        &self,
        slice: Slice,
        values: &[u16],
        captures: &BitSlice<u64>,
    ) -> Result<(), GenError> {
        // The DTW file first: `contains` needs both, so a crash between the two
        // renames leaves a table that is rebuilt.
        self.write_dtw(slice, values)?;
        self.write_wdl(slice, values, captures)
    }

    /// Writes both DTW files, and the WDL file of only the side that compresses
    /// smaller (ranked by a fast zstd level; by measurement the smaller side takes
    /// about 30 % of the pair's bytes). Removes the other side's WDL file, if an
    /// earlier build left one.
    fn write_group(&self, group: &[SolvedSlice<'_>]) -> Result<(), GenError> {
        let [(a, a_values, a_captures), (b, b_values, b_captures)] = group else {
            for &(slice, values, captures) in group {
                self.write(slice, values, captures)?;
            }
            return Ok(());
        };
        self.write_dtw(*a, a_values)?;
        self.write_dtw(*b, b_values)?;
        let b_smaller = estimate_wdl(b_values, b_captures) < estimate_wdl(a_values, a_captures);
        let (keep, values, captures, drop) = if b_smaller {
            (*b, b_values, b_captures, *a)
        } else {
            (*a, a_values, a_captures, *b)
        };
        self.write_wdl(keep, values, captures)?;
        self.remove(drop, ValueKind::Wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitvec::prelude::*;

    #[test]
    fn dont_care_entries_continue_the_run() {
        let (w, d, l) = (Value::decided(1).raw(), 0, Value::LOST.raw());
        let values = [l, w, w, d, w, w, l];
        let captures = bits![u64, Lsb0; 1, 0, 1, 1, 0, 1, 0];
        assert_eq!(
            wdl_block_codes(&values, captures),
            vec![2, 2, 2, 2, 2, 2, 0]
        );
        let all = bits![u64, Lsb0; 1, 1];
        assert_eq!(wdl_block_codes(&[w, l], all), vec![1, 1]);
    }
}
