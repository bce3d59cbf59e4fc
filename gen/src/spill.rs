//! Where a build parks the parts of a group it does not keep in memory.
//!
//! Each kind of build (the game tables, the MTC tables, the rule tables of one
//! set) spills into a directory of its own beside the tables, `spill-<kind>`, so
//! two builds of one table directory running at once (the MTC and the rule tables
//! read the same game tables, and may well be built side by side) never share a
//! temporary file. A group clears its slices' files there before it starts, so
//! what a killed build left is removed the next time the group is built, whether
//! that build spills or not; the directory is removed once empty.

use std::fs;
use std::path::{Path, PathBuf};

use damka_core::Slice;

use crate::error::GenError;

/// The spill directory of one group's build.
pub(crate) struct Spill {
    /// `spill-<kind>` in the table directory.
    dir: PathBuf,
}

impl Spill {
    /// The spill directory of builds of `kind` in the table directory `tables`,
    /// for the group of `head`, with the files an earlier build of that group
    /// left there removed.
    pub(crate) fn for_group(tables: &Path, kind: &str, head: Slice) -> Result<Spill, GenError> {
        let dir = tables.join(format!("spill-{kind}"));
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Spill { dir }),
            Err(e) => return Err(write_error(&dir, e)),
        };
        let prefixes = [format!("{head}."), format!("{}.", head.mirror())];
        for entry in entries {
            let entry = entry.map_err(|e| write_error(&dir, e))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let ours = prefixes.iter().any(|p| name.starts_with(p.as_str()));
            if ours && name.ends_with(".tmp") {
                let path = entry.path();
                match fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(write_error(&path, e))
                    }
                    _ => {}
                }
            }
        }
        Ok(Spill { dir })
    }

    /// The directory, made if it is not there: the group spills.
    pub(crate) fn create(&self) -> Result<&Path, GenError> {
        fs::create_dir_all(&self.dir).map_err(|e| write_error(&self.dir, e))?;
        Ok(&self.dir)
    }

    /// The directory, made, when the group spills (`spill`); `None` when it
    /// stays in memory.
    pub(crate) fn create_if(&self, spill: bool) -> Result<Option<&Path>, GenError> {
        spill.then(|| self.create()).transpose()
    }

    /// Ends the group's build: removes the directory if no build left anything
    /// in it (another build of the same kind may still be using it).
    pub(crate) fn release(self) {
        // Fails, and keeps the directory, when it is not empty or not there.
        let _ = fs::remove_dir(&self.dir);
    }
}

/// A failure to clear or make the spill directory.
fn write_error(path: &Path, e: std::io::Error) -> GenError {
    GenError::Write {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_clears_only_its_own_leftovers() {
        let tables = tempfile::tempdir().unwrap();
        let dir = tables.path().join("spill-mtc");
        fs::create_dir(&dir).unwrap();
        for name in [
            "1M2K-0M1K.values.tmp",
            "0M1K-1M2K.fresh.tmp",
            "1M1K-0M1K.values.tmp",
            "1M2K-0M1K.notes",
        ] {
            fs::write(dir.join(name), b"left by a killed build").unwrap();
        }
        let head: Slice = "1M2K-0M1K".parse().unwrap();
        let spill = Spill::for_group(tables.path(), "mtc", head).unwrap();
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["1M1K-0M1K.values.tmp", "1M2K-0M1K.notes"]);
        spill.release();
        assert!(dir.is_dir(), "a directory still in use is kept");
    }

    #[test]
    fn the_directory_is_made_when_needed_and_removed_once_empty() {
        let tables = tempfile::tempdir().unwrap();
        let head: Slice = "1M1K-1M1K".parse().unwrap();
        let spill = Spill::for_group(tables.path(), "rules-russian", head).unwrap();
        let dir = spill.create().unwrap().to_path_buf();
        assert_eq!(dir, tables.path().join("spill-rules-russian"));
        assert!(dir.is_dir());
        spill.release();
        assert!(!dir.exists());
    }
}
