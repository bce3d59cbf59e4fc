//! Checkpoints of a verification (`damka verify --checkpoint FILE`), so that a
//! check stopped part-way (a kill, the end of a session) resumes where it
//! stopped instead of from the start of the slice.
//!
//! A verification walks each slice in *rounds* of [`ROUND_POSITIONS`]
//! positions (the last one shorter), each cut into chunks checked in parallel.
//! After each round it appends one line to the file: the round, its positions
//! and its mismatch count. A later run with
//! the same file skips every round the file records for the same check of the
//! same bytes, and adds the recorded counts to its report (mismatch examples
//! come only from the rounds it checks itself).
//!
//! "The same check of the same bytes" is a key: the hash of what is checked
//! (`dtw`, `mtc`, `compact` or `rules:SET`), the slice, its size, the round
//! size, and the name, length and XXH3 of the whole content of every table
//! file of the slice, its mirror and their dependencies that the check reads.
//! A changed or replaced table gives another key, and its slice is checked from
//! the start; a table rebuilt byte for byte, on this machine or another, gives
//! the same key, so a checkpoint carried to a machine that rebuilt the same
//! tables resumes there (`scripts/verify-groups.sh`, `CHECKPOINTS`).
//!
//! The file is text: a first line `damka verify checkpoint 1`, then one line per
//! round, `round KEY SLICE ROUND POSITIONS MISMATCHES`. A line cut short by a
//! kill (no newline at the end) is dropped when the file is opened; any other
//! line that does not parse is an error that names the file and the line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use damka_core::{dependencies, Slice};
use damka_formats::table::{hash, Hasher};

use crate::error::GenError;

/// The first line of every checkpoint file.
const MAGIC_LINE: &str = "damka verify checkpoint 1";

/// Positions of a round, the most a stopped run loses: about 75 s of one
/// core's rule checking on the 5-piece International `2M1K-1M1K`, minutes on
/// the heaviest 6-piece groups.
pub const ROUND_POSITIONS: u64 = 1 << 26;

/// An open checkpoint file: the rounds it records, and the file to append the
/// next ones to.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    /// The recorded rounds: (key, round) → (positions, mismatches).
    done: HashMap<(u64, u64), (u64, u64)>,
    file: Mutex<File>,
    round_positions: u64,
    /// The facts of the table files already read, by path, length and
    /// modification time: a slice and its mirror, and the slices of a set,
    /// share most of the files they read, and each is hashed once.
    facts: Mutex<HashMap<(PathBuf, u64, SystemTime), String>>,
}

/// The checkpoint of one slice's check: which of its rounds are recorded.
pub(crate) struct SliceCheckpoint<'c> {
    checkpoint: &'c Checkpoint,
    key: u64,
    slice: Slice,
    /// Positions per round.
    pub(crate) round_positions: u64,
}

