//! Submissions: stored before they are acknowledged, with their job, in one transaction.

use super::{Db, now_ms};
use graders::GradeReport;
use katas::Mode;
use serde::{Deserialize, Serialize};
use sqlx::{Sqlite, Transaction};

/// Where a submission is in its life; the names are part of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Queued,
    Compiling,
    Running,
    Measuring,
    Done,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Compiling => "compiling",
            Self::Running => "running",
            Self::Measuring => "measuring",
            Self::Done => "done",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::Queued,
            Self::Compiling,
            Self::Running,
            Self::Measuring,
            Self::Done,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }
}

pub fn mode_str(mode: Mode) -> &'static str {
    match mode {
        Mode::Run => "run",
        Mode::Submit => "submit",
    }
}

#[derive(Debug, Clone)]
pub struct Submission {
    pub id: i64,
    pub user_id: i64,
    pub kata: String,
    pub mode: String,
    pub source: String,
    pub state: State,
    pub verdict: Option<String>,
    pub report: Option<serde_json::Value>,
    pub created_at: i64,
}

type Row = (
    i64,
    i64,
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    i64,
);

fn from_row(
    (id, user_id, kata, mode, source, state, verdict, report, created_at): Row,
) -> Submission {
    Submission {
        id,
        user_id,
        kata,
        mode,
        source,
        state: State::parse(&state).unwrap_or(State::Queued),
        verdict,
        report: report.and_then(|r| serde_json::from_str(&r).ok()),
        created_at,
    }
}

/// Stores the submission and its job; returns the submission id.
pub async fn create(
    db: &Db,
    user_id: i64,
    kata: &str,
    kind: &str,
    mode: Mode,
    source: &str,
) -> Result<i64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let now = now_ms();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO submissions (user_id, kata, mode, source, state, created_at)
         VALUES (?, ?, ?, ?, 'queued', ?) RETURNING id",
    )
    .bind(user_id)
    .bind(kata)
    .bind(mode_str(mode))
    .bind(source)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    sqlx::query(
        "INSERT INTO jobs (submission_id, kind, state, created_at) VALUES (?, ?, 'queued', ?)",
    )
    .bind(id)
    .bind(kind)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Submission>, sqlx::Error> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT id, user_id, kata, mode, source, state, verdict, report, created_at FROM submissions WHERE id = ?",
    )
    .bind(id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(from_row))
}

pub async fn set_state(db: &Db, id: i64, state: State) -> Result<(), sqlx::Error> {
    // Once the verdict is published the stage no longer moves (a late heartbeat saying
    // `running` must not hide it).
    sqlx::query(
        "UPDATE submissions SET state = ? WHERE id = ? AND state != 'done' AND verdict IS NULL",
    )
    .bind(state.as_str())
    .bind(id)
    .execute(db)
    .await?;
    Ok(())
}

/// Writes the final report and per-case rows inside the caller's transaction.
pub async fn record(
    tx: &mut Transaction<'_, Sqlite>,
    id: i64,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    write_report(tx, id, State::Done, report).await
}

/// Writes a report whose verdict is final but whose performance figure is still being
/// measured: the learner sees the verdict now (state `measuring`).
pub async fn record_verdict(
    tx: &mut Transaction<'_, Sqlite>,
    id: i64,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    write_report(tx, id, State::Measuring, report).await
}

/// The report published ahead of its performance figure, if this submission has one.
pub async fn published_verdict(
    tx: &mut Transaction<'_, Sqlite>,
    id: i64,
) -> Result<Option<GradeReport>, sqlx::Error> {
    let report: Option<String> = sqlx::query_scalar(
        "SELECT report FROM submissions WHERE id = ? AND state = 'measuring' AND report IS NOT NULL",
    )
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(report.and_then(|r| serde_json::from_str(&r).ok()))
}

async fn write_report(
    tx: &mut Transaction<'_, Sqlite>,
    id: i64,
    state: State,
    report: &GradeReport,
) -> Result<(), sqlx::Error> {
    let json = serde_json::to_string(report).unwrap_or_default();
    let finished_at = (state == State::Done).then(now_ms);
    sqlx::query(
        "UPDATE submissions SET state = ?, verdict = ?, passed = ?, total = ?, perf_ratio = ?,
           report = ?, finished_at = ? WHERE id = ?",
    )
    .bind(state.as_str())
    .bind(report.verdict.as_str())
    .bind(report.score.passed as i64)
    .bind(report.score.total as i64)
    .bind(report.performance.as_ref().map(|p| p.ratio))
    .bind(json)
    .bind(finished_at)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM case_results WHERE submission_id = ?")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    for (position, case) in report.cases.iter().enumerate() {
        sqlx::query(
            "INSERT INTO case_results (submission_id, position, name, case_group, outcome, time_ms)
             VALUES (?, ?, ?, ?, ?, ?)",
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
    pub id: i64,
    pub kata: String,
    pub mode: String,
    pub state: String,
    pub verdict: Option<String>,
    pub passed: Option<i64>,
    pub total: Option<i64>,
    pub perf_ratio: Option<f64>,
    pub created_at: i64,
    /// `cancelled` or `timed_out`: ended without being graded.
    pub withdrawn: Option<String>,
}

/// Why a submission ended without being graded (`cancelled`, `timed_out`), if it did.
pub async fn withdrawn(db: &Db, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar::<_, Option<String>>("SELECT withdrawn FROM submissions WHERE id = ?")
        .bind(id)
        .fetch_optional(db)
        .await
        .map(Option::flatten)
}

/// One user's submissions to one kata, newest first.
pub async fn list_for(
    db: &Db,
    user_id: i64,
    kata: &str,
    limit: i64,
) -> Result<Vec<Summary>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, kata, mode, state, verdict, passed, total, perf_ratio, created_at, withdrawn
         FROM submissions WHERE user_id = ? AND kata = ? ORDER BY id DESC LIMIT ?",
    )
    .bind(user_id)
    .bind(kata)
    .bind(limit)
    .fetch_all(db)
    .await
}

/// The source of the user's latest submission to `kata` (the editor starts from it).
pub async fn last_source(db: &Db, user_id: i64, kata: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT source FROM submissions WHERE user_id = ? AND kata = ? ORDER BY id DESC LIMIT 1",
    )
    .bind(user_id)
    .bind(kata)
    .fetch_optional(db)
    .await
}
