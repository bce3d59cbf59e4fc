//! The rule tables of the layered pass, the DTZ tables, and `damka verify --rules`.
//!
//! Under `russian`, R2 and R4 first bind together at 5 pieces. A custom set with
//! the same two counters and shorter limits (R2 at 5 moves, R4 at 2) makes them bind at 3
//! and 4 pieces, where tables build in seconds: the RWDL values of the
//! generator's layered pass are checked against the probe's search, which shares
//! nothing with that pass but the DTC tables. Then the verifier must pass the
//! tables as built and catch a value changed in each kind.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

use damka_core::{Russian, Slice};
use damka_formats::table::ValueKind;
use damka_formats::{Dtc, RuleWdl, Wdl};
use damka_gen::checkpoint::Checkpoint;
use damka_gen::store::FileStore;
use damka_gen::verify_rules::verify_rules_of;
use damka_probe::SliceTable;
use damka_probe::{limits::RuleSet, limits::RuleTablebase, limits::Verdict};

use common::rules_naive::naive_rule_values;
use common::{build_rule_tables, damka, temp_dir, verify_rules_both};

const SLICE: &str = "1M1K-0M2K";

/// R2 and R4 of `russian` with limits that bind at 3 and 4 pieces.
const TIGHT: &str = r#"
name = "tight"
description = "R2 and R4 with short limits, for tests."
variant = "russian"

[[counter]]
id = "U"
description = "Unchanged material with kings on both sides."
applies = { class = "both-sides-have-kings" }
resets = ["capture", "promotion"]
limit_moves = 5

[[counter]]
id = "K"
description = "Only kings moved."
applies = { class = "any" }
resets = ["capture", "man-move"]
limit_moves = 2
"#;

/// A fresh temporary directory holding the set [`TIGHT`] as `tight.toml`, and
/// that file's path as a rule set argument.
fn with_tight_set(tag: &str) -> (tempfile::TempDir, String) {
    let tmp = temp_dir(tag);
    std::fs::create_dir_all(tmp.path()).unwrap();
    let file = tmp.path().join("tight.toml");
    std::fs::write(&file, TIGHT).unwrap();
    (tmp, file.to_str().unwrap().to_string())
}

fn tables(dir: &Path) -> RuleTablebase<Russian> {
    RuleTablebase::new(dir, RuleSet::from_toml_str(TIGHT).unwrap())
}

/// Rewrites the `kind` table of `slice` with the value at `index` replaced.
fn tamper(dir: &Path, slice: Slice, kind: ValueKind, index: usize, value: u16) {
    let rules = tables(dir);
    let table: std::sync::Arc<SliceTable<Russian>> = rules.table(slice, kind).unwrap();
    let mut values = table.raw_values().collect::<Vec<_>>();
    assert_ne!(values[index], value, "the tampered value must differ");
    values[index] = value;
    let store = FileStore::new(&dir.join("russian"), damka_core::VariantKind::Russian).unwrap();
    let set = rules.set();
    store
        .write_rule_table(slice, (&set.name, set.fingerprint()), kind, &values)
        .unwrap();
}

/// `damka verify --rules SPEC` on the Russian tables under `dir`, with `extra`
/// arguments.
fn verify_cli(dir: &Path, spec: &str, extra: &[&str]) -> common::Run {
    let dir = dir.to_str().unwrap();
    let mut args = vec!["verify", "--variant", "russian", "--dir", dir];
    args.extend(["--rules", spec, "--quiet"]);
    args.extend(extra);
    damka(&args, "")
}

