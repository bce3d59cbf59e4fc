//! `damka plan --format make`: a Makefile with one phony target per task, each
//! depending on the tasks it waits for. `make -j2 -f plan.mk` builds the set on
//! one machine; every recipe skips what is built, so running it again after a
//! failure or a kill finishes the set with the same bytes.

use std::fmt::Write;
use std::path::Path;

use damka_gen::plan::Plan;

use super::quote;

/// Renders `plan`, whose tasks run `program`; `command` made it.
pub fn render(plan: &Plan, program: &Path, command: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Made by: {}", command.replace('\n', " "));
    let _ = writeln!(
        out,
        "# {} tasks; run with `make -j2 -f <this file>`.",
        plan.tasks.len()
    );
    let _ = writeln!(
        out,
        "DAMKA ?= {}",
        quote::make(&program.display().to_string())
    );
    let ids: Vec<&str> = plan.tasks.iter().map(|t| t.id.as_str()).collect();
    let _ = writeln!(out, ".PHONY: all {}", ids.join(" "));
    let _ = writeln!(out, "all: {}", ids.join(" "));
    for task in &plan.tasks {
        let _ = writeln!(out, "\n{}: {}", task.id, task.depends_on.join(" "));
        if !task.stale.is_empty() {
            let files: Vec<String> = task
                .stale
                .iter()
                .map(|p| quote::make(&p.display().to_string()))
                .collect();
            let _ = writeln!(out, "\trm -f {}", files.join(" "));
        }
        let args: Vec<String> = task.args.iter().map(|a| quote::make(a)).collect();
        let _ = writeln!(out, "\t$(DAMKA) {}", args.join(" "));
    }
    out
}
