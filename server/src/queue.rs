//! The worker protocol's server side, used both by the HTTP worker API (remote workers) and
//! directly by the built-in workers: one implementation of claim, heartbeat, verdict, finish,
//! release, and of the claim of a package's checks left to a worker.

use crate::db::jobs::{self, Claimed};
use crate::db::submissions::{self, State};
use crate::db::workers::{self, Capabilities};
use crate::db::{package_checks, queue_state};
use crate::domain::{JobPhase, SubmissionId};
use crate::state::AppState;
use graders::{GradeReport, Measured};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A worker introduces itself on every claim.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct WorkerHello {
    pub worker_id: String,
    pub name: String,
    pub capabilities: Capabilities,
    /// What this loop takes: verdicts, or (a worker's measuring loop) measurements. Workers
    /// from before measurements were jobs of their own say nothing: verdicts.
    #[serde(default)]
    pub phase: JobPhase,
}

/// Waits up to `wait` for a job this worker can grade.
pub async fn claim(
    state: &AppState,
    hello: &WorkerHello,
    builtin: bool,
    wait: Duration,
) -> Result<Option<Claimed>, sqlx::Error> {
    workers::seen(
        &state.db,
        &hello.worker_id,
        &hello.name,
        &hello.capabilities,
        builtin,
    )
    .await?;
    let kinds = &hello.capabilities.kinds;
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        // Register interest before looking, so a job queued in between still wakes us.
        let notified = state.jobs_waiting.notified();
        let (job, exhausted) = jobs::claim_for(
            &state.db,
            &hello.worker_id,
            kinds,
            hello.phase,
            state.lease_ms(),
            hello.capabilities.package_kinds(),
            hello.capabilities.compiled.as_deref(),
        )
        .await?;
        for id in exhausted {
            state.publish(id, State::Done);
        }
        if let Some(job) = job {
            // A rejudge's job is no news to the learner: their submission stays as it is.
            if job.rejudge.is_none() {
                submissions::set_state(&state.db, job.submission_id, State::Compiling).await?;
                state.publish(job.submission_id, State::Compiling);
            }
            if job.phase == JobPhase::Verdict {
                // Perhaps the last verdict that was waiting: measuring loops may go on now.
                state.jobs_waiting.notify_waiters();
            }
            return Ok(Some(job));
        }
        // A package's checks waiting for a worker like this one: it comes back to take them
        // (`claim_check`) rather than wait out its poll with a replica's upload waiting.
        if check_waiting(state, &hello.capabilities).await? {
            return Ok(None);
        }
        let now = tokio::time::Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        // Expired leases are noticed by polling: nothing wakes us when a worker dies.
        let nap = (deadline - now).min(Duration::from_millis(500));
        let _ = tokio::time::timeout(nap, notified).await;
    }
}

async fn check_waiting(state: &AppState, caps: &Capabilities) -> Result<bool, sqlx::Error> {
    if !caps.checks(false) {
        return Ok(false);
    }
    package_checks::waiting(&state.db, caps.runs_gpu_checks()).await
}

/// Takes, without waiting, a package's sandbox checks that a replica left to a worker like
/// this one (`services::package_checks`); `None` when none waits, or this worker runs none.
pub async fn claim_check(
    state: &AppState,
    hello: &WorkerHello,
) -> Result<Option<package_checks::Claimed>, sqlx::Error> {
    if !hello.capabilities.checks(false) {
        return Ok(None);
    }
    let lease_ms = if hello.capabilities.renews_checks {
        crate::services::package_checks::RENEWED_LEASE_MS
    } else {
        crate::services::package_checks::LEASE_MS
    };
    package_checks::claim(
        &state.db,
        &hello.worker_id,
        hello.capabilities.runs_gpu_checks(),
        lease_ms,
    )
    .await
}

/// Renews the lease and records the stage; `false` if the lease is lost.
pub async fn heartbeat(
    state: &AppState,
    job_id: i64,
    submission_id: SubmissionId,
    token: &str,
    stage: Option<State>,
) -> Result<bool, sqlx::Error> {
    if !jobs::heartbeat(&state.db, job_id, token, state.lease_ms()).await? {
        return Ok(false);
    }
    if let Some(stage) = stage.filter(|s| *s != State::Done && *s != State::Queued) {
        if jobs::is_rejudge(&state.db, job_id).await? {
            return Ok(true);
        }
        submissions::set_state(&state.db, submission_id, stage).await?;
        state.publish(submission_id, stage);
    }
    Ok(true)
}