#[test]
fn layered_values_agree_with_the_search_and_the_verifier_catches_changes() {
    let (tmp, spec) = with_tight_set("rules-verify");
    let dir = tmp.path().to_path_buf();
    let spec = spec.as_str();
    build_rule_tables::<Russian>(&dir, 3, &["0M2K-0M2K", SLICE], spec);
    let rules = tables(&dir);
    let set = rules.set().clone();

    // Where the DTC value alone does not decide, check the layered pass's RWDL
    // values: at 3 pieces against the naive solver, which shares nothing with the
    // generator but the move generator; at 4 pieces, where that solver is slow,
    // against the probe's search. With a count already played, the naive solver
    // also checks the probe, whose search prunes by the DTZ tables.
    let mut small = Vec::new();
    let mut large = Vec::new();
    for name in ["1M1K-0M1K", "0M1K-1M1K", SLICE, "0M2K-1M1K"] {
        let slice: Slice = name.parse().unwrap();
        let dtc = rules.table(slice, ValueKind::Dtc).unwrap();
        let theory = rules.tablebase().slice_table(slice).unwrap();
        let phase = rules.phase(slice.material()).unwrap().clone();
        assert_eq!(
            phase.layered(&set),
            Some((4, 10)),
            "K resettable, U unbreakable"
        );
        let open = (0..theory.indexer().size())
            .filter(|&i| {
                let value = Dtc::from_raw(dtc.raw_at(i as usize));
                value != Dtc::loss(0) && phase.decide(value, &[], u32::MAX) == Verdict::Search
            })
            .map(|i| theory.indexer().position(i));
        if slice.pieces() == 3 {
            small.extend(open)
        } else {
            large.extend(open)
        }
    }
    assert!(
        small.len() >= 10,
        "only {} positions left open",
        small.len()
    );
    assert!(
        large.len() >= 100,
        "only {} positions left open",
        large.len()
    );
    let mut roots = Vec::new();
    for pos in &small {
        for played in ["", "K=0.5", "K=1", "K=1.5", "U=2", "U=4"] {
            roots.push((*pos, set.parse_counters(played).unwrap()));
        }
    }
    let naive = naive_rule_values(&set, &roots);
    let mut differ = Vec::new();
    let mut cursed = 0;
    let mut count = |stored: RuleWdl| {
        cursed += usize::from(stored == RuleWdl::CursedWin || stored == RuleWdl::BlessedLoss);
        stored.ruled()
    };
    for ((pos, counts), expected) in roots.iter().zip(naive) {
        let found = if counts.to_string().is_empty() {
            count(rules.rwdl(pos).unwrap())
        } else {
            let outcome = rules.probe_rules(pos, counts).unwrap();
            outcome.wdl.expect("an exact answer").ruled()
        };
        if found != expected {
            differ.push(format!(
                "{pos} with {counts}: tables {found}, naive {expected}"
            ));
        }
    }
    let searched = rules.fresh_values(&large, 50_000_000).unwrap();
    for (pos, searched) in large.iter().zip(searched) {
        let stored = count(rules.rwdl(pos).unwrap());
        if Some(stored) != searched {
            differ.push(format!("{pos}: table {stored}, search {searched:?}"));
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
    assert!(
        cursed > 0,
        "the open positions should hold some the rules draw"
    );

    // The command-line probe prints the DTZ value beside the rule answer.
    let pos = &large[0];
    let dtz = rules.dtz(pos).unwrap().expect("a DTZ table").distance();
    let dir_arg = dir.to_str().unwrap();
    let fen = pos.to_string();
    let run = damka(
        &[
            "probe",
            "--variant",
            "russian",
            "--dir",
            dir_arg,
            "--rules",
            spec,
            "--json",
            &fen,
        ],
        "",
    );
    assert!(run.ok, "{}", run.err);
    let json: serde_json::Value = serde_json::from_str(&run.out).unwrap();
    assert_eq!(json["rules"]["dtz"], serde_json::json!(dtz), "{}", run.out);

    // The verifier passes the tables as built.
    let report = verify_rules_both(&dir, &set);
    assert_eq!(report.mismatches, 0, "{:#?}", report.examples);
    assert!(report.tables > 30, "{} tables", report.tables);

    // A DTC win one ply longer, a DTZ value changed, an RWDL win made a loss:
    // each is caught, in its own table.
    let slice: Slice = SLICE.parse().unwrap();
    let dtc = rules.table(slice, ValueKind::Dtc).unwrap();
    let rwdl = rules.table(slice, ValueKind::RuleWdl).unwrap();
    let dtz = rules.table(slice, ValueKind::Dtz).unwrap();
    let won = (0..rwdl.len())
        .find(|&i| {
            rwdl.raw_at(i) == RuleWdl::Win.code()
                && Dtc::from_raw(dtc.raw_at(i)).wdl() == Wdl::Win
                && Dtc::from_raw(dtz.raw_at(i)).distance() > Some(1)
        })
        .expect("a won position that takes more than a ply to zero");
    let longer = Dtc::from_raw(dtc.raw_at(won)).distance().unwrap() + 1;
    tamper(&dir, slice, ValueKind::Dtc, won, Dtc::win(longer).raw());
    tamper(&dir, slice, ValueKind::Dtz, won, Dtc::win(1).raw());
    tamper(&dir, slice, ValueKind::RuleWdl, won, RuleWdl::Loss.code());
    let report = verify_rules_both(&dir, &set);
    let kinds: Vec<&str> = report.examples.iter().map(|m| m.table).collect();
    for kind in ["dtc", "dtz", "rwdl"] {
        assert!(
            kinds.contains(&kind),
            "{kind} not caught: {:#?}",
            report.examples
        );
    }

    // The command line says so and fails.
    let run = verify_cli(&dir, spec, &[]);
    assert!(!run.ok, "{}", run.out);
    assert!(run.out.contains("mismatch"), "{}", run.out);

    // In too little memory for a window or a decoded conversion table, every
    // read goes through the block cache, and the check finds the same.
    let verified = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("verified "))
            .map(str::to_owned)
    };
    let small = verify_cli(&dir, spec, &["--memory", "1K"]);
    assert!(!small.ok, "{}", small.out);
    assert!(verified(&run.out).is_some(), "{}", run.out);
    assert_eq!(verified(&small.out), verified(&run.out), "{}", small.err);

    // One group at a time: the tampered one fails, another passes.
    let run = verify_cli(&dir, spec, &["--slice", SLICE]);
    assert!(!run.ok && run.out.contains("mismatch"), "{}", run.out);
    let run = verify_cli(&dir, spec, &["--slice", "0M2K-0M2K"]);
    assert!(run.ok, "{}{}", run.out, run.err);
}

