//! One test per rule of `russian` (R1–R4) and `fmjd` (I1–I3), on positions found
//! in the tables and checked against the independent naive solver where the
//! slice is small enough (3 pieces): a theoretical win that fits the limit with
//! exactly its distance left, the same win one ply over the limit (a cursed win
//! naming the rule), and the resets: a win that survives a count at its limit
//! only because the winning move restarts the counter (a capture or promotion
//! for R1/R2, a man move for R4/I1), and for the rules that nothing restarts
//! (I3), a win that a restart would save but the running count draws. The
//! constructed cases of `tests/common/rule_cases_data.rs` whose slices are built
//! here are probed too.

use crate::common;

use common::rule_cases_data::CASES;
use common::rules_naive::naive_rule_values;
use common::{build_rule_tables, temp_dir};
use damka_core::has_capture;
use damka_core::{International, Position, Russian, Slice, SliceIndexer, Variant};
use damka_formats::table::ValueKind;
use damka_formats::{RuleWdl, Wdl};
use damka_probe::{limits::Counters, limits::Events, limits::RuleSet, limits::RuleTablebase};

/// Every White-to-move position of `slice` that is not a capture position.
fn quiet_positions<V: Variant>(slice: &str) -> Vec<Position<V>> {
    let slice: Slice = slice.parse().unwrap();
    let indexer = SliceIndexer::<V>::new(slice).unwrap();
    (0..indexer.size())
        .map(|i| indexer.position(i))
        .filter(|p| !has_capture(p))
        .collect()
}

fn counts(id: &str, plies: u32) -> Counters {
    let mut counts = Counters::new();
    counts.set_plies(id, plies);
    counts
}

/// Finds a win of at least 3 plies in `slice` that fits counter `id` with exactly
/// its distance left and fails with one ply more, checks it with the naive solver
/// when `naive` is set, and returns it.
fn boundary<V: Variant>(
    tables: &RuleTablebase<V>,
    slice: &str,
    id: &str,
    naive: bool,
) -> Position<V> {
    let set = tables.set();
    for pos in quiet_positions::<V>(slice) {
        let fresh = tables.probe_rules(pos, &Counters::new()).unwrap();
        let (Some(RuleWdl::Win), Some(d)) = (fresh.wdl, fresh.distance) else {
            continue;
        };
        let counter = set.counter(id).unwrap();
        let Some(limit) = counter.limit_plies(&pos.material()) else {
            continue;
        };
        let d = u32::from(d);
        if d < 3 || d > limit || !counter.applies_at(&pos) {
            continue;
        }
        let fits = tables.probe_rules(pos, &counts(id, limit - d)).unwrap();
        let over = tables.probe_rules(pos, &counts(id, limit - d + 1)).unwrap();
        if fits.wdl != Some(RuleWdl::Win) || over.wdl != Some(RuleWdl::CursedWin) {
            continue;
        }
        assert_eq!(over.rule.as_deref(), Some(id), "{pos}");
        if naive {
            let roots = [
                (pos, counts(id, limit - d)),
                (pos, counts(id, limit - d + 1)),
            ];
            assert_eq!(
                naive_rule_values(set, &roots),
                [Wdl::Win, Wdl::Draw],
                "{pos}: {id} at {} and {} plies",
                limit - d,
                limit - d + 1
            );
        }
        return pos;
    }
    panic!("no win in {slice} that {id} cuts at its boundary");
}

/// `set` with counter `id` restarting on `events` instead.
fn with_resets(set: &RuleSet, id: &str, events: Events) -> RuleSet {
    let mut other = set.clone();
    other.name = format!("{}-changed", set.name);
    for counter in &mut other.counters {
        if counter.id == id {
            counter.resets = events;
        }
    }
    other
}

/// Finds a position of `slice` with counter `id` one ply before its limit that
/// is won (by the probe and the naive solver) only because the winning move
/// restarts the counter: under the same set with `id` restarting on nothing but
/// `kept`, the naive solver draws it. `event` says which moves must win.
fn saved_by_reset<V: Variant>(
    tables: &RuleTablebase<V>,
    slice: &str,
    id: &str,
    kept: Events,
    event: impl Fn(&Position<V>, &damka_core::Move) -> bool,
) -> Position<V> {
    let set = tables.set();
    let changed = with_resets(set, id, kept);
    for pos in quiet_positions::<V>(slice) {
        let counter = set.counter(id).unwrap();
        let Some(limit) = counter.limit_plies(&pos.material()) else {
            continue;
        };
        if !counter.applies_at(&pos) || tables.tablebase().probe_value(pos).unwrap().dtw() < Some(3)
        {
            continue;
        }
        let late = counts(id, limit - 1);
        let outcome = tables.probe_rules(pos, &late).unwrap();
        let Some(mv) = outcome.best_move else {
            continue;
        };
        if outcome.wdl != Some(RuleWdl::Win) || !event(&pos, &mv) {
            continue;
        }
        let roots = [(pos, late)];
        if naive_rule_values(set, &roots) != [Wdl::Win] {
            panic!("{pos}: the probe wins with {id} at its limit, the naive solver does not");
        }
        if naive_rule_values(&changed, &roots) == [Wdl::Draw] {
            return pos;
        }
    }
    panic!("no win in {slice} saved by a restart of {id}");
}

