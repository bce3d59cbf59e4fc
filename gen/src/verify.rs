//! Verification: every stored value re-derived from its successors with the move
//! generator, and a quick check of every checksum.
//!
//! A position with no legal move must be a loss in 0; any other must hold the best
//! of its successors' values one ply back. This local check is complete: by
//! induction on the claimed distance, every stored win or loss that passes is
//! true, so a true win or loss can be neither missed nor stored with a wrong
//! distance, and a stored draw is a true draw.
//!
//! The DTW table stores every position's value exactly and is compared in full.
//! The successors' values are read from the decoded DTW tables of the slice's
//! group and of its dependencies, indexed directly (the generator's own
//! shortcuts are not used, so that a mistake in them cannot hide itself). The
//! WDL file is compared entry by entry wherever it is not don't-care (positions
//! without a capture, of the slice that holds the group's file); and one
//! position in [`PROBE_EVERY`] is also probed as a user would
//! ([`Tablebase::probe_wdl`]: the WDL entry, the capture search, or the one-ply
//! search of the side without the file).

use std::path::Path;
use std::sync::Arc;

use damka_core::{apply, dependencies, generate};
use damka_core::{Position, Slice, SliceIndexer, Variant};
use damka_formats::table::slices_in;
use damka_formats::{Value, Wdl};
use damka_probe::{ProbeError, SliceTable, Tablebase};
use rayon::prelude::*;

use crate::checkpoint::{slice_checkpoint, Checkpoint, SliceCheckpoint};
use crate::error::GenError;
use crate::progress::{send, OnProgress, Progress};
use crate::spare::Spare;

/// A position whose stored value is not the one its successors give.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// Its slice.
    pub slice: Slice,
    /// The table that holds the wrong value: `wdl` or `dtw`.
    pub table: &'static str,
    /// The position, White to move.
    pub fen: String,
    /// What the table holds.
    pub stored: String,
    /// What the successors give.
    pub expected: String,
}

/// What a verification found.
#[derive(Debug, Clone, Default)]
pub struct VerifyReport {
    /// Tables checked.
    pub tables: usize,
    /// Positions checked.
    pub positions: u64,
    /// Positions whose value is wrong.
    pub mismatches: u64,
    /// The first few mismatches (of the positions checked in this run).
    pub examples: Vec<Mismatch>,
    /// Positions not checked again because a checkpoint records their check
    /// (included in `positions`, their mismatches in `mismatches`).
    pub resumed: u64,
}

/// Most mismatches kept as examples.
pub(crate) const EXAMPLES: usize = 10;

/// The slices that have a table file (either kind) in `dir`, smallest first.
pub fn tables_in(dir: &Path) -> Result<Vec<Slice>, GenError> {
    slices_in(dir).map_err(|e| {
        GenError::Usage(format!(
            "cannot read table directory {}: {e}",
            dir.display()
        ))
    })
}

/// One position in this many is also probed through [`Tablebase::probe_wdl`].
pub const PROBE_EVERY: u64 = 1021;

/// The decoded DTW tables a group's successors are read from: the group's own
/// slices and their dependencies.
struct Decoded<V: Variant> {
    tables: Vec<Arc<SliceTable<V>>>,
}

impl<V: Variant> Decoded<V> {
    /// The tables of `slices` and of all their dependencies.
    fn of(tablebase: &Tablebase<V>, slices: &[Slice]) -> Result<Decoded<V>, GenError> {
        let mut wanted: Vec<Slice> = slices.to_vec();
        for &slice in slices {
            for dep in dependencies(slice) {
                if !wanted.contains(&dep) {
                    wanted.push(dep);
                }
            }
        }
        let tables = wanted
            .into_iter()
            .map(|s| tablebase.slice_table(s))
            .collect::<Result<_, _>>()?;
        Ok(Decoded { tables })
    }

    /// The table of `slice`.
    fn table(&self, slice: Slice) -> &SliceTable<V> {
        self.tables
            .iter()
            .find(|t| t.indexer().slice() == slice)
            .unwrap_or_else(|| unreachable!("{slice} was decoded"))
    }

    /// The decoded table of `white`'s material (White to move).
    fn table_of(&self, white: &Position<V>) -> &SliceTable<V> {
        let material = white.material();
        self.tables
            .iter()
            .find(|t| t.indexer().slice().material() == material)
            .unwrap_or_else(|| unreachable!("the table of {material:?} was decoded"))
    }

