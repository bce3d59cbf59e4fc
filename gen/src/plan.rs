//! The build as a graph of tasks, for a scheduler (Make, Slurm) to run: one task
//! per solve group's tables and one per group's rule tables, each a plain
//! `damka gen --slice` command with the tasks it waits for, its memory and CPU
//! estimates and the files that mark it done.
//!
//! Every task writes atomically and skips what is already built, so a task that
//! is run twice, or killed and run again, gives the same bytes. Tasks whose
//! outputs are all there and pass their checksums are left out of the plan: the
//! plan of a half-built set is the rest of the work.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use damka_core::{build_order, dependencies, Slice, SliceIndexer, Variant};
use damka_formats::table::{rule_table_file_name, table_file_name, TableHeader, ValueKind};
use damka_probe::limits::{RuleSet, RuleTablebase};
use damka_probe::Tablebase;

use crate::budget::{group_need, mib, rule_group_need, GroupNeed};
use crate::build::groups;
use crate::error::GenError;

/// Positions one core solves per second, for the CPU estimates: the Russian
/// 7-piece groups ran at 0.24 to 2.3 M positions/s on two busy cores (README,
/// "Long runs"), so 1 M per core-second is a middle figure.
pub const TABLE_POSITIONS_PER_CPU_SECOND: f64 = 1.0e6;
/// The same for the rule tables (DTC, RWDL, DTZ and the counted tables): the
/// Russian 7-piece rule groups of session 26 took 1.1 to 4.1 M positions per
/// second of user time (1.1 to 1.3 M for the larger ones), and 24 of them 22.8 G
/// positions in 9,378 s on two busy cores (README, "Long runs"): the same middle
/// figure as the tables.
pub const RULE_POSITIONS_PER_CPU_SECOND: f64 = 1.0e6;
/// Slurm's `--mem` is the estimate plus this share, for allocator slack.
const MEMORY_MARGIN_SHARE: u64 = 8;

/// What to plan.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    /// The tables' root directory, as the tasks will see it.
    pub root: PathBuf,
    /// Every slice with at most this many pieces.
    pub max_pieces: u32,
    /// A memory ceiling per task: a group whose tables do not fit is solved with
    /// its sub-slices spilled (`None`: every group in memory).
    pub memory: Option<u64>,
    /// Threads (and Slurm CPUs) per task.
    pub threads: usize,
    /// Also the rule tables of this rule set, and how the tasks name it (a
    /// preset name or a TOML file path).
    pub rules: Option<(RuleSet, String)>,
    /// Only the tasks that build the group of this slice: its own and those of
    /// the missing groups it waits for (`None`: every slice).
    pub only: Option<Slice>,
}

/// What a task builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskKind {
    /// A group's WDL and DTW tables.
    Tables,
    /// A group's rule tables (DTC, RWDL and, where the set zeroes, DTZ).
    Rules,
}

/// One task of the plan.
#[derive(Debug, Clone)]
pub struct Task {
    /// A name unique in the plan, usable as a file name and a job name:
    /// `t-<slice>` or `r-<set>-<slice>`.
    pub id: String,
    /// What it builds.
    pub kind: TaskKind,
    /// The slices of its group (a slice and its mirror, or one slice).
    pub slices: Vec<Slice>,
    /// Positions of the group.
    pub positions: u64,
    /// Memory it needs, in bytes (what `--memory` is given, before any margin).
    pub memory: u64,
    /// Whether it solves with its sub-slices spilled to disk to fit `memory`.
    pub spilled: bool,
    /// Threads it runs.
    pub cpus: usize,
    /// Estimated CPU time, in seconds.
    pub cpu_seconds: f64,
    /// The arguments of the `damka` program that runs it (without the program).
    pub args: Vec<String>,
    /// The ids of the tasks it waits for (all earlier in the plan).
    pub depends_on: Vec<String>,
    /// Files that must all exist for the task to be done.
    pub outputs: Vec<PathBuf>,
    /// Files of which at least one must exist too (the WDL file is written for
    /// one side of a pair, chosen at build time); empty if none.
    pub one_of: Vec<PathBuf>,
    /// Outputs that are there but fail their checksums: the task removes them
    /// before it runs, so that they are built again.
    pub stale: Vec<PathBuf>,
}

impl Task {
    /// Slurm's `--mem`, in MiB: the memory estimate and a margin.
    pub fn slurm_mem_mib(&self) -> u64 {
        mib(self.memory + self.memory / MEMORY_MARGIN_SHARE)
    }
}

/// The build as a task graph, in an order that respects every dependency.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The variant's name.
    pub variant: &'static str,
    /// Every slice with at most this many pieces.
    pub max_pieces: u32,
    /// The tables' root directory.
    pub root: PathBuf,
    /// The tasks left to run.
    pub tasks: Vec<Task>,
    /// Tasks left out because their outputs are there and pass their checksums.
    pub finished: usize,
}

impl Plan {
    /// The task that needs the most memory.
    pub fn largest(&self) -> Option<&Task> {
        self.tasks.iter().max_by_key(|t| t.memory)
    }

