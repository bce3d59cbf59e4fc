//! Verification of the MTC tables (`damka verify --metric mtc`).
//!
//! Every MTC value is re-derived from the successors, as the DTW values are
//! ([`crate::verify`]): a capture or man move (promotions included) is valued by
//! the game-theoretic value of the position it reaches, from the DTW tables (a
//! loss there: a win in 1 ply here), a king move by the MTC table one ply back.
//! The check is complete for the same reason: by induction on the stored
//! distance. Each value's outcome must also be the DTW table's.

use std::path::Path;

use damka_core::{Slice, Variant};
use damka_formats::table::ValueKind;
use damka_formats::Dtc;
use damka_probe::Tablebase;

use crate::best::reached;
use crate::checkpoint::{slice_checkpoint, Checkpoint};
use crate::error::GenError;
use crate::progress::OnProgress;
use crate::verify::{check_slice, record, tables_in, Mismatch, VerifyReport};
use crate::verify_rules::{derive, show};

/// Verifies the MTC table of every slice under `root` that has one, or of the
/// slice `only` and its mirror if given (their dependencies' DTW tables must be
/// there), reporting progress to `progress` (one group per slice); with
/// `checkpoint`, records the rounds checked there and skips those it records
/// ([`crate::checkpoint`]).
pub fn verify_mtc<V: Variant>(
    root: &Path,
    only: Option<Slice>,
    progress: Option<OnProgress<'_>>,
    checkpoint: Option<&Checkpoint>,
) -> Result<VerifyReport, GenError> {
    let tablebase = Tablebase::<V>::new(root);
    if let Some(only) = only {
        if !tablebase.path(only, ValueKind::Mtc).is_file() {
            return Err(GenError::Usage(format!(
                "no MTC table of {only} in {} (build it with `damka gen --metric mtc`)",
                tablebase.dir().display()
            )));
        }
    }
    let mut report = VerifyReport::default();
    for slice in tables_in(tablebase.dir())? {
        if only.is_some_and(|s| slice != s && slice != s.mirror()) {
            continue;
        }
        if !tablebase.path(slice, ValueKind::Mtc).is_file() {
            continue;
        }
        let mtc = tablebase.decoded_table(slice, ValueKind::Mtc)?;
        let theory = tablebase.slice_table(slice)?;
        let size = mtc.indexer().size();
        let resume = slice_checkpoint(
            checkpoint,
            ("mtc", Some("mtc.")),
            tablebase.dir(),
            slice,
            size,
        )?;
        let chunks = check_slice(
            slice,
            size,
            (progress, resume.as_ref()),
            |index, found, _| {
                let pos = mtc.indexer().position(index);
                let stored = Dtc::from_raw(mtc.raw_at(index as usize));
                let expected = derive(&pos, |mv, after| {
                    let king_move = pos.kings() & (1u64 << mv.from_bit()) != 0;
                    Ok(if mv.is_capture() || !king_move {
                        reached(tablebase.probe_value(*after)?.wdl())
                    } else {
                        tablebase.probe_mtc(*after)?
                    })
                })?;
                let wdl = theory.get(index).wdl();
                if stored != expected || stored.wdl() != wdl {
                    record(found, || Mismatch {
                        slice,
                        table: "mtc",
                        fen: pos.to_string(),
                        stored: show(stored),
                        expected: format!("{} (the DTW table: {wdl})", show(expected)),
                    });
                }
                Ok(())
            },
        )?;
        report.add(1, size, chunks);
    }
    Ok(report)
}
