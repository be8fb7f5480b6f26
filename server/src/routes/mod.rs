//! The HTTP surface: one module per group of routes.

mod katas;
pub mod openapi;
mod submissions;
pub mod worker_api;

use crate::state::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

/// Largest request body accepted (a 64 KiB source plus JSON escaping).
pub const BODY_LIMIT: usize = 512 << 10;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/health", get(|| async { "ok" }))
        .route("/api/openapi.json", get(openapi::spec))
        .route("/api/katas", get(katas::list))
        .route("/api/katas/{slug}", get(katas::show))
        .route("/api/submissions", post(submissions::create))
        .route("/api/submissions/{id}", get(submissions::show))
        .route("/api/submissions/{id}/events", get(submissions::events))
        .route("/api/worker/claim", post(worker_api::claim))
        .route(
            "/api/worker/jobs/{id}/heartbeat",
            post(worker_api::heartbeat),
        )
        .route("/api/worker/jobs/{id}/result", post(worker_api::result))
        .route("/api/worker/jobs/{id}/release", post(worker_api::release))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}
