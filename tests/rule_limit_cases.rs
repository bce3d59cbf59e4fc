//! The move-limit rules, played out by the naive rule solver of
//! `tests/common/rules_naive.rs`: the constructed cases of
//! `tests/common/rule_cases_data.rs`, and checks of the solver itself against the
//! plain game-theoretic solver.

use crate::common;

use std::collections::BTreeMap;

use common::rule_cases_data::{RuleCase, Shows, CASES};
use common::rules_naive::naive_rule_values;
use common::{all_positions, naive_solve};
use damka_core::{International, Position, Russian, SliceIndexer, Variant, VariantKind};
use damka_formats::Wdl;
use damka_probe::{limits::Counters, limits::Events, limits::RuleSet};

/// The value of `case`'s position and counts under `set`, by the naive solver.
fn solve_case(case: &RuleCase, set: &RuleSet) -> Wdl {
    fn solve<V: Variant>(case: &RuleCase, set: &RuleSet) -> Wdl {
        let pos: Position<V> = case.fen.parse().unwrap();
        let counters = set.parse_counters(case.counters).unwrap();
        naive_rule_values(set, &[(pos, counters)])[0]
    }
    match case.variant {
        VariantKind::Russian => solve::<Russian>(case, set),
        VariantKind::International => solve::<International>(case, set),
    }
}

/// The preset a case is written for.
fn preset(case: &RuleCase) -> RuleSet {
    RuleSet::preset(case.set).unwrap()
}

/// `set` with the resets of counter `id` replaced by `resets`.
fn with_resets(set: &RuleSet, id: &str, resets: Events) -> RuleSet {
    let mut changed = set.clone();
    let counter = changed.counters.iter_mut().find(|c| c.id == id).unwrap();
    counter.resets = resets;
    changed
}

#[test]
fn naive_solver_agrees_with_cases() {
    for case in CASES {
        assert_eq!(
            solve_case(case, &preset(case)),
            case.expected,
            "{} {} [{}]: {}",
            case.fen,
            case.set,
            case.counters,
            case.comment
        );
    }
}

#[test]
fn every_rule_has_its_three_kinds_of_case() {
    for (set, rules) in [
        ("russian", ["R1", "R2", "R3", "R4"].as_slice()),
        ("fmjd", ["I1", "I2", "I3"].as_slice()),
    ] {
        let preset = RuleSet::preset(set).unwrap();
        for &rule in rules {
            let restarts = preset.counter(rule).unwrap().resets != Events::NONE;
            let third = if restarts {
                Shows::ResetSaves
            } else {
                Shows::CountRunsOn
            };
            for shows in [Shows::LastCount, Shows::OnePlyMore, third] {
                assert!(
                    CASES
                        .iter()
                        .any(|c| c.rule == rule && c.set == set && c.shows == shows),
                    "no {shows:?} case for {rule}"
                );
            }
        }
    }
}

#[test]
fn cases_name_their_rule_and_its_variant() {
    for case in CASES {
        let set = preset(case);
        set.check_variant(case.variant).unwrap();
        let counters = set.parse_counters(case.counters).unwrap();
        let ids: Vec<&str> = counters.iter().map(|(id, _)| id).collect();
        assert_eq!(
            ids,
            [case.rule],
            "{}: only the case's counter is played",
            case.fen
        );
    }
}

#[test]
fn one_ply_more_cases_follow_a_last_count_case() {
    for case in CASES.iter().filter(|c| c.shows == Shows::OnePlyMore) {
        let set = preset(case);
        let plies = |c: &RuleCase| set.parse_counters(c.counters).unwrap().plies(c.rule);
        let last = CASES
            .iter()
            .find(|c| {
                c.shows == Shows::LastCount
                    && c.fen == case.fen
                    && c.set == case.set
                    && c.rule == case.rule
            })
            .unwrap_or_else(|| panic!("no last-count case for {}", case.fen));
        assert_eq!(plies(last) + 1, plies(case), "{}", case.fen);
        assert_ne!(last.expected, Wdl::Draw, "{}", last.fen);
        assert_eq!(case.expected, Wdl::Draw, "{}", case.fen);
    }
}

