//! `damka stats --rules`: its five counts against the game-theoretic statistics
//! of the same tables (the rules only turn wins and losses into draws), and its
//! rows against the published report `docs/stats/russian-rules.md`, whose RWDL
//! checksums pin the bytes of every verified rule table.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use common::{build_rule_tables, damka, temp_dir, Run};
use damka_core::{Russian, Slice, Variant};
use damka_probe::limits::RuleSet;
use damka_stats::report::Format;
use damka_stats::rule_stats::{render_rule_stats, rule_stats};
use damka_stats::stats::stats;
use tempfile::TempDir;

/// The published per-slice rows, by slice name.
fn published_rows() -> HashMap<String, &'static str> {
    include_str!("../docs/stats/russian-rules.md")
        .lines()
        .filter_map(|line| {
            let name = line.strip_prefix("| ")?.split(' ').next()?;
            name.parse::<Slice>().ok().map(|_| (name.to_string(), line))
        })
        .collect()
}

#[test]
fn rule_counts_split_the_game_values_and_match_the_published_rows() {
    let tmp = temp_dir("rule-stats");
    let dir = tmp.path();
    // Three-kings-against-one and the men that promote into it: 4-piece slices
    // with cursed wins (2M1K-0M1K) and blessed losses (its mirror).
    build_rule_tables::<Russian>(dir, 3, &["0M3K-0M1K", "1M2K-0M1K", "2M1K-0M1K"], "russian");
    let set = RuleSet::load_for("russian", Russian::KIND).unwrap();
    let report = rule_stats::<Russian>(dir, set, None, None, |_| {}).unwrap();
    let game = stats::<Russian>(dir, None, |_| {}).unwrap();
    let game: HashMap<&str, _> = game
        .slices
        .iter()
        .map(|s| (s.slice.as_str(), &s.counts))
        .collect();
    assert_eq!(report.slices.len(), game.len());
    for s in &report.slices {
        let (rules, theory) = (&s.counts, game[s.slice.as_str()]);
        assert_eq!(rules.positions, theory.positions, "{}", s.slice);
        assert_eq!(rules.wins + rules.cursed_wins, theory.wins, "{}", s.slice);
        assert_eq!(rules.draws, theory.draws, "{}", s.slice);
        assert_eq!(
            rules.losses + rules.blessed_losses,
            theory.losses,
            "{}",
            s.slice
        );
    }
    let four = report.totals.iter().find(|t| t.pieces == 4).unwrap();
    assert!(four.counts.cursed_wins > 0 && four.counts.blessed_losses > 0);

    let published = published_rows();
    let markdown = render_rule_stats(&report, Format::Markdown, "test");
    let mut compared = 0;
    for line in markdown.lines() {
        let Some(name) = line.strip_prefix("| ").and_then(|l| l.split(' ').next()) else {
            continue;
        };
        if name.parse::<Slice>().is_ok() {
            assert_eq!(Some(&line), published.get(name), "{name}");
            compared += 1;
        }
    }
    assert_eq!(compared, report.slices.len());
}

