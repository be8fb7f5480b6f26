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
use axum::{Extension, Router};
use std::sync::Arc;
use utoipa::OpenApi as _;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt as _};
use utoipa_axum::routes;

/// The JSON API's routes; [`crate::app::router`] adds the pages and the layers around both.
/// The OpenAPI document is split off the same registrations and served by [`openapi::spec`].
pub fn router() -> Router<AppState> {
    let (router, doc) = api().split_for_parts();
    router.layer(Extension(Arc::new(doc)))
}

/// Every route, each registered with its documented operation (`routes!` reads the handler's
/// `#[utoipa::path]` for both the method and the path).
fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(health))
        .routes(routes!(openapi::spec))
        .routes(routes!(katas::list))
        .routes(routes!(katas::show))
        .routes(routes!(drafts::get, drafts::put))
        .routes(routes!(drafts::open_hint))
        .routes(routes!(submissions::create_custom))
        .routes(routes!(kata_versions::list, kata_versions::publish).layer(
            axum::extract::DefaultBodyLimit::max(crate::services::publishing::upload_limit()),
        ))
        .routes(routes!(kata_versions::make_live))
        .routes(routes!(kata_versions::upload))
        .routes(routes!(kata_versions::start_rejudge))
        .routes(routes!(kata_versions::rejudge))
        .routes(routes!(drills::list))
        .routes(routes!(drills::show))
        .routes(routes!(drills::start))
        .routes(routes!(drills::show_attempt))
        .routes(routes!(drills::answer))
        .routes(routes!(drills::review_queue))
        .routes(routes!(interviews::create))
        .routes(routes!(interviews::show))
        .routes(routes!(interviews::finish))
        .routes(routes!(interviews::put_draft))
        .routes(routes!(submissions::create))
        .routes(routes!(submissions::show))
        .routes(routes!(submissions::events))
        .routes(routes!(submissions::cancel))
        .routes(routes!(worker_api::claim))
        .routes(routes!(worker_api::heartbeat))
        .routes(routes!(worker_api::verdict))
        .routes(routes!(worker_api::hand_over))
        .routes(routes!(worker_api::measured))
        .routes(routes!(worker_api::result))
        .routes(routes!(worker_api::release))
        .routes(routes!(worker_api::package))
        .routes(routes!(worker_api::claim_check))
        .routes(routes!(worker_api::check_archive))
        .routes(routes!(worker_api::check_heartbeat))
        .routes(routes!(worker_api::check_outcome))
        .routes(routes!(worker_api::awaiting_examples))
        .routes(routes!(worker_api::store_examples))
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/api/health", tag = "meta",
    responses((status = 200, description = "`ok`", body = String, content_type = "text/plain")))]
async fn health() -> &'static str {
    "ok"
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