/// Checks `probe_rules` on every constructed case of `tests/common/rule_cases_data.rs`
/// for `variant` whose slice has rule tables in `tables`; returns how many.
fn probe_cases<V: Variant>(tables: &RuleTablebase<V>) -> usize {
    let mut checked = 0;
    for case in CASES.iter().filter(|c| c.variant == V::KIND) {
        let pos: Position<V> = case.fen.parse().unwrap();
        let white = damka_core::white_to_move(&pos);
        let slice = Slice::of(&white).unwrap();
        if !tables.path(slice, ValueKind::Dtc).is_file() {
            continue;
        }
        let counts = tables.set().parse_counters(case.counters).unwrap();
        let outcome = tables.probe_rules(pos, &counts).unwrap();
        assert_eq!(
            outcome.wdl.map(|w| w.ruled()),
            Some(case.expected),
            "{} {} with {}: {}",
            case.rule,
            case.fen,
            case.counters,
            case.comment
        );
        checked += 1;
    }
    checked
}

fn capture_or_promotion<V: Variant>(_: &Position<V>, mv: &damka_core::Move) -> bool {
    mv.is_capture() || mv.is_promotion()
}

fn man_move<V: Variant>(pos: &Position<V>, mv: &damka_core::Move) -> bool {
    pos.kings() >> mv.from_bit() & 1 == 0
}

#[test]
fn russian_rules_r1_to_r4() {
    let tmp = temp_dir("rule-limits-russian");
    let dir = tmp.path().to_path_buf();
    build_rule_tables::<Russian>(&dir, 3, &["0M3K-0M1K"], "russian");
    let tables = RuleTablebase::<Russian>::new(&dir, RuleSet::preset("russian").unwrap());
    // R1: three kings against one, 15 moves (4 pieces: the probe alone).
    let r1 = boundary(&tables, "0M3K-0M1K", "R1", false);
    assert!(!damka_probe::limits::PositionCondition::LoneKingOnMainRoad.holds(&r1));
    // R2: 2-3 pieces, 5 moves; R4: 15 moves of king moves.
    boundary(&tables, "1M1K-0M1K", "R2", true);
    boundary(&tables, "0M2K-0M1K", "R4", true);
    // R3: the lone king on the main road, 5 moves.
    let on_road = quiet_positions::<Russian>("0M3K-0M1K")
        .into_iter()
        .filter(|p| damka_probe::limits::PositionCondition::LoneKingOnMainRoad.holds(p))
        .find(|p| {
            let late = tables.probe_rules(p, &counts("R3", 9)).unwrap();
            let fresh = tables.probe_rules(p, &Counters::new()).unwrap();
            fresh.wdl == Some(RuleWdl::Win)
                && fresh.distance.is_some_and(|d| d >= 3)
                && late.wdl == Some(RuleWdl::CursedWin)
                && late.rule.as_deref() == Some("R3")
        });
    assert!(on_road.is_some(), "a win on the main road that R3 cuts");
    // Restarts: R2 by a capture or promotion, R4 by a man move.
    saved_by_reset(
        &tables,
        "1M1K-0M1K",
        "R2",
        Events::NONE,
        capture_or_promotion,
    );
    saved_by_reset(
        &tables,
        "1M1K-0M1K",
        "R4",
        Events {
            capture: true,
            ..Events::NONE
        },
        man_move,
    );
    assert_eq!(probe_cases(&tables), 7, "R1, R2, R3 a-b, R2 c");
}

#[test]
fn fmjd_rules_i1_to_i3() {
    let tmp = temp_dir("rule-limits-fmjd");
    let dir = tmp.path().to_path_buf();
    build_rule_tables::<International>(&dir, 3, &[], "fmjd");
    let tables = RuleTablebase::<International>::new(&dir, RuleSet::preset("fmjd").unwrap());
    // I3: a king and a man, two kings or a king against a lone king, 5 moves.
    boundary(&tables, "1M1K-0M1K", "I3", true);
    // I1: 25 moves of king moves, restarted by a man move.
    saved_by_reset(
        &tables,
        "1M1K-1M0K",
        "I1",
        Events {
            capture: true,
            ..Events::NONE
        },
        man_move,
    );
    // I3 runs on through a promotion (a king and a man, then two kings): a count
    // one ply before the limit draws a win that needs the promotion and more.
    let set = tables.set();
    let restarting = with_resets(
        set,
        "I3",
        Events {
            promotion: true,
            ..Events::NONE
        },
    );
    let found = quiet_positions::<International>("1M1K-0M1K")
        .into_iter()
        .find(|p| {
            let late = counts("I3", 9);
            tables.probe_rules(p, &late).unwrap().wdl == Some(RuleWdl::CursedWin)
                && tables
                    .probe_rules(p, &Counters::new())
                    .unwrap()
                    .wdl
                    .is_some_and(|w| w.theory() == Wdl::Win)
                && damka_core::legal_moves(p).iter().any(|m| m.is_promotion())
                && naive_rule_values(&restarting, &[(*p, late.clone())]) == [Wdl::Win]
                && naive_rule_values(set, &[(*p, late)]) == [Wdl::Draw]
        });
    assert!(
        found.is_some(),
        "a win I3 draws because a promotion does not restart it"
    );
    assert_eq!(probe_cases(&tables), 3, "I3 a-c");
}
