//! Reading one table file: memory-mapped, checked once when opened.

use std::fs::File;
use std::path::{Path, PathBuf};

use damka_formats::table::{TableHeader, HEADER_LEN};
use damka_formats::{Slice, Value, VariantKind};
use memmap2::{Advice, Mmap};

use crate::error::ProbeError;

/// One slice's table, mapped into memory.
#[derive(Debug)]
pub struct Table {
    header: TableHeader,
    map: Mmap,
    path: PathBuf,
}

impl Table {
    /// Opens and checks the table of `slice` at `path`: magic bytes, versions,
    /// variant, slice, length and checksums.
    pub fn open(path: &Path, variant: VariantKind, slice: Slice) -> Result<Table, ProbeError> {
        let file = File::open(path).map_err(|error| {
            if error.kind() == std::io::ErrorKind::NotFound {
                ProbeError::MissingTable {
                    slice: slice.name(),
                    path: path.to_path_buf(),
                }
            } else {
                ProbeError::Io {
                    path: path.to_path_buf(),
                    message: error.to_string(),
                }
            }
        })?;
        // SAFETY: the map is read-only, and tables are written to a temporary file
        // and renamed into place, never modified where they lie.
        let map = unsafe { Mmap::map(&file) }.map_err(|error| ProbeError::Io {
            path: path.to_path_buf(),
            message: error.to_string(),
        })?;
        let corrupt = |reason: String| ProbeError::CorruptTable {
            path: path.to_path_buf(),
            reason,
        };
        let header = TableHeader::decode(&map).map_err(|e| corrupt(e.to_string()))?;
        if header.variant != variant {
            return Err(ProbeError::WrongVariant {
                path: path.to_path_buf(),
                expected: variant,
                found: header.variant,
            });
        }
        if header.slice != slice {
            return Err(corrupt(format!(
                "holds slice {}, expected {}",
                header.slice.name(),
                slice.name()
            )));
        }
        header
            .check_payload(&map)
            .map_err(|e| corrupt(e.to_string()))?;
        // Random access is the common case: the kernel should not read ahead.
        let _ = map.advise(Advice::Random);
        Ok(Table {
            header,
            map,
            path: path.to_path_buf(),
        })
    }

    /// The number of entries.
    pub fn entries(&self) -> u64 {
        self.header.entries
    }

    /// The file's header.
    pub fn header(&self) -> &TableHeader {
        &self.header
    }

    /// Where the table was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The stored value at `index`, which must be below [`Table::entries`].
    #[inline]
    pub fn get(&self, index: u64) -> Value {
        let at = HEADER_LEN + 2 * index as usize;
        Value::from_raw(u16::from_le_bytes([self.map[at], self.map[at + 1]]))
    }
}
