//! The rule-aware probe on built rule tables: Petrov's triangle under R1, the
//! command line, and damaged or mismatched rule tables.

use crate::common;

use common::{build_rule_tables, damka, temp_dir};
use damka_core::apply;
use damka_core::{Color, Position, Russian, Slice};
use damka_formats::table::ValueKind;
use damka_formats::{RuleWdl, Wdl};
use damka_probe::{limits::Counters, limits::RuleSet, limits::RuleTablebase};

/// R1's limit: 15 moves, 30 plies.
const R1_PLIES: u32 = 30;

/// Russian three kings against one (Petrov's triangle): every theoretical win is
/// a win under `russian` with fresh counters, and the probe's line captures the
/// lone king before R1's limit.
#[test]
fn petrovs_triangle_is_won_inside_fifteen_moves() {
    let tmp = temp_dir("rules-petrov");
    let dir = tmp.path().to_path_buf();
    build_rule_tables::<Russian>(&dir, 3, &["0M3K-0M1K"], "russian");
    let set = RuleSet::preset("russian").unwrap();
    let tables = RuleTablebase::<Russian>::new(&dir, set.clone());
    let slice: Slice = "0M3K-0M1K".parse().unwrap();
    let indexer = damka_core::SliceIndexer::<Russian>::new(slice).unwrap();
    let theory = tables.tablebase().slice_table(slice).unwrap();
    let mut won = Vec::new();
    for index in 0..indexer.size() {
        let pos = indexer.position(index);
        let value = tables.rwdl(&pos).unwrap();
        assert_eq!(value.theory(), theory.get(index).wdl(), "{pos}");
        if value.theory() == Wdl::Win {
            assert_eq!(value, RuleWdl::Win, "{pos} is a theoretical win");
            won.push(pos);
        }
    }
    assert_eq!(won.len(), 132_240);
    // Play the probe's line from a sample of the wins, the longest among them.
    let longest = *won.iter().max_by_key(|p| theory.value(p).dtw()).unwrap();
    let sample: Vec<Position<Russian>> = won
        .iter()
        .step_by(4099)
        .copied()
        .chain(std::iter::once(longest))
        .collect();
    for start in sample {
        let (mut pos, mut counts) = (start, Counters::new());
        let mut plies = 0;
        while pos.pieces(Color::Black) != 0 && plies < R1_PLIES {
            let outcome = tables.probe_rules(pos, &counts).unwrap();
            let expected = if pos.side() == Color::White {
                RuleWdl::Win
            } else {
                RuleWdl::Loss
            };
            assert_eq!(
                outcome.wdl,
                Some(expected),
                "{start}: at {pos} after {plies} plies"
            );
            let Some(mv) = outcome.best_move else { break };
            counts = set.advance(&counts, &pos, &mv);
            pos = apply(&pos, &mv);
            plies += 1;
            assert!(
                set.limit_reached(&counts, &pos).is_none(),
                "{start}: limit at {pos}"
            );
        }
        assert_eq!(
            pos.pieces(Color::Black),
            0,
            "{start}: the lone king is still there after {plies} plies"
        );
    }
}

