//! The remote worker protocol over HTTP (`infrakata worker`): long-poll claim, heartbeats,
//! verdict (ahead of a GPU kata's figure: only older workers send it, since a GPU kata's figure
//! now comes with its verdict), hand-over (an accepted submit's verdict, its
//! measurement queued as its own job), measured (that job's figure), result, release; and a
//! package's sandbox checks left to a worker by a replica that cannot run them (claim,
//! archive, heartbeat, outcome); the custom-input examples no replica's judge made (which are
//! due, and storing them).
//! Authenticated by the server's worker token.

use crate::auth::WorkerAuth;
use crate::db::package_checks;
use crate::error::{AppError, ErrorBody};
use crate::queue::{self, WorkerHello};
use crate::state::AppState;
use crate::worker_wire::{
    AwaitingExamples, CheckAnswer, CheckBeat, CheckLease, Finished, Heartbeat, Measurement,
    Released,
};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State as Extract};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A worker waits (long poll) for a job matching its capabilities.
#[utoipa::path(post, path = "/api/worker/claim", tag = "worker", security(("worker" = [])),
    request_body = WorkerHello,
    responses(
        (status = 200, description = "A leased job.", body = Object),
        (status = 204, description = "No job within the poll time."),
        (status = 400, description = "A malformed hello, such as a job kind this server does \
            not know.", body = ErrorBody),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
    ))]
pub async fn claim(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    body: Result<Json<WorkerHello>, JsonRejection>,
) -> Result<Response, AppError> {
    // A hello this server cannot read — a job kind it does not know, say — is refused with the
    // reason, rather than served as a worker that takes nothing.
    let hello = super::json_body(body, "worker hello")?;
    match queue::claim(&state, &hello, false, state.config.long_poll).await? {
        Some(job) => Ok(Json(job).into_response()),
        None => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}

fn lease_lost() -> AppError {
    AppError::Conflict("the lease on this job has expired or moved to another worker".into())
}

/// Renews the lease and reports the stage.
#[utoipa::path(post, path = "/api/worker/jobs/{id}/heartbeat", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = Heartbeat,
    responses(
        (status = 204, description = "Renewed."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost.", body = ErrorBody),
    ))]
pub async fn heartbeat(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(job_id): Path<i64>,
    Json(beat): Json<Heartbeat>,
) -> Result<StatusCode, AppError> {
    if queue::heartbeat(
        &state,
        job_id,
        beat.submission_id,
        &beat.lease_token,
        beat.stage,
    )
    .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(lease_lost())
    }
}

/// Stores the whole report if the lease still holds.
#[utoipa::path(post, path = "/api/worker/jobs/{id}/result", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = Finished,
    responses(
        (status = 204, description = "Stored."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost; the result was dropped.", body = ErrorBody),
    ))]
pub async fn result(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(job_id): Path<i64>,
    Json(done): Json<Finished>,
) -> Result<StatusCode, AppError> {
    if queue::finish(&state, job_id, &done.lease_token, &done.report).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(lease_lost())
    }
}

/// The verdict ahead of the performance figure (`result` follows with the whole report). Kept
/// for workers of older builds during a rolling deploy; this build's workers never send it.
#[utoipa::path(post, path = "/api/worker/jobs/{id}/verdict", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = Finished,
    responses(
        (status = 204, description = "Published."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost; the verdict was dropped.", body = ErrorBody),
    ))]
pub async fn verdict(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(job_id): Path<i64>,
    Json(judged): Json<Finished>,
) -> Result<StatusCode, AppError> {
    if queue::judged(&state, job_id, &judged.lease_token, &judged.report).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(lease_lost())
    }
}

/// An accepted submit's verdict; its measurement becomes a job of its own (claimed by loops
/// whose hello says `"phase": "measure"`). The worker is then done with the job.
#[utoipa::path(post, path = "/api/worker/jobs/{id}/hand-over", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = Finished,
    responses(
        (status = 204, description = "Published; the measurement is queued."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost; the verdict was dropped.", body = ErrorBody),
    ))]
