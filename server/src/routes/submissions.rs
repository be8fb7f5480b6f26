//! `POST /api/submissions`, `GET /api/submissions/{id}`, `GET /api/submissions/{id}/events`.

use crate::auth::CurrentUser;
use crate::db::submissions::{self, State, Submission};
use crate::db::{kata_versions, queue_state};
use crate::domain::SubmissionId;
use crate::error::{AppError, ErrorBody};
use crate::services::submissions::{cancel_own, enqueue, enqueue_custom, visible};
use crate::state::AppState;
use crate::stream_limit::StreamRefusal;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, State as Extract};
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use katas::Mode;
use serde::Deserialize;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::BroadcastStream;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSubmission {
    kata: String,
    /// The Rust solution file (at most 64 KiB).
    source: String,
    /// `run` (the examples) or `submit` (every case; an attempt).
    #[serde(default = "default_mode")]
    #[schema(value_type = String, default = "submit")]
    mode: Mode,
}

fn default_mode() -> Mode {
    Mode::Submit
}

/// Submit a solution; stored before the answer.
#[utoipa::path(post, path = "/api/submissions", tag = "submissions", security(("bearer" = []), ("session" = [])),
    request_body = NewSubmission,
    responses(
        (status = 202, description = "Queued: `id`.", body = Object),
        (status = 400, description = "Malformed JSON, invalid UTF-8, a missing or unknown field.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "Unknown kata, or unlisted (only instructors and admins \
            submit to an unlisted kata).", body = ErrorBody),
        (status = 409, description = "The kata is retired: it takes no new submissions.", body = ErrorBody),
        (status = 413, description = "Source over 64 KiB or body too large.", body = ErrorBody),
        (status = 429, description = "Too many submissions for this user.", body = ErrorBody),
    ))]
pub async fn create(
    Extract(state): Extract<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<NewSubmission>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let new = super::json_body(body, "request")?;
    let id = enqueue(&state, user.id, &new.kata, &new.source, new.mode).await?;
    Ok((StatusCode::ACCEPTED, Json(json!({ "id": id }))))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewCustomRun {
    /// The Rust solution file (at most 64 KiB).
    source: String,
    /// The kata's input as JSON text (`custom_input` of `GET /api/katas/{slug}` is a sample);
    /// at most 64 KiB.
    input: String,
}

/// `POST /api/katas/{slug}/custom`: runs the learner's program on their own input, beside the
/// reference's answer. Text that is not JSON is answered 422, nothing queued; what only the kata's
/// code can refuse is refused by its judge in the sandbox, as the run's verdict.
#[utoipa::path(post, path = "/api/katas/{slug}/custom", tag = "submissions", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path)),
    request_body = NewCustomRun,
    responses(
        (status = 202, description = "Queued first in line like a `run`: `id`. The report has \
            one case and `custom` with the input, the reference's answer and yours; an input \
            that is not this kata's, or is outside the statement's constraints, ends \
            `input_refused` with the kata's message (its judge admits it, in the sandbox).", body = Object),
        (status = 400, description = "Malformed request body, a missing or unknown field.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "Unknown kata, or unlisted.", body = ErrorBody),
        (status = 409, description = "The kata is retired.", body = ErrorBody),
        (status = 413, description = "Source or input over 64 KiB, or body too large.", body = ErrorBody),
        (status = 422, description = "The input is not JSON (where, in the `Accept-Language`'s \
            language), or the kata offers no custom input (GPU and stdin/stdout katas). Nothing \
            is queued.", body = ErrorBody),
        (status = 429, description = "Too many submissions for this user.", body = ErrorBody),
    ))]
pub async fn create_custom(
    Extract(state): Extract<AppState>,
    CurrentUser(user): CurrentUser,
    Path(slug): Path<String>,
    headers: axum::http::HeaderMap,
    body: Result<Json<NewCustomRun>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let new = super::json_body(body, "request")?;
    let lang = crate::auth::page_lang(None, &headers);
    let id = enqueue_custom(&state, user.id, &slug, &new.source, &new.input, lang).await?;
    Ok((StatusCode::ACCEPTED, Json(json!({ "id": id }))))
}

async fn view(state: &AppState, s: &Submission) -> Result<Value, AppError> {
    let mut body = match (&s.report, s.state) {
        // The verdict is final once published; an accepted submit is then `measuring`.
        (Some(report), State::Done | State::Measuring) => report.clone(),
        _ => json!({ "kata": s.kata, "mode": s.mode, "verdict": null }),
    };
    body["id"] = json!(s.id);
    body["state"] = json!(s.state);
    body["queue_position"] = json!(queue_state::position(&state.db, s.id).await?);
    body["waiting_for"] = json!(queue_state::waiting_for(&state.db, s.id).await?);
    body["withdrawn"] = json!(submissions::withdrawn(&state.db, s.id).await?);
    body["custom_run"] = json!(s.custom);
    body["kata_version"] = json!(s.kata_version);
    body["api_changed"] =
        json!(kata_versions::api_changed(&state.db, &s.kata, s.kata_version).await?);
    Ok(body)
}

/// A submission's state and, once done, its report.
#[utoipa::path(get, path = "/api/submissions/{id}", tag = "submissions", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "The submission.", body = crate::routes::openapi::Submission),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 404, description = "No such submission you may see (yours, or an accepted submit of a kata you have solved).", body = ErrorBody),
    ))]
pub async fn show(
    Extract(state): Extract<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<SubmissionId>,
) -> Result<Json<Value>, AppError> {
    let s = visible(&state, user.id, id).await?;
    Ok(Json(view(&state, &s).await?))
}

