//! Bad input gets 400 and a JSON error naming the problem; a missing table 404,
//! a corrupt one 500; none of them panics.

use std::fs;
use std::path::Path;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use damka_server::{router, Catalog, Limits};

use crate::common::{app, escape, get, probe_uri, send, tables, THREE_KINGS};

/// Asserts that `uri` answers `status` with a JSON error of `kind` whose message
/// contains `says`.
async fn refused(app: &axum::Router, uri: &str, status: StatusCode, kind: &str, says: &str) {
    let (got, json) = get(app, uri).await;
    assert_eq!(got, status, "{uri}: {json}");
    assert_eq!(json["kind"], kind, "{uri}: {json}");
    let message = json["error"].as_str().unwrap_or_default();
    assert!(message.contains(says), "{uri}: `{message}` lacks `{says}`");
}

#[tokio::test]
async fn bad_input_is_a_400_naming_the_problem() {
    let app = app(Limits::default());
    let bad = StatusCode::BAD_REQUEST;
    let rules = "&rules=russian&played=";
    let cases: Vec<(String, &str, &str)> = vec![
        (probe_uri("W:Wz9:Bh8", ""), "fen", "unknown square `z9`"),
        (probe_uri("X:Wa1:Bh8", ""), "fen", "side to move"),
        (probe_uri("", ""), "fen", "empty input"),
        (
            probe_uri("W:Wb8:BKa1", ""),
            "impossible_position",
            "promotion row",
        ),
        (
            probe_uri("W:Wa1:BKa1", ""),
            "impossible_position",
            "occupied twice",
        ),
        (
            probe_uri("W:WKa1:B", ""),
            "impossible_position",
            "no pieces",
        ),
        (
            probe_uri("W:WKa1,Kc1,Ke1:BKh2,Kh8", ""),
            "too_many_pieces",
            "cover up to 4 pieces",
        ),
        (
            probe_uri(THREE_KINGS, "&rules=olympic"),
            "rules",
            "unknown rule set `olympic`",
        ),
        (
            probe_uri(THREE_KINGS, "&rules=fmjd"),
            "rules",
            "not russian",
        ),
        (
            probe_uri(THREE_KINGS, "&rules=..%2Fetc%2Fpasswd"),
            "rules",
            "unknown rule set",
        ),
        (
            probe_uri(THREE_KINGS, &format!("{rules}R3%3D2")),
            "not_in_force",
            "R3 is not in force",
        ),
        (
            probe_uri("W:WKa1,Kh8:BKb2", &format!("{rules}R1%3D3")),
            "not_in_force",
            "R1 is not in force",
        ),
        (
            probe_uri(THREE_KINGS, &format!("{rules}I1%3D3")),
            "played",
            "no counter `I1`",
        ),
        (
            probe_uri(THREE_KINGS, &format!("{rules}R1%3Dfour")),
            "played",
            "not a count of moves",
        ),
        (
            probe_uri(THREE_KINGS, "&played=R1%3D4"),
            "played",
            "needs a rule set",
        ),
        (
            probe_uri(THREE_KINGS, "&pv=maybe"),
            "query",
            "true or false",
        ),
        (
            probe_uri(THREE_KINGS, "&depth=3"),
            "query",
            "unknown parameter `depth`",
        ),
        (
            probe_uri(THREE_KINGS, "&variant=russian"),
            "query",
            "given twice",
        ),
        (
            "/api/probe?variant=russian".into(),
            "query",
            "missing parameter `fen`",
        ),
        (
            format!("/api/probe?fen={}", escape(THREE_KINGS)),
            "query",
            "missing parameter `variant`",
        ),
        (
            format!("/api/probe?variant=checkers&fen={}", escape(THREE_KINGS)),
            "variant",
            "unknown variant `checkers`",
        ),
        (
            "/api/moves?variant=russian&fen=W%3AWa1".into(),
            "fen",
            "missing",
        ),
        (
            "/api/board?variant=international&fen=W%3AW51%3AB1".into(),
            "fen",
            "unknown square `51`",
        ),
        (
            format!(
                "/api/counters?variant=russian&rules=fmjd&fen={}",
                escape(THREE_KINGS)
            ),
            "rules",
            "not russian",
        ),
    ];
    for (uri, kind, says) in &cases {
        refused(&app, uri, bad, kind, says).await;
    }
}

#[tokio::test]
async fn a_missing_table_is_a_404() {
    let app = app(Limits::default());
    let missing = StatusCode::NOT_FOUND;
    // Two kings against two: a 4-piece table that was not built.
    let uri = probe_uri("W:WKa1,Kc1:BKh2,Kh8", "");
    refused(
        &app,
        &uri,
        missing,
        "missing_table",
        "missing table 0M2K-0M2K",
    )
    .await;
    // A rule set whose rule tables were not built.
    let uri = probe_uri(THREE_KINGS, "&rules=russian-1900");
    refused(&app, &uri, missing, "missing_table", "russian-1900").await;
    // A variant with no tables at all.
    let uri = "/api/probe?variant=international&fen=W%3AW46%3AB5";
    refused(&app, uri, missing, "no_tables", "no international tables").await;
    refused(&app, "/api/nothing", missing, "not_found", "no such page").await;
}

/// Copies the table directory `from` into `to`.
fn copy_tables(from: &Path, to: &Path) {
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            fs::create_dir_all(&target).unwrap();
            copy_tables(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[tokio::test]
async fn a_corrupt_table_is_a_500() {
    let copy = tempfile::Builder::new()
        .prefix("damka-server-corrupt-")
        .tempdir()
        .unwrap();
    copy_tables(tables(), copy.path());
    // Two kings against one: cut its DTW table in half.
    let file = copy.path().join("russian").join("0M2K-0M1K.dtw.dkt");
    let bytes = fs::read(&file).unwrap();
    fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let app = router(Catalog::open(copy.path()).unwrap(), Limits::default());
    // A position without a capture, so that the probe reads the table.
    let uri = probe_uri("W:WKa1,Kc1:BKh2", "");
    refused(
        &app,
        &uri,
        StatusCode::INTERNAL_SERVER_ERROR,
        "corrupt_table",
        "0M2K-0M1K.dtw.dkt",
    )
    .await;
    // The other tables still answer.
    let (status, json) = get(&app, &probe_uri("W:Wc3:BKh8", "")).await;
    assert_eq!(status, StatusCode::OK, "{json}");
}

#[tokio::test]
async fn oversized_requests_are_refused() {
    let app = app(Limits::default());
    let long = "a".repeat(4000);
    refused(
        &app,
        &probe_uri(&long, ""),
        StatusCode::URI_TOO_LONG,
        "query",
        "at most 2048",
    )
    .await;
    let request = Request::get("/api/health")
        .header("content-length", "4096")
        .body(Body::from(vec![b'x'; 4096]))
        .unwrap();
    let (status, _) = send(&app, request).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let request = Request::post("/api/probe").body(Body::empty()).unwrap();
    let (status, _) = send(&app, request).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