pub async fn hand_over(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(job_id): Path<i64>,
    Json(judged): Json<Finished>,
) -> Result<StatusCode, AppError> {
    if queue::hand_over(&state, job_id, &judged.lease_token, &judged.report).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(lease_lost())
    }
}

/// A measurement job's figure, added to its published verdict.
#[utoipa::path(post, path = "/api/worker/jobs/{id}/measured", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = Measurement,
    responses(
        (status = 204, description = "Stored."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost; the figure was dropped.", body = ErrorBody),
    ))]
pub async fn measured(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(job_id): Path<i64>,
    Json(m): Json<Measurement>,
) -> Result<StatusCode, AppError> {
    if queue::measured(&state, job_id, &m.lease_token, &m.measured).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(lease_lost())
    }
}

/// Gives the job back after a failure on the worker's side.
#[utoipa::path(post, path = "/api/worker/jobs/{id}/release", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = Released,
    responses(
        (status = 204, description = "Released."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost.", body = ErrorBody),
    ))]
pub async fn release(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(job_id): Path<i64>,
    Json(r): Json<Released>,
) -> Result<StatusCode, AppError> {
    if queue::release(&state, job_id, &r.lease_token, &r.error).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(lease_lost())
    }
}

/// The stored package with this content hash (a stdin/stdout kata published to the service),
/// as a canonical `.tar.gz`: a worker that has not seen a version fetches it from any replica.
#[utoipa::path(get, path = "/api/worker/packages/{hash}", tag = "worker", security(("worker" = [])),
    params(("hash" = String, Path)),
    responses(
        (status = 200, description = "The package's archive.", content_type = "application/gzip"),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 404, description = "No package is stored with that hash.", body = ErrorBody),
    ))]
pub async fn package(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(hash): Path<String>,
) -> Result<Response, AppError> {
    let archive = crate::db::kata_packages::archive(&state.db, &hash)
        .await?
        .ok_or_else(|| {
            AppError::NotFound(format!(
                "no package is stored as {}",
                crate::services::submissions::truncated(&hash)
            ))
        })?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/gzip")],
        archive,
    )
        .into_response())
}

/// Takes, without waiting, a package's sandbox checks that a replica which cannot run them
/// left to a worker (one whose hello says `package_checks`; a GPU kata's only with a GPU).
#[utoipa::path(post, path = "/api/worker/checks/claim", tag = "worker", security(("worker" = [])),
    request_body = WorkerHello,
    responses(
        (status = 200, description = "A leased check.", body = package_checks::Claimed),
        (status = 204, description = "None waits for a worker like this one."),
        (status = 400, description = "A malformed hello.", body = ErrorBody),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
    ))]
pub async fn claim_check(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    body: Result<Json<WorkerHello>, JsonRejection>,
) -> Result<Response, AppError> {
    let hello = super::json_body(body, "worker hello")?;
    match queue::claim_check(&state, &hello).await? {
        Some(check) => Ok(Json(check).into_response()),
        None => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}

/// The candidate package of a check this worker holds, as a canonical `.tar.gz`.
#[utoipa::path(get, path = "/api/worker/checks/{id}/archive", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path), CheckLease),
    responses(
        (status = 200, description = "The package's archive.", content_type = "application/gzip"),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost, or the check is over.", body = ErrorBody),
    ))]
pub async fn check_archive(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(id): Path<i64>,
    Query(lease): Query<CheckLease>,
) -> Result<Response, AppError> {
    let archive = package_checks::archive(&state.db, id, &lease.lease)
        .await?
        .ok_or_else(check_lost)?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/gzip")],
        archive,
    )
        .into_response())
}

