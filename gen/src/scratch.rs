//! The temporary files a solve writes its values to when they do not fit in
//! memory ([`crate::values`], [`crate::streamed`]).

use std::fs::{self, File};
use std::path::Path;

use crate::error::GenError;

/// Creates an empty file at `path` for reading and writing, replacing one that
/// a killed build left there.
pub(crate) fn create(path: &Path) -> Result<File, GenError> {
    fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .map_err(|e| write_error(path, e))
}

/// The error of a failed read or write of the file at `path`.
pub(crate) fn write_error(path: &Path, error: std::io::Error) -> GenError {
    GenError::Write {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}
