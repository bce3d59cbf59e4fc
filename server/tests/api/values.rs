//! Values: `/api/probe` answers as the probe library does, for the position and
//! for every move, sorted best first; under a rule set too.

use std::time::Duration;

use axum::http::StatusCode;
use damka_core::{apply, legal_moves, parse_move, Russian, Slice, SliceIndexer};
use damka_probe::limits::{Counters, RuleSet, RuleTablebase};
use damka_probe::{notation, Position, RuleWdl, Tablebase, Value};
use damka_server::json::line_notation;
use damka_server::Limits;
use serde_json::{json, Value as Json};

use crate::common::{app, get, probe_uri, tables, THREE_KINGS};

/// The keys of a move of `damka moves --json`.
const MOVE_KEYS: [&str; 6] = ["from", "to", "captures", "path", "notation", "after"];

fn library() -> Tablebase<Russian> {
    Tablebase::open(tables()).unwrap()
}

fn russian_rules() -> RuleTablebase<Russian> {
    RuleTablebase::open(tables(), RuleSet::preset("russian").unwrap()).unwrap()
}

/// The move of `entry` (a move list entry) in `pos`.
fn move_of(pos: &Position<Russian>, entry: &Json) -> damka_probe::Move {
    parse_move(pos, entry["notation"].as_str().unwrap()).unwrap()
}

#[tokio::test]
async fn health_names_the_variants_and_their_tables() {
    let (status, json) = get(&app(Limits::default()), "/api/health").await;
    assert_eq!(status, StatusCode::OK);
    let variants = json["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 1, "only Russian tables were built: {json}");
    let russian = &variants[0];
    assert_eq!(russian["variant"], "russian");
    assert_eq!(russian["max_pieces"], 4);
    assert_eq!(russian["pieces"], json!([2, 3, 4]));
    assert_eq!(
        russian["slices"].as_u64().unwrap() as usize,
        library().slices().len()
    );
    let sets = russian["rule_sets"].as_array().unwrap();
    let names: Vec<&str> = sets.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["russian", "russian-1900", "none"]);
    assert_eq!(sets[0]["max_pieces"], 4);
    assert_eq!(sets[1]["slices"], 0);
}

#[tokio::test]
async fn probe_gives_the_value_and_every_move_best_first() {
    let app = app(Limits::default());
    let tables = library();
    for fen in [
        THREE_KINGS,
        "B:WKa1,Kc1,Kd4:BKh2",
        "W:WKa1,Kh8:BKb2",
        "W:Wc3,Ke1:BKh8",
        "B:WKc3,Kf2:Bd6",
        "W:Wc3:BKh8",
    ] {
        let (status, json) = get(&app, &probe_uri(fen, "&pv=true")).await;
        assert_eq!(status, StatusCode::OK, "{fen}: {json}");
        let pos: Position<Russian> = fen.parse().unwrap();
        let value = tables.probe_value(pos).unwrap();
        assert_eq!(json["fen"], fen);
        assert_eq!(json["wdl"], value.wdl().name(), "{fen}");
        assert_eq!(json["dtw"], json!(value.dtw()), "{fen}");
        let best = tables.best_move(pos).unwrap().map(|mv| notation(&pos, &mv));
        assert_eq!(json["best_move"], json!(best), "{fen}");
        let pv = line_notation(&pos, &tables.pv(pos).unwrap());
        assert_eq!(json["pv"], json!(pv), "{fen}");
        assert!(json.get("rules").is_none(), "no rules asked: {json}");

        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal_moves(&pos).len(), "{fen}");
        let mut values: Vec<Value> = Vec::new();
        for entry in moves {
            for key in MOVE_KEYS {
                assert!(entry.get(key).is_some(), "{key} missing: {entry}");
            }
            let mv = move_of(&pos, entry);
            let after = apply(&pos, &mv);
            assert_eq!(entry["after"], after.to_string());
            let v = tables.probe_value(after).unwrap().back();
            assert_eq!(entry["wdl"], v.wdl().name(), "{fen} {entry}");
            assert_eq!(entry["dtw"], json!(v.dtw()), "{fen} {entry}");
            values.push(v);
        }
        for pair in values.windows(2) {
            assert!(
                !pair[1].better_than(pair[0]),
                "{fen}: not best first: {pair:?}"
            );
        }
        assert_eq!(values[0], value, "{fen}: the first move keeps the value");
    }
}

#[tokio::test]
async fn moves_is_the_json_of_damka_moves() {
    let app = app(Limits::default());
    let fen = "W:Wc3,e3:BKh8,d4";
    let uri = format!(
        "/api/moves?variant=russian&fen={}",
        crate::common::escape(fen)
    );
    let (status, json) = get(&app, &uri).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["fen"], fen);
    let pos: Position<Russian> = fen.parse().unwrap();
    let moves = json["moves"].as_array().unwrap();
    let legal = legal_moves(&pos);
    assert_eq!(moves.len(), legal.len());
    for (entry, mv) in moves.iter().zip(&legal) {
        let keys: Vec<&String> = entry.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), MOVE_KEYS.len(), "{entry}");
        assert_eq!(entry["notation"], notation(&pos, mv));
        assert_eq!(entry["after"], apply(&pos, mv).to_string());
    }
    // Captures are compulsory: both men take d4, and nothing else moves.
    assert_eq!(moves.len(), 2, "{json}");
    assert!(
        moves.iter().all(|m| m["captures"] == json!(["d4"])),
        "{json}"
    );
    assert_eq!(moves[0]["path"], json!(["c3", "e5"]));
}

