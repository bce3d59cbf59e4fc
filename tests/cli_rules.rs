//! The `perft` and `moves` commands as users and scripts run them.

use crate::common;

use common::{damka, Run};

#[test]
fn perft_prints_one_line_per_depth() {
    let Run { out, ok, .. } = damka(&["perft", "--variant", "russian", "--depth", "3"], "");
    assert!(ok);
    assert_eq!(out, "perft 1 7\nperft 2 49\nperft 3 302\n");
    let Run { out, ok, .. } = damka(
        &[
            "perft",
            "--variant",
            "international",
            "--depth",
            "2",
            "--fen",
            "W:W6,7,8,9,10:B41,42,43,44,45",
        ],
        "",
    );
    assert!(ok);
    assert_eq!(out, "perft 1 9\nperft 2 81\n");
}

#[test]
fn perft_rejects_a_bad_fen() {
    let Run { err, ok, .. } = damka(
        &[
            "perft",
            "--variant",
            "russian",
            "--depth",
            "1",
            "--fen",
            "W:Wz9:B",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("unknown square `z9`"), "{err}");
}

#[test]
fn moves_json_has_the_documented_shape() {
    let Run { out, ok, .. } = damka(
        &["moves", "--variant", "russian", "--json", "W:Wb6:Bc7,f6"],
        "",
    );
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["fen"], "W:Wb6:Bc7,f6");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    let first = &moves[0];
    assert_eq!(first["from"], "b6");
    assert_eq!(first["captures"], serde_json::json!(["c7", "f6"]));
    assert_eq!(first["path"][1], "d8");
    assert!(first["notation"].as_str().unwrap().starts_with("b6:d8:"));
    assert!(first["after"].as_str().unwrap().starts_with("B:WK"));
}

#[test]
fn moves_from_stdin_pairs_every_line_and_fails_on_a_bad_one() {
    let input = "W:W32:B1\nnonsense\nB:W50:BK1\n";
    let Run { out, err, ok } = damka(&["moves", "--variant", "international", "--json"], input);
    assert!(!ok, "a bad line makes the exit status non-zero");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 2);
    assert_eq!(lines[1]["fen"], "nonsense");
    assert!(lines[1]["error"].as_str().unwrap().contains("malformed"));
    assert_eq!(lines[2]["moves"].as_array().unwrap().len(), 9);
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn moves_text_lists_notation_and_position_after() {
    let Run { out, ok, .. } = damka(&["moves", "--variant", "international", "32-28"], "");
    assert!(!ok);
    let Run {
        out: out2, ok: ok2, ..
    } = damka(&["moves", "--variant", "international", "W:W32:B1"], "");
    assert!(ok2);
    assert!(out.is_empty());
    assert!(out2.contains("32-27"), "{out2}");
    assert!(out2.contains("B:W27:B1"), "{out2}");
}
