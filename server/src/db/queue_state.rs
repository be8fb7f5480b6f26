//! The queue as learners and admins see it and act on it outside the worker protocol
//! ([`super::jobs`]): a submission's place in the queue and what it waits for, the queue's
//! counts, a submission withdrawn (cancelled, or waiting too long) or put back in the queue,
//! and the admin's list of jobs not done.

use super::submissions;
use super::{Db, now_ms};
use crate::domain::{JobKind, JobState, Slug, Stored, SubmissionId};
use graders::GradeReport;
use katas::Mode;

/// How many jobs of the same kind wait ahead of this submission's (0 = next); `None` once leased.
pub async fn position(db: &Db, submission_id: SubmissionId) -> Result<Option<i64>, sqlx::Error> {
    let row: Option<(i64, Stored<JobKind>, Stored<JobState>, i64)> = sqlx::query_as(
        "SELECT id, kind, state, priority FROM jobs
              WHERE submission_id = $1 AND rejudge_id IS NULL",
    )
    .bind(submission_id)
    .fetch_optional(db)
    .await?;
    let Some((id, kind, state, priority)) = row else {
        return Ok(None);
    };
    if state.0 != JobState::Queued {
        return Ok(None);
    }
    let ahead: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM jobs WHERE state = 'queued' AND kind = $1
           AND (priority < $2 OR (priority = $2 AND id < $3))",
    )
    .bind(kind)
    .bind(priority)
    .bind(id)
    .fetch_one(db)
    .await?;
    Ok(Some(ahead))
}

/// While this submission's job is queued and no worker that would take it has been seen
/// recently (none advertising its kind; for a version not stored here, none of a build that
/// compiled it in; for a stored GPU version, none grading GPU packages): what it waits for
/// (`"gpu worker"`); `None` otherwise.
pub async fn waiting_for(
    db: &Db,
    submission_id: SubmissionId,
) -> Result<Option<String>, sqlx::Error> {
    /// Its kind; its version's content and grading hash, and whether that version is stored.
    type Job = (Stored<JobKind>, Option<String>, Option<String>, i64);
    let job: Option<Job> = sqlx::query_as(&format!(
        "SELECT j.kind, v.content_hash, v.grading_hash, CASE WHEN {} THEN 1 ELSE 0 END
               FROM jobs j JOIN submissions s ON s.id = j.submission_id
               LEFT JOIN kata_versions v ON v.slug = s.kata AND v.number = s.kata_version
              WHERE j.submission_id = $1 AND j.state = 'queued' AND j.rejudge_id IS NULL",
        super::kata_packages::PACKAGED
    ))
    .bind(submission_id)
    .fetch_optional(db)
    .await?;
    let Some((Stored(kind), content_hash, grading_hash, packaged)) = job else {
        return Ok(None);
    };
    use super::workers::Held;
    let held = match (&content_hash, packaged) {
        (Some(content), 0) => {
            Held::Unstored([content.as_str(), grading_hash.as_deref().unwrap_or("")])
        }
        (Some(_), _) => Held::Stored,
        (None, _) => Held::Unknown,
    };
    Ok((!super::workers::able_connected(db, kind, held).await?)
        .then(|| format!("{} worker", kind.as_str())))
}

/// `"gpu worker"` → `"GPU worker"`, as the pages say it.
pub fn waiting_for_display(waiting_for: &str) -> String {
    match waiting_for.split_once(' ') {
        Some((kind, rest)) => format!("{} {rest}", kind.to_uppercase()),
        None => waiting_for.to_string(),
    }
}

/// Jobs of `kind` waiting for a worker.
pub async fn queued_of_kind(db: &Db, kind: JobKind) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE state = 'queued' AND kind = $1")
        .bind(Stored(kind))
        .fetch_one(db)
        .await
}

/// Jobs waiting, by kind, for the admin page and the queue-depth figure.
pub async fn depth(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE state != 'done'")
        .fetch_one(db)
        .await
}