/// `POST /api/submissions/{id}/cancel`: the learner withdraws a submission no worker has taken
/// yet (a GPU kata waiting for a GPU worker). It ends as not graded and is not an attempt.
#[utoipa::path(post, path = "/api/submissions/{id}/cancel", tag = "submissions", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "Cancelled; the submission as it now stands.",
            body = crate::routes::openapi::Submission),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Session cookie without the session's CSRF token in `X-CSRF-Token`.", body = ErrorBody),
        (status = 404, description = "No such submission of yours.", body = ErrorBody),
        (status = 409, description = "A worker has already taken it, or it is done.", body = ErrorBody),
    ))]
pub async fn cancel(
    Extract(state): Extract<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<SubmissionId>,
) -> Result<Json<Value>, AppError> {
    cancel_own(&state, user.id, id).await?;
    let s = visible(&state, user.id, id).await?;
    Ok(Json(view(&state, &s).await?))
}

/// Server-sent events: the current state at once, then every change until the verdict. Streams
/// are bounded per user, per client address and in all (429 beyond; see [`crate::stream_limit`]).
///
/// Each event's data is the submission as `GET /api/submissions/{id}` shows it: `state` events
/// until the verdict is known, then `verdict` (an accepted submit's verdict comes in state
/// `measuring`, its figure in a later `verdict` event in state `done`); the stream ends after
/// state `done`.
#[utoipa::path(get, path = "/api/submissions/{id}/events", tag = "submissions", security(("bearer" = []), ("session" = [])),
    params(("id" = i64, Path)),
    responses(
        (status = 200, description = "An event stream.", content_type = "text/event-stream"),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 404, description = "No such submission you may see (yours, or an accepted submit of a kata you have solved).", body = ErrorBody),
        (status = 429, description = "Too many live event streams (8 at once per user).", body = ErrorBody),
    ))]
pub async fn events(
    Extract(state): Extract<AppState>,
    CurrentUser(user): CurrentUser,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<SubmissionId>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, AppError> {
    let slot = state
        .event_streams
        .open(user.id, peer.ip())
        .map_err(|refusal| stream_refused(refusal, id))?;
    // Subscribed before reading the state: a change in between is seen twice, never missed.
    let changes = BroadcastStream::new(state.events.subscribe());
    let first = visible(&state, user.id, id).await?;
    let initial = view(&state, &first).await?;
    let stream = updates(state, id, initial, changes).map(move |event| {
        // The slot is freed when the stream is dropped: verdict sent or client gone.
        let _held = &slot;
        event
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// How stale a stream may be about a change made on another replica (events are per
/// process): without an event it looks at the database this often.
pub const CROSS_REPLICA_POLL: Duration = Duration::from_secs(1);

/// The initial view, then a fresh view after every event about this submission (or, every
/// [`CROSS_REPLICA_POLL`], whenever the stored view changed); ends right after the view in
/// state `done` (an accepted submit's verdict comes earlier, in `measuring`). While it is queued,
/// another submission's event (a job claimed or finished ahead of it) sends a fresh view too when
/// the queue position changed, so the learner sees the queue move.
fn updates(
    state: AppState,
    id: SubmissionId,
    initial: Value,
    changes: BroadcastStream<crate::state::Event>,
) -> impl Stream<Item = Result<SseEvent, Infallible>> {
    futures_util::stream::unfold(
        Some((state, changes, Some(initial), Value::Null)),
        move |step| async move {
            let (state, mut changes, pending, last) = step?;
            let next = |v: Value, state, changes| {
                let done = v["state"] == "done";
                let event = sse(&v);
                Some((Ok(event), (!done).then_some((state, changes, None, v))))
            };
            if let Some(v) = pending {
                return next(v, state, changes);
            }
            loop {
                let (ours, polled) =
                    match tokio::time::timeout(CROSS_REPLICA_POLL, changes.next()).await {
                        Ok(None) => return None,
                        Ok(Some(Ok(e))) if e.submission_id != id => (false, false),
                        // An event for us, or `Lagged` (we may have missed ours): look again.
                        Ok(Some(_)) => (true, false),
                        Err(_quiet) => (false, true),
                    };
                if !ours && !polled && last["state"] != "queued" {
                    continue;
                }
                let Ok(Some(s)) = submissions::get(&state.db, id).await else {
                    continue;
                };
                let Ok(v) = view(&state, &s).await else {
                    continue;
                };
                if !ours && v == last {
                    continue;
                }
                return next(v, state, changes);
            }
        },
    )
}

fn stream_refused(refusal: StreamRefusal, id: SubmissionId) -> AppError {
    let (en, zh) = match refusal {
        StreamRefusal::User(n) => (
            format!("at most {n} at once per user; close one (another tab?)"),
            format!("每位用户同时最多 {n} 个；请关掉一个（别的标签页？）"),
        ),
        StreamRefusal::Address(n) => (
            format!("at most {n} at once from one network address"),
            format!("同一网络地址同时最多 {n} 个"),
        ),
        StreamRefusal::Total(n) => (
            format!("this server holds {n} already"),
            format!("服务器已有 {n} 个"),
        ),
    };
    AppError::TooManyRequests(format!(
        "too many live event streams: {en}; or poll GET /api/submissions/{id}"
    ))
    .zh(format!(
        "实时事件流太多：{zh}；也可以轮询 GET /api/submissions/{id}"
    ))
}

fn sse(v: &Value) -> SseEvent {
    SseEvent::default()
        .event(if v["verdict"].is_null() {
            "state"
        } else {
            "verdict"
        })
        .data(v.to_string())
}
