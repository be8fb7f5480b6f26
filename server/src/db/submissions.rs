//! Submissions: stored before they are acknowledged, with their job, in one transaction.

use super::Tx;
use super::{Db, now_ms};
pub use crate::domain::State;
use crate::domain::{JobKind, Slug, Stored};
use crate::domain::{SubmissionId, UserId};
use graders::GradeReport;
use katas::{Mode, Verdict};

#[derive(Debug, Clone)]
pub struct Submission {
    pub id: SubmissionId,
    pub user_id: UserId,
    pub kata: Slug,
    pub mode: Mode,
    pub source: String,
    pub state: State,
    pub verdict: Option<Verdict>,
    pub report: Option<serde_json::Value>,
    pub created_at: i64,
    /// A custom-input run (a `run` on the learner's own input): never an attempt.
    pub custom: bool,
    /// The kata version it was written for; `None` before versions were recorded.
    pub kata_version: Option<i64>,
}

type Row = (
    SubmissionId,
    UserId,
    Slug,
    Stored<Mode>,
    String,
    Stored<State>,
    Option<Stored<Verdict>>,
    Option<String>,
    i64,
    i64,
    Option<i64>,
);

fn from_row(
    (id, user_id, kata, mode, source, state, verdict, report, created_at, custom, kata_version): Row,
) -> Result<Submission, sqlx::Error> {
    // A report we wrote ourselves that no longer parses is corruption, not "no report".
    let report = report
        .map(|r| serde_json::from_str(&r))
        .transpose()
        .map_err(|e| sqlx::Error::Decode(format!("submission {id}: its report: {e}").into()))?;
    Ok(Submission {
        id,
        user_id,
        kata,
        mode: mode.0,
        source,
        state: state.0,
        verdict: verdict.map(|v| v.0),
        report,
        created_at,
        custom: custom != 0,
        kata_version,
    })
}

/// Stores the submission and its job; returns the submission id.
pub async fn create(
    db: &Db,
    user_id: UserId,
    kata: &Slug,
    kind: JobKind,
    mode: Mode,
    source: &str,
) -> Result<SubmissionId, sqlx::Error> {
    create_with(db, user_id, kata, kind, mode, source, None).await
}

/// [`create`], with a custom-input run's admitted input (JSON) when it is one.
pub async fn create_with(
    db: &Db,
    user_id: UserId,
    kata: &Slug,
    kind: JobKind,
    mode: Mode,
    source: &str,
    custom_input: Option<&str>,
) -> Result<SubmissionId, sqlx::Error> {
    let mut tx = db.begin().await?;
    let id = insert(&mut tx, user_id, kata, kind, mode, source, custom_input).await?;
    tx.commit().await?;
    Ok(id)
}

/// [`create_with`] inside the caller's transaction (which may also spend an allowance).
pub async fn insert(
    tx: &mut Tx<'_>,
    user_id: UserId,
    kata: &Slug,
    kind: JobKind,
    mode: Mode,
    source: &str,
    custom_input: Option<&str>,
) -> Result<SubmissionId, sqlx::Error> {
    let now = now_ms();
    let version = super::served::served_in(tx, kata).await?;
    let id: SubmissionId = sqlx::query_scalar(
        "INSERT INTO submissions
           (user_id, kata, mode, source, state, created_at, custom_input, kata_version)
         VALUES ($1, $2, $3, $4, 'queued', $5, $6,
           (SELECT number FROM kata_versions WHERE slug = $2 AND content_hash = $7))
         RETURNING id",
    )
    .bind(user_id)
    .bind(kata)
    .bind(Stored(mode))
    .bind(source)
    .bind(now)
    .bind(custom_input)
    .bind(version.map(|v| v.content_hash))
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO jobs (submission_id, kind, state, priority, created_at)
         VALUES ($1, $2, 'queued', $3, $4)",
    )
    .bind(id)
    .bind(Stored(kind))
    .bind(super::jobs::priority(mode))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

pub async fn get(db: &Db, id: SubmissionId) -> Result<Option<Submission>, sqlx::Error> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT id, user_id, kata, mode, source, state, verdict, report, created_at,
           CASE WHEN custom_input IS NULL THEN 0 ELSE 1 END, kata_version
         FROM submissions WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db)
    .await?;
    row.map(from_row).transpose()
}

pub async fn set_state(db: &Db, id: SubmissionId, state: State) -> Result<(), sqlx::Error> {
    // Once the verdict is published the stage no longer moves (a late heartbeat saying
    // `running` must not hide it).
    sqlx::query(
        "UPDATE submissions SET state = $1 WHERE id = $2 AND state != 'done' AND verdict IS NULL",
    )
    .bind(Stored(state))
    .bind(id)
    .execute(db)
    .await?;
    Ok(())
}