/// A rule verification in many small rounds, stopped part-way, resumes from its
/// checkpoint with the same result; a value changed since is still caught.
#[test]
fn a_rule_verification_resumes_from_its_checkpoint() {
    let (tmp, spec) = with_tight_set("rules-verify-checkpoint");
    let dir = tmp.path().to_path_buf();
    build_rule_tables::<Russian>(&dir, 3, &[], &spec);
    let set = tables(&dir).set().clone();
    let path = dir.join("checkpoint");
    let run = || {
        let checkpoint = Checkpoint::open(&path).unwrap().with_round_positions(500);
        let report = verify_rules_of::<Russian>(&dir, &set, None, None, Some(&checkpoint), None);
        (report.unwrap(), checkpoint.rounds())
    };
    let whole = verify_rules_of::<Russian>(&dir, &set, None, None, None, None).unwrap();
    assert_eq!(whole.mismatches, 0, "{:#?}", whole.examples);
    let (first, before) = run();
    assert_eq!(
        (first.positions, first.mismatches, first.resumed, before),
        (whole.positions, 0, 0, 0)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let rounds: Vec<&str> = text.lines().skip(1).collect();
    assert!(rounds.len() > 20, "{} rounds", rounds.len());

    // Stopped after half the rounds, in the middle of a line.
    let half = rounds.len() / 2;
    let kept: u64 = rounds[..half]
        .iter()
        .map(|l| l.split(' ').nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    let cut = format!(
        "damka verify checkpoint 1\n{}\n{}",
        rounds[..half].join("\n"),
        &rounds[half][..9]
    );
    std::fs::write(&path, cut).unwrap();
    let (resumed, before) = run();
    assert_eq!(before, half);
    assert_eq!(
        (resumed.positions, resumed.mismatches, resumed.resumed),
        (whole.positions, 0, kept)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    // A changed RWDL value: its slice's rounds no longer apply, and it is caught.
    let slice: Slice = "1M1K-0M1K".parse().unwrap();
    let rwdl = tables(&dir).table(slice, ValueKind::RuleWdl).unwrap();
    let won = (0..rwdl.len())
        .find(|&i| rwdl.raw_at(i) == RuleWdl::Win.code())
        .expect("a win");
    tamper(&dir, slice, ValueKind::RuleWdl, won, RuleWdl::Loss.code());
    let (changed, _) = run();
    assert!(changed.mismatches > 0);
    assert!(
        changed.examples.iter().any(|m| m.table == "rwdl"),
        "{:#?}",
        changed.examples
    );
    // Checked again: the slice's group, and the slices that read it (a capture
    // or a promotion reaches it).
    let again: u64 = damka_formats::table::slices_in(&dir.join("russian"))
        .unwrap()
        .into_iter()
        .filter(|&s| {
            s == slice || s == slice.mirror() || damka_core::dependencies(s).contains(&slice)
        })
        .map(|s| damka_core::SliceIndexer::<Russian>::new(s).unwrap().size())
        .sum();
    assert!(again > (2 * rwdl.len()) as u64);
    assert_eq!(changed.resumed, whole.positions - again);
}

#[test]
fn a_verification_memory_must_be_a_size_and_goes_with_rules() {
    let tmp = temp_dir("rules-verify-memory");
    let dir = tmp.path().to_str().unwrap();
    let args = ["verify", "--variant", "russian", "--dir", dir, "--memory"];
    let run = damka(&[&args[..], &["6G"]].concat(), "");
    assert!(!run.ok);
    assert!(run.err.contains("--rules"), "{}", run.err);
    let run = verify_cli(tmp.path(), "russian", &["--memory", "lots"]);
    assert!(!run.ok);
    assert!(run.err.contains("`lots` is not a size"), "{}", run.err);
}

#[test]
fn verify_rules_without_rule_tables_is_a_clear_error() {
    let tmp = temp_dir("rules-verify-empty");
    let dir = tmp.path().to_path_buf();
    common::build_tables::<Russian>(&dir, 2, &[]);
    let run = verify_cli(&dir, "russian", &[]);
    assert!(!run.ok);
    assert!(run.err.contains("no russian rule tables"), "{}", run.err);
    let run = verify_cli(&dir, "russian", &["--slice", "0M1K-0M1K"]);
    assert!(!run.ok);
    assert!(
        run.err.contains("no russian rule tables of 0M1K-0M1K"),
        "{}",
        run.err
    );
}

/// `scripts/verify-groups.sh` with `RULES` and `BUILD_LOG` takes a rule group
/// only once the build's log has its line (a group's DTZ file comes after its
/// RWDL file, so the files alone do not say it is finished), and refuses `WAIT`
/// without a log.
#[test]
fn rule_groups_are_verified_once_the_build_has_logged_them() {
    let tmp = temp_dir("rule-groups-log");
    let dir = tmp.path().join("tables");
    let dir_arg = dir.to_str().unwrap();
    let gen = damka(
        &[
            "gen",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--rules",
            "russian",
            "--dir",
            dir_arg,
            "--quiet",
        ],
        "",
    );
    assert!(gen.ok, "{}", gen.err);
    let built: Vec<&str> = gen
        .out
        .lines()
        .filter(|l| l.starts_with("rules russian "))
        .collect();
    assert!(built.len() >= 8, "{}", gen.out);
    // A group as the ledger names it: the first of its slices in name order.
    let group = |line: &str| -> String {
        let slice: Slice = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        slice.name().min(slice.mirror().name())
    };
    let log = tmp.path().join("build.log");
    let ledger = tmp.path().join("ledger.tsv");
    let script_with = |wait: Option<&str>, build_log: bool, memory: &str| {
        let mut command = std::process::Command::new("bash");
        command
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/verify-groups.sh"
            ))
            .args(["russian", dir_arg])
            .arg(&ledger)
            .env("RULES", "russian")
            .env("VERIFY_MEMORY", memory)
            .env("DAMKA", env!("CARGO_BIN_EXE_damka"));
        if build_log {
            command.env("BUILD_LOG", &log);
        }
        if let Some(pid) = wait {
            command.env("WAIT", pid);
        }
        command.output().unwrap()
    };
    let script = |wait: Option<&str>, build_log: bool| script_with(wait, build_log, "64M");
    let ledger_groups = || -> Vec<String> {
        let mut groups: Vec<String> = std::fs::read_to_string(&ledger)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect();
        groups.sort();
        groups
    };

    let refused = script(Some("1"), false);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("BUILD_LOG"));

    // VERIFY_MEMORY reaches `damka verify --memory`.
    std::fs::write(&log, &gen.out).unwrap();
    let bad = script_with(None, true, "lots");
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("`lots` is not a size"), "{err}");
    assert!(!ledger.exists() || ledger_groups().is_empty());

    // The script run with `contents` as the build's log: the groups in the ledger.
    let verified_with = |contents: &str| -> Vec<String> {
        std::fs::write(&log, contents).unwrap();
        let run = script(None, true);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        ledger_groups()
    };
    let half = &built[..built.len() / 2];
    let mut expected: Vec<String> = half.iter().map(|l| group(l)).collect();
    expected.sort();
    assert_eq!(
        verified_with(&(half.join("\n") + "\n")),
        expected,
        "only the logged groups"
    );
    let mut all: Vec<String> = built.iter().map(|l| group(l)).collect();
    all.sort();
    assert_eq!(
        verified_with(&gen.out),
        all,
        "every group once, the first ones not again"
    );
    let checkpoints = dir.join("verify-checkpoints");
    assert_eq!(std::fs::read_dir(&checkpoints).unwrap().count(), 0);

    // A group whose check was stopped (its checkpoint is there, its ledger line
    // is not) resumes from its checkpoint, which goes once the line is written.
    let last = all.last().unwrap();
    let checkpoint = checkpoints.join(format!("russian.russian.{last}"));
    let stopped = verify_cli(
        &dir,
        "russian",
        &[
            "--slice",
            last,
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ],
    );
    assert!(stopped.ok, "{}", stopped.err);
    let text = std::fs::read_to_string(&ledger).unwrap();
    let others: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(&format!("{last}\t")))
        .collect();
    std::fs::write(&ledger, others.join("\n") + "\n").unwrap();
    let run = script(None, true);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        out.contains(&format!("{last}: ")) && out.contains("of them from the checkpoint"),
        "{out}"
    );
    assert_eq!(ledger_groups(), all);
    assert!(!checkpoint.exists());
}