/// Stores the report if the lease still holds; `false` if it came too late.
pub async fn finish(
    state: &AppState,
    job_id: i64,
    token: &str,
    report: &GradeReport,
) -> Result<bool, sqlx::Error> {
    // A rejudge's result is no news to the learner.
    let submission_id: Option<SubmissionId> =
        sqlx::query_scalar("SELECT submission_id FROM jobs WHERE id = $1 AND rejudge_id IS NULL")
            .bind(job_id)
            .fetch_optional(&state.db)
            .await?;
    let stored = jobs::finish_with(&state.db, job_id, Some(token), report).await?;
    if stored && let Some(id) = submission_id {
        state.publish(id, State::Done);
    }
    Ok(stored)
}

/// Publishes the verdict of a job whose performance figure is still being measured; `false`
/// if the lease is lost.
pub async fn judged(
    state: &AppState,
    job_id: i64,
    token: &str,
    report: &GradeReport,
) -> Result<bool, sqlx::Error> {
    let published = jobs::publish_verdict(&state.db, job_id, token, report).await?;
    if let Some(id) = published {
        state.publish(id, State::Measuring);
    }
    Ok(published.is_some())
}

/// Publishes an accepted submit's verdict and queues its measurement as a job of its own;
/// `false` if the lease is lost.
pub async fn hand_over(
    state: &AppState,
    job_id: i64,
    token: &str,
    report: &GradeReport,
) -> Result<bool, sqlx::Error> {
    let published = jobs::hand_over_to_measure(&state.db, job_id, token, report).await?;
    if let Some(id) = published {
        state.publish(id, State::Measuring);
        state.jobs_waiting.notify_waiters();
    }
    Ok(published.is_some())
}

/// Adds a measurement job's figure to its published verdict; `false` if the lease is lost.
pub async fn measured(
    state: &AppState,
    job_id: i64,
    token: &str,
    measured: &Measured,
) -> Result<bool, sqlx::Error> {
    let finished = jobs::finish_measurement(&state.db, job_id, token, measured).await?;
    if let Some(id) = finished {
        state.publish(id, State::Done);
    }
    Ok(finished.is_some())
}

/// Gives a job back after a failure on the worker's side.
pub async fn release(
    state: &AppState,
    job_id: i64,
    token: &str,
    error: &str,
) -> Result<bool, sqlx::Error> {
    let released = jobs::release(&state.db, job_id, token, error).await?;
    state.jobs_waiting.notify_waiters();
    Ok(released)
}

/// Ends the submissions that waited in the queue longer than the configured wait while no
/// worker that can grade them is connected, so none waits for ever; runs until the app stops.
pub async fn expire_waiting(state: AppState) {
    let max = state.config.max_queue_wait;
    let every = (max / 4).clamp(Duration::from_millis(200), Duration::from_secs(10));
    let minutes = max.as_secs().div_ceil(60);
    let message = katas::Message::new(
        format!(
            "No worker that can grade this kata took it within {minutes} minute{} (a GPU kata \
             needs a connected GPU worker). This is not your failure and does not count as an \
             attempt: submit again once a worker is connected.",
            if minutes == 1 { "" } else { "s" }
        ),
        format!(
            "{minutes} 分钟内没有能评测此题的 worker 接手（GPU 题需要已连接的 GPU worker）。\
             这不是你的失败，也不算一次尝试：等有 worker 连接后再提交即可。"
        ),
    );
    let max_ms = i64::try_from(max.as_millis()).unwrap_or(i64::MAX);
    loop {
        tokio::time::sleep(every).await;
        let Ok(ids) = queue_state::waited_too_long(&state.db, max_ms).await else {
            continue;
        };
        for id in ids {
            // A long queue with workers at it is only slow: time out only what no connected
            // worker can grade.
            if !matches!(queue_state::waiting_for(&state.db, id).await, Ok(Some(_))) {
                continue;
            }
            if let Ok(true) = queue_state::withdraw(
                &state.db,
                id,
                queue_state::Withdrawn::TimedOut,
                &message,
                true,
            )
            .await
            {
                state.publish(id, State::Done);
            }
        }
    }
}
