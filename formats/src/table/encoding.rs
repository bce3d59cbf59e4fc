//! Which entries a table file stores exactly, [`Encoding`]: the header's
//! entry-encoding byte.

use super::kind::ValueKind;

/// Which entries of a table hold their exact values. The bytes of a block are
/// the same under either encoding; what differs is what a reader may trust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Every entry as the kind describes it (code 0).
    #[default]
    Exact,
    /// A compact DTW file (code 1): entries of capture positions are don't-care,
    /// and of a slice and its mirror only one has a file. A reader resolves a
    /// capture position by searching its captures and a position of the slice
    /// without a file by a one-ply search. Only [`ValueKind::Dtw`] files use it.
    Compact,
}

impl Encoding {
    /// The code in the header's entry-encoding byte.
    pub fn code(self) -> u8 {
        match self {
            Encoding::Exact => 0,
            Encoding::Compact => 1,
        }
    }

    /// The encoding with header code `code` for a file of `kind`, if it has one.
    pub fn from_code(code: u8, kind: ValueKind) -> Option<Encoding> {
        match (code, kind) {
            (0, _) => Some(Encoding::Exact),
            (1, ValueKind::Dtw) => Some(Encoding::Compact),
            _ => None,
        }
    }
}
