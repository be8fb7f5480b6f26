//! The HTTP surface: the JSON API (one module per group of routes) and the pages
//! ([`crate::pages`]), behind the security headers every response carries.

mod drafts;
mod katas;
pub mod openapi;
pub mod submissions;
pub mod worker_api;

use crate::auth;
use crate::error::AppError;
use crate::pages;
use crate::state::AppState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware;
use axum::routing::{get, post, put};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

/// Largest request body accepted (a 64 KiB source plus JSON escaping).
pub const BODY_LIMIT: usize = 512 << 10;

/// Scripts and styles only from our own files (no inline script anywhere), no framing, no
/// plugins, forms and fetches to ourselves only.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/health", get(|| async { "ok" }))
        .route("/api/openapi.json", get(openapi::spec))
        .route("/api/katas", get(katas::list))
        .route("/api/katas/{slug}", get(katas::show))
        .route("/api/katas/{slug}/draft", get(drafts::get).put(drafts::put))
        .route("/api/katas/{slug}/hints/{index}", put(drafts::open_hint))
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
        .route("/api/worker/jobs/{id}/result", post(worker_api::result))
        .route("/api/worker/jobs/{id}/release", post(worker_api::release));
    let header = |name, value: &'static str| {
        SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
    };
    let request_timeout = state.config.edge.request_timeout;
    api.merge(pages::router())
        .fallback(|| async { AppError::NotFound("nothing here: check the address".into()) })
        .layer(middleware::from_fn_with_state(
            state.clone(),
            pages::html_errors,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::csrf_cookie,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // A request body trickled in byte by byte cannot hold a handler for longer than this.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(header(CONTENT_SECURITY_POLICY, CSP))
        .layer(header(X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(X_FRAME_OPTIONS, "DENY"))
        .layer(header(REFERRER_POLICY, "same-origin"))
        .with_state(state)
}
