//! `GET`/`PUT /api/katas/{slug}/draft`: the editor's autosaved text, so work typed but not yet
//! submitted follows the learner to another device. `PUT /api/katas/{slug}/hints/{index}`:
//! records an opened hint, so it stays open after a reload.

use crate::auth::CurrentUser;
use crate::db::users::User;
use crate::db::{drafts, kata_versions};
use crate::error::{AppError, ErrorBody};
use crate::services::catalogue;
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use katas::Kata;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewDraft {
    /// At most 64 KiB, as for a submission.
    source: String,
}

/// Kata `slug` as `user` may open it: an unlisted kata is unknown to a learner here as on its
/// page, so its drafts and hints say nothing of it either.
async fn kata(state: &AppState, user: &User, slug: &str) -> Result<&'static dyn Kata, AppError> {
    Ok(catalogue::open(state, slug, user.role.is_staff()).await?.0)
}

/// Your autosaved draft of a kata (all fields null when there is none), and how the kata's API
/// changed since the version it was written for.
#[utoipa::path(get, path = "/api/katas/{slug}/draft", tag = "katas", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path)),
    responses(
        (status = 200, description = "`source`, `updated_at`, `kata_version`, `api_changed`.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody),
        (status = 404, description = "Unknown kata, or unlisted (to learners).", body = ErrorBody),
    ))]
pub async fn get(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(slug): Path<String>,
) -> Result<Json<Value>, AppError> {
    kata(&state, &user, &slug).await?;
    let draft = drafts::get(&state.db, user.id, &slug).await?;
    Ok(Json(match draft {
        Some(d) => json!({
            "source": d.source,
            "updated_at": d.updated_at,
            "kata_version": d.kata_version,
            "api_changed": kata_versions::api_changed(&state.db, &slug, d.kata_version).await?,
        }),
        None => {
            json!({ "source": null, "updated_at": null, "kata_version": null, "api_changed": null })
        }
    }))
}

/// Replaces the draft. A draft is bounded like a submission (64 KiB), so it can always be
/// submitted as it stands. No write budget: a save overwrites the one row per learner and kata.
#[utoipa::path(put, path = "/api/katas/{slug}/draft", tag = "katas", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path)),
    request_body = NewDraft,
    responses(
        (status = 200, description = "Kept: `updated_at`.", body = Object),
        (status = 400, description = "Malformed request body.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "Unknown kata, or unlisted (to learners).", body = ErrorBody),
        (status = 413, description = "Over 64 KiB.", body = ErrorBody),
    ))]
pub async fn put(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(slug): Path<String>,
    body: Result<Json<NewDraft>, JsonRejection>,
) -> Result<Json<Value>, AppError> {
    kata(&state, &user, &slug).await?;
    let new = super::json_body(body, "request")?;
    if new.source.len() > graders::MAX_SOURCE_BYTES {
        return Err(AppError::TooLarge(format!(
            "the draft is {} bytes; the limit is {} (64 KiB), as for a submission",
            new.source.len(),
            graders::MAX_SOURCE_BYTES
        )));
    }
    let at = drafts::put(&state.db, user.id, &slug, &new.source).await?;
    Ok(Json(json!({ "updated_at": at })))
}

/// No write budget: at most one row per hint of a known kata, and opening it again adds none.
#[utoipa::path(put, path = "/api/katas/{slug}/hints/{index}", tag = "katas", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path), ("index" = u32, Path, description = "From 0.")),
    responses(
        (status = 204, description = "Recorded as opened."),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "Unknown kata, unlisted (to learners), or no such hint.", body = ErrorBody),
    ))]
pub async fn open_hint(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((slug, index)): Path<(String, u32)>,
) -> Result<StatusCode, AppError> {
    let hints = catalogue::hint_count(&state, kata(&state, &user, &slug).await?).await?;
    if index as usize >= hints {
        return Err(AppError::NotFound(format!(
            "`{slug}` has {hints} hints, numbered from 0; there is no hint {index}"
        )));
    }
    drafts::open_hint(&state.db, user.id, &slug, index).await?;
    Ok(StatusCode::NO_CONTENT)
}
