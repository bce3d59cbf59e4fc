//! What the page asks besides values: its embedded files, the boards of both
//! variants, positions read by the program's FEN reader, and the counters in
//! force.

use axum::http::StatusCode;
use axum::Router;
use damka_server::Limits;
use serde_json::json;

use crate::common::{app, escape, get, THREE_KINGS};

/// The status, content type and body of `GET uri`.
async fn raw(app: &Router, uri: &str) -> (StatusCode, String, String) {
    use tower::ServiceExt;
    let request = axum::http::Request::get(uri)
        .body(axum::body::Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
}

#[tokio::test]
async fn the_page_and_its_files_are_served_from_the_program() {
    let app = app(Limits::default());
    let (status, kind, html) = raw(&app, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/html"));
    assert!(html.contains("<script src=\"/app.js\""), "{html}");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no CDN"
    );
    let (status, kind, script) = raw(&app, "/app.js").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/javascript"));
    assert!(script.contains("/api/"));
    let (status, kind, _) = raw(&app, "/style.css").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/css"));
}

#[tokio::test]
async fn boards_come_with_their_squares_and_positions() {
    let app = app(Limits::default());
    let (status, json) = get(&app, "/api/board?variant=russian").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json["width"], 8);
    let squares = json["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 32);
    assert_eq!(squares[0], json!({"name": "a1", "file": 0, "rank": 0}));
    assert_eq!(squares[1], json!({"name": "a3", "file": 0, "rank": 2}));
    assert_eq!(squares[31], json!({"name": "h8", "file": 7, "rank": 7}));

    let (status, json) = get(&app, "/api/board?variant=international").await;
    assert_eq!(status, StatusCode::OK, "the board needs no tables");
    assert_eq!(json["width"], 10);
    let squares = json["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 50);
    let square = |name: &str| squares.iter().find(|s| s["name"] == name).unwrap().clone();
    assert_eq!(squares[0], json!({"name": "1", "file": 1, "rank": 9}));
    assert_eq!(squares[9]["name"], "10");
    assert_eq!(square("46"), json!({"name": "46", "file": 0, "rank": 0}));

    // A position: canonical FEN, side and pieces (ranges read, as in PDN).
    let uri = format!(
        "/api/board?variant=international&fen={}",
        escape("B:W31-33,K46:BK5")
    );
    let (status, json) = get(&app, &uri).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let position = &json["position"];
    assert_eq!(position["fen"], "B:W31,32,33,K46:BK5");
    assert_eq!(position["side"], "black");
    assert_eq!(position["pieces"].as_array().unwrap().len(), 5);
    assert!(position["pieces"]
        .as_array()
        .unwrap()
        .contains(&json!({"square": "46", "color": "white", "king": true})));
}

#[tokio::test]
async fn counters_say_which_are_in_force_and_their_limits() {
    let app = app(Limits::default());
    let in_force = |json: &serde_json::Value| -> Vec<(String, Option<u64>)> {
        json["counters"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["in_force"] == true)
            .map(|c| {
                (
                    c["id"].as_str().unwrap().to_string(),
                    c["limit_moves"].as_u64(),
                )
            })
            .collect()
    };
    let uri = |fen: &str| {
        format!(
            "/api/counters?variant=russian&rules=russian&fen={}",
            escape(fen)
        )
    };
    let (status, json) = get(&app, &uri(THREE_KINGS)).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["set"], "russian");
    assert_eq!(json["counters"].as_array().unwrap().len(), 4);
    let expected = [("R1", 15), ("R2", 30), ("R4", 15)].map(|(id, l)| (id.to_string(), Some(l)));
    assert_eq!(in_force(&json), expected);
    // With the lone king on the main road, R3 is in force too.
    let (_, json) = get(&app, &uri("W:WKa1,Kc1,Ke1:BKd4")).await;
    assert!(
        in_force(&json).contains(&("R3".to_string(), Some(5))),
        "{json}"
    );
}
