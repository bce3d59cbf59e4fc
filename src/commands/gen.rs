//! `damka gen`: builds tables by retrograde analysis.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use damka_core::{International, Russian, Slice, Variant, VariantKind};
use damka_gen::{build, build_mtc, build_rules, check_rule_budget, BuildOptions};
use damka_gen::{BuiltGroup, RuleBuildOptions};
use damka_gen::{OnProgress, Progress};

use super::bars::Bars;
use super::Metric;
use damka_probe::limits::RuleSet;

/// Arguments of `damka gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// Build every slice with at most this many pieces.
    #[arg(long)]
    pub pieces: u32,
    /// The tables' root directory (a variant's tables go to `<dir>/<variant>/`).
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Build only this slice and its mirror, e.g. `0M3K-0M1K`; its dependencies
    /// must already be built, unless `--with-dependencies`.
    #[arg(long)]
    pub slice: Option<Slice>,
    /// With `--slice`: also build whatever the slice depends on, directly or
    /// through others, that is missing, and nothing else (with `--rules`, their
    /// rule tables too). A short-lived machine reaches one group's rule tables
    /// without building the whole set first.
    #[arg(long, requires = "slice")]
    pub with_dependencies: bool,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
    /// The memory ceiling, e.g. `600M` or `4G` (binary multiples). A group that
    /// does not fit is solved with its sub-slices spilled to disk, into the
    /// same files; a budget too small for any group is refused before building.
    /// Default: the memory available, less a margin.
    #[arg(long, value_parser = damka_gen::budget::parse_size)]
    pub memory: Option<u64>,
    /// Also build the rule tables (DTC, RWDL, DTZ, counted DTC) of this rule set: a preset
    /// (`russian`, `russian-1900`, `fmjd`, `none`) or a TOML file.
    #[arg(long)]
    pub rules: Option<String>,
    /// `mtc`: also build the MTC tables (moves to conversion, with no move
    /// limits) of every slice built; `dtw` (the default): the WDL and DTW tables only.
    #[arg(long, value_enum, default_value = "dtw")]
    pub metric: Metric,
}

/// Builds the requested tables and prints what was done.
pub fn run(args: &GenArgs) -> anyhow::Result<ExitCode> {
    super::set_threads(args.threads)?;
    match args.variant {
        VariantKind::Russian => run_variant::<Russian>(args),
        VariantKind::International => run_variant::<International>(args),
    }
}

fn run_variant<V: Variant>(args: &GenArgs) -> anyhow::Result<ExitCode> {
    // Read the rule set first, so a bad one fails before any work is done.
    let set = args
        .rules
        .as_deref()
        .map(|spec| RuleSet::load_for(spec, V::KIND))
        .transpose()?;
    let bars = Bars::build(args.quiet);
    let draw = |event: Progress| bars.show(event);
    let options = BuildOptions {
        root: args.dir.clone(),
        max_pieces: args.pieces,
        only: args.slice,
        with_dependencies: args.with_dependencies,
        memory: args.memory,
        progress: (!args.quiet).then_some(&draw as OnProgress<'_>),
    };
    // A budget too small for the rule tables is refused before the game-theoretic
    // tables are built, not hours later.
    let rule_options = set.map(|set| RuleBuildOptions {
        tables: options.clone(),
        set,
    });
    if let Some(rule_options) = &rule_options {
        check_rule_budget::<V>(rule_options).context("building the rule tables failed")?;
    }
    let report = build::<V>(&options, &mut |group| {
        let names: Vec<String> = group.slices.iter().map(|s| s.name()).collect();
        let seconds = group.elapsed.as_secs_f64();
        bars.suspend(|| {
            println!(
                "built {:<22} {:>12} positions {:>8.2} s {:>12.0} positions/s{}{}",
                names.join(" "),
                group.positions,
                seconds,
                group.positions as f64 / seconds.max(1e-9),
                if group.streamed {
                    " (blocks streamed to disk)"
                } else if group.spilled {
                    " (sub-slices spilled to disk)"
                } else {
                    ""
                },
                match group.dependency_pages {
                    Some(bytes) => format!(
                        " (dependencies decoded a block at a time: at most {} MiB)",
                        bytes.div_ceil(1 << 20)
                    ),
                    None => String::new(),
                }
            )
        });
    })
    .context("generation failed")?;
    print_total(&report);
    if args.metric == Metric::Mtc {
        let report = build_mtc::<V>(&options, &mut |group| print_group("mtc", group))
            .context("building the MTC tables failed")?;
        print_total(&report);
    }
    if let Some(options) = rule_options {
        let name = options.set.name.clone();
        let label = format!("rules {name}");
        let report = build_rules::<V>(&options, &mut |group| print_group(&label, group))
            .context("building the rule tables failed")?;
        print_total(&report);
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the line of one group of derived tables (`label`: what was built).
fn print_group(label: &str, group: &BuiltGroup) {
    let names: Vec<String> = group.slices.iter().map(|s| s.name()).collect();
    println!(
        "{label} {:<22} {:>12} positions {:>8.2} s{}{}",
        names.join(" "),
        group.positions,
        group.elapsed.as_secs_f64(),
        if group.spilled {
            " (sub-slices spilled to disk)"
        } else {
            ""
        },
        if group.resumed {
            " (solve read back from the DTC tables of an interrupted run)"
        } else {
            ""
        }
    );
}

fn print_total(report: &damka_gen::BuildReport) {
    let seconds = report.elapsed().as_secs_f64();
    println!(
        "total {} groups {} positions in {:.2} s ({:.0} positions/s); {} slices already present",
        report.built.len(),
        report.positions(),
        seconds,
        report.positions() as f64 / seconds.max(1e-9),
        report.skipped
    );
}