    /// The value of `after` (a successor: Black to move) for its side to move.
    fn value_of(&self, after: &Position<V>) -> Value {
        if after.black() == 0 {
            return Value::LOST;
        }
        let white = after.flipped();
        let table = self.table_of(&white);
        table.get(table.indexer().index(&white))
    }

    /// The value `pos` must have, from its successors.
    ///
    /// Every king move of `pos` keeps the men where they are, so its successors
    /// share one table and one men placement: the men's part of their index
    /// ([`damka_core::SliceIndexer::index`] is the men placement's part plus
    /// [`damka_core::SliceIndexer::kings_index`]) is found once, at the first king
    /// move, and only the kings' part is computed for the others.
    fn expected(&self, pos: &Position<V>, moves: &mut Vec<damka_core::Move>) -> Value {
        generate(pos, moves);
        let mut king_moves: Option<(&SliceTable<V>, u64)> = None;
        let mut best: Option<Value> = None;
        for mv in moves.iter() {
            let after = apply(pos, mv);
            let king_move = !mv.is_capture() && pos.kings() & (1u64 << mv.from_bit()) != 0;
            let stored = if king_move {
                let white = after.flipped();
                let (table, men) = *king_moves.get_or_insert_with(|| {
                    let table = self.table_of(&white);
                    let indexer = table.indexer();
                    (table, indexer.index(&white) - indexer.kings_index(&white))
                });
                table.get(men + table.indexer().kings_index(&white))
            } else {
                self.value_of(&after)
            };
            let value = stored.back();
            if best.is_none_or(|b| value.better_than(b)) {
                best = Some(value);
            }
        }
        best.unwrap_or(Value::LOST)
    }
}

/// Verifies every table of variant `V` under `root`, or with `only` the tables
/// of that slice and its mirror, reporting progress to `progress` (one group per
/// slice); with `checkpoint`, records the rounds checked there and skips those
/// it records ([`crate::checkpoint`]).
pub fn verify<V: Variant>(
    root: &Path,
    only: Option<Slice>,
    progress: Option<OnProgress<'_>>,
    checkpoint: Option<&Checkpoint>,
) -> Result<VerifyReport, GenError> {
    let tablebase = Tablebase::<V>::new(root);
    let mut slices = tables_in(tablebase.dir())?;
    if let Some(only) = only {
        if !slices.contains(&only) {
            return Err(GenError::Usage(format!(
                "no table of {only} in {}",
                tablebase.dir().display()
            )));
        }
        slices.retain(|&s| s == only || s == only.mirror());
    }
    let mut report = VerifyReport::default();
    let mut done: Vec<Slice> = Vec::new();
    for &slice in &slices {
        if done.contains(&slice) {
            continue;
        }
        // A slice and its mirror together: quiet moves lead from one to the other.
        let group: Vec<Slice> = if slice.is_self_mirror() || !slices.contains(&slice.mirror()) {
            vec![slice]
        } else {
            vec![slice, slice.mirror()]
        };
        done.extend(&group);
        let mut resumes = Vec::new();
        for &slice in &group {
            let size = SliceIndexer::<V>::new(slice)?.size();
            let resume = slice_checkpoint(checkpoint, ("dtw", None), tablebase.dir(), slice, size)?;
            resumes.push((size, resume));
        }
        let whole: Option<Vec<Checked>> = resumes
            .iter()
            .map(|(size, resume)| recorded(*size, resume.as_ref()))
            .collect();
        if let Some(whole) = whole {
            for ((size, _), checked) in resumes.iter().zip(whole) {
                report.add(1, *size, checked);
            }
            continue;
        }
        let decoded = Decoded::of(&tablebase, &group)?;
        for (&slice, (size, resume)) in group.iter().zip(&resumes) {
            let (table, size) = (decoded.table(slice), *size);
            let run = (progress, resume.as_ref());
            let chunks = check_slice(slice, size, run, |index, chunk, moves| {
                let pos = table.indexer().position(index);
                let expected = decoded.expected(&pos, moves);
                let stored = table.get(index);
                let capture = moves.first().is_some_and(|mv| mv.is_capture());
                let stored_wdl = if index % PROBE_EVERY == 0 {
                    Some(tablebase.probe_wdl(pos)?)
                } else if capture {
                    None
                } else {
                    tablebase.stored_wdl_at(slice, index)?
                };
                record_value(chunk, (slice, &pos), (stored, stored_wdl), expected);
                Ok(())
            })?;
            report.add(1, size, chunks);
        }
    }
    Ok(report)
}

