//! `damka verify`: re-derives every stored value from its successors (of a
//! compact set, `damka_gen::verify_compact`), or with
//! `--checksums-only` checks every block's checksum; with `--rules SET`, checks
//! that set's rule tables instead (`damka_gen::verify_rules`), and with
//! `--metric mtc` the MTC tables (`damka_gen::verify_mtc`).

use std::path::PathBuf;
use std::process::ExitCode;

use damka_core::{International, Russian, Slice, Variant, VariantKind};
use damka_gen::checkpoint::Checkpoint;
use damka_gen::compact::is_compact_set;
use damka_gen::verify::{verify, verify_checksums};
use damka_gen::verify_compact::verify_compact;
use damka_gen::verify_mtc::verify_mtc;
use damka_gen::verify_rules::verify_rules_of;
use damka_gen::{OnProgress, Progress};
use damka_probe::limits::RuleSet;

use super::bars::Bars;
use super::Metric;

/// Arguments of `damka verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// The tables' root directory.
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
    /// Only check every block checksum and whole-file checksum (fast: decodes
    /// nothing, derives nothing).
    #[arg(long)]
    pub checksums_only: bool,
    /// Check the rule tables (DTC, DTZ and counted DTC re-derived from
    /// successors; RWDL against the theory, DTC, DTZ and counted DTC) of this rule
    /// set: a preset or a TOML file.
    #[arg(long, conflicts_with = "checksums_only")]
    pub rules: Option<String>,
    /// `mtc`: check the MTC tables instead (every value re-derived from its
    /// successors, and its outcome against the DTW table's); `dtw` (the
    /// default): the WDL and DTW tables.
    #[arg(long, value_enum, default_value = "dtw", conflicts_with_all = ["checksums_only", "rules"])]
    pub metric: Metric,
    /// Verify only this slice and its mirror, e.g. `0M4K-0M3K` (the WDL and
    /// DTW tables, with `--rules` the rule tables, with `--metric mtc` the MTC
    /// tables; their dependencies' tables must be there).
    #[arg(long, conflicts_with = "checksums_only")]
    pub slice: Option<Slice>,
    /// Record the verified part of each slice in this file, and skip what it
    /// records as verified of the same tables: a verification stopped part-way
    /// resumes where it stopped (created if missing; its directory must exist).
    #[arg(long, conflicts_with = "checksums_only")]
    pub checkpoint: Option<PathBuf>,
    /// With `--rules`: the memory each slice's check sizes its read windows,
    /// block cache and decoded conversion tables to, e.g. `6G` (default: the
    /// memory available when the slice's check starts, less a margin). Its
    /// own decoded tables come on top. Less memory is slower, never different.
    #[arg(long, requires = "rules", value_parser = damka_gen::budget::parse_size)]
    pub memory: Option<u64>,
}

/// Verifies every table; fails on any mismatch.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    super::set_threads(args.threads)?;
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

fn no_tables<V: Variant>(args: &VerifyArgs) -> anyhow::Error {
    anyhow::anyhow!(
        "no {} tables in {}",
        V::KIND,
        args.dir.join(V::KIND.name()).display()
    )
}

fn run_variant<V: Variant>(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    if args.checksums_only {
        let report = verify_checksums::<V>(&args.dir)?;
        if report.tables == 0 {
            return Err(no_tables::<V>(args));
        }
        for failure in &report.failures {
            println!("{failure}");
        }
        println!(
            "checked {} tables, {} bytes: {} failed",
            report.tables,
            report.bytes,
            report.failures.len()
        );
        return Ok(if report.failures.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let checkpoint = args
        .checkpoint
        .as_deref()
        .map(Checkpoint::open)
        .transpose()?;
    let checkpoint = checkpoint.as_ref();
    let report = match &args.rules {
        Some(spec) => {
            let set = RuleSet::load_for(spec, V::KIND)?;
            let bars = Bars::verify(Some(&set.name), args.quiet);
            let draw = |event: Progress| bars.show(event);
            let progress = (!args.quiet).then_some(&draw as OnProgress<'_>);
            let report = verify_rules_of::<V>(
                &args.dir,
                &set,
                args.slice,
                progress,
                checkpoint,
                args.memory,
            )?;
            if report.tables == 0 {
                let of = args.slice.map(|s| format!(" of {s}")).unwrap_or_default();
                anyhow::bail!(
                    "no {} rule tables{of} in {} (build them with `damka gen --rules {}`)",
                    set.name,
                    args.dir.join(V::KIND.name()).display(),
                    spec
                );
            }
            report
        }
        None if args.metric == Metric::Mtc => {
            let bars = Bars::verify(Some("mtc"), args.quiet);
            let draw = |event: Progress| bars.show(event);
            let progress = (!args.quiet).then_some(&draw as OnProgress<'_>);
            let report = verify_mtc::<V>(&args.dir, args.slice, progress, checkpoint)?;
            if report.tables == 0 {
                anyhow::bail!(
                    "no MTC tables in {} (build them with `damka gen --metric mtc`)",
                    args.dir.join(V::KIND.name()).display()
                );
            }
            report
        }
        None => {
            let bars = Bars::verify(None, args.quiet);
            let draw = |event: Progress| bars.show(event);
            let progress = (!args.quiet).then_some(&draw as OnProgress<'_>);
            if is_compact_set::<V>(&args.dir)? {
                verify_compact::<V>(&args.dir, args.slice, progress, checkpoint)?
            } else {
                verify::<V>(&args.dir, args.slice, progress, checkpoint)?
            }
        }
    };
    if report.tables == 0 {
        return Err(no_tables::<V>(args));
    }
    for m in &report.examples {
        println!(
            "mismatch {} {} {}: stored {}, successors give {}",
            m.slice, m.table, m.fen, m.stored, m.expected
        );
    }
    if report.resumed > 0 {
        println!(
            "resumed: {} of the positions were checked by an earlier run (the checkpoint \
             counts their mismatches; examples are from this run only)",
            report.resumed
        );
    }
    println!(
        "verified {} tables, {} positions: {} mismatches",
        report.tables, report.positions, report.mismatches
    );
    Ok(if report.mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
