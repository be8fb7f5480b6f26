//! Rejudges: a kata's submissions graded again against a candidate version, as jobs of the one
//! queue at [`REJUDGE_PRIORITY`] (below runs and submits), their results kept here and never
//! written to the submissions. What the instructor reads before making the candidate live is
//! the difference, by learner and by case ([`rows`]).

use super::jobs::REJUDGE_PRIORITY;
use super::{Db, Tx, now_ms};
use crate::domain::{Stored, SubmissionId, UserId};
use graders::GradeReport;
use katas::Outcome;

/// The most submissions one rejudge takes (the newest).
pub const MAX_SUBMISSIONS: i64 = 5000;

/// Which submissions a rejudge grades again: a kata's submits that were graded, or only the
/// accepted ones.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Accepted,
    All,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::All => "all",
        }
    }
}

/// One rejudge.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Rejudge {
    pub id: i64,
    pub slug: String,
    /// The candidate version.
    pub version: i64,
    pub scope: String,
    pub created_at: i64,
}

/// Starts a rejudge of `slug`'s submissions against version `version`: queues a job for each
/// (at most [`MAX_SUBMISSIONS`], the newest). Returns its id and how many were queued.
pub async fn start(
    db: &Db,
    slug: &str,
    version: i64,
    scope: Scope,
    by: UserId,
) -> Result<(i64, i64), sqlx::Error> {
    let mut tx = db.begin().await?;
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO rejudges (slug, version, scope, requested_by, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(slug)
    .bind(version)
    .bind(scope.as_str())
    .bind(by)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    let accepted_only = match scope {
        Scope::Accepted => " AND s.verdict = 'accepted'",
        Scope::All => "",
    };
    // A rejudge's jobs need what the kata's own do (`katas.kind` is the job kind: a GPU
    // kata's need a worker with a device, a stdin/stdout kata's any worker). Custom runs and withdrawn ones are no
    // verdicts; a published verdict counts, its figure still measured or not.
    let queued = sqlx::query(&format!(
        "INSERT INTO jobs (submission_id, kind, state, priority, created_at, rejudge_id)
         SELECT s.id, k.kind, 'queued', $1, $2, $3
           FROM submissions s JOIN katas k ON k.slug = s.kata
          WHERE s.kata = $4 AND s.mode = 'submit'
            AND s.verdict IS NOT NULL AND s.withdrawn IS NULL
            AND s.custom_input IS NULL{accepted_only}
          ORDER BY s.id DESC LIMIT $5"
    ))
    .bind(REJUDGE_PRIORITY)
    .bind(now)
    .bind(id)
    .bind(slug)
    .bind(MAX_SUBMISSIONS)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok((id, queued as i64))
}

/// Stores the result of `submission_id` in rejudge `rejudge` (the job holding the lease ends
/// with it, in the caller's transaction).
pub async fn record(
    tx: &mut Tx<'_>,
    rejudge: i64,
    submission_id: SubmissionId,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    let json = serde_json::to_string(report).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query(
        "INSERT INTO rejudge_results (rejudge_id, submission_id, verdict, first_failed, report)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (rejudge_id, submission_id) DO NOTHING",
    )
    .bind(rejudge)
    .bind(submission_id)
    .bind(Stored(report.verdict))
    .bind(first_failed(report))
    .bind(json)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The name of the first case `report` did not pass.
fn first_failed(report: &GradeReport) -> Option<String> {
    report
        .cases
        .iter()
        .find(|c| c.outcome != Outcome::Passed)
        .map(|c| c.name.clone())
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Rejudge>, sqlx::Error> {
    let row: Option<(i64, String, i64, String, i64)> =
        sqlx::query_as("SELECT id, slug, version, scope, created_at FROM rejudges WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(id, slug, version, scope, created_at)| Rejudge {
        id,
        slug,
        version,
        scope,
        created_at,
    }))
}

/// One submission of a rejudge: its verdict as stored and, once graded again, the candidate's.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    pub submission: SubmissionId,
    pub learner: String,
    /// The version the submission was graded with.
    pub version: Option<i64>,
    pub before: Option<String>,
    pub first_failed_before: Option<String>,
    /// `None` while it is still being graded.
    pub after: Option<String>,
    pub first_failed_after: Option<String>,
    /// Graded again, with another verdict or another first failing case.
    pub changed: bool,
}

/// Every submission of rejudge `id`, in submission order.
pub async fn rows(db: &Db, id: i64) -> Result<Vec<Row>, sqlx::Error> {
    type Raw = (
        SubmissionId,
        String,
        Option<i64>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
    );
    let raw: Vec<Raw> = sqlx::query_as(
        "SELECT j.submission_id, u.name, s.kata_version, s.verdict, s.report, r.verdict,
                r.first_failed
           FROM jobs j
           JOIN submissions s ON s.id = j.submission_id
           JOIN users u ON u.id = s.user_id
           LEFT JOIN rejudge_results r
             ON r.rejudge_id = j.rejudge_id AND r.submission_id = j.submission_id
          WHERE j.rejudge_id = $1
          ORDER BY j.submission_id",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    Ok(raw
        .into_iter()
        .map(
            |(submission, learner, version, before, report, after, failed_after)| {
                let first_failed_before = report
                    .and_then(|r| serde_json::from_str::<GradeReport>(&r).ok())
                    .and_then(|r| first_failed(&r));
                let changed =
                    after.is_some() && (after != before || failed_after != first_failed_before);
                Row {
                    submission,
                    learner,
                    version,
                    before,
                    first_failed_before,
                    after,
                    first_failed_after: failed_after,
                    changed,
                }
            },
        )
        .collect())
}
