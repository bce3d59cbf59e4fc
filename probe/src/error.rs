//! What can go wrong when probing.

use std::path::PathBuf;
use std::sync::Arc;

use damka_core::{FenError, VariantKind};
use damka_formats::table::TableFormatError;

/// Why a probe has no answer.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ProbeError {
    /// The directory holds no table of the variant.
    #[error(
        "no {variant} tables in {dir} (build them with `damka gen --variant {variant} --dir ...`)"
    )]
    NoTables {
        /// The directory looked in (the root's `<variant>/` folder).
        dir: PathBuf,
        /// The variant asked for.
        variant: VariantKind,
    },
    /// A rule set that fails its validation (for example a name that is not a
    /// short identifier, since it becomes part of table file names).
    #[error("invalid rule set: {0}")]
    InvalidRuleSet(String),
    /// A FEN that could not be read.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// A played count for a counter of the rule set that is not in force in the
    /// position: the count could only be a mistake (a wrong counter or a wrong
    /// position), and ignoring it would answer another question than the one asked.
    #[error("{id} is not in force in this position (in force: {in_force})")]
    NotInForce {
        /// The counter given a count.
        id: String,
        /// The counters in force, comma-separated, or `none`.
        in_force: String,
    },
    /// The table a position needs is not in the directory.
    #[error("missing table {slice} (looked for {path})")]
    MissingTable {
        /// The slice's name.
        slice: String,
        /// Where the file was expected.
        path: PathBuf,
    },
    /// A table file failed a check of its header, block table or length.
    #[error("corrupt table {path}: {reason}")]
    CorruptTable {
        /// The file.
        path: PathBuf,
        /// What check failed.
        reason: String,
    },
    /// A block of a table file failed its checksum.
    #[error("corrupt table {path}: block {block} failed its checksum")]
    CorruptBlock {
        /// The file.
        path: PathBuf,
        /// The block.
        block: u64,
    },
    /// A table file of another format or index scheme version.
    #[error("unsupported table {path}: {reason}")]
    Version {
        /// The file.
        path: PathBuf,
        /// Which version the file has and which this program reads.
        reason: String,
    },
    /// A table file of the other variant.
    #[error("table {path} is for {found}, not {expected}")]
    WrongVariant {
        /// The file.
        path: PathBuf,
        /// The variant probed.
        expected: VariantKind,
        /// The variant the file holds.
        found: VariantKind,
    },
    /// More pieces than the tables cover.
    #[error("position has {pieces} pieces; these tables cover up to {max} pieces")]
    NotCovered {
        /// Pieces in the position.
        pieces: u32,
        /// Most pieces the tables cover.
        max: u32,
    },
    /// The position cannot arise: the side that just moved has no pieces.
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    /// A rule table built under another rule set (or another version of a set
    /// with the same name).
    #[error("rule table {path} was built under a different rule set; rebuild it with `damka gen --rules`")]
    RulesMismatch {
        /// The file.
        path: PathBuf,
    },
    /// The decoded pages of a group's dependencies ([`crate::PageBudget`]) would
    /// take more than their budget.
    #[error("the dependency blocks read while solving one sub-slice did not fit in their {limit_mib} MiB: about {short_mib} MiB more are needed")]
    PageBudget {
        /// The pages' budget, in MiB.
        limit_mib: u64,
        /// The pages that did not fit, in MiB.
        short_mib: u64,
    },
    /// The operating system refused to read a file.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error (shared, so that the error can be cloned).
        #[source]
        source: Arc<std::io::Error>,
    },
}

/// A probe returns `Result<_, ProbeError>` on its hot path: keep the error as small
/// as it was (a larger error makes every nested probe's result larger).
const _: () = assert!(std::mem::size_of::<ProbeError>() <= 56);

impl ProbeError {
    /// The probe error for a format error found in the file at `path`.
    pub fn from_format(path: &std::path::Path, error: TableFormatError) -> ProbeError {
        let path = path.to_path_buf();
        match error {
            TableFormatError::CorruptBlock(block) => ProbeError::CorruptBlock { path, block },
            TableFormatError::Version(reason) => ProbeError::Version { path, reason },
            other => ProbeError::CorruptTable {
                path,
                reason: other.to_string(),
            },
        }
    }
}
