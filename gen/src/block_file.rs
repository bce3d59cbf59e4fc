//! Compressed table blocks parked in a temporary file until their table is
//! written: the layered pass (`crate::layers`) finishes a counted table's blocks
//! in the order its units are solved, not in index order, and a large group's
//! blocks (dozens of layers per position) would not fit in memory beside the
//! rest of the build.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::error::GenError;

/// Where a parked block is in its file: its first byte and its length.
pub(crate) type Parked = (u64, usize);

/// A temporary file of compressed blocks, appended to from any thread and
/// removed when dropped.
pub(crate) struct BlockFile {
    path: PathBuf,
    file: File,
    /// The file's length: where the next block goes.
    end: Mutex<u64>,
}

impl BlockFile {
    /// Creates the file at `path`, replacing one a killed build left there.
    pub(crate) fn create(path: PathBuf) -> Result<BlockFile, GenError> {
        let _ = fs::remove_file(&path);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| GenError::Write {
                path: path.clone(),
                message: e.to_string(),
            })?;
        Ok(BlockFile {
            path,
            file,
            end: Mutex::new(0),
        })
    }

    /// Appends `bytes`, returning where they are.
    pub(crate) fn park(&self, bytes: &[u8]) -> Result<Parked, GenError> {
        let offset = {
            let mut end = self.end.lock().unwrap_or_else(|e| e.into_inner());
            let offset = *end;
            *end += bytes.len() as u64;
            offset
        };
        self.file
            .write_all_at(bytes, offset)
            .map_err(|e| self.error(e))?;
        Ok((offset, bytes.len()))
    }

    /// The bytes parked at `at`.
    pub(crate) fn read(&self, (offset, len): Parked) -> Result<Vec<u8>, GenError> {
        let mut bytes = vec![0; len];
        self.file
            .read_exact_at(&mut bytes, offset)
            .map_err(|e| self.error(e))?;
        Ok(bytes)
    }

    fn error(&self, e: std::io::Error) -> GenError {
        GenError::Write {
            path: self.path.clone(),
            message: e.to_string(),
        }
    }
}

impl Drop for BlockFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parked_blocks_read_back_and_the_file_goes_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("blocks.tmp");
        fs::write(&path, b"left by a killed build").unwrap();
        let file = BlockFile::create(path.clone()).unwrap();
        let a = file.park(b"first").unwrap();
        let b = file.park(b"").unwrap();
        let c = file.park(b"third block").unwrap();
        assert_eq!(file.read(c).unwrap(), b"third block");
        assert_eq!(file.read(a).unwrap(), b"first");
        assert_eq!(file.read(b).unwrap(), b"");
        drop(file);
        assert!(!path.exists());
    }
}
