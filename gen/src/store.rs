//! Where solved tables go: the [`TableStore`] trait, so the algorithm does not know
//! the file format, and [`SimpleStore`], the uncompressed format of
//! [`damka_formats::table`].

use std::fs::{self, File};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bitvec::slice::BitSlice;
use damka_formats::table::{file_name, Hasher, TableHeader, ValueKind, HEADER_LEN};
use damka_formats::{Slice, VariantKind};

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
}

/// Uncompressed table files in one directory, written to a temporary file, synced,
/// then renamed into place.
pub struct SimpleStore {
    dir: PathBuf,
    variant: VariantKind,
}

impl SimpleStore {
    /// A store writing into `dir` (created if needed) for `variant`.
    pub fn new(dir: &Path, variant: VariantKind) -> Result<SimpleStore, GenError> {
        fs::create_dir_all(dir).map_err(|e| GenError::Write {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(SimpleStore {
            dir: dir.to_path_buf(),
            variant,
        })
    }

    fn path(&self, slice: Slice) -> PathBuf {
        self.dir.join(file_name(slice))
    }
}

impl TableStore for SimpleStore {
    fn contains(&self, slice: Slice) -> bool {
        self.path(slice).is_file()
    }

    fn write(
        &self,
        slice: Slice,
        values: &[u16],
        _captures: &BitSlice<u64>,
    ) -> Result<(), GenError> {
        let path = self.path(slice);
        let temporary = path.with_extension("dkt.tmp");
        let fail = |e: std::io::Error| GenError::Write {
            path: temporary.clone(),
            message: e.to_string(),
        };
        // Stream the payload behind a placeholder header, then write the real
        // header (with the payload hash) over it.
        let mut out = BufWriter::new(File::create(&temporary).map_err(fail)?);
        out.write_all(&[0u8; HEADER_LEN]).map_err(fail)?;
        let mut hasher = Hasher::default();
        for chunk in values.chunks(1 << 16) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
            hasher.update(&bytes);
            out.write_all(&bytes).map_err(fail)?;
        }
        let header = TableHeader {
            variant: self.variant,
            slice,
            kind: ValueKind::WdlDtw,
            entries: values.len() as u64,
            payload_hash: hasher.finish(),
        };
        out.seek(SeekFrom::Start(0)).map_err(fail)?;
        out.write_all(&header.encode()).map_err(fail)?;
        let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        fs::rename(&temporary, &path).map_err(|e| GenError::Write {
            path: path.clone(),
            message: e.to_string(),
        })
    }
}
