//! Error codes, their names ([`damka_strerror`]), and the failure of a call with
//! its message, kept as the thread's last error (which `damka_last_error` reads).

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr};

use damka_core::PositionError;
use damka_probe::limits::{CountersError, RulesError};
use damka_probe::ProbeError;

/// Success.
pub const DAMKA_OK: c_int = 0;
/// A FEN that cannot be read (malformed, unknown square, pieces that do not form
/// a legal position).
pub const DAMKA_ERR_BAD_FEN: c_int = -1;
/// Bitboards that are no legal position (overlapping sets, bits off the board, a
/// man on its promotion row, too many pieces), or a position that cannot arise
/// (the side that just moved has no pieces).
pub const DAMKA_ERR_IMPOSSIBLE_POSITION: c_int = -2;
/// The directory holds no table of the variant, or not the table this position
/// needs.
pub const DAMKA_ERR_MISSING_TABLE: c_int = -3;
/// A table file failed a check (header, block table, length, checksum), is of an
/// unsupported version, of the other variant, or of another rule set.
pub const DAMKA_ERR_CORRUPT_TABLE: c_int = -4;
/// A rule set that is no preset and no readable, valid TOML file, or that is
/// written for the other variant.
pub const DAMKA_ERR_BAD_RULE_SET: c_int = -5;
/// A `played` list that cannot be read (`R1=4,R4=2.5`), or a count for a counter
/// not in force in the position.
pub const DAMKA_ERR_BAD_PLAYED: c_int = -6;
/// The position has more pieces than the tables cover.
pub const DAMKA_ERR_NOT_COVERED: c_int = -7;
/// The operating system refused to read a table file.
pub const DAMKA_ERR_IO: c_int = -8;
/// A NULL pointer, text that is not UTF-8, or an unknown variant name.
pub const DAMKA_ERR_BAD_ARGUMENT: c_int = -9;
/// An answer (a move, a rule name) longer than its field of the result struct.
pub const DAMKA_ERR_BUFFER_TOO_SMALL: c_int = -10;
/// A bug in Damka: a Rust panic, caught at the boundary.
pub const DAMKA_ERR_PANIC: c_int = -11;
/// An error of a kind this version of the library does not classify.
pub const DAMKA_ERR_UNKNOWN: c_int = -12;

/// A failed call: its code and its message.
#[derive(Debug)]
pub(crate) struct Failure {
    /// One of the `DAMKA_ERR_*` codes.
    pub code: c_int,
    /// What went wrong, in full.
    pub message: String,
}

impl Failure {
    /// A failure with `code` and `message`.
    pub fn new(code: c_int, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }

    /// Keeps the message as this thread's last error; returns the code.
    pub fn record(self) -> c_int {
        LAST_ERROR.with(|last| *last.borrow_mut() = self.message);
        self.code
    }
}

impl From<ProbeError> for Failure {
    fn from(error: ProbeError) -> Failure {
        let code = match &error {
            ProbeError::Fen(_) => DAMKA_ERR_BAD_FEN,
            ProbeError::InvalidPosition(_) => DAMKA_ERR_IMPOSSIBLE_POSITION,
            ProbeError::NoTables { .. } | ProbeError::MissingTable { .. } => {
                DAMKA_ERR_MISSING_TABLE
            }
            ProbeError::CorruptTable { .. }
            | ProbeError::CorruptBlock { .. }
            | ProbeError::Version { .. }
            | ProbeError::WrongVariant { .. }
            | ProbeError::RulesMismatch { .. } => DAMKA_ERR_CORRUPT_TABLE,
            ProbeError::InvalidRuleSet(_) => DAMKA_ERR_BAD_RULE_SET,
            ProbeError::NotInForce { .. } => DAMKA_ERR_BAD_PLAYED,
            ProbeError::NotCovered { .. } => DAMKA_ERR_NOT_COVERED,
            ProbeError::Io { .. } => DAMKA_ERR_IO,
            _ => DAMKA_ERR_UNKNOWN,
        };
        Failure::new(code, error.to_string())
    }
}

impl From<PositionError> for Failure {
    fn from(error: PositionError) -> Failure {
        Failure::new(
            DAMKA_ERR_IMPOSSIBLE_POSITION,
            format!("invalid position: {error}"),
        )
    }
}

impl From<RulesError> for Failure {
    fn from(error: RulesError) -> Failure {
        Failure::new(DAMKA_ERR_BAD_RULE_SET, error.to_string())
    }
}

impl From<CountersError> for Failure {
    fn from(error: CountersError) -> Failure {
        Failure::new(DAMKA_ERR_BAD_PLAYED, format!("bad played counts: {error}"))
    }
}

thread_local! {
    /// The message of this thread's last failed call.
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Runs `f` on this thread's last error message.
pub(crate) fn with_last_error<T>(f: impl FnOnce(&str) -> T) -> T {
    LAST_ERROR.with(|last| f(&last.borrow()))
}

/// This thread's last error message (for tests).
#[cfg(test)]
pub(crate) fn last_error() -> String {
    with_last_error(str::to_string)
}

/// The name of an error code: a static, NUL-terminated English phrase, never
/// NULL (`"unknown error code"` for a code that is none of `DAMKA_*`).
#[no_mangle]
pub extern "C" fn damka_strerror(code: c_int) -> *const c_char {
    name(code).as_ptr()
}

/// The name of `code`.
fn name(code: c_int) -> &'static CStr {
    match code {
        DAMKA_OK => c"success",
        DAMKA_ERR_BAD_FEN => c"bad FEN",
        DAMKA_ERR_IMPOSSIBLE_POSITION => c"impossible position",
        DAMKA_ERR_MISSING_TABLE => c"missing table",
        DAMKA_ERR_CORRUPT_TABLE => c"corrupt table",
        DAMKA_ERR_BAD_RULE_SET => c"bad rule set",
        DAMKA_ERR_BAD_PLAYED => c"bad played counts",
        DAMKA_ERR_NOT_COVERED => c"position not covered by the tables",
        DAMKA_ERR_IO => c"cannot read a table file",
        DAMKA_ERR_BAD_ARGUMENT => c"bad argument",
        DAMKA_ERR_BUFFER_TOO_SMALL => c"answer too long for its field",
        DAMKA_ERR_PANIC => c"internal error",
        DAMKA_ERR_UNKNOWN => c"unknown error",
        _ => c"unknown error code",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_negative_distinct_and_named() {
        let codes = [
            DAMKA_ERR_BAD_FEN,
            DAMKA_ERR_IMPOSSIBLE_POSITION,
            DAMKA_ERR_MISSING_TABLE,
            DAMKA_ERR_CORRUPT_TABLE,
            DAMKA_ERR_BAD_RULE_SET,
            DAMKA_ERR_BAD_PLAYED,
            DAMKA_ERR_NOT_COVERED,
            DAMKA_ERR_IO,
            DAMKA_ERR_BAD_ARGUMENT,
            DAMKA_ERR_BUFFER_TOO_SMALL,
            DAMKA_ERR_PANIC,
            DAMKA_ERR_UNKNOWN,
        ];
        let mut names = std::collections::BTreeSet::new();
        for (i, &code) in codes.iter().enumerate() {
            assert!(code < 0);
            assert!(!codes[..i].contains(&code), "code {code} twice");
            assert!(names.insert(name(code)), "name of {code} twice");
            assert_ne!(name(code), name(1));
        }
        assert_eq!(name(DAMKA_OK), c"success");
    }
}
