//! The API's errors, an HTTP status and a JSON body naming the problem,
//! `{"error": "bad FEN: ...", "kind": "fen"}`; and why a server could not
//! start.

use std::path::PathBuf;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use damka_core::FenError;
use damka_probe::limits::{CountersError, RulesError};
use damka_probe::ProbeError;

/// A request the server answers with an error.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status: 400 for bad input, 404 for what is not there, 500 for a
    /// table that cannot be read, 503 when the server is too busy.
    pub status: StatusCode,
    /// A short machine-readable name of the problem (`fen`, `missing_table`, ...).
    pub kind: &'static str,
    /// The message, for a person.
    pub message: String,
}

impl ApiError {
    /// An error of `status` and `kind` with `message`.
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
        }
    }

    /// A 400 Bad Request of `kind`.
    pub fn bad(kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, kind, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"error": self.message, "kind": self.kind});
        (self.status, Json(body)).into_response()
    }
}

impl From<ProbeError> for ApiError {
    /// Bad input is 400, a table that is not there 404, a table that cannot be
    /// read 500.
    fn from(error: ProbeError) -> ApiError {
        let message = error.to_string();
        let (status, kind) = match error {
            ProbeError::Fen(FenError::Position(_)) => {
                (StatusCode::BAD_REQUEST, "impossible_position")
            }
            ProbeError::Fen(_) => (StatusCode::BAD_REQUEST, "fen"),
            ProbeError::InvalidPosition(_) => (StatusCode::BAD_REQUEST, "impossible_position"),
            ProbeError::NotCovered { .. } => (StatusCode::BAD_REQUEST, "too_many_pieces"),
            ProbeError::NotInForce { .. } => (StatusCode::BAD_REQUEST, "not_in_force"),
            ProbeError::NoTables { .. } => (StatusCode::NOT_FOUND, "no_tables"),
            ProbeError::MissingTable { .. } => (StatusCode::NOT_FOUND, "missing_table"),
            ProbeError::CorruptTable { .. }
            | ProbeError::CorruptBlock { .. }
            | ProbeError::Version { .. }
            | ProbeError::WrongVariant { .. }
            | ProbeError::RulesMismatch { .. } => {
                (StatusCode::INTERNAL_SERVER_ERROR, "corrupt_table")
            }
            _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        ApiError::new(status, kind, message)
    }
}

impl From<FenError> for ApiError {
    fn from(error: FenError) -> ApiError {
        ApiError::from(ProbeError::Fen(error))
    }
}

impl From<RulesError> for ApiError {
    fn from(error: RulesError) -> ApiError {
        ApiError::bad("rules", error.to_string())
    }
}

impl From<CountersError> for ApiError {
    fn from(error: CountersError) -> ApiError {
        ApiError::bad("played", format!("bad played: {error}"))
    }
}

/// Why a server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Neither variant has a table in the directory.
    #[error(
        "no tables in {} (expected {}/russian/ or {}/international/; \
         `bash scripts/quickstart.sh` builds the Russian ones)",
        .0.display(), .0.display(), .0.display()
    )]
    NoTables(PathBuf),
    /// A table directory that could not be read.
    #[error(transparent)]
    Probe(#[from] damka_probe::ProbeError),
    /// The address could not be bound, or the connection loop failed.
    #[error("cannot serve: {0}")]
    Io(#[from] std::io::Error),
}