/// Two kings against one won in 5 plies or more under `russian` with fresh
/// counters, and the distance.
fn two_kings_win(rules: &RuleTablebase<Russian>) -> (Position<Russian>, u16) {
    let slice: Slice = "0M2K-0M1K".parse().unwrap();
    let indexer = SliceIndexer::<Russian>::new(slice).unwrap();
    (0..indexer.size())
        .map(|i| indexer.position(i))
        .find_map(|p| {
            let outcome = rules.probe_rules(p, &Counters::new()).unwrap();
            let d = outcome.distance.filter(|&d| d >= 5)?;
            (outcome.wdl == Some(RuleWdl::Win)).then_some((p, d))
        })
        .expect("a win of 5 plies or more")
}

/// The sort key of a move's value under the rules: best first.
fn rule_rank(entry: &Json) -> (u8, i64) {
    let distance = entry["distance"].as_i64().unwrap_or(0);
    match entry["wdl"].as_str().unwrap() {
        "win" => (0, distance),
        "cursed-win" => (1, 0),
        "draw" => (2, 0),
        "blessed-loss" => (3, 0),
        "loss" => (4, -distance),
        _ => (5, 0),
    }
}

#[tokio::test]
async fn probe_under_rules_answers_as_the_library_for_the_position_and_each_move() {
    let app = app(Limits::default());
    let rules = russian_rules();
    let (pos, d) = two_kings_win(&rules);
    let fen = pos.to_string();
    // R2 binds 2-3 pieces at 5 moves = 10 plies: the win fits with 10 - d plies
    // played, not with one more.
    for (plies, expected) in [(10 - d, "win"), (11 - d, "cursed-win")] {
        let played_text = format!("R2={}", f64::from(plies) / 2.0);
        let played = rules.set().parse_counters(&played_text).unwrap();
        let extra = format!(
            "&rules=russian&played={}",
            crate::common::escape(&played_text)
        );
        let (status, json) = get(&app, &probe_uri(&fen, &extra)).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        let answer = &json["rules"];
        let outcome = rules.probe_rules(pos, &played).unwrap();
        assert_eq!(answer["set"], "russian");
        assert_eq!(answer["played"], played.to_string());
        assert_eq!(answer["wdl"], expected, "{fen} {played_text}: {json}");
        assert_eq!(answer["distance"], json!(outcome.distance));
        assert_eq!(answer["rule"], json!(outcome.rule));
        let best = outcome.best_move.map(|mv| notation(&pos, &mv));
        assert_eq!(answer["best_move"], json!(best));
        if expected == "cursed-win" {
            assert_eq!(answer["rule"], "R2");
        }

        let moves = json["moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal_moves(&pos).len());
        for entry in moves {
            let mv = move_of(&pos, entry);
            let after_played = rules.set().advance(&played, &pos, &mv);
            let outcome = rules.probe_rules(apply(&pos, &mv), &after_played).unwrap();
            let ruled = &entry["rules"];
            assert_eq!(ruled["played"], after_played.to_string(), "{entry}");
            let wdl = outcome.wdl.map(RuleWdl::negate).unwrap();
            assert_eq!(ruled["wdl"], wdl.name(), "{fen} {played_text} {entry}");
            assert_eq!(ruled["distance"], json!(outcome.distance.map(|d| d + 1)));
            assert_eq!(ruled["rule"], json!(outcome.rule));
        }
        let ranks: Vec<(u8, i64)> = moves.iter().map(|m| rule_rank(&m["rules"])).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        assert_eq!(
            moves[0]["rules"]["wdl"], expected,
            "the first move keeps the value under the rules"
        );
    }
}

#[tokio::test]
async fn the_arbiters_question_three_kings_with_four_moves_played() {
    let app = app(Limits {
        time_limit: Duration::from_secs(600),
        ..Limits::default()
    });
    let rules = russian_rules();
    let pos: Position<Russian> = THREE_KINGS.parse().unwrap();
    for (played_text, expected) in [("R1=4", "win"), ("R1=14.5", "cursed-win")] {
        let played = rules.set().parse_counters(played_text).unwrap();
        let extra = format!(
            "&rules=russian&played={}",
            crate::common::escape(played_text)
        );
        let (status, json) = get(&app, &probe_uri(THREE_KINGS, &extra)).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        let outcome = rules.probe_rules(pos, &played).unwrap();
        assert_eq!(json["rules"]["wdl"], expected, "{json}");
        assert_eq!(json["rules"]["distance"], json!(outcome.distance));
        let best = outcome.best_move.map(|mv| notation(&pos, &mv));
        assert_eq!(json["rules"]["best_move"], json!(best));
        if expected == "cursed-win" {
            assert_eq!(json["rules"]["rule"], "R1");
        }
        // The first move of the list is the best move under the rules, and its
        // value is the position's.
        let first = &json["moves"][0];
        assert_eq!(first["rules"]["wdl"], expected, "{first}");
        if expected == "win" {
            assert_eq!(first["notation"], json!(best));
            assert_eq!(first["rules"]["distance"], json!(outcome.distance));
            assert_eq!(first["rules"]["played"], "R1=4.5,R2=0.5,R4=0.5");
        }
    }
}
