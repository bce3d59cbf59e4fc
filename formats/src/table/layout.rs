//! The layout of a table file (`formats/FORMAT.md`, "Layout"): the header, the
//! compressed blocks back to back, zero padding up to a multiple of [`ALIGN`], then
//! the block table, one [`BLOCK_ENTRY_LEN`]-byte entry per block and a last entry
//! holding the offset just past the last block. The header records where the block
//! table starts and how many entries a block holds (at most [`MAX_BLOCK_ENTRIES`]).

/// Bytes per block table entry: the block's offset and its XXH3-64.
pub const BLOCK_ENTRY_LEN: usize = 16;
/// The alignment of the block table (a cache line, and a divisor of every page size).
pub const ALIGN: u64 = 64;
/// The largest block a reader accepts, in entries; bounds every allocation a header
/// can ask for.
pub const MAX_BLOCK_ENTRIES: u32 = 1 << 24;