/// Jobs waiting for a worker and jobs being graded now.
pub async fn counts(db: &Db) -> Result<(i64, i64), sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(*) FILTER (WHERE state = 'queued'), COUNT(*) FILTER (WHERE state = 'leased')
         FROM jobs",
    )
    .fetch_one(db)
    .await
}

/// Why a submission ended without being graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawn {
    Cancelled,
    TimedOut,
}

impl Withdrawn {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cancelled => "cancelled",
            Self::TimedOut => "timed_out",
        }
    }
}

/// Ends a submission that is not graded yet: its job is done without a result (a worker still
/// holding the lease then has its result dropped), its report is an internal error carrying
/// `message`, and it is marked `withdrawn` (not an attempt). `only_queued`: refuse a job a
/// worker has already taken (what a learner may cancel). `false` when there was nothing to end.
pub async fn withdraw(
    db: &Db,
    submission_id: SubmissionId,
    why: Withdrawn,
    message: &katas::Message,
    only_queued: bool,
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let ended = sqlx::query(
        "UPDATE jobs SET state = 'done' WHERE submission_id = $1 AND phase = 'verdict'
           AND rejudge_id IS NULL AND (state = 'queued' OR (state = 'leased' AND NOT $2))",
    )
    .bind(submission_id)
    .bind(only_queued)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if ended != 1 {
        return Ok(false);
    }
    let (kata, mode): (Slug, Stored<Mode>) =
        sqlx::query_as("SELECT kata, mode FROM submissions WHERE id = $1")
            .bind(submission_id)
            .fetch_one(&mut *tx)
            .await?;
    let report = GradeReport::internal_error(&kata, mode.0, message.clone());
    submissions::record(&mut tx, submission_id, &report).await?;
    sqlx::query("UPDATE submissions SET withdrawn = $1 WHERE id = $2")
        .bind(why.as_str())
        .bind(submission_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// Submissions whose jobs have waited in the queue (no worker took them) for longer than
/// `max_wait_ms`.
pub async fn waited_too_long(db: &Db, max_wait_ms: i64) -> Result<Vec<SubmissionId>, sqlx::Error> {
    // A measurement waits behind every verdict by design, and its verdict is already out.
    sqlx::query_scalar(
        "SELECT submission_id FROM jobs WHERE state = 'queued' AND phase = 'verdict'
           AND rejudge_id IS NULL AND created_at < $1",
    )
    .bind(now_ms() - max_wait_ms)
    .fetch_all(db)
    .await
}

/// Puts a job that is not done back in the queue with fresh attempts (an admin unsticking it);
/// `false` when the job is done or missing.
pub async fn requeue(db: &Db, submission_id: SubmissionId) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let again = sqlx::query(
        "UPDATE jobs SET state = 'queued', worker_id = NULL, lease_token = NULL,
           lease_expires_at = NULL, attempts = 0, last_error = NULL, created_at = $1
         WHERE submission_id = $2 AND state != 'done' AND rejudge_id IS NULL",
    )
    .bind(now_ms())
    .bind(submission_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if again == 1 {
        sqlx::query(
            "UPDATE submissions SET state = 'queued' WHERE id = $1 AND state != 'done' AND verdict IS NULL",
        )
        .bind(submission_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(again == 1)
}

/// A job not done yet, for the admin page.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Pending {
    pub submission_id: SubmissionId,
    pub kata: Slug,
    pub kind: Stored<JobKind>,
    pub state: Stored<JobState>,
    pub user_name: String,
    pub attempts: i64,
    pub created_at: i64,
}

/// Every job not done, oldest first (at most `limit`).
pub async fn pending(db: &Db, limit: i64) -> Result<Vec<Pending>, sqlx::Error> {
    sqlx::query_as(
        "SELECT j.submission_id, s.kata, j.kind, j.state, u.name AS user_name, j.attempts,
           j.created_at
         FROM jobs j JOIN submissions s ON s.id = j.submission_id JOIN users u ON u.id = s.user_id
         WHERE j.state != 'done' AND j.rejudge_id IS NULL ORDER BY j.id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db)
    .await
}
