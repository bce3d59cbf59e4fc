//! Every position of `tests/data/rule-cases.jsonl` (reference data from outside
//! the project, see `tests/data/README.md`) yields exactly the listed move set,
//! compared as sets of (from, to, captured set, position after).

use std::collections::BTreeSet;

use damka_core::{apply, legal_moves, path};
use damka_core::{International, Position, Russian, Variant};
use serde_json::Value;

/// A move as a comparable tuple of names and the canonical FEN after it.
type Key = (String, String, BTreeSet<String>, String);

fn name(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn reference_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rule-cases.jsonl")
}

fn check_case<V: Variant>(case: &Value) {
    let fen = case["fen"].as_str().unwrap();
    let pos: Position<V> = fen.parse().unwrap();
    let expected: BTreeSet<Key> = case["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let after: Position<V> = m[4].as_str().unwrap().parse().unwrap();
            (
                name(&m[0]),
                name(&m[1]),
                m[2].as_array().unwrap().iter().map(name).collect(),
                after.to_string(),
            )
        })
        .collect();
    let moves = legal_moves(&pos);
    let actual: BTreeSet<Key> = moves
        .iter()
        .map(|mv| {
            (
                V::square_name(mv.from_square::<V>()),
                V::square_name(mv.to_square::<V>()),
                mv.captured_squares::<V>()
                    .into_iter()
                    .map(V::square_name)
                    .collect(),
                apply(&pos, mv).to_string(),
            )
        })
        .collect();
    assert_eq!(moves.len(), actual.len(), "duplicate moves in {fen}");
    assert_eq!(actual, expected, "move set of {fen}");
    for mv in moves.iter().filter(|mv| mv.is_capture()) {
        let route = path(&pos, mv);
        assert_eq!(route.first(), Some(&mv.from_square::<V>()));
        assert_eq!(route.last(), Some(&mv.to_square::<V>()));
        assert_eq!(
            route.len(),
            mv.captured().count_ones() as usize + 1,
            "one landing per capture"
        );
    }
}

#[test]
fn every_reference_rule_case_matches() {
    let text = std::fs::read_to_string(reference_path())
        .expect("tests/data/rule-cases.jsonl is in the repository");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        match case["variant"].as_str().unwrap() {
            "russian" => check_case::<Russian>(&case),
            "international" => check_case::<International>(&case),
            other => panic!("unknown variant {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 25);
}
