//! Block compression: every block is one zstd frame, without zstd's own checksum,
//! and with its decompressed size recorded. Also the zstd levels writers use.

use std::cell::RefCell;

/// The zstd level writers use for WDL blocks. Decompression speed does not depend
/// on it; see `formats/FORMAT.md` for the measured sizes and times per level (19 is
/// 1 % smaller and 3 times slower).
pub const WDL_ZSTD_LEVEL: i32 = 15;
/// The zstd level writers use for DTW blocks and for the kinds encoded as DTW
/// entries are (DTC, RWDL, DTZ, MTC): lower than WDL's, because these tables are
/// four times larger raw; higher levels gain a few per cent for several times the
/// time.
pub const DTW_ZSTD_LEVEL: i32 = 6;
/// The zstd level writers try first on counted DTC blocks: they hold dozens of
/// entries per position, mostly long runs of one value, and most blocks with
/// men on both sides shrink to a few hundred bytes at this level already.
pub const COUNTED_FAST_LEVEL: i32 = 1;
/// The zstd level writers try next on a counted DTC block that level
/// [`COUNTED_FAST_LEVEL`] left larger than [`COUNTED_RECOMPRESS_ABOVE`] bytes,
/// keeping the smaller frame. In blocks of
/// [`COUNTED_BLOCK_ENTRIES`](super::dtw::COUNTED_BLOCK_ENTRIES) that stores
/// International `fmjd` counted tables in 0.67 of the bytes of level 1 in blocks
/// of 16,384 entries (`formats/FORMAT.md`, "Counted DTC density"): those tables
/// are most of the bytes of a rule set, and the 6-piece set must fit on one disk.
pub const COUNTED_STRONG_LEVEL: i32 = 6;
/// The size of a counted DTC block's level-[`COUNTED_FAST_LEVEL`] frame above
/// which writers also try level [`COUNTED_STRONG_LEVEL`]. Blocks that compress
/// better than this gain a few per cent at the stronger level for about seven
/// times the time; always compressing at level 6 cost a rule build 15 to 19 %
/// more CPU (`formats/FORMAT.md`).
pub const COUNTED_RECOMPRESS_ABOVE: usize = 1024;

thread_local! {
    /// One zstd decompression context per thread, reused: creating one costs more
    /// than decompressing a small block.
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

/// Decompresses a block that must decode to at most `capacity` bytes.
pub fn decompress(compressed: &[u8], capacity: usize) -> Result<Vec<u8>, String> {
    // Writers record the decompressed size in the frame: allocate just that.
    let capacity = match zstd::zstd_safe::get_frame_content_size(compressed) {
        Ok(Some(size)) if size <= capacity as u64 => size as usize,
        Ok(Some(size)) => {
            return Err(format!(
                "frame of {size} bytes, at most {capacity} expected"
            ))
        }
        _ => capacity,
    };
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?);
        }
        let decompressor = slot.as_mut().expect("just created");
        let mut out = Vec::with_capacity(capacity);
        decompressor
            .decompress_to_buffer(compressed, &mut out)
            .map_err(|e| format!("zstd: {e}"))?;
        Ok(out)
    })
}

thread_local! {
    /// One zstd compression context per thread and level, reused: a fresh one
    /// allocates and clears its tables for every block (about 2 % of a build's
    /// time, in its profile). Reuse gives the same bytes: every block is a frame
    /// of its own, made with the same parameters.
    static COMPRESSORS: RefCell<Vec<(i32, zstd::bulk::Compressor<'static>)>> =
        const { RefCell::new(Vec::new()) };
}

/// Compresses one block's raw bytes with zstd at `level`, without zstd's own
/// checksum (the block table holds an XXH3 of the compressed bytes).
pub fn compress(raw: &[u8], level: i32) -> std::io::Result<Vec<u8>> {
    COMPRESSORS.with(|cell| {
        let mut compressors = cell.borrow_mut();
        let at = match compressors.iter().position(|(l, _)| *l == level) {
            Some(at) => at,
            None => {
                let mut compressor = zstd::bulk::Compressor::new(level)?;
                compressor.include_checksum(false)?;
                compressors.push((level, compressor));
                compressors.len() - 1
            }
        };
        compressors[at].1.compress(raw)
    })
}