/// Writes the final report and per-case rows inside the caller's transaction.
pub async fn record(
    tx: &mut Tx<'_>,
    id: SubmissionId,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    write_report(tx, id, State::Done, report).await
}

/// Writes a report whose verdict is final but whose performance figure is still being
/// measured: the learner sees the verdict now (state `measuring`).
pub async fn record_verdict(
    tx: &mut Tx<'_>,
    id: SubmissionId,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    write_report(tx, id, State::Measuring, report).await
}

/// The report published ahead of its performance figure, if this submission has one.
pub async fn published_verdict(
    tx: &mut Tx<'_>,
    id: SubmissionId,
) -> Result<Option<GradeReport>, sqlx::Error> {
    let report: Option<String> = sqlx::query_scalar(
        "SELECT report FROM submissions WHERE id = $1 AND state = 'measuring' AND report IS NOT NULL",
    )
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    report
        .map(|r| serde_json::from_str(&r))
        .transpose()
        .map_err(|e| sqlx::Error::Decode(format!("submission {id}: its report: {e}").into()))
}

async fn write_report(
    tx: &mut Tx<'_>,
    id: SubmissionId,
    state: State,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    // An empty report would read back as a decode error far from its cause; fail here instead.
    let json = serde_json::to_string(report)
        .map_err(|e| sqlx::Error::Encode(format!("submission {id}: its report: {e}").into()))?;
    let finished_at = (state == State::Done).then(now_ms);
    // No `Option<f64>` bind: sqlx 0.8's Any driver declares a NULL double as float4 on
    // PostgreSQL, and a statement first prepared with it then refuses every real ratio (22P03)
    // on that connection. The ratio is always a double; `$9` says whether there is one.
    let ratio = report.performance.as_ref().map(|p| p.ratio);
    sqlx::query(
        "UPDATE submissions SET state = $1, verdict = $2, passed = $3, total = $4,
           perf_ratio = CASE WHEN $9 THEN $5 ELSE NULL END,
           report = $6, finished_at = $7 WHERE id = $8",
    )
    .bind(Stored(state))
    .bind(Stored(report.verdict))
    .bind(report.score.passed as i64)
    .bind(report.score.total as i64)
    .bind(ratio.unwrap_or(0.0))
    .bind(json)
    .bind(finished_at)
    .bind(id)
    .bind(ratio.is_some())
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM case_results WHERE submission_id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    for (position, case) in report.cases.iter().enumerate() {
        sqlx::query(
            "INSERT INTO case_results (submission_id, position, name, case_group, outcome, time_ms)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(position as i64)
        .bind(&case.name)
        .bind(case.group.as_str())
        .bind(case.outcome.as_str())
        .bind(case.time_ms)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// A row of a submission list (history, progress): no source, no report.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Summary {
    pub id: SubmissionId,
    pub kata: Slug,
    #[sqlx(try_from = "Stored<Mode>")]
    pub mode: Mode,
    #[sqlx(try_from = "Stored<State>")]
    pub state: State,
    pub verdict: Option<Stored<Verdict>>,
    pub passed: Option<i64>,
    pub total: Option<i64>,
    pub perf_ratio: Option<f64>,
    pub created_at: i64,
    /// `cancelled` or `timed_out`: ended without being graded.
    pub withdrawn: Option<String>,
    /// A custom-input run (a `run` on the learner's own input).
    #[sqlx(try_from = "i64")]
    pub custom: super::progress::Flag,
}

/// Why a submission ended without being graded (`cancelled`, `timed_out`), if it did.
pub async fn withdrawn(db: &Db, id: SubmissionId) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar::<_, Option<String>>("SELECT withdrawn FROM submissions WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
        .map(Option::flatten)
}

/// One user's submissions to one kata, newest first.
pub async fn list_for(
    db: &Db,
    user_id: UserId,
    kata: &str,
    limit: i64,
) -> Result<Vec<Summary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, kata, mode, state, verdict, passed, total, perf_ratio, created_at, withdrawn,
           CASE WHEN custom_input IS NULL THEN 0 ELSE 1 END AS custom
         FROM submissions WHERE user_id = $1 AND kata = $2 ORDER BY id DESC LIMIT $3",
    )
    .bind(user_id)
    .bind(kata)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The source of the user's latest submission to `kata` (the editor starts from it).
pub async fn last_source(
    db: &Db,
    user_id: UserId,
    kata: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT source FROM submissions WHERE user_id = $1 AND kata = $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(user_id)
    .bind(kata)
    .fetch_optional(db)
    .await
}