/// Renews the lease on a check this worker runs (one whose hello says `renews_checks`), for
/// `services::package_checks::RENEWED_LEASE_MS` from now.
#[utoipa::path(post, path = "/api/worker/checks/{id}/heartbeat", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = CheckBeat,
    responses(
        (status = 204, description = "Renewed."),
        (status = 400, description = "A malformed body.", body = ErrorBody),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost, or the check is over.", body = ErrorBody),
    ))]
pub async fn check_heartbeat(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(id): Path<i64>,
    body: Result<Json<CheckBeat>, JsonRejection>,
) -> Result<StatusCode, AppError> {
    let beat = super::json_body(body, "check heartbeat")?;
    let lease_ms = crate::services::package_checks::RENEWED_LEASE_MS;
    if package_checks::renew(&state.db, id, &beat.lease_token, lease_ms).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(check_lost())
    }
}

/// What a check found, for the replica waiting on it.
#[utoipa::path(post, path = "/api/worker/checks/{id}/outcome", tag = "worker", security(("worker" = [])),
    params(("id" = i64, Path)),
    request_body = CheckAnswer,
    responses(
        (status = 204, description = "Stored."),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 409, description = "The lease is lost, or the check is over.", body = ErrorBody),
    ))]
pub async fn check_outcome(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(id): Path<i64>,
    Json(answer): Json<CheckAnswer>,
) -> Result<StatusCode, AppError> {
    let outcome =
        serde_json::to_string(&answer.outcome).map_err(|e| AppError::Internal(e.into()))?;
    if package_checks::answer(&state.db, id, &answer.lease_token, &outcome).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(check_lost())
    }
}

/// The stored function versions that may be served and whose custom-input examples no judge has
/// made yet (`db::kata_packages::awaiting_examples`): a worker makes them where no replica can.
#[utoipa::path(get, path = "/api/worker/examples", tag = "worker", security(("worker" = [])),
    responses(
        (status = 200, description = "The versions, the live ones first.", body = AwaitingExamples),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
    ))]
pub async fn awaiting_examples(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
) -> Result<Json<AwaitingExamples>, AppError> {
    let content_hashes = crate::db::kata_packages::awaiting_examples(&state.db).await?;
    Ok(Json(AwaitingExamples { content_hashes }))
}

/// Stores what the judge of the version `hash` made for its custom-input form, unless a judge's
/// examples are stored already (one judge, one package: the same examples).
#[utoipa::path(put, path = "/api/worker/examples/{hash}", tag = "worker", security(("worker" = [])),
    params(("hash" = String, Path, description = "The version's content hash.")),
    request_body(content = Object, description = "`katas::custom::InputExamples`: the first \
        sample's input and an example per entry point, as JSON texts."),
    responses(
        (status = 204, description = "Stored, or examples were stored already."),
        (status = 400, description = "Not examples.", body = ErrorBody),
        (status = 403, description = "Not a worker token.", body = ErrorBody),
        (status = 404, description = "No package is stored as `hash`.", body = ErrorBody),
    ))]
pub async fn store_examples(
    Extract(state): Extract<AppState>,
    _: WorkerAuth,
    Path(hash): Path<String>,
    body: Result<Json<katas::custom::InputExamples>, JsonRejection>,
) -> Result<StatusCode, AppError> {
    let examples = super::json_body(body, "custom-input examples")?;
    if !crate::db::kata_packages::is_stored(&state.db, &hash).await? {
        return Err(AppError::NotFound(format!(
            "no package is stored as {}",
            crate::services::submissions::truncated(&hash)
        )));
    }
    let json = serde_json::to_string(&examples).map_err(|e| AppError::Internal(e.into()))?;
    crate::db::kata_packages::store_examples(&state.db, &hash, &json).await?;
    Ok(StatusCode::NO_CONTENT)
}

fn check_lost() -> AppError {
    AppError::Conflict(
        "the lease on this check has expired or moved to another worker, or its replica stopped \
         waiting"
            .into(),
    )
}