/// `scripts/rules-by-group.sh` with `ledger` and `rules_ledger` over `dir`,
/// and the environment variables of `extra`.
fn rules_by_group(
    dir: &Path,
    ledger: &Path,
    rules_ledger: &Path,
    rules: &str,
    extra: &[(&str, &str)],
) -> Output {
    std::process::Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/rules-by-group.sh"
        ))
        .args(["russian", "3"])
        .env("DIR", dir)
        .env("LEDGER", ledger)
        .env("RULES_LEDGER", rules_ledger)
        .env("RULES", rules)
        .env("STATS", dir.with_file_name("stats.json"))
        .env("DAMKA", env!("CARGO_BIN_EXE_damka"))
        .envs(extra.iter().copied())
        .output()
        .unwrap()
}

/// A group as the ledgers name it: the least name of the slice and its mirror.
fn group_of(slice: Slice) -> String {
    slice.name().min(slice.mirror().name())
}

/// The groups of the Russian slices of up to `pieces` pieces.
fn russian_groups(pieces: u32) -> BTreeSet<String> {
    damka_core::build_order::<Russian>(pieces)
        .into_iter()
        .map(group_of)
        .collect()
}

/// The lines of a ledger, sorted.
fn ledger_lines(ledger: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(ledger)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
fn rule_groups_are_built_and_verified_one_closure_at_a_time() {
    let tmp = temp_dir("rules-by-group");
    let dir = tmp.path().join("tables");
    let (ledger, rules_ledger) = (tmp.path().join("game.tsv"), tmp.path().join("rules.tsv"));
    // The ledger records every group as verified but `1M0K-1M1K`'s closure: no
    // line for the target, lines with files of other bytes for its members.
    let target: Slice = "1M0K-1M1K".parse().unwrap();
    let closure = damka_core::closure(target);
    let mut fake = String::new();
    for slice in damka_core::build_order::<Russian>(3) {
        if slice == target || slice.name() != group_of(slice) {
            continue;
        }
        let hash = if closure.contains(&slice) { "0" } else { "1" };
        fake += &format!("{}\t10\t0\t{}\tabc\t2026\n", slice.name(), hash.repeat(64));
    }
    std::fs::write(&rules_ledger, &fake).unwrap();

    let run = rules_by_group(&dir, &ledger, &rules_ledger, "russian", &[]);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(out.contains("1M0K-1M1K: closure built in"), "{out}");
    // Only the closure was built, and each of its groups verified, by the game
    // ledger and by the rule ledger, with the hash of its files.
    let mut built: Vec<Slice> = std::fs::read_dir(dir.join("russian"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".dkt"))
        .map(|name| name.split('.').next().unwrap().parse().unwrap())
        .collect();
    built.sort();
    built.dedup();
    assert_eq!(built, closure);
    let groups: BTreeSet<String> = closure.iter().map(|&s| group_of(s)).collect();
    for lines in [ledger_lines(&ledger), ledger_lines(&rules_ledger)] {
        for name in &groups {
            let verified = |l: &&String| {
                l.starts_with(&format!("{name}\t")) && l.split('\t').nth(2) == Some("0")
            };
            let real = lines
                .iter()
                .filter(verified)
                .any(|l| !l.contains(&"0".repeat(64)));
            assert!(real, "{name} not verified: {lines:?}");
        }
    }
    // The rule statistics of every slice built were counted, none carried.
    let stats = std::fs::read_to_string(tmp.path().join("stats.json")).unwrap();
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let counted: Vec<Slice> = stats["slices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["slice"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        BTreeSet::from_iter(counted),
        BTreeSet::from_iter(closure.clone())
    );
    assert_eq!(stats["carried"], serde_json::json!([]));
    // Run again, it builds and verifies nothing.
    let before = (ledger_lines(&ledger), ledger_lines(&rules_ledger));
    let again = rules_by_group(&dir, &ledger, &rules_ledger, "russian", &[]);
    assert!(again.status.success());
    assert!(!String::from_utf8_lossy(&again.stdout).contains("closure built"));
    assert_eq!(before, (ledger_lines(&ledger), ledger_lines(&rules_ledger)));

    let unset = rules_by_group(&dir, &ledger, &rules_ledger, "", &[]);
    assert!(!unset.status.success());
    assert!(String::from_utf8_lossy(&unset.stderr).contains("set RULES"));
}

#[test]
fn the_groups_named_first_are_taken_first() {
    let tmp = temp_dir("rules-by-group-first");
    let dir = tmp.path().join("tables");
    let (ledger, rules_ledger) = (tmp.path().join("game.tsv"), tmp.path().join("rules.tsv"));
    // Either slice of a pair names its group; a name that is no slice of the
    // set is refused before anything is built.
    let wrong = [("FIRST_GROUPS", "1M1K-1M0K 4M0K-1M0K")];
    let refused = rules_by_group(&dir, &ledger, &rules_ledger, "russian", &wrong);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("FIRST_GROUPS names 4M0K-1M0K, not a slice of russian up to 3 pieces"),
        "{err}"
    );
    assert!(!dir.join("russian").exists());

    let first = [("FIRST_GROUPS", "2M0K-0M1K 1M1K-1M0K")];
    let run = rules_by_group(&dir, &ledger, &rules_ledger, "russian", &first);
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{out}");
    let closures: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once(": closure built"))
        .map(|(group, _)| group)
        .collect();
    // `0M1K-2M0K` first (the group of `2M0K-0M1K`), then `1M0K-1M1K`, then
    // the rest in build order, until every group is verified.
    assert_eq!(closures[..2], ["0M1K-2M0K", "1M0K-1M1K"], "{out}");
    let groups = russian_groups(3);
    let verified: BTreeSet<String> = ledger_lines(&rules_ledger)
        .iter()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(verified, groups);
}