/// The found mismatches of one chunk of positions: how many, and the first few.
pub(crate) type Found = (u64, Vec<Mismatch>);

/// Counts a mismatch in `found`, keeping it (made by `make`) as an example
/// while there are fewer than [`EXAMPLES`].
pub(crate) fn record(found: &mut Found, make: impl FnOnce() -> Mismatch) {
    found.0 += 1;
    if found.1.len() < EXAMPLES {
        found.1.push(make());
    }
}

/// Records in `found` what is wrong with the values stored for `pos` of
/// `slice`: its DTW value, and its WDL value where one was read, against the
/// value `expected` from its successors.
pub(crate) fn record_value<V: Variant>(
    found: &mut Found,
    (slice, pos): (Slice, &Position<V>),
    (stored, stored_wdl): (Value, Option<Wdl>),
    expected: Value,
) {
    let mut wrong = Vec::new();
    if stored != expected {
        wrong.push(("dtw", format!("{stored:?}"), format!("{expected:?}")));
    }
    if let Some(wdl) = stored_wdl.filter(|&w| w != expected.wdl()) {
        wrong.push(("wdl", wdl.to_string(), expected.wdl().to_string()));
    }
    for (table, stored, expected) in wrong {
        record(found, || Mismatch {
            slice,
            table,
            fen: pos.to_string(),
            stored,
            expected,
        });
    }
}

/// Positions per chunk of [`check_slice`].
pub(crate) const CHUNK: u64 = 1 << 14;

/// Checks every position of `slice` (`size` positions) with `check`, which is
/// given an index and adds what is wrong there to its chunk's [`Found`] (with a
/// move list to reuse): chunks of [`CHUNK`] positions in parallel, progress
/// reported to `progress` as one group, rounds recorded in and skipped by
/// `checkpoint` (see [`crate::checkpoint`]).
pub(crate) fn check_slice(
    slice: Slice,
    size: u64,
    (progress, checkpoint): (Option<OnProgress<'_>>, Option<&SliceCheckpoint<'_>>),
    check: impl Fn(u64, &mut Found, &mut Vec<damka_core::Move>) -> Result<(), GenError> + Sync,
) -> Result<Checked, GenError> {
    check_chunks(
        slice,
        (size, CHUNK),
        (progress, checkpoint),
        Vec::new,
        check,
    )
}

/// The check of `slice` (`size` positions) as `checkpoint` records it, if it
/// records every round: then the slice's tables need not even be read.
pub(crate) fn recorded(size: u64, checkpoint: Option<&SliceCheckpoint<'_>>) -> Option<Checked> {
    let checkpoint = checkpoint?;
    let round = checkpoint.round_positions;
    let mut checked = Checked {
        found: Vec::new(),
        resumed: 0,
    };
    for r in 0..size.div_ceil(round) {
        let positions = ((r + 1) * round).min(size) - r * round;
        let mismatches = checkpoint.done(r, positions)?;
        checked.found.push((mismatches, Vec::new()));
        checked.resumed += positions;
    }
    Some(checked)
}

/// What the check of one slice found, chunk by chunk, and how many of its
/// positions it took from a checkpoint instead of checking them.
pub(crate) struct Checked {
    found: Vec<Found>,
    resumed: u64,
}