    /// Estimated CPU time of every task, in seconds.
    pub fn cpu_seconds(&self) -> f64 {
        self.tasks.iter().fold(0.0, |sum, t| sum + t.cpu_seconds)
    }

    /// The critical path: the chain of tasks, each waiting for the one before,
    /// with the longest estimated wall time (CPU time over the task's threads),
    /// and that time in seconds.
    pub fn critical_path(&self) -> (Vec<&Task>, f64) {
        let at: HashMap<&str, usize> = self
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.as_str(), i))
            .collect();
        // Tasks come after their dependencies, so one pass in order suffices.
        let mut finish = vec![0.0f64; self.tasks.len()];
        let mut before: Vec<Option<usize>> = vec![None; self.tasks.len()];
        for (i, task) in self.tasks.iter().enumerate() {
            let mut start = 0.0;
            for dep in &task.depends_on {
                let d = at[dep.as_str()];
                if finish[d] > start {
                    start = finish[d];
                    before[i] = Some(d);
                }
            }
            finish[i] = start + task.cpu_seconds / task.cpus.max(1) as f64;
        }
        let Some(last) = (0..finish.len()).max_by(|&a, &b| finish[a].total_cmp(&finish[b])) else {
            return (Vec::new(), 0.0);
        };
        let mut path = vec![&self.tasks[last]];
        let mut at = last;
        while let Some(previous) = before[at] {
            path.push(&self.tasks[previous]);
            at = previous;
        }
        path.reverse();
        (path, finish[last])
    }
}

/// Plans the build `options` describes, leaving out the tasks already done.
pub fn plan<V: Variant>(options: &PlanOptions) -> Result<Plan, GenError> {
    if let Some((set, _)) = &options.rules {
        set.validate()
            .map_err(|e| damka_probe::ProbeError::InvalidRuleSet(e.to_string()))?;
    }
    let order = build_order::<V>(options.max_pieces);
    let heads = groups(&order);
    let head_of: HashMap<Slice, Slice> = heads
        .iter()
        .flat_map(|&h| [(h, h), (h.mirror(), h)])
        .collect();
    let tablebase = Tablebase::<V>::new(&options.root);
    let dir = tablebase.dir().to_path_buf();
    let threads = options.threads.max(1);
    let common = |slice: Slice| {
        vec![
            "gen".to_string(),
            "--variant".to_string(),
            V::KIND.to_string(),
            "--pieces".to_string(),
            options.max_pieces.to_string(),
            "--dir".to_string(),
            options.root.display().to_string(),
            "--threads".to_string(),
            threads.to_string(),
            "--slice".to_string(),
            slice.name(),
        ]
    };
    let mut plan = Plan {
        variant: V::KIND.name(),
        max_pieces: options.max_pieces,
        root: options.root.clone(),
        tasks: Vec::new(),
        finished: 0,
    };
    let mut planned: Vec<String> = Vec::new();
    let table_id = |head: Slice| format!("t-{head}");
    for &head in &heads {
        let slices = group_slices(head);
        let need = group_need::<V>(head, threads)?;
        let spilled = options.memory.is_some_and(|m| need.resident > m);
        let memory = table_task_memory(&need, options.memory);
        let positions = group_positions::<V>(&slices)?;
        let outputs: Vec<PathBuf> = slices
            .iter()
            .map(|&s| dir.join(table_file_name(s, ValueKind::Dtw)))
            .collect();
        let one_of: Vec<PathBuf> = slices
            .iter()
            .map(|&s| dir.join(table_file_name(s, ValueKind::Wdl)))
            .collect();
        let mut args = common(head);
        args.extend([
            "--memory".to_string(),
            format!("{}M", mib(memory)),
            "--quiet".into(),
        ]);
        let task = Task {
            id: table_id(head),
            kind: TaskKind::Tables,
            slices: slices.clone(),
            positions,
            memory,
            spilled,
            cpus: threads,
            cpu_seconds: positions as f64 / TABLE_POSITIONS_PER_CPU_SECOND,
            args,
            depends_on: waits_for(head, &head_of, &planned, table_id),
            stale: Vec::new(),
            outputs,
            one_of,
        };
        add(&mut plan, &mut planned, task);
    }
    if let Some((set, spec)) = &options.rules {
        let rules = RuleTablebase::<V>::new(&options.root, set.clone());
        let rule_id = |head: Slice| format!("r-{}-{head}", set.name);
        for &head in &heads {
            let slices = group_slices(head);
            let zeroing = rules.phase(head.material())?.zeroing(set);
            let positions = group_positions::<V>(&slices)?;
            let need = rule_group_need(&rules, head, threads)?;
            let spilled =
                options.memory.is_some_and(|m| need.resident > m) && need.spilled < need.resident;
            let memory = if spilled { need.spilled } else { need.resident };
            let mut kinds = vec![ValueKind::RuleWdl];
            if rules.counted_plan(head.material())?.is_some() {
                kinds.push(ValueKind::CountedDtc);
            }
            if zeroing {
                kinds.push(ValueKind::Dtz);
            }
            let outputs: Vec<PathBuf> = slices
                .iter()
                .flat_map(|&s| {
                    kinds
                        .iter()
                        .map(move |&k| rule_table_file_name(s, &set.name, k))
                })
                .map(|name| dir.join(name))
                .collect();
            let mut args = common(head);
            args.extend([
                "--rules".to_string(),
                spec.clone(),
                "--memory".to_string(),
                format!("{}M", mib(memory)),
                "--quiet".into(),
            ]);
            let mut depends_on = waits_for(head, &head_of, &planned, rule_id);
            if planned.contains(&table_id(head)) {
                depends_on.insert(0, table_id(head));
            }
            let task = Task {
                id: rule_id(head),
                kind: TaskKind::Rules,
                slices,
                positions,
                memory,
                spilled,
                cpus: threads,
                cpu_seconds: positions as f64 / RULE_POSITIONS_PER_CPU_SECOND,
                args,
                depends_on,
                stale: Vec::new(),
                outputs,
                one_of: Vec::new(),
            };
            add(&mut plan, &mut planned, task);
        }
    }
    if let Some(slice) = options.only {
        keep_only(&mut plan, slice, &head_of)?;
    }
    Ok(plan)
}

