//! The limits: a rule search past the time limit answers "unknown: time limit"
//! and the rest of the answer still comes; a real server on a socket answers bad
//! requests without dropping the connection. (That a request dropped by its
//! client cancels its search is checked in the probe's tests, `tests/api.rs`: no
//! query of these tables searches long enough to catch it in the act.)

use std::future::IntoFuture;
use std::time::Duration;

use axum::http::StatusCode;
use damka_server::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{app, get, probe_uri, THREE_KINGS};

/// A man and a king against a man with 14.5 of R4's 15 moves played: Black has
/// only men, so R4 (which a man move restarts) binds only if White's next move
/// is a king move, and the probe searches.
const SEARCHED: &str = "W:Wb4,Kh2:Bf6";

#[tokio::test]
async fn a_rule_search_past_the_time_limit_is_unknown() {
    let uri = probe_uri(SEARCHED, "&rules=russian&played=R4%3D14.5&pv=true");
    let (status, exact) = get(&app(Limits::default()), &uri).await;
    assert_eq!(status, StatusCode::OK, "{exact}");
    assert_eq!(exact["rules"]["wdl"], "win", "{exact}");
    let app = app(Limits {
        time_limit: Duration::ZERO,
        ..Limits::default()
    });
    let (status, json) = get(&app, &uri).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let rules = &json["rules"];
    assert_eq!(rules["wdl"], "unknown", "{json}");
    assert_eq!(rules["reason"], "time limit");
    assert_eq!(rules["pv"], serde_json::json!([]));
    // The theoretical answer and the move list come all the same.
    assert_eq!(json["wdl"], exact["wdl"]);
    assert_eq!(json["best_move"], exact["best_move"]);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), exact["moves"].as_array().unwrap().len());
    assert!(moves.iter().all(|m| m["wdl"].is_string()));
    // A position the rule tables decide without a search is answered exactly.
    let (_, json) = get(&app, &probe_uri("W:WKa1,Kh8:BKb2", "&rules=russian")).await;
    assert_eq!(json["rules"]["wdl"], "win", "{json}");
}

/// Sends `requests` over one connection to `addr`, reading each response in
/// turn; returns their status lines.
async fn over_one_connection(addr: std::net::SocketAddr, requests: &[&str]) -> Vec<String> {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut lines = Vec::new();
    for (i, target) in requests.iter().enumerate() {
        let close = if i + 1 == requests.len() {
            "Connection: close\r\n"
        } else {
            ""
        };
        let request = format!("GET {target} HTTP/1.1\r\nHost: test\r\n{close}\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let response = read_response(&mut stream).await;
        lines.push(response.lines().next().unwrap_or_default().to_string());
    }
    lines
}

/// One HTTP/1.1 response with a `content-length`, as text.
async fn read_response(stream: &mut tokio::net::TcpStream) -> String {
    let mut data = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&data).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length: ")
                        .map(str::to_string)
                })
                .and_then(|n| n.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if data.len() >= end + 4 + length {
                return text;
            }
        }
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(n > 0, "the server closed the connection: {text}");
        data.extend_from_slice(&buffer[..n]);
    }
}

#[tokio::test]
async fn a_real_server_answers_bad_requests_and_keeps_the_connection() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(axum::serve(listener, app(Limits::default())).into_future());
    let good = probe_uri(THREE_KINGS, "");
    let lines = over_one_connection(
        addr,
        &[
            "/api/probe?variant=russian&fen=%ZZ",
            "/api/probe?variant=russian&fen=W%3AWz9%3ABh8",
            &good,
            "/api/health",
        ],
    )
    .await;
    assert_eq!(
        lines,
        [
            "HTTP/1.1 400 Bad Request",
            "HTTP/1.1 400 Bad Request",
            "HTTP/1.1 200 OK",
            "HTTP/1.1 200 OK"
        ]
    );
    server.abort();
}
