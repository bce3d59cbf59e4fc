//! One table file, memory-mapped: its header and block table are checked when it
//! is opened, each block's checksum when the block is decoded.

use std::fs::File;
use std::path::{Path, PathBuf};

use damka_core::{Slice, VariantKind};
use damka_formats::{table::Block, table::TableHeader, table::ValueKind};
use memmap2::{Advice, Mmap};

use crate::error::ProbeError;

/// A fault on a file mapping maps the pages around it that the page cache
/// holds, in aligned windows of this many bytes (Linux's default
/// `fault_around_bytes`): dropping the pages a block's decoding mapped means
/// dropping its windows.
const FAULT_AROUND: usize = 64 << 10;

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
                    source: error.into(),
                }
            }
        })?;
        // SAFETY: the map is read-only, and tables are written to a temporary file
        // and renamed into place, never modified where they lie.
        let map = unsafe { Mmap::map(&file) }.map_err(|error| ProbeError::Io {
            path: path.to_path_buf(),
            source: error.into(),
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

    /// Decodes block `block` like [`TableFile::decode_block`], then lets the
    /// kernel drop the mapped pages of its compressed bytes from this process: a
    /// table decoded a block at a time ([`crate::paged`]) does not keep them
    /// mapped beside the decoded block. (A neighbouring block sharing a window of
    /// [`FAULT_AROUND`] bytes is mapped again if it needs that window.)
    pub fn decode_block_unmapped(&self, block: u64) -> Result<Block, ProbeError> {
        let decoded = self.decode_block(block);
        if let Ok(bounds) = self.header.block_bounds(&self.map, block) {
            let start = bounds.start / FAULT_AROUND * FAULT_AROUND;
            let end = bounds.end.div_ceil(FAULT_AROUND) * FAULT_AROUND;
            // SAFETY: as in `drop_mapped_pages`.
            let _ = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    start,
                    end.min(self.map.len()) - start,
                )
            };
        }
        decoded
    }

    /// Lets the kernel drop the pages of the file mapped so far from this
    /// process (they are read again from the file if touched): a table read a
    /// part at a time ([`crate::paged`]) does not keep every part it read.
    pub fn drop_mapped_pages(&self) {
        // SAFETY: the map is read-only and backed by a file nobody modifies in
        // place (tables are renamed into place), so dropping its pages only makes
        // the next read fetch the same bytes again.
        let _ = unsafe {
            self.map
                .unchecked_advise(memmap2::UncheckedAdvice::DontNeed)
        };
    }

    /// The file's length in bytes.
    pub fn byte_len(&self) -> u64 {
        self.map.len() as u64
    }
}
