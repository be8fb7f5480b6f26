//! The remote worker protocol over HTTP (`infrakata worker`): long-poll claim, heartbeats,
//! verdict (ahead of a GPU kata's figure), hand-over (an accepted submit's verdict, its
//! measurement queued as its own job), measured (that job's figure), result, release.
//! Authenticated by the server's worker token.

use crate::auth::WorkerAuth;
use crate::error::AppError;
use crate::queue::{self, WorkerHello};
use crate::state::AppState;
use crate::worker_wire::{Finished, Heartbeat, Measurement, Released};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State as Extract};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

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

/// The verdict ahead of the performance figure (`result` follows with the whole report).
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

/// An accepted submit's verdict; its measurement becomes a job of its own.
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
