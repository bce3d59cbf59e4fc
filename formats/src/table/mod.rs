//! The table file format (version 2): compressed, checksummed blocks, read in place
//! from a memory map. `formats/FORMAT.md` specifies it byte by byte; this module is
//! its only implementation: header encoding and checks, the block table, the value
//! encodings of each [`ValueKind`], block compression, and a streaming
//! [`TableWriter`].
//!
//! Every function that reads a file checks before it trusts: lengths, offsets and
//! checksums, so a damaged or hostile file yields a [`TableFormatError`], never a
//! panic or a wrong value.
//!
//! One file per concept, each using only files listed before it; every public item
//! is re-exported here, as `damka_formats::table::X`:
//!
//! - `checksum`: the XXH3-64 [`hash`] of every checksum, and its streaming [`Hasher`];
//! - `bytes`: little-endian field reads (private);
//! - `compress`: zstd [`compress()`] and [`decompress()`] of one block, and the zstd
//!   levels writers use;
//! - `error`: [`TableFormatError`], why a file cannot be read;
//! - `layout`: the file's layout: block table entries, alignment, largest block;
//! - `wdl`: the WDL block codec (two-bit codes);
//! - `dtw`: the DTW block codec (bytes with an escape to wide values) and [`DtwBlock`];
//! - `kind`: [`ValueKind`], what a file stores per position;
//! - `encoding`: [`Encoding`], which entries a file stores exactly;
//! - `header`: [`TableHeader`], its encoding and decoding checks;
//! - `names`: table file names;
//! - `block`: [`Block`], a decoded block;
//! - `writer`: [`TableWriter`];
//! - `read`: the reading checks and block decoding of a [`TableHeader`].

mod block;
mod bytes;
mod checksum;
mod compress;
mod dtw;
mod encoding;
mod error;
mod header;
mod kind;
mod layout;
mod names;
mod read;
mod wdl;
mod writer;

pub use block::Block;
pub use checksum::{hash, Hasher};
pub use compress::{compress, decompress, DTW_ZSTD_LEVEL, WDL_ZSTD_LEVEL};
pub use dtw::{encode_dtw, DtwBlock, DTW_BLOCK_ENTRIES, DTW_ESCAPE};
pub use encoding::Encoding;
pub use error::TableFormatError;
pub use header::{TableHeader, FORMAT_VERSION, HEADER_LEN, INDEX_SCHEME, MAGIC};
pub use kind::ValueKind;
pub use layout::{ALIGN, BLOCK_ENTRY_LEN, MAX_BLOCK_ENTRIES};
pub use names::{
    file_name, parse_file_name, rule_table_file_name, slices_in, table_file_name, EXTENSION,
};
pub use wdl::{pack_wdl, wdl_code, wdl_of_code, WDL_BLOCK_ENTRIES};
pub use writer::TableWriter;
