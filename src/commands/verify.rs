//! `damka verify`: re-derives every stored value from its successors.

use std::path::PathBuf;
use std::process::ExitCode;

use damka_formats::{International, Russian, Variant, VariantKind};
use damka_gen::verify::verify;

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
}

/// Verifies every table; fails on any mismatch.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    super::set_threads(args.threads)?;
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

fn run_variant<V: Variant>(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let report = verify::<V>(&args.dir, args.quiet)?;
    if report.tables == 0 {
        anyhow::bail!(
            "no {} tables in {}",
            V::KIND,
            args.dir.join(V::KIND.name()).display()
        );
    }
    for m in &report.examples {
        println!(
            "mismatch {} {}: stored {:?}, successors give {:?}",
            m.slice, m.fen, m.stored, m.expected
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
