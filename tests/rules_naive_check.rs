//! The rule probe against an independent naive solver of the game under a rule
//! set (`tests/common/rules_naive.rs`: every (position, counts) state reachable,
//! solved by plain retrograde counting, sharing nothing with the tables but the
//! move generator and the rules module), with fresh counts and with counts near
//! each limit, both sides to move: in `cargo test`, every position of every
//! Russian slice of up to 3 pieces and every International one of 2; with
//! `--ignored`, the International 3-piece slices and samples of 4-piece slices
//! (minutes to hours: the naive solver explores every state a root reaches, and
//! an International slice has 4 to 15 times the positions of a Russian one).

use crate::common;

use common::rules_naive::naive_rule_values;
use common::{build_rule_tables, temp_dir};
use damka_core::{International, Position, Russian, Slice, SliceIndexer, Variant};
use damka_probe::{limits::Counters, limits::RuleSet, limits::RuleTablebase};

/// Counts to try besides fresh ones: for each counter in force, its limit minus
/// these plies.
const BEFORE_LIMIT: [u32; 3] = [1, 4, 9];

/// Both sides to move of every `step`-th position of `slice`.
fn positions<V: Variant>(slice: Slice, step: usize) -> Vec<Position<V>> {
    let indexer = SliceIndexer::<V>::new(slice).unwrap();
    (0..indexer.size())
        .step_by(step)
        .map(|i| indexer.position(i))
        .flat_map(|p| [p, p.flipped()])
        .collect()
}

/// The roots: every position with fresh counts, and with each counter in force
/// set `BEFORE_LIMIT` plies before its limit.
fn roots<V: Variant>(set: &RuleSet, positions: &[Position<V>]) -> Vec<(Position<V>, Counters)> {
    let mut roots = Vec::new();
    for pos in positions {
        roots.push((*pos, Counters::new()));
        let material = pos.material();
        for counter in set.in_force(pos) {
            let Some(limit) = counter.limit_plies(&material) else {
                continue;
            };
            for before in BEFORE_LIMIT.iter().filter(|&&b| b < limit) {
                let mut counts = Counters::new();
                counts.set_plies(&counter.id, limit - before);
                roots.push((*pos, counts));
            }
        }
    }
    roots
}

/// Checks `probe_rules` against the naive solver on `positions`.
fn check<V: Variant>(tables: &RuleTablebase<V>, positions: &[Position<V>]) -> usize {
    let set = tables.set();
    let roots = roots(set, positions);
    let naive = naive_rule_values(set, &roots);
    for ((pos, counts), expected) in roots.iter().zip(naive) {
        let outcome = tables.probe_rules(pos, counts).unwrap();
        let found = outcome.wdl.map(|w| w.ruled());
        assert_eq!(
            found,
            Some(expected),
            "{} with {counts} under {}: probe {:?}, naive {expected}",
            pos,
            set.name,
            outcome
        );
    }
    roots.len()
}

/// Builds the rule tables of `set` up to 3 pieces and the `extra` slices, then
/// checks every position of each slice of up to `pieces` pieces and every `n`-th
/// position of each `(extra, n)`.
fn check_all<V: Variant>(set: &str, tag: &str, pieces: u32, extra: &[(&str, usize)]) {
    let tmp = temp_dir(tag);
    let dir = tmp.path().to_path_buf();
    let names: Vec<&str> = extra.iter().map(|(n, _)| *n).collect();
    build_rule_tables::<V>(&dir, 3, &names, set);
    let tables = RuleTablebase::<V>::new(&dir, RuleSet::load_for(set, V::KIND).unwrap());
    let mut checked = 0;
    for slice in damka_core::build_order::<V>(pieces) {
        checked += check(&tables, &positions::<V>(slice, 1));
    }
    for (name, step) in extra {
        checked += check(&tables, &positions::<V>(name.parse().unwrap(), *step));
    }
    assert!(checked > 500, "{checked} roots");
}

#[test]
fn russian_rule_probe_agrees_with_the_naive_solver() {
    check_all::<Russian>("russian", "rules-naive-russian", 3, &[]);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn russian_four_piece_samples_agree_with_the_naive_solver() {
    check_all::<Russian>(
        "russian",
        "rules-naive-russian-4",
        0,
        &[
            ("0M2K-0M2K", 1009),
            ("0M3K-0M1K", 1499),
            ("1M1K-0M2K", 3001),
        ],
    );
}

#[test]
fn international_rule_probe_agrees_with_the_naive_solver() {
    check_all::<International>("fmjd", "rules-naive-fmjd", 2, &[]);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn international_three_piece_slices_agree_with_the_naive_solver() {
    check_all::<International>("fmjd", "rules-naive-fmjd-3", 3, &[]);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn international_four_piece_samples_agree_with_the_naive_solver() {
    check_all::<International>(
        "fmjd",
        "rules-naive-fmjd-4",
        0,
        &[("0M3K-0M1K", 20011), ("1M2K-0M1K", 40009)],
    );
}