/// `damka probe --rules` prints both answers; the JSON has the `rules` object;
/// a count one ply past the last winning one turns the win into a cursed win.
#[test]
fn command_line_probe_under_rules() {
    let tmp = temp_dir("rules-cli");
    let dir = tmp.path().to_path_buf();
    build_rule_tables::<Russian>(&dir, 3, &[], "russian");
    let root = dir.to_str().unwrap();
    // Two kings against one on the main road: a theoretical win in 3 plies?
    let set = RuleSet::preset("russian").unwrap();
    let tables = RuleTablebase::<Russian>::new(&dir, set);
    let slice: Slice = "0M2K-0M1K".parse().unwrap();
    let indexer = damka_core::SliceIndexer::<Russian>::new(slice).unwrap();
    let pos = (0..indexer.size())
        .map(|i| indexer.position(i))
        .find(|p| {
            tables
                .probe_rules(p, &Counters::new())
                .unwrap()
                .distance
                .is_some_and(|d| d >= 5)
                && tables.rwdl(p).unwrap() == RuleWdl::Win
        })
        .expect("a win of 5 plies or more");
    let d = tables
        .probe_rules(pos, &Counters::new())
        .unwrap()
        .distance
        .unwrap() as u32;
    let fen = pos.to_string();
    // R2 binds 2-3 pieces at 5 moves = 10 plies: the win fits with 10 - d plies
    // played, not with one more.
    let fits = format!("R2={}", (10 - d) as f64 / 2.0);
    let late = format!("R2={}", (11 - d) as f64 / 2.0);
    let probe = |rules: &str, played: &str| {
        let mut args = vec![
            "probe",
            "--variant",
            "russian",
            "--dir",
            root,
            "--rules",
            rules,
        ];
        if !played.is_empty() {
            args.extend(["--played", played]);
        }
        args.extend(["--json", &fen]);
        damka(&args, "")
    };
    let run = probe("russian", &fits);
    assert!(run.ok, "{}", run.err);
    let json: serde_json::Value = serde_json::from_str(run.out.trim()).unwrap();
    assert_eq!(json["wdl"], "win");
    assert_eq!(json["rules"]["set"], "russian");
    assert_eq!(json["rules"]["wdl"], "win", "{json}");
    assert_eq!(json["rules"]["distance"], d);
    assert!(json["rules"]["best_move"].is_string());
    let run = probe("russian", &late);
    let json: serde_json::Value = serde_json::from_str(run.out.trim()).unwrap();
    assert_eq!(json["rules"]["wdl"], "cursed-win", "{json}");
    assert_eq!(json["rules"]["rule"], "R2");
    let run = damka(
        &[
            "probe",
            "--variant",
            "russian",
            "--dir",
            root,
            "--rules",
            "russian",
            &fen,
        ],
        "",
    );
    assert!(run.out.contains("rules russian: win"), "{}", run.out);
    // Bad input: an unknown counter, a rule set of the other variant.
    let run = probe("russian", "I1=3");
    assert!(
        !run.ok && run.err.contains("no counter `I1`"),
        "{}",
        run.err
    );
    // A count of a counter that is not in force here (R1 needs three kings or
    // more against a lone king) is refused, not ignored.
    let run = probe("russian", "R1=3");
    assert!(
        !run.ok && run.err.contains("R1 is not in force"),
        "{}",
        run.err
    );
    let run = probe("fmjd", "");
    assert!(!run.ok && run.err.contains("not russian"), "{}", run.err);
}

/// A rule table built under another rule set is refused, and a missing one is
/// named.
#[test]
fn rule_tables_of_another_set_or_missing_are_refused() {
    let tmp = temp_dir("rules-mismatch");
    let dir = tmp.path().to_path_buf();
    build_rule_tables::<Russian>(&dir, 2, &[], "russian");
    let mut other = RuleSet::preset("russian").unwrap();
    other.counters[0].limit = damka_probe::limits::Limit::Moves(16);
    let tables = RuleTablebase::<Russian>::new(&dir, other);
    let pos: Position<Russian> = "W:WKa1:BKh8".parse().unwrap();
    let error = tables.probe_rules(pos, &Counters::new()).unwrap_err();
    assert!(error.to_string().contains("different rule set"), "{error}");
    let missing = RuleTablebase::<Russian>::new(&dir, RuleSet::preset("russian-1900").unwrap());
    let error = missing.probe_rules(pos, &Counters::new()).unwrap_err();
    assert!(error.to_string().contains("missing table"), "{error}");
    assert!(missing
        .path("0M1K-0M1K".parse().unwrap(), ValueKind::Dtc)
        .ends_with("0M1K-0M1K.russian-1900.dtc.dkt"));
}