#[test]
fn an_unknown_rule_set_is_a_clear_error() {
    let tmp = temp_dir("rule-stats-cli");
    let d = tmp.path().to_str().unwrap();
    let Run { err, ok, .. } = damka(
        &[
            "stats",
            "--variant",
            "russian",
            "--dir",
            d,
            "--rules",
            "no-such-set",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("no-such-set"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A copy of the tables in `from` (the `russian` variant directory) into a new
/// directory, without the RWDL files of the slices `drop` picks: the tables
/// another machine of a by-group run would hold.
fn machine(from: &Path, tag: &str, drop: impl Fn(Slice) -> bool) -> TempDir {
    let to = temp_dir(tag);
    std::fs::create_dir(to.path().join("russian")).unwrap();
    for entry in std::fs::read_dir(from.join("russian")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let slice: Slice = name.split('.').next().unwrap().parse().unwrap();
        if name.ends_with(".russian.rwdl.dkt") && drop(slice) {
            continue;
        }
        let source = from.join("russian").join(&name);
        std::fs::copy(source, to.path().join("russian").join(&name)).unwrap();
    }
    to
}

#[test]
fn a_rule_report_grows_group_by_group_across_machines() {
    let tmp = temp_dir("rule-stats-grow");
    let dir = tmp.path();
    build_rule_tables::<Russian>(dir, 3, &[], "russian");
    let json = |tables: &Path, reuse: Option<&Path>, out: &Path| -> serde_json::Value {
        let mut args = vec!["stats", "--variant", "russian", "--rules", "russian"];
        args.extend(["--format", "json", "--dir", tables.to_str().unwrap()]);
        args.extend(["--out", out.to_str().unwrap()]);
        if let Some(earlier) = reuse {
            args.extend(["--reuse", earlier.to_str().unwrap()]);
        }
        let run = damka(&args, "");
        assert!(run.ok, "{}", run.err);
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let full = json(dir, None, &dir.join("full.json"));
    assert_eq!(full["carried"], serde_json::json!([]));

    // The first machine holds the rule tables of the slices up to 2 pieces,
    // the second those of 3 pieces; the second grows the first one's report.
    let first = machine(dir, "rule-stats-first", |s| s.pieces() > 2);
    let second = machine(dir, "rule-stats-second", |s| s.pieces() <= 2);
    let early = json(first.path(), None, &dir.join("first.json"));
    let small = full["slices"].as_array().unwrap().iter();
    let small: Vec<_> = small.filter(|s| s["pieces"].as_u64() <= Some(2)).collect();
    assert_eq!(early["slices"].as_array().unwrap().len(), small.len());
    let grown = json(
        second.path(),
        Some(&dir.join("first.json")),
        &dir.join("grown.json"),
    );
    assert_eq!(grown["slices"], full["slices"]);
    assert_eq!(grown["totals"], full["totals"]);
    let names: Vec<_> = small.iter().map(|s| s["slice"].clone()).collect();
    assert_eq!(grown["carried"], serde_json::Value::Array(names.clone()));
    let args = [
        "stats",
        "--variant",
        "russian",
        "--rules",
        "russian",
        "--dir",
    ];
    let earlier = dir.join("grown.json");
    let e = earlier.to_str().unwrap();
    let md = damka(
        &[&args[..], &[second.path().to_str().unwrap(), "--reuse", e]].concat(),
        "",
    );
    assert!(md.ok, "{}", md.err);
    let said = format!("{} of the slices were carried", names.len());
    assert!(md.out.contains(&said), "{}", md.out);

    // Where the file is here with the checksum the report names, the report's
    // figures are taken; with another checksum, the slice is counted again.
    let mut edited = grown.clone();
    let (kept, recounted) = (4, 5);
    assert_eq!(edited["slices"][kept]["pieces"], 3);
    edited["slices"][kept]["wins"] = serde_json::json!(999_999);
    edited["slices"][recounted]["wins"] = serde_json::json!(999_999);
    edited["slices"][recounted]["checksum"] = serde_json::json!("0000000000000000");
    std::fs::write(dir.join("edited.json"), edited.to_string()).unwrap();
    let again = json(dir, Some(&dir.join("edited.json")), &dir.join("again.json"));
    assert_eq!(again["slices"][kept]["wins"], 999_999);
    assert_eq!(again["slices"][recounted], full["slices"][recounted]);
    assert_eq!(again["carried"], serde_json::json!([]));

    // A report of another variant or rule set is refused, and names both.
    let mut other = full.clone();
    other["variant"] = serde_json::json!("international");
    std::fs::write(dir.join("other.json"), other.to_string()).unwrap();
    let o = dir.join("other.json");
    let d = dir.to_str().unwrap();
    let refused = damka(
        &[&args[..], &[d, "--reuse", o.to_str().unwrap()]].concat(),
        "",
    );
    assert!(!refused.ok);
    assert!(
        refused
            .err
            .contains("the earlier report is of international under `russian`"),
        "{}",
        refused.err
    );
}
