//! `damka compact`: writes the compact set of built tables (`damka_gen::compact`):
//! DTW files without capture positions and with one side of each slice pair,
//! every other file linked unchanged.

use std::path::PathBuf;
use std::process::ExitCode;

use damka_core::{International, Russian, Variant, VariantKind};
use damka_gen::compact::compact;
use damka_gen::{OnProgress, Progress};

use super::bars::Bars;

/// Arguments of `damka compact`.
#[derive(Debug, clap::Args)]
pub struct CompactArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// The root directory of the exact tables (`damka gen --dir`).
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// The root directory of the compact set (another directory).
    #[arg(long)]
    pub out: PathBuf,
    /// Only slices of at most this many pieces (default: every slice there).
    #[arg(long)]
    pub pieces: Option<u32>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Writes the compact set and prints what it did.
pub fn run(args: &CompactArgs) -> anyhow::Result<ExitCode> {
    super::set_threads(args.threads)?;
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

fn run_variant<V: Variant>(args: &CompactArgs) -> anyhow::Result<ExitCode> {
    let bars = Bars::verify(Some("compact"), args.quiet);
    let draw = |event: Progress| bars.show(event);
    let progress = (!args.quiet).then_some(&draw as OnProgress<'_>);
    let report = compact::<V>(&args.dir, &args.out, args.pieces, progress)?;
    if report.pairs + report.skipped == 0 {
        anyhow::bail!(
            "no {} DTW tables in {}",
            V::KIND,
            args.dir.join(V::KIND.name()).display()
        );
    }
    println!(
        "compacted {} pairs ({} already there), {} positions: DTW {} bytes -> {} bytes; {} \
         other files linked",
        report.pairs,
        report.skipped,
        report.positions,
        report.exact_bytes,
        report.compact_bytes,
        report.linked
    );
    Ok(ExitCode::SUCCESS)
}
