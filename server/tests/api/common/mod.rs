//! Shared by the server's tests: one set of Russian tables built once per test
//! binary (every game-theoretic table up to 3 pieces and three kings against
//! one, with their rule tables under `russian`, as `scripts/quickstart.sh`
//! builds them), and requests sent to a router without a network.
#![allow(dead_code)]

use std::path::Path;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use damka_core::{Russian, Slice};
use damka_gen::{build_rules, BuildOptions, RuleBuildOptions};
use damka_probe::limits::RuleSet;
use damka_server::{router, Catalog, Limits};
use tempfile::TempDir;
use tower::ServiceExt;

/// Three kings against a lone king off the main road: R1 in force, R3 not.
pub const THREE_KINGS: &str = "W:WKa1,Kc1,Ke1:BKh2";

/// The tables, built on first use and kept until the test binary ends.
pub fn tables() -> &'static Path {
    static TABLES: OnceLock<TempDir> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let dir = tempfile::Builder::new()
                .prefix("damka-server-")
                .tempdir()
                .unwrap();
            build(dir.path());
            dir
        })
        .path()
}

/// Builds the tables and the `russian` rule tables up to 3 pieces, then those
/// of three kings against one.
fn build(root: &Path) {
    let tables = BuildOptions {
        root: root.to_path_buf(),
        max_pieces: 3,
        only: None,
        with_dependencies: false,
        memory: None,
        progress: None,
    };
    let set = RuleSet::preset("russian").unwrap();
    let options = RuleBuildOptions {
        tables: tables.clone(),
        set: set.clone(),
    };
    build_rules::<Russian>(&options, &mut |_| {}).unwrap();
    let slice: Slice = "0M3K-0M1K".parse().unwrap();
    let only = RuleBuildOptions {
        tables: BuildOptions {
            max_pieces: 4,
            only: Some(slice),
            with_dependencies: false,
            ..tables
        },
        set,
    };
    build_rules::<Russian>(&only, &mut |_| {}).unwrap();
}

/// A router over the shared tables with `limits`.
pub fn app(limits: Limits) -> Router {
    router(Catalog::open(tables()).unwrap(), limits)
}

/// The status and the JSON body of `GET uri` (`Value::Null` for a body that is
/// not JSON).
pub async fn get(app: &Router, uri: &str) -> (StatusCode, serde_json::Value) {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// The status and JSON body of `request`.
pub async fn send(app: &Router, request: Request<Body>) -> (StatusCode, serde_json::Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .unwrap();
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, json)
}

/// `text` with every character a query value needs escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// `/api/probe` for the Russian `fen`, with `extra` parameters (`&rules=...`).
pub fn probe_uri(fen: &str, extra: &str) -> String {
    format!("/api/probe?variant=russian&fen={}{extra}", escape(fen))
}
