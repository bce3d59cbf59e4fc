//! The router: the page, the API endpoints, and the layers that bound what a
//! request may cost. Probes run on blocking threads, at most
//! [`Limits::workers`] at once, each with a deadline for its rule searches.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{middleware, Json, Router};
use damka_core::{International, Russian, VariantKind};
use damka_probe::limits::presets::NAMES;
use damka_probe::Position;
use tokio::sync::Semaphore;
use tower::limit::GlobalConcurrencyLimitLayer;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;

use crate::assets;
use crate::board::{board, BoardJson};
use crate::catalog::Catalog;
use crate::counters::{counters, CountersJson};
use crate::error::ApiError;
use crate::json::{MovesJson, ProbeJson};
use crate::limits::{limit_query, Budget, Limits};
use crate::params::Params;
use crate::probe::{answer, ProbeRequest, PARAMS};

/// What every handler shares.
struct AppState {
    catalog: Catalog,
    limits: Limits,
    /// One permit per worker.
    workers: Arc<Semaphore>,
}

/// Sets its flag when dropped. The server drops a request's future when its
/// client goes away, so the searches the request started stop then.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl AppState {
    /// Runs `job` on a blocking thread once a worker is free, with the budget
    /// of its rule searches: the time limit, and a flag set when the request is
    /// dropped. 503 when no worker frees up within the queue timeout.
    async fn blocking<T: Send + 'static>(
        self: Arc<AppState>,
        job: impl FnOnce(&AppState, Budget) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let wait = self.limits.queue_timeout;
        let permit = tokio::time::timeout(wait, self.workers.clone().acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    format!(
                        "the server is busy: no worker was free within {} s; try again",
                        wait.as_secs()
                    ),
                )
            })?;
        let cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let budget = Budget {
            deadline: Instant::now() + self.limits.time_limit,
            cancel,
        };
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            job(&self, budget)
        })
        .await
        .map_err(|_| internal())?
    }
}

/// The 500 of a request whose work failed unexpectedly.
fn internal() -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "the query failed unexpectedly",
    )
}

/// The server's routes and layers over the tables of `catalog`.
pub fn router(catalog: Catalog, limits: Limits) -> Router {
    let state = Arc::new(AppState {
        catalog,
        limits,
        workers: Arc::new(Semaphore::new(limits.workers.max(1))),
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/style.css", get(assets::style))
        .route("/app.js", get(assets::script))
        .route("/api/health", get(health))
        .route("/api/board", get(board_route))
        .route("/api/counters", get(counters_route))
        .route("/api/moves", get(moves))
        .route("/api/probe", get(probe))
        .fallback(not_found)
        .with_state(state)
        .layer(middleware::from_fn_with_state(
            limits.max_query_bytes,
            limit_query,
        ))
        .layer(RequestBodyLimitLayer::new(limits.max_body_bytes))
        .layer(GlobalConcurrencyLimitLayer::new(limits.max_requests))
        .layer(CatchPanicLayer::custom(|_| internal().into_response()))
}

/// `/api/health`: the variants, their piece counts and rule sets, the limits.
async fn health(State(state): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "status": "ok",
        "variants": state.catalog.summaries(),
        "presets": NAMES,
        "limits": state.limits,
    }))
}

/// `/api/board?variant=V[&fen=F]`: the board and the position's pieces.
async fn board_route(RawQuery(query): RawQuery) -> Result<Json<BoardJson>, ApiError> {
    let params = Params::parse(query.as_deref(), &["variant", "fen"])?;
    let fen = params.get("fen");
    Ok(Json(match params.variant()? {
        VariantKind::Russian => board::<Russian>(fen)?,
        VariantKind::International => board::<International>(fen)?,
    }))
}

/// `/api/counters?variant=V&rules=SET&fen=F`: the set's counters in force.
async fn counters_route(RawQuery(query): RawQuery) -> Result<Json<CountersJson>, ApiError> {
    let params = Params::parse(query.as_deref(), &["variant", "rules", "fen"])?;
    let (rules, fen) = (params.required("rules")?, params.required("fen")?);
    Ok(Json(match params.variant()? {
        VariantKind::Russian => counters::<Russian>(rules, fen)?,
        VariantKind::International => counters::<International>(rules, fen)?,
    }))
}

/// `/api/moves?variant=V&fen=F`: the legal moves, as `damka moves --json`.
async fn moves(RawQuery(query): RawQuery) -> Result<Json<MovesJson>, ApiError> {
    let params = Params::parse(query.as_deref(), &["variant", "fen"])?;
    let fen = params.required("fen")?;
    Ok(Json(match params.variant()? {
        VariantKind::Russian => MovesJson::of(fen, &fen.parse::<Position<Russian>>()?),
        VariantKind::International => MovesJson::of(fen, &fen.parse::<Position<International>>()?),
    }))
}

/// `/api/probe?variant=V&fen=F[&rules=SET[&played=R1=9]][&pv=true]`: as `damka
/// probe --json`, with the move list.
async fn probe(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
) -> Result<Json<ProbeJson>, ApiError> {
    let params = Params::parse(query.as_deref(), &PARAMS)?;
    let request = ProbeRequest::from_params(&params)?;
    let json = state
        .blocking(move |state, budget| match request.variant {
            VariantKind::Russian => answer(state.catalog.russian.as_ref(), &request, budget),
            VariantKind::International => {
                answer(state.catalog.international.as_ref(), &request, budget)
            }
        })
        .await?;
    Ok(Json(json))
}

/// Any other path: 404, as JSON.
async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such page")
}
