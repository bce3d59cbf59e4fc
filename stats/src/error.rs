//! Errors of statistics and figures.

use std::path::PathBuf;

use damka_probe::ProbeError;

/// Why statistics or a figure could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StatsError {
    /// A table could not be read.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// Writing a figure failed.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// Nothing to count, a directory or file that cannot be read, or a figure
    /// format that is not supported.
    #[error("{0}")]
    Usage(String),
}
