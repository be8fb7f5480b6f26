//! The drills API: `GET /api/drills`, `GET /api/drills/{set}`,
//! `POST /api/drills/{set}/{item}/attempts`, `GET /api/drill-attempts/{id}`,
//! `POST /api/drill-attempts/{id}/answer`, `GET /api/review`.
//!
//! An attempt's key is stored when it starts and appears in no response until the learner's
//! answer is stored; the first answer stands.

use crate::auth::CurrentUser;
use crate::db::drills::Attempt;
use crate::db::now_ms;
use crate::db::review::{self};
use crate::error::AppError;
use crate::services::drills::{
    answer_attempt, catalogue, kind_of, not_found, own_attempt, parse, result_withheld,
    start_attempt, sync_solved_katas,
};
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use katas::drills::{DrillSet, Response};
use serde::Deserialize;
use serde_json::{Value, json};

fn set_summary(s: &DrillSet) -> Value {
    json!({
        "slug": s.slug,
        "title": s.title,
        "question": s.question,
        "items": s.items.len(),
    })
}

pub async fn list() -> Json<Value> {
    Json(Value::Array(
        catalogue().sets().iter().map(set_summary).collect(),
    ))
}

/// A set and its items, without anything that answers them.
pub async fn show(Path(set): Path<String>) -> Result<Json<Value>, AppError> {
    let served = catalogue();
    let s = served.set(&set).map_err(not_found)?;
    let mut body = set_summary(s);
    body["items"] = Value::Array(
        s.items
            .iter()
            .map(|i| json!({ "id": i.id, "kind": kind_of(&i.answer), "tags": i.tags, "katas": i.katas }))
            .collect(),
    );
    Ok(Json(body))
}

pub async fn start(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path((set, item)): Path<(String, String)>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let (id, shown) = start_attempt(&state, user.id, &set, &item).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "presented": shown })),
    ))
}

/// An attempt as the API shows it: the result (with the explanation) only once answered, and
/// for an interview's attempt only once the interview is over.
pub fn attempt_json(a: &Attempt, withheld: bool) -> Result<Value, AppError> {
    let presented: Value = parse(&a.presented)?;
    let result: Option<Value> = if withheld {
        None
    } else {
        a.result.as_deref().map(parse).transpose()?
    };
    Ok(json!({
        "id": a.id,
        "set": a.drill_set,
        "item": a.item,
        "presented": presented,
        "answered": a.answered_at.is_some(),
        "result": result,
    }))
}

pub async fn show_attempt(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Value>, AppError> {
    let a = own_attempt(&state.db, id, user.id).await?;
    let withheld = result_withheld(&state.db, &a).await?;
    Ok(Json(attempt_json(&a, withheld)?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    parts: Vec<String>,
}

pub async fn answer(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<Json<AnswerBody>, JsonRejection>,
) -> Result<Json<Value>, AppError> {
    let body = super::json_body(body, "request")?;
    let (graded, due) =
        answer_attempt(&state.db, user.id, id, &Response { parts: body.parts }).await?;
    let a = own_attempt(&state.db, id, user.id).await?;
    if result_withheld(&state.db, &a).await? {
        return Ok(Json(
            json!({ "id": id, "recorded": true, "interview": a.interview_id }),
        ));
    }
    Ok(Json(
        json!({ "id": id, "result": graded, "next_review_ms": due }),
    ))
}

pub async fn review_queue(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>, AppError> {
    sync_solved_katas(&state.db, user.id).await?;
    let now = now_ms();
    let due = review::due(&state.db, user.id, review::end_of_day(now)).await?;
    let streak = review::streak(&state.db, user.id, now).await?;
    Ok(Json(json!({
        "due": due.iter().map(|d| json!({ "kind": d.kind, "subject": d.subject, "due_ms": d.due, "reps": d.reps, "lapses": d.lapses })).collect::<Vec<_>>(),
        "streak": { "current": streak.current, "best": streak.best },
    })))
}