/// [`check_slice`] in chunks of `chunk` positions, with scratch made by
/// `scratch` and kept for the next chunk, in this round or a later one: a rule
/// check's scratch holds windows of decoded blocks, and made anew for each chunk
/// their pages were zeroed again by the kernel, a sixth of the check's time.
/// (Scratch made per rayon split, as `map_init` does, was still made anew for
/// every chunk of a slice whose chunks are a few huge blocks per round: 14 % of
/// a 6-piece International rule check in page clearing.) The chunks go in
/// rounds ([`crate::checkpoint`]); without a checkpoint, the slice is one round.
pub(crate) fn check_chunks<S: Send>(
    slice: Slice,
    (size, chunk): (u64, u64),
    (progress, checkpoint): (Option<OnProgress<'_>>, Option<&SliceCheckpoint<'_>>),
    scratch: impl Fn() -> S + Sync,
    check: impl Fn(u64, &mut Found, &mut S) -> Result<(), GenError> + Sync,
) -> Result<Checked, GenError> {
    send(
        progress,
        Progress::GroupStarted {
            slice,
            positions: size,
        },
    );
    let round = checkpoint.map_or(size.max(1), |c| c.round_positions);
    // Chunks lie on one grid from index 0, so that a round's edges split two
    // chunks at most (a rule check's chunks are whole blocks). In rounds, they
    // are cut smaller (down to [`CHUNK`]) where a round would hold fewer than
    // four a thread.
    let threads = rayon::current_num_threads() as u64;
    let chunk = match checkpoint {
        Some(_) => chunk.min(round.div_ceil(4 * threads).max(CHUNK)),
        None => chunk,
    };
    let mut checked = Checked {
        found: Vec::new(),
        resumed: 0,
    };
    let spare = Spare::default();
    for r in 0..size.div_ceil(round) {
        let (first, end) = (r * round, ((r + 1) * round).min(size));
        if let Some(mismatches) = checkpoint.and_then(|c| c.done(r, end - first)) {
            checked.found.push((mismatches, Vec::new()));
            checked.resumed += end - first;
            let positions = end - first;
            send(progress, Progress::Advanced { slice, positions });
            continue;
        }
        let found = (first / chunk..end.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let start = (c * chunk).max(first);
                let stop = ((c + 1) * chunk).min(end);
                let mut found = (0, Vec::new());
                let mut scratch = spare.take().unwrap_or_else(&scratch);
                for index in start..stop {
                    check(index, &mut found, &mut scratch)?;
                }
                spare.keep(scratch);
                let positions = stop - start;
                send(progress, Progress::Advanced { slice, positions });
                Ok(found)
            })
            .collect::<Result<Vec<Found>, GenError>>()?;
        if let Some(checkpoint) = checkpoint {
            let mismatches = found.iter().map(|f| f.0).sum();
            checkpoint.record(r, end - first, mismatches)?;
        }
        checked.found.extend(found);
    }
    send(progress, Progress::GroupFinished { slice });
    Ok(checked)
}

impl VerifyReport {
    /// Adds `tables` tables of `positions` positions, and what their check
    /// found.
    pub(crate) fn add(&mut self, tables: usize, positions: u64, checked: Checked) {
        self.tables += tables;
        self.positions += positions;
        self.resumed += checked.resumed;
        for (bad, examples) in checked.found {
            self.mismatches += bad;
            let room = EXAMPLES.saturating_sub(self.examples.len());
            self.examples.extend(examples.into_iter().take(room));
        }
    }
}

/// What a checksum check found.
#[derive(Debug, Default)]
pub struct ChecksumReport {
    /// Slices whose two files were checked.
    pub tables: usize,
    /// Bytes read.
    pub bytes: u64,
    /// Every file that failed, with the reason.
    pub failures: Vec<ProbeError>,
}

/// Checks every block checksum and whole-file checksum of every table of variant
/// `V` under `root`, without decoding anything.
pub fn verify_checksums<V: Variant>(root: &Path) -> Result<ChecksumReport, GenError> {
    let tablebase = Tablebase::<V>::new(root);
    let slices = tables_in(tablebase.dir())?;
    let results: Vec<Result<u64, ProbeError>> = slices
        .par_iter()
        .map(|&slice| tablebase.check_checksums(slice))
        .collect();
    let mut report = ChecksumReport::default();
    for result in results {
        report.tables += 1;
        match result {
            Ok(bytes) => report.bytes += bytes,
            Err(error) => report.failures.push(error),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::checkpoint::Checkpoint;

    #[test]
    fn scratch_is_made_once_a_thread_however_many_chunks_and_rounds() {
        let dir = tempfile::tempdir().unwrap();
        let checkpoint = Checkpoint::open(&dir.path().join("checkpoint"))
            .unwrap()
            .with_round_positions(100);
        let slice: Slice = "1M0K-0M1K".parse().unwrap();
        let size = 10_000;
        let resume = checkpoint
            .slice(("test", None), dir.path(), slice, size)
            .unwrap();
        let made = AtomicUsize::new(0);
        let threads = 2;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let checked = pool
            .install(|| {
                check_chunks(
                    slice,
                    (size, 10),
                    (None, Some(&resume)),
                    || made.fetch_add(1, Ordering::Relaxed),
                    |_, _, _| Ok(()),
                )
            })
            .unwrap();
        // 100 rounds of 10 chunks each, every one checked.
        assert_eq!((checked.found.len(), checked.resumed), (1000, 0));
        let made = made.load(Ordering::Relaxed);
        assert!((1..=threads).contains(&made), "{made} scratches made");
    }
}
