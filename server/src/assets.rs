//! The page: HTML, CSS and JavaScript embedded in the program, so the server
//! needs no file and the page no network beyond the server itself.

use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

/// Only the server's own files and API: no CDN, no inline script.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/// `body` as a response of `content_type`, with the page's security policy.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (CONTENT_TYPE, content_type),
            (CACHE_CONTROL, "no-cache"),
            (CONTENT_SECURITY_POLICY, POLICY),
        ],
        body,
    )
        .into_response()
}

/// `/`: the page.
pub async fn index() -> Response {
    asset(
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    )
}

/// `/style.css`.
pub async fn style() -> Response {
    asset(
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    )
}

/// `/app.js`: the board, the forms and the calls to the API.
pub async fn script() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    )
}
