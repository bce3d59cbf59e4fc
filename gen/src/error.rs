//! Errors of generation and verification.

use std::path::PathBuf;

use damka_core::IndexError;
use damka_probe::ProbeError;

/// Why a build or a verification stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenError {
    /// A dependency table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// A slice cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// A slice is too large for this machine's address space.
    #[error("slice {0} is too large to solve in memory here")]
    TooLarge(String),
    /// Writing a table failed.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// Solving a group needs more memory than the budget, even with its
    /// sub-slices spilled to disk.
    #[error(
        "the memory budget ({budget_mib} MiB, from {origin}) is too small: solving {slice} needs \
         {needed_mib} MiB even with its sub-slices spilled to disk; the smallest budget that \
         builds every group left is {smallest_mib} MiB (--memory {smallest_mib}M)"
    )]
    MemoryBudget {
        /// The group's first slice.
        slice: String,
        /// What it needs at least.
        needed_mib: u64,
        /// The budget.
        budget_mib: u64,
        /// Where the budget comes from.
        origin: &'static str,
        /// The smallest budget for the whole build.
        smallest_mib: u64,
    },
    /// A group reading its dependencies a block at a time found, while solving
    /// one of its sub-slices, that the blocks it reaches do not fit beside its
    /// solve. Only part of the need is known then: at least this much more.
    #[error(
        "the memory budget ({budget_mib} MiB, from {origin}) is too small for {slice}: the \
         dependency blocks of one of its sub-slices need at least {short_mib} MiB more; try \
         --memory {at_least_mib}M or more"
    )]
    DependencyPages {
        /// The group's first slice.
        slice: String,
        /// The budget.
        budget_mib: u64,
        /// Where the budget comes from.
        origin: &'static str,
        /// The bytes of blocks that did not fit, in MiB.
        short_mib: u64,
        /// The budget plus those.
        at_least_mib: u64,
    },
    /// Building a group's rule tables needs more memory than the budget, even
    /// with its solves spilled to disk.
    #[error(
        "the memory budget ({budget_mib} MiB, from {origin}) is too small for the rule tables: \
         building those of {slice} needs {needed_mib} MiB even with its sub-slices spilled to \
         disk; the smallest budget that builds every group left is \
         {smallest_mib} MiB (--memory {smallest_mib}M)"
    )]
    RuleMemoryBudget {
        /// The group's first slice.
        slice: String,
        /// What it needs.
        needed_mib: u64,
        /// The budget.
        budget_mib: u64,
        /// Where the budget comes from.
        origin: &'static str,
        /// The smallest budget for the rule groups left.
        smallest_mib: u64,
    },
    /// The layered pass of the rule tables failed (`crate::layers`).
    #[error("the layered pass failed: {0}")]
    Layered(String),
    /// The rule value of a position could not be made exact.
    #[error("rule value of {position} under `{rules}` is unknown: {reason}")]
    RuleUnknown {
        /// The position, as FEN.
        position: String,
        /// The rule set.
        rules: String,
        /// Why the search gave up.
        reason: String,
    },
    /// `--slice` named something that is not a slice of this build.
    #[error("{0}")]
    Usage(String),
    /// A verification's checkpoint file cannot be read or is not one.
    #[error("cannot use checkpoint {path}: {message}")]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}
