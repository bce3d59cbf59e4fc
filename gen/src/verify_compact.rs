//! Verification of a compact set (`damka compact`): every entry a compact DTW
//! file stores exactly (a position without a capture, of the side of its pair
//! that has the file) re-derived from its successors, whose values come from the
//! same set through the probe (`Tablebase::probe_value`): the one-ply search of
//! the side without a file, the capture search of a capture position.
//!
//! The values the probe gives for those two kinds of position are the best of
//! their successors by construction, so once every stored entry is the best of
//! its successors too, every value of the set is; `crate::verify` explains why
//! that local check is complete. The WDL entries of the positions checked are
//! compared with the same expected values.

use std::path::Path;

use damka_core::{apply, generate, Slice, SliceIndexer, Variant};
use damka_formats::Value;
use damka_probe::Tablebase;

use crate::checkpoint::{slice_checkpoint, Checkpoint};
use crate::error::GenError;
use crate::progress::OnProgress;
use crate::verify::{check_slice, record_value, tables_in, VerifyReport};

/// Verifies the compact set of variant `V` under `root`, or with `only` the
/// files of that slice and its mirror, reporting progress to `progress` (one
/// group per slice with a DTW file). The report counts every entry of each file
/// checked, the don't-care ones included. With `checkpoint`, records the rounds
/// checked there and skips those it records ([`crate::checkpoint`]).
pub fn verify_compact<V: Variant>(
    root: &Path,
    only: Option<Slice>,
    progress: Option<OnProgress<'_>>,
    checkpoint: Option<&Checkpoint>,
) -> Result<VerifyReport, GenError> {
    let tablebase = Tablebase::<V>::open(root)?;
    let mut slices = tables_in(tablebase.dir())?;
    if let Some(only) = only {
        slices.retain(|&s| s == only || s == only.mirror());
        if slices.is_empty() {
            return Err(GenError::Usage(format!(
                "no table of {only} in {}",
                tablebase.dir().display()
            )));
        }
    }
    let mut report = VerifyReport::default();
    for slice in slices {
        if tablebase.stored_dtw_at(slice, 0)?.is_none() {
            continue;
        }
        let indexer = SliceIndexer::<V>::new(slice)?;
        let size = indexer.size();
        let resume = slice_checkpoint(checkpoint, ("compact", None), tablebase.dir(), slice, size)?;
        let chunks = check_slice(
            slice,
            size,
            (progress, resume.as_ref()),
            |index, chunk, moves| {
                let pos = indexer.position(index);
                moves.clear();
                generate(&pos, moves);
                if moves.first().is_some_and(|mv| mv.is_capture()) {
                    return Ok(());
                }
                let mut best: Option<Value> = None;
                for mv in moves.iter() {
                    let value = tablebase.probe_value(apply(&pos, mv))?.back();
                    if best.is_none_or(|b| value.better_than(b)) {
                        best = Some(value);
                    }
                }
                let expected = best.unwrap_or(Value::LOST);
                let stored = tablebase
                    .stored_dtw_at(slice, index)?
                    .unwrap_or(Value::LOST);
                let stored_wdl = tablebase.stored_wdl_at(slice, index)?;
                record_value(chunk, (slice, &pos), (stored, stored_wdl), expected);
                Ok(())
            },
        )?;
        report.add(1, size, chunks);
    }
    Ok(report)
}
