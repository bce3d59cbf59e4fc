//! Why a table file cannot be read: the one error every check of a file returns.

/// Why a table file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableFormatError {
    /// Shorter than its header, its block table or a block says.
    #[error("truncated table: {0}")]
    Truncated(String),
    /// Not a Damka table.
    #[error("not a Damka table (bad magic bytes)")]
    BadMagic,
    /// Written by another format or index scheme version.
    #[error("unsupported version: {0}")]
    Version(String),
    /// The header's checksum does not match.
    #[error("corrupt table header (checksum mismatch)")]
    CorruptHeader,
    /// The block table's checksum does not match.
    #[error("corrupt block table (checksum mismatch)")]
    CorruptBlockTable,
    /// A block's checksum does not match.
    #[error("corrupt block {0} (checksum mismatch)")]
    CorruptBlock(u64),
    /// The whole-file checksum does not match.
    #[error("corrupt table (whole-file checksum mismatch)")]
    CorruptFile,
    /// A block passed its checksum but does not decode to what the header says.
    #[error("undecodable block {block}: {reason}")]
    BadBlock {
        /// The block.
        block: u64,
        /// What was wrong.
        reason: String,
    },
    /// A field holds a value no writer produces.
    #[error("invalid header field: {0}")]
    Invalid(String),
}
