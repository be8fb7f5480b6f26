//! Interview mode: a timed mock interview — one kata picked to suit the learner's history and
//! drill items on the same topics, difficulty hidden, hints at a cost, answers locked when the
//! clock runs out, and a report kept in the learner's history.
//! API: `POST /api/interviews`, `GET /api/interviews/{id}`, `POST /api/interviews/{id}/finish`.

use crate::auth::CurrentUser;
use crate::db::drills as attempts;
use crate::db::interviews::{self, Interview};
use crate::db::now_ms;
use crate::domain::InterviewId;
use crate::error::{AppError, ErrorBody};
use crate::services::catalogue;
use crate::services::interviews::{
    DEFAULT_MINUTES, Report, finish_interview, own_interview, start_interview,
};
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewInterview {
    /// The clock, 1 to 180 minutes; 45 when absent.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 180)]
    minutes: Option<u32>,
}

/// Starts a timed mock interview: one kata picked for your history (difficulty hidden) and 5
/// drill attempts on the same topics. Drill results are withheld until the interview ends;
/// answers lock at the end.
#[utoipa::path(post, path = "/api/interviews", tag = "interviews", security(("bearer" = []), ("session" = [])),
    request_body = NewInterview,
    responses(
        (status = 201, description = "The session: id, kata, started_ms, ends_ms, items.", body = Object),
        (status = 400, description = "Minutes out of range or a malformed body.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 429, description = "Too many interviews started by this user, or too many \
            unanswered drill attempts to hold its 5 items. Nothing is stored.", body = ErrorBody),
    ))]
pub async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<NewInterview>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let Json(new) =
        body.map_err(|e| AppError::BadRequest(format!("malformed request: {}", e.body_text())))?;
    let id = start_interview(&state, user.id, new.minutes.unwrap_or(DEFAULT_MINUTES)).await?;
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(session_json(&state, &i, None).await?),
    ))
}

/// The session as the API gives it. A report names its kata by the title served now (English,
/// as the rest of the API), as the report page does: a statement fix since renames it there too.
async fn session_json(
    state: &AppState,
    i: &Interview,
    report: Option<&Report>,
) -> Result<Value, AppError> {
    let report = match report {
        Some(r) => Some(Report {
            kata_title: catalogue::served_title(state, &r.kata, katas::Lang::En)
                .await?
                .unwrap_or_else(|| r.kata_title.clone()),
            ..r.clone()
        }),
        None => None,
    };
    let items: Vec<Value> = attempts::of_interview(&state.db, i.id)
        .await?
        .iter()
        .map(
            |a| json!({ "attempt": a.id, "set": a.drill_set, "answered": a.answered_at.is_some() }),
        )
        .collect();
    Ok(json!({
        "id": i.id,
        "kata": i.kata,
        "started_ms": i.started_at,
        "ends_ms": i.ends_at,
        "finished": i.report.is_some(),
        "hints_used": i.hints_used,
        "items": items,
        "report": report,
    }))
}

/// One of your interviews; once over (finished, or the clock ran out), with its kept report.
#[utoipa::path(get, path = "/api/interviews/{id}", tag = "interviews", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, description = "The session.", body = Object), (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 404, description = "No such interview of yours.", body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<InterviewId>,
) -> Result<Json<Value>, AppError> {
    let (i, report) = own_interview(&state.db, id, user.id).await?;
    Ok(Json(session_json(&state, &i, report.as_ref()).await?))
}

/// Ends the interview now and keeps its report (the first report stands).
#[utoipa::path(post, path = "/api/interviews/{id}/finish", tag = "interviews", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "The session with its report.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody), (status = 404, description = "No such interview of yours.", body = ErrorBody),
    ))]
pub async fn finish(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<InterviewId>,
) -> Result<Json<Value>, AppError> {
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    let report = finish_interview(&state.db, &i).await?;
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    Ok(Json(session_json(&state, &i, Some(&report)).await?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = InterviewDraft)]
#[serde(deny_unknown_fields)]
pub struct NewDraft {
    source: String,
}

/// Keeps the interview editor's code on the server, so a reload or a drill answered in between
/// never brings back the starter. No write budget: it overwrites the interview's one draft.
#[utoipa::path(put, path = "/api/interviews/{id}/draft", tag = "interviews", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    request_body = NewDraft,
    responses(
        (status = 204, description = "Kept."),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody), (status = 404, description = "No such interview of yours.", body = ErrorBody),
        (status = 409, description = "The interview is over.", body = ErrorBody),
        (status = 413, description = "Over 64 KiB.", body = ErrorBody),
    ))]
pub async fn put_draft(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<InterviewId>,
    body: Result<Json<NewDraft>, JsonRejection>,
) -> Result<StatusCode, AppError> {
    let new = super::json_body(body, "request")?;
    own_interview(&state.db, id, user.id).await?;
    if new.source.len() > graders::MAX_SOURCE_BYTES {
        return Err(AppError::TooLarge(format!(
            "the draft is {} bytes; the limit is {} (64 KiB), as for a submission",
            new.source.len(),
            graders::MAX_SOURCE_BYTES
        )));
    }
    if !interviews::save_draft(&state.db, id, user.id, &new.source, now_ms()).await? {
        return Err(crate::services::drills::interview_over());
    }
    Ok(StatusCode::NO_CONTENT)
}
