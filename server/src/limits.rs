//! What a server takes on: how many probes run at once, how long one may search,
//! how long a request may wait for its turn, and how large a request may be.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::ApiError;

/// The limits of a server.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Limits {
    /// Probes computed at once, each on a thread of its own.
    pub workers: usize,
    /// How long the rule searches of one probe may run before they give up and
    /// the values they were looking for are unknown ("time limit").
    #[serde(serialize_with = "millis")]
    pub time_limit: Duration,
    /// How long a probe may wait for a free worker before the server answers
    /// 503 (busy).
    #[serde(serialize_with = "millis")]
    pub queue_timeout: Duration,
    /// Requests handled at once; more wait for their turn.
    pub max_requests: usize,
    /// The longest query string accepted, in bytes (414 beyond).
    pub max_query_bytes: usize,
    /// The largest request body accepted, in bytes (413 beyond); the API reads
    /// none.
    pub max_body_bytes: usize,
}

impl Default for Limits {
    /// One worker per core, 10 s per probe, 30 s in the queue, 256 requests at
    /// once, 2 KiB of query, 1 KiB of body.
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            workers: cores,
            time_limit: Duration::from_secs(10),
            queue_timeout: Duration::from_secs(30),
            max_requests: 256,
            max_query_bytes: 2048,
            max_body_bytes: 1024,
        }
    }
}

/// What one request's rule searches may spend: they give up at `deadline`, or
/// as soon as `cancel` is set (the request was dropped).
#[derive(Debug, Clone)]
pub struct Budget {
    /// When the searches give up.
    pub deadline: Instant,
    /// Set when the request's client has gone.
    pub cancel: Arc<AtomicBool>,
}

/// A duration as whole milliseconds.
fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis().try_into().unwrap_or(u64::MAX))
}

/// Refuses a request whose query string is longer than `max` bytes, with 414.
pub async fn limit_query(State(max): State<usize>, request: Request, next: Next) -> Response {
    let length = request.uri().query().map_or(0, str::len);
    if length > max {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "query",
            format!("the query string has {length} bytes; at most {max} are accepted"),
        )
        .into_response();
    }
    next.run(request).await
}
