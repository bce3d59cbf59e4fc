//! `damka plan --format json`: the task graph itself, with its totals.

use std::path::Path;

use damka_gen::plan::{Plan, Task, TaskKind};

/// The plan as JSON.
#[derive(serde::Serialize)]
struct Document<'a> {
    variant: &'a str,
    pieces: u32,
    dir: &'a Path,
    program: &'a Path,
    /// Tasks left out because their outputs are there and pass their checksums.
    finished: usize,
    tasks: Vec<TaskRecord<'a>>,
    totals: Totals<'a>,
}

/// One task.
#[derive(serde::Serialize)]
struct TaskRecord<'a> {
    id: &'a str,
    kind: &'static str,
    slices: Vec<String>,
    positions: u64,
    memory_bytes: u64,
    slurm_mem_mib: u64,
    spilled: bool,
    cpus: usize,
    cpu_seconds: f64,
    command: Vec<String>,
    depends_on: &'a [String],
    outputs: &'a [std::path::PathBuf],
    one_of: &'a [std::path::PathBuf],
    stale: &'a [std::path::PathBuf],
}

/// What the whole plan takes.
#[derive(serde::Serialize)]
struct Totals<'a> {
    tasks: usize,
    positions: u64,
    cpu_hours: f64,
    largest_task: Option<&'a str>,
    largest_memory_bytes: u64,
    critical_path: Vec<&'a str>,
    critical_path_hours: f64,
}

/// Renders `plan`, whose tasks run `program`.
pub fn render(plan: &Plan, program: &Path) -> anyhow::Result<String> {
    let tasks = plan.tasks.iter().map(|t| record(t, program)).collect();
    let (path, seconds) = plan.critical_path();
    let largest = plan.largest();
    let document = Document {
        variant: plan.variant,
        pieces: plan.max_pieces,
        dir: &plan.root,
        program,
        finished: plan.finished,
        tasks,
        totals: Totals {
            tasks: plan.tasks.len(),
            positions: plan
                .tasks
                .iter()
                .filter(|t| t.kind == TaskKind::Tables)
                .map(|t| t.positions)
                .sum(),
            cpu_hours: plan.cpu_seconds() / 3600.0,
            largest_task: largest.map(|t| t.id.as_str()),
            largest_memory_bytes: largest.map_or(0, |t| t.memory),
            critical_path: path.iter().map(|t| t.id.as_str()).collect(),
            critical_path_hours: seconds / 3600.0,
        },
    };
    Ok(serde_json::to_string_pretty(&document)? + "\n")
}

fn record<'a>(task: &'a Task, program: &Path) -> TaskRecord<'a> {
    let mut command = vec![program.display().to_string()];
    command.extend(task.args.iter().cloned());
    TaskRecord {
        id: &task.id,
        kind: match task.kind {
            TaskKind::Tables => "tables",
            TaskKind::Rules => "rules",
        },
        slices: task.slices.iter().map(|s| s.name()).collect(),
        positions: task.positions,
        memory_bytes: task.memory,
        slurm_mem_mib: task.slurm_mem_mib(),
        spilled: task.spilled,
        cpus: task.cpus,
        cpu_seconds: task.cpu_seconds,
        command,
        depends_on: &task.depends_on,
        outputs: &task.outputs,
        one_of: &task.one_of,
        stale: &task.stale,
    }
}