impl Checkpoint {
    /// Opens the checkpoint file at `path`, creating it if it is not there
    /// (its directory must be), and drops a last line a kill cut short.
    pub fn open(path: &Path) -> Result<Checkpoint, GenError> {
        let error = |message: String| GenError::Checkpoint {
            path: path.to_path_buf(),
            message,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| error(e.to_string()))?;
        let mut text = Vec::new();
        file.read_to_end(&mut text)
            .map_err(|e| error(e.to_string()))?;
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if whole < text.len() {
            // The last line was being written when the run stopped.
            file.set_len(whole as u64)
                .map_err(|e| error(format!("cannot drop its unfinished last line: {e}")))?;
        }
        let text = std::str::from_utf8(&text[..whole])
            .map_err(|_| error("not a damka verify checkpoint (not text)".into()))?;
        let mut lines = text.lines();
        match lines.next() {
            None => {
                writeln!(file, "{MAGIC_LINE}").map_err(|e| error(e.to_string()))?;
                file.sync_data().map_err(|e| error(e.to_string()))?;
            }
            Some(MAGIC_LINE) => {}
            Some(_) => {
                return Err(error(format!(
                    "not a damka verify checkpoint (its first line is not `{MAGIC_LINE}`)"
                )))
            }
        }
        let mut done = HashMap::new();
        for (n, line) in lines.enumerate() {
            let (key, round, counts) = parse_round(line).ok_or_else(|| {
                error(format!(
                    "line {} is not a checkpoint round: `{line}`",
                    n + 2
                ))
            })?;
            done.insert((key, round), counts);
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            done,
            file: Mutex::new(file),
            round_positions: ROUND_POSITIONS,
            facts: Mutex::default(),
        })
    }

    /// The same checkpoint with rounds of `positions` positions instead of [`ROUND_POSITIONS`]: for tests, which need several rounds of
    /// a small slice.
    #[doc(hidden)]
    pub fn with_round_positions(mut self, positions: u64) -> Checkpoint {
        self.round_positions = positions.max(1);
        self
    }

    /// How many rounds the file records.
    pub fn rounds(&self) -> usize {
        self.done.len()
    }

    /// The checkpoint of the check `scope` of `slice` (`size` positions),
    /// whose tables are in `dir`: `extra` names, after the slice's name and a
    /// dot, the files the check reads besides the WDL and DTW tables (`mtc.`,
    /// `fmjd.`), if any.
    pub(crate) fn slice(
        &self,
        (scope, extra): (&str, Option<&str>),
        dir: &Path,
        slice: Slice,
        size: u64,
    ) -> Result<SliceCheckpoint<'_>, GenError> {
        let round_positions = self.round_positions;
        let described = format!(
            "{scope} {slice} {size} {round_positions}\n{}\n",
            self.files_read(dir, slice, extra)?
        );
        Ok(SliceCheckpoint {
            checkpoint: self,
            key: hash(described.as_bytes()),
            slice,
            round_positions,
        })
    }

    /// One line per table file a check of `slice` reads (the WDL and DTW
    /// files, and those whose name goes on with `extra`, of the slice, its
    /// mirror and their dependencies): name, length and content hash, sorted by
    /// name.
    fn files_read(
        &self,
        dir: &Path,
        slice: Slice,
        extra: Option<&str>,
    ) -> Result<String, GenError> {
        let mut slices = dependencies(slice);
        slices.extend([slice, slice.mirror()]);
        let names: Vec<String> = slices.iter().map(|s| format!("{s}.")).collect();
        let entries = std::fs::read_dir(dir).map_err(|e| {
            GenError::Usage(format!(
                "cannot read table directory {}: {e}",
                dir.display()
            ))
        })?;
        let mut lines = Vec::new();
        for entry in entries.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                continue;
            };
            let read = names.iter().any(|prefix| {
                name.strip_prefix(prefix.as_str()).is_some_and(|rest| {
                    rest == "wdl.dkt"
                        || rest == "dtw.dkt"
                        || extra.is_some_and(|e| rest.starts_with(e))
                })
            });
            if read {
                lines.push(format!("{name} {}", self.file_facts(&entry.path())));
            }
        }
        lines.sort();
        Ok(lines.join("\n"))
    }

    /// A table file's length and the XXH3 of its whole content, or what stops
    /// them being read (the check itself then reports the file). Hashing every
    /// byte costs one more read of files the check reads anyway, and makes the
    /// key the same wherever the same bytes were built.
    fn file_facts(&self, path: &Path) -> String {
        let modified = std::fs::metadata(path).and_then(|m| Ok((m.len(), m.modified()?)));
        let (len, modified) = match modified {
            Ok(seen) => seen,
            Err(e) => return format!("unreadable: {e}"),
        };
        let mut facts = self.facts.lock().unwrap_or_else(PoisonError::into_inner);
        facts
            .entry((path.to_path_buf(), len, modified))
            .or_insert_with(|| match content_hash(path) {
                Ok(hash) => format!("{len} {hash:016x}"),
                Err(e) => format!("unreadable: {e}"),
            })
            .clone()
    }
}

