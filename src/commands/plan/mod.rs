//! `damka plan`: the build as a task graph, for Make, Slurm or any other
//! scheduler (`damka_gen::plan`).

mod json;
mod make;
mod quote;
mod slurm;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use damka_core::{International, Russian, Slice, Variant, VariantKind};
use damka_gen::plan::{plan, Plan, PlanOptions};
use damka_probe::limits::RuleSet;

/// Arguments of `damka plan`.
#[derive(Debug, clap::Args)]
pub struct PlanArgs {
    /// The variant: `russian` or `international`.
    #[arg(long)]
    pub variant: VariantKind,
    /// Plan every slice with at most this many pieces.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=12))]
    pub pieces: u32,
    /// The tables' root directory, as the tasks will see it (on a cluster: a
    /// shared file system).
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// A memory ceiling per task, e.g. `16G`: groups that do not fit are solved
    /// with their sub-slices spilled to disk. Default: every group in memory.
    #[arg(long, value_parser = damka_gen::budget::parse_size)]
    pub memory: Option<u64>,
    /// Threads (Slurm CPUs) per task.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Also plan the rule tables of this rule set: a preset (`russian`,
    /// `russian-1900`, `fmjd`, `none`) or a TOML file.
    #[arg(long)]
    pub rules: Option<String>,
    /// What to write: `json` (the graph), `make` (a Makefile: `make -j2 -f
    /// plan.mk`) or `slurm` (a bash script that submits every task with
    /// `sbatch`).
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
    /// Only the tasks that build the group of this slice (and the missing
    /// groups it waits for).
    #[arg(long)]
    pub slice: Option<Slice>,
    /// The `damka` program the tasks run (default: this one).
    #[arg(long)]
    pub program: Option<PathBuf>,
}

/// The output formats of `damka plan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The task graph as one JSON document.
    Json,
    /// A Makefile with one phony target per task.
    Make,
    /// A bash script that submits the tasks to Slurm.
    Slurm,
}

/// Prints the plan in the chosen format.
pub fn run(args: &PlanArgs) -> anyhow::Result<ExitCode> {
    let plan = match args.variant {
        VariantKind::Russian => make_plan::<Russian>(args)?,
        VariantKind::International => make_plan::<International>(args)?,
    };
    let program = match &args.program {
        Some(path) => path.clone(),
        None => std::env::current_exe().context("cannot tell where this program is")?,
    };
    let command = std::env::args()
        .map(|a| quote::shell(&a))
        .collect::<Vec<_>>()
        .join(" ");
    let text = match args.format {
        Format::Json => json::render(&plan, &program)?,
        Format::Make => make::render(&plan, &program, &command),
        Format::Slurm => slurm::render(&plan, &program, &command),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn make_plan<V: Variant>(args: &PlanArgs) -> anyhow::Result<Plan> {
    let rules = args
        .rules
        .as_deref()
        .map(|spec| Ok::<_, anyhow::Error>((RuleSet::load_for(spec, V::KIND)?, spec.to_string())))
        .transpose()?;
    let options = PlanOptions {
        root: args.dir.clone(),
        max_pieces: args.pieces,
        memory: args.memory,
        threads: args.threads,
        rules,
        only: args.slice,
    };
    plan::<V>(&options).context("planning failed")
}
