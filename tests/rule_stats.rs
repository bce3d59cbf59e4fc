//! `damka stats --rules`: its five counts against the game-theoretic statistics
//! of the same tables (the rules only turn wins and losses into draws), and its
//! rows against the published report `docs/stats/russian-rules.md`, whose RWDL
//! checksums pin the bytes of every verified rule table.

use crate::common;

use std::collections::HashMap;

use common::{build_rule_tables, damka, temp_dir, Run};
use damka_core::{Russian, Slice, Variant};
use damka_probe::limits::RuleSet;
use damka_stats::report::Format;
use damka_stats::rule_stats::{render_rule_stats, rule_stats};
use damka_stats::stats::stats;

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
    let report = rule_stats::<Russian>(dir, set, None, |_| {}).unwrap();
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
