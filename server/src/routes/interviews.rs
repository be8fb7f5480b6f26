//! Interview mode: a timed mock interview — one kata picked to suit the learner's history and
//! drill items on the same topics, difficulty hidden, hints at a cost, answers locked when the
//! clock runs out, and a report kept in the learner's history.
//! API: `POST /api/interviews`, `GET /api/interviews/{id}`, `POST /api/interviews/{id}/finish`.

use crate::auth::CurrentUser;
use crate::db::drills as attempts;
use crate::db::interviews::{self, Interview};
use crate::db::{Db, now_ms};
use crate::error::AppError;
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

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NewInterview {
    #[serde(default)]
    minutes: Option<u32>,
}

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
        Json(session_json(&state.db, &i, None).await?),
    ))
}

async fn session_json(db: &Db, i: &Interview, report: Option<&Report>) -> Result<Value, AppError> {
    let items: Vec<Value> = attempts::of_interview(db, i.id)
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

pub async fn show(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Value>, AppError> {
    let (i, report) = own_interview(&state.db, id, user.id).await?;
    Ok(Json(session_json(&state.db, &i, report.as_ref()).await?))
}

pub async fn finish(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Value>, AppError> {
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    let report = finish_interview(&state.db, &i).await?;
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    Ok(Json(session_json(&state.db, &i, Some(&report)).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewDraft {
    source: String,
}

/// Keeps the interview editor's code on the server, so a reload or a drill answered in between
/// never brings back the starter. No write budget: it overwrites the interview's one draft.
pub async fn put_draft(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
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
