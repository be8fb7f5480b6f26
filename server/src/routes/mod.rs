//! The JSON API, one module per group of routes. It knows nothing of the pages; both are
//! composed in [`crate::app::router`] and share rules through [`crate::services`].

mod drafts;
pub mod drills;
pub mod interviews;
mod kata_versions;
mod katas;
pub mod openapi;
pub mod submissions;
pub mod worker_api;

use crate::state::AppState;
use axum::Router;
use axum::routing::{get, post, put};

/// The JSON API's routes; [`crate::app::router`] adds the pages and the layers around both.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/health", get(|| async { "ok" }))
        .route("/api/openapi.json", get(openapi::spec))
        .route("/api/katas", get(katas::list))
        .route("/api/katas/{slug}", get(katas::show))
        .route("/api/katas/{slug}/draft", get(drafts::get).put(drafts::put))
        .route("/api/katas/{slug}/hints/{index}", put(drafts::open_hint))
        .route("/api/katas/{slug}/custom", post(submissions::create_custom))
        .route(
            "/api/katas/{slug}/versions",
            get(kata_versions::list).post(kata_versions::publish).layer(
                axum::extract::DefaultBodyLimit::max(
                    crate::services::publishing::limits().archive_bytes,
                ),
            ),
        )
        .route("/api/katas/{slug}/live", post(kata_versions::make_live))
        .route("/api/drills", get(drills::list))
        .route("/api/drills/{set}", get(drills::show))
        .route("/api/drills/{set}/{item}/attempts", post(drills::start))
        .route("/api/drill-attempts/{id}", get(drills::show_attempt))
        .route("/api/drill-attempts/{id}/answer", post(drills::answer))
        .route("/api/review", get(drills::review_queue))
        .route("/api/interviews", post(interviews::create))
        .route("/api/interviews/{id}", get(interviews::show))
        .route("/api/interviews/{id}/finish", post(interviews::finish))
        .route("/api/interviews/{id}/draft", put(interviews::put_draft))
        .route("/api/submissions", post(submissions::create))
        .route("/api/submissions/{id}", get(submissions::show))
        .route("/api/submissions/{id}/events", get(submissions::events))
        .route("/api/submissions/{id}/cancel", post(submissions::cancel))
        .route("/api/worker/claim", post(worker_api::claim))
        .route(
            "/api/worker/jobs/{id}/heartbeat",
            post(worker_api::heartbeat),
        )
        .route("/api/worker/jobs/{id}/verdict", post(worker_api::verdict))
        .route(
            "/api/worker/jobs/{id}/hand-over",
            post(worker_api::hand_over),
        )
        .route("/api/worker/jobs/{id}/measured", post(worker_api::measured))
        .route("/api/worker/jobs/{id}/result", post(worker_api::result))
        .route("/api/worker/jobs/{id}/release", post(worker_api::release))
}

/// The JSON body a route asked for, or why not: a body over the route's limit is 413, anything
/// else unreadable is 400 naming what was expected (`what`: "request", "worker hello").
pub(crate) fn json_body<T>(
    body: Result<axum::Json<T>, axum::extract::rejection::JsonRejection>,
    what: &str,
) -> Result<T, crate::error::AppError> {
    use crate::error::AppError;
    use axum::extract::rejection::JsonRejection;
    body.map(|axum::Json(value)| value).map_err(|e| match e {
        JsonRejection::BytesRejection(_) => {
            AppError::TooLarge("the request body is too large".into())
        }
        other => AppError::BadRequest(format!("malformed {what}: {}", other.body_text())),
    })
}
