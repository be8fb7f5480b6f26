//! `GET /api/katas`, `GET /api/katas/{slug}`.

use crate::auth::CurrentUser;
use crate::db::{kata_versions, served};
use crate::error::{AppError, ErrorBody};
use crate::services::catalogue;
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use katas::Kata;
use serde_json::{Value, json};

/// `title` is the served one, which a statement fix may have changed.
fn summary(k: &dyn Kata, title: String) -> Value {
    let m = k.meta();
    json!({
        "slug": m.slug,
        "title": title,
        "summary": m.summary,
        "difficulty": m.difficulty,
        "kind": m.kind,
        "topics": m.topics,
    })
}

/// The listed katas (the API is anonymous: unlisted ones are for staff, on the pages).
#[utoipa::path(get, path = "/api/katas", tag = "katas",
    responses((status = 200, description = "Every listed kata: slug, title, summary, difficulty \
        (`easy`, `medium`, `hard`), kind (`cpu`, `gpu`), topics.", body = Vec<Object>)))]
pub async fn list(State(state): State<AppState>) -> Result<Json<Value>, AppError> {
    let listing = catalogue::listing(&state, false).await?;
    let listed: Vec<&'static dyn Kata> = listing.iter().map(|(k, _)| *k).collect();
    let titles = catalogue::titles(&state, &listed, katas::Lang::En).await?;
    Ok(Json(Value::Array(
        listed
            .iter()
            .zip(titles)
            .map(|(k, title)| summary(*k, title))
            .collect(),
    )))
}

/// One kata: its summary, the statement (markdown), the number of hints, the starter, entry
/// points, a sample custom input (null for GPU katas), availability and the version served.
#[utoipa::path(get, path = "/api/katas/{slug}", tag = "katas",
    params(("slug" = String, Path)),
    responses(
        (status = 200, description = "The kata.", body = Object),
        (status = 404, description = "Unknown kata, or unlisted (to anyone but instructors and \
            admins).", body = ErrorBody),
    ))]
pub async fn show(
    State(state): State<AppState>,
    who: Result<CurrentUser, AppError>,
    Path(slug): Path<String>,
) -> Result<Json<Value>, AppError> {
    // Staff preview an unlisted kata here as on its page; to anyone else it does not exist (an
    // unknown token reads as nobody: the route is public).
    let staff = who.is_ok_and(|CurrentUser(user)| user.role.is_staff());
    let (kata, availability) = catalogue::open(&state, &slug, staff).await?;
    // The version served: what the statement, starter and grading below belong to.
    let version = match served::served(&state.db, &slug).await? {
        Some(served) => kata_versions::get(&state.db, &slug, served.number).await?,
        None => None,
    };
    let statement = catalogue::statement(&state, kata, katas::Lang::En).await?;
    let mut body = summary(kata, catalogue::title(kata, &statement));
    body["statement"] = json!(statement.public_markdown());
    body["hints"] = json!(statement.hints().len());
    body["starter"] = json!(kata.package().starter);
    body["entry_points"] = json!(kata.meta().entry_points);
    // The served version's: a published version may change them.
    body["limits"] = json!(kata.meta().limits);
    // A sample input to start a custom input from; null where none is offered (GPU katas).
    body["custom_input"] = json!(kata.sample_input());
    body["availability"] = json!(availability);
    body["version"] = json!(version.map(|v| json!({
        "number": v.number,
        "content_hash": v.content_hash,
        "api_hash": v.api_hash,
        "published_at": v.published_at,
    })));
    Ok(Json(body))
}
