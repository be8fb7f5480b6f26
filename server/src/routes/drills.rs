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
use crate::error::{AppError, ErrorBody};
use crate::services::drills::{
    answer_attempt, catalogue, kind_of, not_found, own_attempt, parse, result_withheld,
    start_attempt, sync_solved_katas,
};
use crate::state::AppState;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use katas_drills::{DrillSet, Response};
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

/// The drill sets, one per concept question of the bank, in order.
#[utoipa::path(get, path = "/api/drills", tag = "drills",
    responses((status = 200, description = "Every set: `slug`, `title` and `question` (each \
        `{en, zh}`), `items` (how many).", body = Vec<Object>)))]
pub async fn list() -> Json<Value> {
    Json(Value::Array(
        catalogue().sets().iter().map(set_summary).collect(),
    ))
}

/// A set and its items (id, answer kind, tags, katas), without anything that answers them.
#[utoipa::path(get, path = "/api/drills/{set}", tag = "drills",
    params(("set" = String, Path)),
    responses(
        (status = 200, description = "The set.", body = Object),
        (status = 404, description = "Unknown set.", body = ErrorBody),
    ))]
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

/// Starts an attempt: parameters drawn and options shuffled with a secret seed. The answer key
/// stays on the server.
#[utoipa::path(post, path = "/api/drills/{set}/{item}/attempts", tag = "drills", security(("bearer" = []), ("session" = [])),
    params(("set" = String, Path), ("item" = String, Path)),
    responses(
        (status = 201, description = "The attempt: `id`, `presented` (the prompt with this \
            attempt's parameters, and `body` by its `kind`: numeric, choice, ordering, \
            matching, predict).", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "Unknown set or item.", body = ErrorBody),
        (status = 429, description = "Too many attempts started by this user, or 100 \
            unanswered already: answer some first. Nothing is stored.", body = ErrorBody),
    ))]
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

/// One of your attempts: what was shown, and once answered, the result with the explanation.
#[utoipa::path(get, path = "/api/drill-attempts/{id}", tag = "drills", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "The attempt.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody),
        (status = 404, description = "No such attempt of yours.", body = ErrorBody),
    ))]
pub async fn show_attempt(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Value>, AppError> {
    let a = own_attempt(&state.db, id, user.id).await?;
    let withheld = result_withheld(&state.db, &a).await?;
    Ok(Json(attempt_json(&a, withheld)?))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    /// numeric: [the number]; choice: the picked labels; ordering: every label in order;
    /// matching: one right-hand label per left entry, in order; predict: one text per part.
    parts: Vec<String>,
}

/// Commits an answer; graded on the server. The first answer stands.
#[utoipa::path(post, path = "/api/drill-attempts/{id}/answer", tag = "drills", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    request_body = AnswerBody,
    responses(
        (status = 200, description = "`id`, `result` (score 0–1, correct, per-part feedback, \
            explanation) and `next_review_ms`; inside an interview that is not over, only \
            `recorded`.", body = Object),
        (status = 400, description = "An answer that cannot be graded (wrong number of parts, \
            unknown label, not a number, over the size bounds); the attempt stays open.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "No such attempt of yours.", body = ErrorBody),
        (status = 409, description = "Already answered, or the attempt's interview is over.", body = ErrorBody),
    ))]
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

/// Your review queue: drill items and solved katas due by the end of today (UTC), scheduled
/// by FSRS; and your daily streak.
#[utoipa::path(get, path = "/api/review", tag = "drills", security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "`due` cards and the `streak`.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody),
    ))]
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