#[test]
fn reset_cases_hang_on_the_reset() {
    for case in CASES {
        let set = preset(case);
        match case.shows {
            Shows::ResetSaves => {
                // The same rule with nothing restarting it: the win is gone.
                assert_ne!(case.expected, Wdl::Draw, "{}", case.fen);
                let never = with_resets(&set, case.rule, Events::NONE);
                assert_eq!(solve_case(case, &never), Wdl::Draw, "{}", case.fen);
            }
            Shows::CountRunsOn => {
                // The same rule restarted by captures and promotions: decided.
                assert_eq!(case.expected, Wdl::Draw, "{}", case.fen);
                let conversions = Events {
                    capture: true,
                    promotion: true,
                    man_move: false,
                };
                let restarting = with_resets(&set, case.rule, conversions);
                assert_ne!(solve_case(case, &restarting), Wdl::Draw, "{}", case.fen);
            }
            Shows::LastCount | Shows::OnePlyMore => {}
        }
    }
}

/// Every position of the slice called `name` (White to move).
fn slice_positions<V: Variant>(name: &str) -> Vec<Position<V>> {
    let indexer = SliceIndexer::<V>::new(name.parse().unwrap()).unwrap();
    (0..indexer.size()).map(|i| indexer.position(i)).collect()
}

/// Each position of `positions` with the counts `played`: its value under `set`.
fn values_with<V: Variant>(
    set: &RuleSet,
    played: &Counters,
    positions: &[Position<V>],
) -> Vec<Wdl> {
    let roots: Vec<(Position<V>, Counters)> =
        positions.iter().map(|p| (*p, played.clone())).collect();
    naive_rule_values(set, &roots)
}

/// Checks the rule solver on every position of `slices` against [`naive_solve`] on
/// `closed` (a set of positions closed under moves that holds the slices): under
/// `none` it must give the plain values; under `set`, with fresh counters and with
/// the counts `played`, each value must be the plain one or a draw (limits only
/// ever turn wins and losses into draws). Returns how many positions `set` draws by
/// rule with fresh counters and with `played`.
fn compare_with_plain<V: Variant>(
    set: &RuleSet,
    played: &str,
    closed: &[Position<V>],
    slices: &[&str],
) -> (usize, usize) {
    let plain = naive_solve(closed);
    let none = RuleSet::preset("none").unwrap();
    let played = set.parse_counters(played).unwrap();
    let mut tally: BTreeMap<Wdl, usize> = BTreeMap::new();
    let mut drawn = (0, 0);
    for name in slices {
        let positions = slice_positions::<V>(name);
        let unlimited = values_with(&none, &Counters::new(), &positions);
        let fresh = values_with(set, &Counters::new(), &positions);
        let later = values_with(set, &played, &positions);
        for (i, pos) in positions.iter().enumerate() {
            let expected = plain[pos].wdl();
            assert_eq!(unlimited[i], expected, "{pos} under none");
            for (value, drawn) in [(fresh[i], &mut drawn.0), (later[i], &mut drawn.1)] {
                assert!(
                    value == expected || value == Wdl::Draw,
                    "{pos}: {value} under {}, {expected} without limits",
                    set.name
                );
                if value != expected {
                    *drawn += 1;
                }
            }
            *tally.entry(expected).or_default() += 1;
        }
    }
    // Not a vacuous comparison: every value occurs many times.
    assert!(
        tally.len() == 3 && tally.values().all(|&n| n > 500),
        "{tally:?}"
    );
    drawn
}

#[test]
fn russian_three_piece_slices_agree_with_the_plain_solver() {
    let (fresh, later) = compare_with_plain::<Russian>(
        &RuleSet::preset("russian").unwrap(),
        "R2=2,R4=2",
        &all_positions(3, false),
        &["0M2K-0M1K", "0M1K-0M2K", "1M1K-0M1K", "0M1K-1M1K"],
    );
    // Every win of these slices fits in 5 moves, but not in 3.
    assert_eq!(fresh, 0);
    assert!(later > 0);
}

#[test]
fn international_three_piece_slices_agree_with_the_plain_solver() {
    let (fresh, later) = compare_with_plain::<International>(
        &RuleSet::preset("fmjd").unwrap(),
        "I3=2",
        &all_positions(3, true),
        &["0M2K-0M1K", "0M1K-0M2K"],
    );
    // Every win of these slices fits in 5 moves, but not in 3.
    assert_eq!(fresh, 0);
    assert!(later > 0);
}