/// [`Checkpoint::slice`] of `checkpoint`, if there is one.
pub(crate) fn slice_checkpoint<'c>(
    checkpoint: Option<&'c Checkpoint>,
    scope: (&str, Option<&str>),
    dir: &Path,
    slice: Slice,
    size: u64,
) -> Result<Option<SliceCheckpoint<'c>>, GenError> {
    checkpoint
        .map(|c| c.slice(scope, dir, slice, size))
        .transpose()
}

impl SliceCheckpoint<'_> {
    /// The mismatches recorded for `round` of `positions` positions, if it is
    /// recorded with that many.
    pub(crate) fn done(&self, round: u64, positions: u64) -> Option<u64> {
        let recorded = self.checkpoint.done.get(&(self.key, round))?;
        (recorded.0 == positions).then_some(recorded.1)
    }

    /// Records that `round` was checked: `positions` positions, `mismatches`
    /// of them wrong. The line is on disk when this returns.
    pub(crate) fn record(
        &self,
        round: u64,
        positions: u64,
        mismatches: u64,
    ) -> Result<(), GenError> {
        let line = format!(
            "round {:016x} {} {round} {positions} {mismatches}\n",
            self.key, self.slice
        );
        let checkpoint = self.checkpoint;
        let write = |file: &mut File| {
            file.write_all(line.as_bytes())?;
            file.sync_data()
        };
        let mut file = checkpoint.file.lock().unwrap_or_else(|e| e.into_inner());
        write(&mut file).map_err(|e| GenError::Write {
            path: checkpoint.path.clone(),
            message: e.to_string(),
        })
    }
}

/// One round line: its key, round, positions and mismatches.
fn parse_round(line: &str) -> Option<(u64, u64, (u64, u64))> {
    let mut words = line.split(' ');
    if words.next()? != "round" {
        return None;
    }
    let key = u64::from_str_radix(words.next()?, 16).ok()?;
    words.next()?.parse::<Slice>().ok()?;
    let mut number = || words.next()?.parse::<u64>().ok();
    let (round, positions, mismatches) = (number()?, number()?, number()?);
    (words.next().is_none() && mismatches <= positions).then_some((
        key,
        round,
        (positions, mismatches),
    ))
}

/// The XXH3 of the whole content of the file at `path`, read in pieces.
fn content_hash(path: &Path) -> std::io::Result<u64> {
    let mut file = File::open(path)?;
    let mut hasher = Hasher::default();
    let mut buffer = vec![0; 1 << 20];
    loop {
        match file.read(&mut buffer)? {
            0 => return Ok(hasher.finish()),
            n => hasher.update(&buffer[..n]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_lines_parse_and_bad_ones_do_not() {
        assert_eq!(
            parse_round("round 00000000000000ff 1M0K-0M1K 3 100 2"),
            Some((255, 3, (100, 2)))
        );
        for bad in [
            "round 00ff 1M0K-0M1K 3 100",
            "round 00ff 1M0K-0M1K 3 100 2 9",
            "round zz 1M0K-0M1K 3 100 2",
            "round 00ff nonsense 3 100 2",
            "round 00ff 1M0K-0M1K 3 100 200",
            "rounds 00ff 1M0K-0M1K 3 100 2",
        ] {
            assert_eq!(parse_round(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_other_garbage_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c");
        let checkpoint = Checkpoint::open(&path).unwrap();
        assert_eq!(checkpoint.rounds(), 0);
        drop(checkpoint);
        let good = "round 0000000000000001 1M0K-0M1K 0 10 0\n";
        let text = format!("{MAGIC_LINE}\n{good}round 0000000000000001 1M0K-0M1K 1 1");
        std::fs::write(&path, text).unwrap();
        assert_eq!(Checkpoint::open(&path).unwrap().rounds(), 1);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{MAGIC_LINE}\n{good}")
        );
        std::fs::write(&path, format!("{MAGIC_LINE}\n{good}garbage\n")).unwrap();
        let error = Checkpoint::open(&path).unwrap_err().to_string();
        assert!(error.contains("line 3"), "{error}");
        std::fs::write(&path, "some other file\n").unwrap();
        let error = Checkpoint::open(&path).unwrap_err().to_string();
        assert!(error.contains("not a damka verify checkpoint"), "{error}");
    }
}