#[test]
fn closure_order_puts_the_cheapest_closure_first() {
    let tmp = temp_dir("closure-order");
    let dir = tmp.path().join("tables");
    // The temporary directory's path has no spaces.
    let args = format!(
        "plan --variant russian --pieces 3 --rules russian --format json --dir {}",
        dir.display()
    );
    let plan = damka(&args.split(' ').collect::<Vec<_>>(), "");
    assert!(plan.ok, "{}", plan.err);
    let tasks: serde_json::Value = serde_json::from_str(&plan.out).unwrap();
    // Each slice's positions, once for its game task and once for its rule task.
    let total: u64 = tasks["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    let python = common::python();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/closure-order.py");
    let order = |ledger: &Path| -> Vec<(String, u64)> {
        let run = common::run_program(
            Path::new(&python),
            &[script, ledger.to_str().unwrap()],
            &plan.out,
        );
        assert!(run.ok, "{}", run.err);
        run.out
            .lines()
            .map(|l| {
                let (group, added) = l.split_once('\t').unwrap();
                (group.to_string(), added.parse().unwrap())
            })
            .collect()
    };
    // With nothing verified: every group once, and the whole plan built once
    // over the steps. First the group that depends on nothing; and a group
    // whose closure holds another's comes after it (`1M0K-1M1K`, whose man
    // promotes into `0M1K-1M1K`).
    let all = order(&tmp.path().join("none.tsv"));
    let groups = russian_groups(3);
    assert_eq!(
        all.iter().map(|(g, _)| g.clone()).collect::<BTreeSet<_>>(),
        groups
    );
    assert_eq!(all.len(), groups.len());
    assert_eq!(all.iter().map(|(_, n)| n).sum::<u64>(), total);
    assert_eq!(all[0].0, "0M1K-0M1K", "{all:?}");
    let two_a_side = all.iter().position(|(g, _)| g == "1M0K-1M1K").unwrap();
    assert!(
        all[..two_a_side].iter().any(|(g, _)| g == "0M1K-1M1K"),
        "{all:?}"
    );
    // A group the ledger records as verified is left out, one with
    // mismatches is not.
    let ledger = tmp.path().join("rules.tsv");
    std::fs::write(
        &ledger,
        "0M1K-1M0K\t10\t0\thash\tabc\t2026\n1M0K-1M1K\t10\t3\thash\tabc\t2026\n",
    )
    .unwrap();
    let left: Vec<String> = order(&ledger).into_iter().map(|(g, _)| g).collect();
    assert!(!left.contains(&"0M1K-1M0K".to_string()), "{left:?}");
    assert!(left.contains(&"1M0K-1M1K".to_string()), "{left:?}");
    assert_eq!(left.len(), groups.len() - 1);
    // Anything but a plan on its input is refused with a message.
    let bad = common::run_program(Path::new(&python), &[script, "none.tsv"], "{");
    assert!(!bad.ok);
    assert!(
        bad.err.contains("is not a `damka plan --format json` plan"),
        "{}",
        bad.err
    );
}
