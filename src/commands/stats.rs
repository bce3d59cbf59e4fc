//! `damka stats`: endgame statistics from built tables, as tables and plots.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use damka_core::{International, Russian, Variant, VariantKind};
use damka_probe::limits::RuleSet;
use damka_stats::report::{render, Format};
use damka_stats::rule_stats::{render_rule_stats, rule_stats, RuleStatsReport};
use damka_stats::stats::{metric_stats_reusing, StatsReport};

use super::Metric;

/// The report formats on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// Markdown tables.
    Md,
    /// CSV rows.
    Csv,
    /// One JSON document.
    Json,
}

/// Arguments of `damka stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// The tables' root directory.
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Only slices with at most this many pieces.
    #[arg(long)]
    pub pieces: Option<u32>,
    /// The report format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: FormatArg,
    /// Write the report here instead of to standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also draw the figures into this `.svg` or `.png` file.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// The piece count of the win/draw/loss bar chart (default: the largest).
    #[arg(long)]
    pub plot_pieces: Option<u32>,
    /// Count the values under this rule set instead (wins, cursed wins, draws,
    /// blessed losses, losses with fresh counters), from its RWDL tables.
    #[arg(long)]
    pub rules: Option<String>,
    /// `mtc`: count moves to conversion from the MTC tables (the longest win of
    /// each slice, with an example, is Kingsrow's "HighMtc"); `dtw` (the
    /// default): distances to win from the DTW tables.
    #[arg(long, value_enum, default_value = "dtw", conflicts_with = "rules")]
    pub metric: Metric,
    /// An earlier JSON report of the same variant and metric, or rule set
    /// (`--format json`): a slice whose table file still has the checksum it
    /// names is not counted again, its figures are taken from there. Lets a
    /// report of a set grow while the set is being built, or be rendered again
    /// in another format. With `--rules`, a slice the earlier report has whose
    /// RWDL file is not in the directory is carried over as counted there, so
    /// a report grows group by group on machines that keep only some groups;
    /// the report says how many slices were carried.
    #[arg(long)]
    pub reuse: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Computes the statistics and writes the report and figures.
pub fn run(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    super::set_threads(args.threads)?;
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

fn run_variant<V: Variant>(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    if let Some(spec) = &args.rules {
        return run_rules::<V>(args, spec);
    }
    let metric = match args.metric {
        Metric::Dtw => damka_stats::stats::Metric::Dtw,
        Metric::Mtc => damka_stats::stats::Metric::Mtc,
    };
    let earlier: Option<StatsReport> = args.reuse.as_deref().map(read_report).transpose()?;
    let report =
        metric_stats_reusing::<V>(&args.dir, args.pieces, metric, earlier.as_ref(), |slice| {
            eprintln!("stats: {slice}");
        })?;
    let text = render(&report, format_of(args), &command_line());
    write_out(args, &text)?;
    if let Some(path) = &args.plot {
        let pieces = args
            .plot_pieces
            .unwrap_or_else(|| report.totals.last().map_or(2, |t| t.pieces));
        damka_stats::plot::plot(&report, pieces, path)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// An earlier report, written by `damka stats --format json` (with `--rules`
/// for a [`RuleStatsReport`]).
fn read_report<R: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<R> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the earlier report {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a report of `damka stats --format json`",
            path.display()
        )
    })
}

/// The report format asked for.
fn format_of(args: &StatsArgs) -> Format {
    match args.format {
        FormatArg::Md => Format::Markdown,
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
    }
}

/// The command line, for the report's stamp.
fn command_line() -> String {
    std::iter::once("damka".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes `text` to `--out` (atomically) or to standard output.
fn write_out(args: &StatsArgs, text: &str) -> anyhow::Result<()> {
    match &args.out {
        Some(path) => {
            let temporary = path.with_extension("tmp");
            std::fs::write(&temporary, text)
                .and_then(|()| std::fs::rename(&temporary, path))
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        None => print!("{text}"),
    }
    Ok(())
}

/// `damka stats --rules`: the five-valued counts under a rule set.
fn run_rules<V: Variant>(args: &StatsArgs, spec: &str) -> anyhow::Result<ExitCode> {
    let set = RuleSet::load_for(spec, V::KIND)?;
    let earlier: Option<RuleStatsReport> = args.reuse.as_deref().map(read_report).transpose()?;
    let report = rule_stats::<V>(&args.dir, set, args.pieces, earlier.as_ref(), |slice| {
        eprintln!("stats: {slice}");
    })?;
    write_out(
        args,
        &render_rule_stats(&report, format_of(args), &command_line()),
    )?;
    Ok(ExitCode::SUCCESS)
}
