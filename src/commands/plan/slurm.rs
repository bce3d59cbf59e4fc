//! `damka plan --format slurm`: a bash script that submits every task with
//! `sbatch`, each waiting for its dependencies (`--dependency=afterok`), with
//! `--mem` and `--cpus-per-task` from the task's estimates and a job name that
//! names the group. Run again after a failure or a kill, it submits only what is
//! missing: a task whose outputs are there is skipped, and one still queued or
//! running under its job name is waited for rather than submitted twice.

use std::fmt::Write;
use std::path::Path;

use damka_gen::plan::{Plan, Task};

use super::quote;

/// The script's helpers: job lookup and submission.
const PRELUDE: &str = r#"set -euo pipefail
export DAMKA="${DAMKA:-__PROGRAM__}"
LOGS="${LOGS:-slurm-logs}"
mkdir -p "$LOGS"
declare -A job=()
# Jobs of this plan already queued or running: "name id" per line.
queued="$(squeue -h -o '%j %i' 2>/dev/null || true)"
queued_id() { awk -v n="$1" '$1 == n { print $2; exit }' <<< "$queued"; }
all_exist() { local f; for f in "$@"; do [ -f "$f" ] || return 1; done; }
any_exists() { local f; for f in "$@"; do [ -f "$f" ] && return 0; done; return 1; }
# submit ID MEM_MIB CPUS "DEPENDENCY IDS" COMMAND: submits one task unless it is
# queued or running already, and records its job id.
submit() {
    local id="$1" mem="$2" cpus="$3" deps="$4" command="$5" name="damka-$1" after="" d
    for d in $deps; do
        if [ -n "${job[$d]:-}" ]; then after="$after:${job[$d]}"; fi
    done
    local existing
    existing="$(queued_id "$name")"
    if [ -n "$existing" ]; then
        job[$id]="$existing"
        echo "queued already: $name $existing"
        return
    fi
    local args=(--parsable --job-name="$name" --mem="${mem}M" --cpus-per-task="$cpus"
        --kill-on-invalid-dep=yes --output="$LOGS/%x-%j.out")
    if [ -n "$after" ]; then args+=(--dependency="afterok$after"); fi
    job[$id]="$(sbatch "${args[@]}" --wrap="$command" | cut -d';' -f1)"
    echo "submitted: $name ${job[$id]}"
}
"#;

/// Renders `plan`, whose tasks run `program`; `command` made it.
pub fn render(plan: &Plan, program: &Path, command: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "#!/usr/bin/env bash");
    let _ = writeln!(out, "# Made by: {}", command.replace('\n', " "));
    let _ = writeln!(
        out,
        "# Submits {} tasks to Slurm and exits; DAMKA and LOGS override the program and the log directory.",
        plan.tasks.len()
    );
    out.push_str(&PRELUDE.replace(
        "__PROGRAM__",
        &program.display().to_string().replace('"', "\\\""),
    ));
    for task in &plan.tasks {
        out.push_str(&task_block(task));
    }
    out
}

/// The lines that submit `task` unless its outputs are there.
fn task_block(task: &Task) -> String {
    let files = |paths: &[std::path::PathBuf]| {
        paths
            .iter()
            .map(|p| quote::shell(&p.display().to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut done = format!("all_exist {}", files(&task.outputs));
    if !task.one_of.is_empty() {
        done = format!("{done} && any_exists {}", files(&task.one_of));
    }
    let mut command = String::new();
    if !task.stale.is_empty() {
        command.push_str(&format!("rm -f {} && ", files(&task.stale)));
    }
    let args: Vec<String> = task.args.iter().map(|a| quote::shell(a)).collect();
    command.push_str(&format!("\"$DAMKA\" {}", args.join(" ")));
    format!(
        "\n# {} ({} positions)\nif ! {{ {done}; }}; then\n    submit {} {} {} {} {}\nfi\n",
        task.id,
        task.positions,
        task.id,
        task.slurm_mem_mib(),
        task.cpus,
        quote::shell(&task.depends_on.join(" ")),
        quote::shell(&command),
    )
}
