//! What a table file stores per position, [`ValueKind`]: its code in the header, its
//! name in file names, and the block size and compression writers use for it.

use super::compress::{compress, DTW_ZSTD_LEVEL, WDL_ZSTD_LEVEL};
use super::compress::{COUNTED_FAST_LEVEL, COUNTED_RECOMPRESS_ABOVE, COUNTED_STRONG_LEVEL};
use super::dtw::{COUNTED_BLOCK_ENTRIES, DTW_BLOCK_ENTRIES};
use super::wdl::WDL_BLOCK_ENTRIES;

/// What a table file stores per position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// Win, draw or loss, two bits per position; capture positions hold
    /// don't-care values.
    Wdl,
    /// The full [`Value`](crate::value::Value) (WDL and DTW), one byte per position
    /// with an escape to a 16-bit value; exact for every position, capture
    /// positions included.
    Dtw,
    /// Distance to conversion under a rule set ([`crate::value::Dtc`]), encoded as
    /// [`ValueKind::Dtw`] is; exact for every position. The header names the rule
    /// set by its fingerprint.
    Dtc,
    /// The value under a rule set with fresh counters ([`crate::value::RuleWdl`]),
    /// encoded as [`ValueKind::Dtw`] is; exact for every position.
    RuleWdl,
    /// Distance to zeroing (the next capture, promotion or man move) under a rule
    /// set, a [`crate::value::Dtc`] value, encoded as [`ValueKind::Dtw`] is; exact
    /// for every position. Only materials in which a counter restarts on man moves
    /// have one.
    Dtz,
    /// Counted distance to conversion under a rule set: for each position, one
    /// [`crate::value::Dtc`] value per state of the counts that decide it (the
    /// materials of a counter with a position condition, such as R3), position by
    /// position, encoded as [`ValueKind::Dtw`] is. `formats/FORMAT.md` gives the
    /// order of the states.
    CountedDtc,
    /// Moves to conversion with no move limits (`formats/FORMAT.md`, "MTC
    /// tables"): plies to the next capture or man move under the game-theoretic
    /// value, a [`crate::value::Dtc`] value, encoded as [`ValueKind::Dtw`] is;
    /// exact for every position. Not tied to a rule set.
    Mtc,
}

impl ValueKind {
    /// The code in the header's value-kind byte.
    pub fn code(self) -> u8 {
        match self {
            ValueKind::Wdl => 0,
            ValueKind::Dtw => 1,
            ValueKind::Dtc => 2,
            ValueKind::RuleWdl => 3,
            ValueKind::Dtz => 4,
            ValueKind::CountedDtc => 5,
            ValueKind::Mtc => 6,
        }
    }

    /// The kind with header code `code`.
    pub fn from_code(code: u8) -> Option<ValueKind> {
        match code {
            0 => Some(ValueKind::Wdl),
            1 => Some(ValueKind::Dtw),
            2 => Some(ValueKind::Dtc),
            3 => Some(ValueKind::RuleWdl),
            4 => Some(ValueKind::Dtz),
            5 => Some(ValueKind::CountedDtc),
            6 => Some(ValueKind::Mtc),
            _ => None,
        }
    }

    /// `wdl`, `dtw`, `dtc`, `rwdl`, `dtz`, `cdtc` or `mtc`: the part of the file name before the
    /// extension.
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Wdl => "wdl",
            ValueKind::Dtw => "dtw",
            ValueKind::Dtc => "dtc",
            ValueKind::RuleWdl => "rwdl",
            ValueKind::Dtz => "dtz",
            ValueKind::CountedDtc => "cdtc",
            ValueKind::Mtc => "mtc",
        }
    }

    /// Compresses one block's raw bytes as writers do for this kind: at level
    /// [`WDL_ZSTD_LEVEL`] or [`DTW_ZSTD_LEVEL`]; a counted DTC block at level
    /// [`COUNTED_FAST_LEVEL`], and, if that leaves more than
    /// [`COUNTED_RECOMPRESS_ABOVE`] bytes, also at [`COUNTED_STRONG_LEVEL`],
    /// keeping the smaller frame. Readers decompress any level alike.
    pub fn compress_block(self, raw: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            ValueKind::Wdl => compress(raw, WDL_ZSTD_LEVEL),
            ValueKind::Dtw
            | ValueKind::Dtc
            | ValueKind::RuleWdl
            | ValueKind::Dtz
            | ValueKind::Mtc => compress(raw, DTW_ZSTD_LEVEL),
            ValueKind::CountedDtc => {
                let fast = compress(raw, COUNTED_FAST_LEVEL)?;
                if fast.len() <= COUNTED_RECOMPRESS_ABOVE {
                    return Ok(fast);
                }
                let strong = compress(raw, COUNTED_STRONG_LEVEL)?;
                Ok(if strong.len() < fast.len() {
                    strong
                } else {
                    fast
                })
            }
        }
    }

    /// Entries per block that writers use for this kind.
    pub fn block_entries(self) -> u32 {
        match self {
            ValueKind::Wdl => WDL_BLOCK_ENTRIES,
            ValueKind::Dtw
            | ValueKind::Dtc
            | ValueKind::RuleWdl
            | ValueKind::Dtz
            | ValueKind::Mtc => DTW_BLOCK_ENTRIES,
            ValueKind::CountedDtc => COUNTED_BLOCK_ENTRIES,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::compress::decompress;

    /// Raw bytes of `len` entries from a small pseudo-random generator: values
    /// below `spread`, each repeated `run` times.
    fn entries(len: usize, spread: u64, run: usize) -> Vec<u8> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        (0..len)
            .map(|i| {
                if i % run == 0 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                }
                (state % spread) as u8
            })
            .collect()
    }

    #[test]
    fn counted_blocks_take_the_smaller_frame_and_decompress_alike() {
        for (spread, run) in [(1, 1), (3, 4096), (7, 64), (40, 3)] {
            let raw = entries(1 << 16, spread, run);
            let fast = compress(&raw, COUNTED_FAST_LEVEL).unwrap();
            let strong = compress(&raw, COUNTED_STRONG_LEVEL).unwrap();
            let chosen = ValueKind::CountedDtc.compress_block(&raw).unwrap();
            let expected = if fast.len() <= COUNTED_RECOMPRESS_ABOVE || fast.len() <= strong.len() {
                &fast
            } else {
                &strong
            };
            assert_eq!(&chosen, expected, "spread {spread}, runs of {run}");
            assert_eq!(decompress(&chosen, raw.len()).unwrap(), raw);
        }
    }

    #[test]
    fn the_cases_above_meet_both_branches() {
        let small = compress(&entries(1 << 16, 1, 1), COUNTED_FAST_LEVEL).unwrap();
        let large = compress(&entries(1 << 16, 40, 3), COUNTED_FAST_LEVEL).unwrap();
        assert!(small.len() <= COUNTED_RECOMPRESS_ABOVE);
        assert!(large.len() > COUNTED_RECOMPRESS_ABOVE);
    }

    #[test]
    fn other_kinds_compress_at_their_level() {
        let raw = entries(1 << 14, 40, 3);
        assert_eq!(
            ValueKind::Wdl.compress_block(&raw).unwrap(),
            compress(&raw, WDL_ZSTD_LEVEL).unwrap()
        );
        assert_eq!(
            ValueKind::Dtz.compress_block(&raw).unwrap(),
            compress(&raw, DTW_ZSTD_LEVEL).unwrap()
        );
    }
}
