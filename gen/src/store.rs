//! Where solved tables go: the [`TableStore`] trait, so the algorithm does not know
//! the file format, and [`FileStore`], the compressed format of
//! [`damka_formats::table`]: a DTW file per slice, and one WDL file per solve group
//! (a slice and its mirror), for whichever of the two compresses smaller; the
//! probe resolves the other side by a one-ply search.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use bitvec::slice::BitSlice;
use damka_formats::table::{
    compress, encode_dtw, pack_wdl, table_file_name, wdl_code, TableWriter, ValueKind, ZSTD_LEVEL,
};
use damka_formats::{Slice, Value, VariantKind};
use rayon::prelude::*;

use crate::error::GenError;

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
    /// Called once every slice of a solve group has been written.
    fn finish_group(&self, _slices: &[Slice]) -> Result<(), GenError> {
        Ok(())
    }
}

/// Blocks compressed in parallel before being written in order: bounds the
/// compressed bytes held in memory to one batch.
const BATCH_BLOCKS: usize = 256;

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
        encode: &(dyn Fn(std::ops::Range<usize>) -> Vec<u8> + Sync),
    ) -> Result<(), GenError> {
        let path = self.path(slice, kind);
        let temporary = path.with_extension("dkt.tmp");
        let fail = |e: std::io::Error| GenError::Write {
            path: temporary.clone(),
            message: e.to_string(),
        };
        let out = BufWriter::new(File::create(&temporary).map_err(fail)?);
        let mut writer =
            TableWriter::new(out, self.variant, slice, kind, entries as u64).map_err(fail)?;
        let per_block = writer.block_entries() as usize;
        let blocks = entries.div_ceil(per_block);
        for first in (0..blocks).step_by(BATCH_BLOCKS) {
            let last = (first + BATCH_BLOCKS).min(blocks);
            let compressed: Vec<Vec<u8>> = (first..last)
                .into_par_iter()
                .map(|block| {
                    let range = block * per_block..((block + 1) * per_block).min(entries);
                    compress(&encode(range), ZSTD_LEVEL)
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
        .map_or(wdl_code(damka_formats::Wdl::Draw), |(&v, _)| code(v));
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

    /// Keeps the smaller of the two WDL files of a slice and its mirror (by
    /// measurement, about 30 % of the pair's bytes instead of 100 %).
    fn finish_group(&self, slices: &[Slice]) -> Result<(), GenError> {
        let [a, b] = slices else {
            return Ok(());
        };
        let size = |s: Slice| {
            let path = self.path(s, ValueKind::Wdl);
            fs::metadata(&path)
                .map(|m| m.len())
                .map_err(|e| GenError::Write {
                    path,
                    message: e.to_string(),
                })
        };
        let larger = if size(*b)? < size(*a)? { *a } else { *b };
        let path = self.path(larger, ValueKind::Wdl);
        fs::remove_file(&path).map_err(|e| GenError::Write {
            path,
            message: e.to_string(),
        })
    }

    fn write(
        &self,
        slice: Slice,
        values: &[u16],
        captures: &BitSlice<u64>,
    ) -> Result<(), GenError> {
        // The DTW file first: `contains` needs both, so a crash between the two
        // renames leaves a table that is rebuilt.
        self.write_kind(slice, ValueKind::Dtw, values.len(), &|range| {
            encode_dtw(&values[range])
        })?;
        self.write_kind(slice, ValueKind::Wdl, values.len(), &|range| {
            pack_wdl(&wdl_block_codes(&values[range.clone()], &captures[range]))
        })
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