/// Keeps only the tasks of the group of `slice` and those they wait for,
/// directly or not.
fn keep_only(
    plan: &mut Plan,
    slice: Slice,
    head_of: &HashMap<Slice, Slice>,
) -> Result<(), GenError> {
    let head = *head_of.get(&slice).ok_or_else(|| {
        GenError::Usage(format!(
            "{slice} is not a {} slice of at most {} pieces",
            plan.variant, plan.max_pieces
        ))
    })?;
    let mut wanted: Vec<String> = plan
        .tasks
        .iter()
        .filter(|t| t.slices.contains(&head))
        .map(|t| t.id.clone())
        .collect();
    // Tasks come after what they wait for: one pass from the end collects all.
    for task in plan.tasks.iter().rev() {
        if wanted.contains(&task.id) {
            for dep in &task.depends_on {
                if !wanted.contains(dep) {
                    wanted.push(dep.clone());
                }
            }
        }
    }
    plan.tasks.retain(|t| wanted.contains(&t.id));
    Ok(())
}

/// Adds `task` to the plan unless its outputs are all there and pass their
/// checksums; outputs that fail them become stale.
fn add(plan: &mut Plan, planned: &mut Vec<String>, mut task: Task) {
    let present: Vec<PathBuf> = task
        .outputs
        .iter()
        .chain(&task.one_of)
        .filter(|p| p.is_file())
        .cloned()
        .collect();
    let complete = task.outputs.iter().all(|p| p.is_file())
        && (task.one_of.is_empty() || task.one_of.iter().any(|p| p.is_file()));
    task.stale = file_checks(&present);
    if complete && task.stale.is_empty() {
        plan.finished += 1;
        return;
    }
    planned.push(task.id.clone());
    plan.tasks.push(task);
}

/// The ids of the planned tasks of the groups `head` depends on.
fn waits_for(
    head: Slice,
    head_of: &HashMap<Slice, Slice>,
    planned: &[String],
    id: impl Fn(Slice) -> String,
) -> Vec<String> {
    let mut ids: Vec<String> = dependencies(head)
        .into_iter()
        .filter_map(|dep| head_of.get(&dep).copied())
        .map(id)
        .filter(|i| planned.contains(i))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The files among `present` that are not a table file whose checksums hold.
fn file_checks(present: &[PathBuf]) -> Vec<PathBuf> {
    present
        .iter()
        .filter(|path| !checksums_hold(path))
        .cloned()
        .collect()
}

/// Whether the file at `path` is a table whose block and file checksums hold.
fn checksums_hold(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    // SAFETY: the tables are written once, through a temporary file and a
    // rename, and never modified in place; a file truncated or changed under the
    // map is what the checksums catch.
    let Ok(map) = (unsafe { memmap2::Mmap::map(&file) }) else {
        return false;
    };
    TableHeader::decode(&map).is_ok_and(|header| header.check_all(&map).is_ok())
}

/// The slices of the group of `head`: itself and its mirror.
fn group_slices(head: Slice) -> Vec<Slice> {
    if head.is_self_mirror() {
        vec![head]
    } else {
        vec![head, head.mirror()]
    }
}

/// The memory a table task asks for under the budget `memory`: the least of
/// the group's needs (in memory, spilled, streamed) that fits; else the whole
/// budget, in which its dependencies are decoded a block at a time (whether
/// each sub-slice's blocks fit shows only while it is solved; the README gives
/// the bound for International 7); else its least need, over the budget.
fn table_task_memory(need: &GroupNeed, memory: Option<u64>) -> u64 {
    let Some(m) = memory else {
        return need.resident;
    };
    [need.resident, need.spilled, need.streamed]
        .into_iter()
        .find(|&n| n <= m)
        .unwrap_or(if need.least <= m { m } else { need.least })
}

/// Positions of `slices`.
fn group_positions<V: Variant>(slices: &[Slice]) -> Result<u64, GenError> {
    let mut total = 0;
    for &s in slices {
        total += SliceIndexer::<V>::new(s)?.size();
    }
    Ok(total)
}
