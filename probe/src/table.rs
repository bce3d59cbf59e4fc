//! One table file, memory-mapped: its header and block table are checked when it
//! is opened, each block's checksum when the block is decoded.

use std::fs::File;
use std::path::{Path, PathBuf};

use damka_core::{Slice, VariantKind};
use damka_formats::{table::Block, table::TableHeader, table::ValueKind};
use memmap2::{Advice, Mmap};

use crate::error::ProbeError;

/// How a table will be read, so the kernel can plan its reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Scattered probes: no read-ahead.
    Random,
    /// Front to back, as when decoding or checking the whole table.
    Sequential,
}

/// One table file, mapped into memory.
#[derive(Debug)]
pub struct TableFile {
    header: TableHeader,
    map: Mmap,
    path: PathBuf,
}

impl TableFile {
    /// Opens the `kind` table of `slice` at `path` and checks its header (magic
    /// bytes, versions, variant, slice, kind), length and block table.
    pub fn open(
        path: &Path,
        variant: VariantKind,
        slice: Slice,
        kind: ValueKind,
        access: Access,
    ) -> Result<TableFile, ProbeError> {
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
        let format = |e| ProbeError::from_format(path, e);
        let header = TableHeader::decode(&map).map_err(format)?;
        if header.variant != variant {
            return Err(ProbeError::WrongVariant {
                path: path.to_path_buf(),
                expected: variant,
                found: header.variant,
            });
        }
        let corrupt = |reason: String| ProbeError::CorruptTable {
            path: path.to_path_buf(),
            reason,
        };
        if header.slice != slice {
            return Err(corrupt(format!(
                "holds slice {}, expected {}",
                header.slice.name(),
                slice.name()
            )));
        }
        if header.kind != kind {
            return Err(corrupt(format!(
                "holds {} values, expected {}",
                header.kind.name(),
                kind.name()
            )));
        }
        header.check_layout(&map).map_err(format)?;
        let _ = map.advise(match access {
            Access::Random => Advice::Random,
            Access::Sequential => Advice::Sequential,
        });
        Ok(TableFile {
            header,
            map,
            path: path.to_path_buf(),
        })
    }

    /// The file's header.
    pub fn header(&self) -> &TableHeader {
        &self.header
    }

    /// Where the table was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Decompresses and decodes block `block`, checking its checksum.
    pub fn decode_block(&self, block: u64) -> Result<Block, ProbeError> {
        self.header
            .decode_block(&self.map, block)
            .map_err(|e| ProbeError::from_format(&self.path, e))
    }

    /// Checks every block's checksum and the whole-file checksum.
    pub fn check_checksums(&self) -> Result<(), ProbeError> {
        self.header
            .check_all(&self.map)
            .map_err(|e| ProbeError::from_format(&self.path, e))
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the file is empty (a checked table never is).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
