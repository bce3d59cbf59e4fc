//! `damka plan`: the task graph run by `make -j2` builds the same bytes as a plain
//! `damka gen`, a half-built or damaged set plans only the rest, and the JSON
//! graph lists every dependency before its dependents.

use crate::common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use common::{damka, russian_files as files, temp_dir};

/// Runs `damka plan` of Russian up to `pieces` into `dir` with `extra`.
fn run_plan(dir: &Path, pieces: &str, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "plan",
        "--variant",
        "russian",
        "--pieces",
        pieces,
        "--dir",
        dir.to_str().unwrap(),
    ];
    args.extend(extra);
    damka(&args, "")
}

/// `damka plan` of Russian up to `pieces` into `dir` in `format`, with `extra`.
fn plan(dir: &Path, pieces: &str, format: &str, extra: &[&str]) -> String {
    let mut args = vec!["--format", format];
    args.extend(extra);
    let run = run_plan(dir, pieces, &args);
    assert!(run.ok, "damka plan failed: {}", run.err);
    run.out
}

/// Writes `makefile` into `at` and runs `make -j2` on it.
fn make(at: &Path, makefile: &str) {
    let path = at.join("plan.mk");
    std::fs::write(&path, makefile).unwrap();
    let out = Command::new("make")
        .args(["-j2", "-f"])
        .arg(&path)
        .output()
        .expect("`make` must be installed to run this test (Debian: apt-get install make)");
    assert!(
        out.status.success(),
        "make failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The JSON plan of Russian up to `pieces` in `dir`.
fn json(dir: &Path, pieces: &str, extra: &[&str]) -> serde_json::Value {
    serde_json::from_str(&plan(dir, pieces, "json", extra)).unwrap()
}

#[test]
fn make_builds_the_same_bytes_and_a_damaged_set_plans_only_the_rest() {
    let reference = temp_dir("plan-reference");
    let run = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "4",
            "--quiet",
            "--dir",
            reference.path().to_str().unwrap(),
        ],
        "",
    );
    assert!(run.ok, "{}", run.err);

    let work = temp_dir("plan-make");
    let dir = work.path().join("tables");
    let graph = json(&dir, "4", &[]);
    assert_eq!(graph["tasks"].as_array().unwrap().len(), 23);
    make(work.path(), &plan(&dir, "4", "make", &[]));
    assert!(
        files(&dir) == files(reference.path()),
        "make built other bytes"
    );

    // Nothing is left to do once the set is built.
    let graph = json(&dir, "4", &[]);
    assert_eq!(graph["tasks"].as_array().unwrap().len(), 0);
    assert_eq!(graph["finished"], 23);

    // A damaged file puts its task back, marked stale, and nothing else.
    let damaged = dir.join("russian/0M2K-0M2K.dtw.dkt");
    let mut bytes = std::fs::read(&damaged).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&damaged, bytes).unwrap();
    let graph = json(&dir, "4", &[]);
    let tasks = graph["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 1, "{graph}");
    assert_eq!(tasks[0]["id"], "t-0M2K-0M2K");
    assert_eq!(tasks[0]["stale"][0], damaged.to_str().unwrap());
    make(work.path(), &plan(&dir, "4", "make", &[]));
    assert!(
        files(&dir) == files(reference.path()),
        "the repair built other bytes"
    );
}

#[test]
fn rule_tables_through_make_are_the_same_bytes() {
    let reference = temp_dir("plan-rules-reference");
    let run = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--rules",
            "russian",
            "--quiet",
            "--dir",
            reference.path().to_str().unwrap(),
        ],
        "",
    );
    assert!(run.ok, "{}", run.err);
    let work = temp_dir("plan-rules");
    let dir = work.path().join("tables");
    let rules = ["--rules", "russian"];
    let graph = json(&dir, "3", &rules);
    let kinds: Vec<&str> = graph["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "rules").count(), 9);
    make(work.path(), &plan(&dir, "3", "make", &rules));
    assert!(
        files(&dir) == files(reference.path()),
        "make built other bytes"
    );
}

#[test]
fn every_task_comes_after_the_tasks_it_waits_for() {
    let work = temp_dir("plan-order");
    let graph = json(&work.path().join("tables"), "5", &["--rules", "russian"]);
    let mut seen = HashSet::new();
    for task in graph["tasks"].as_array().unwrap() {
        for dep in task["depends_on"].as_array().unwrap() {
            assert!(seen.contains(dep.as_str().unwrap()), "{task}");
        }
        let id = task["id"].as_str().unwrap();
        if let Some(slice) = id.strip_prefix("r-russian-") {
            // A group's rule tables wait for its own tables.
            assert!(task["depends_on"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d == &format!("t-{slice}")));
        }
        assert!(seen.insert(id.to_string()), "task {id} twice");
    }
    // One tables task and one rules task per group (a slice and its mirror).
    let slices = damka(&["slices", "--variant", "russian", "--pieces", "5"], "");
    let groups: HashSet<String> = slices
        .out
        .lines()
        .filter(|l| !l.starts_with("total"))
        .map(|l| {
            let name = l.split_whitespace().next().unwrap();
            let (white, black) = name.split_once('-').unwrap();
            let mirror = format!("{black}-{white}");
            name.min(mirror.as_str()).to_string()
        })
        .collect();
    assert_eq!(graph["tasks"].as_array().unwrap().len(), 2 * groups.len());
    let critical = graph["totals"]["critical_path"].as_array().unwrap();
    assert!(!critical.is_empty());
    assert!(graph["totals"]["cpu_hours"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_bad_rule_set_is_refused() {
    let work = temp_dir("plan-bad");
    let dir = work.path().join("tables");
    let run = run_plan(&dir, "3", &["--rules", "no-such-set"]);
    assert!(!run.ok);
    assert!(run.err.contains("no-such-set"), "{}", run.err);
}

#[test]
fn a_plan_for_one_slice_holds_its_group_and_what_it_waits_for() {
    let work = temp_dir("plan-slice");
    let dir = work.path().join("tables");
    let full = json(&dir, "5", &[]);
    let one = json(&dir, "5", &["--slice", "1M1K-0M3K"]);
    let tasks = one["tasks"].as_array().unwrap();
    let ids: HashSet<&str> = tasks.iter().map(|t| t["id"].as_str().unwrap()).collect();
    // The slice's group, headed by its mirror in the build order.
    assert!(ids.contains("t-0M3K-1M1K"), "{ids:?}");
    // Everything it waits for, directly or not, and nothing else.
    for task in tasks {
        for dep in task["depends_on"].as_array().unwrap() {
            assert!(ids.contains(dep.as_str().unwrap()), "{task}");
        }
    }
    assert!(
        ids.contains("t-0M3K-0M1K") && ids.contains("t-0M1K-0M1K"),
        "{ids:?}"
    );
    assert!(!ids.contains("t-3M0K-2M0K"), "{ids:?}");
    assert!(tasks.len() < full["tasks"].as_array().unwrap().len());
    // A slice outside the set is refused.
    let run = run_plan(&dir, "3", &["--slice", "0M3K-0M2K"]);
    assert!(!run.ok);
    assert!(run.err.contains("is not a russian slice"), "{}", run.err);
}
