//! What a table file stores per position, [`ValueKind`]: its code in the header, its
//! name in file names, and the block size and zstd level writers use for it.

use super::compress::{COUNTED_ZSTD_LEVEL, DTW_ZSTD_LEVEL, WDL_ZSTD_LEVEL};
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

    /// The zstd level writers use for this kind.
    pub fn zstd_level(self) -> i32 {
        match self {
            ValueKind::Wdl => WDL_ZSTD_LEVEL,
            ValueKind::Dtw
            | ValueKind::Dtc
            | ValueKind::RuleWdl
            | ValueKind::Dtz
            | ValueKind::Mtc => DTW_ZSTD_LEVEL,
            ValueKind::CountedDtc => COUNTED_ZSTD_LEVEL,
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
