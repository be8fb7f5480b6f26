//! Interview sessions: one kata and drill items against a clock. Answers are locked once the
//! clock runs out; the report is computed then and kept.

use super::{Db, Tx};
use crate::domain::{InterviewId, Slug, Stored, UserId};
use katas::Verdict;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Interview {
    pub id: InterviewId,
    pub user_id: UserId,
    pub kata: Slug,
    pub started_at: i64,
    pub ends_at: i64,
    pub finished_at: Option<i64>,
    pub hints_used: i64,
    pub report: Option<String>,
}

impl Interview {
    /// Whether answers are still taken at `now`.
    pub fn open(&self, now: i64) -> bool {
        self.finished_at.is_none() && now < self.ends_at
    }
}

/// Stores a started interview in the caller's transaction, which also stores its attempts and
/// spends the budget it is paid from.
pub async fn create(
    tx: &mut Tx<'_>,
    user_id: UserId,
    kata: &str,
    started_at: i64,
    ends_at: i64,
) -> Result<InterviewId, sqlx::Error> {
    let version = super::served::served_in(tx, kata).await?;
    sqlx::query_scalar(
        "INSERT INTO interviews (user_id, kata, started_at, ends_at, kata_version)
         VALUES ($1, $2, $3, $4,
           (SELECT number FROM kata_versions WHERE slug = $2 AND content_hash = $5))
         RETURNING id",
    )
    .bind(user_id)
    .bind(kata)
    .bind(started_at)
    .bind(ends_at)
    .bind(version.map(|v| v.content_hash))
    .fetch_one(&mut **tx)
    .await
}

/// The user's own interview; `None` for another user's.
pub async fn get(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
) -> Result<Option<Interview>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM interviews WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .fetch_optional(db)
        .await
}

/// Any interview by id (to lock its attempts).
pub async fn by_id(db: &Db, id: InterviewId) -> Result<Option<Interview>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM interviews WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
}

pub async fn list(db: &Db, user_id: UserId) -> Result<Vec<Interview>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM interviews WHERE user_id = $1 ORDER BY id DESC")
        .bind(user_id)
        .fetch_all(db)
        .await
}

/// Takes one more hint while the interview is open and hints remain; `false` otherwise.
pub async fn take_hint(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
    max: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE interviews SET hints_used = hints_used + 1
         WHERE id = $1 AND user_id = $2 AND hints_used < $3 AND finished_at IS NULL AND ends_at > $4",
    )
    .bind(id)
    .bind(user_id)
    .bind(max)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stores the report once; `false` when it was already finished.
pub async fn finish(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
    report: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE interviews SET finished_at = $1, report = $2
         WHERE id = $3 AND user_id = $4 AND finished_at IS NULL",
    )
    .bind(now)
    .bind(report)
    .bind(id)
    .bind(user_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A submit's outcome as the interview report reads it; `verdict` is `None` while pending.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BestSubmit {
    pub verdict: Option<Stored<Verdict>>,
    pub passed: Option<i64>,
    pub total: Option<i64>,
    pub created_at: i64,
}

/// The best submit of `kata` by the user within the interview's window: accepted first, then
/// most cases passed. The CASE rather than
/// `verdict = 'accepted' DESC` because a pending submit's NULL sorts first on PostgreSQL and last
/// on SQLite, and on PostgreSQL it would hide an accepted submit.
pub async fn best_submit(
    db: &Db,
    user_id: UserId,
    kata: &str,
    from: i64,
    to: i64,
) -> Result<Option<BestSubmit>, sqlx::Error> {
    sqlx::query_as(
        "SELECT verdict, passed, total, created_at FROM submissions
         WHERE user_id = $1 AND kata = $2 AND mode = 'submit' AND created_at >= $3 AND created_at <= $4
         ORDER BY CASE WHEN verdict = 'accepted' THEN 0 ELSE 1 END, COALESCE(passed, 0) DESC, id LIMIT 1",
    )
    .bind(user_id)
    .bind(kata)
    .bind(from)
    .bind(to)
    .fetch_optional(db)
    .await
}

/// Replaces a finished interview's report once its pending kata verdict has landed.
pub async fn settle_report(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
    report: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE interviews SET report = $1
         WHERE id = $2 AND user_id = $3 AND finished_at IS NOT NULL",
    )
    .bind(report)
    .bind(id)
    .bind(user_id)
    .execute(db)
    .await?;
    Ok(())
}

/// The user's interview on `kata` whose clock is still running, if any.
pub async fn running_on(
    db: &Db,
    user_id: UserId,
    kata: &str,
    now: i64,
) -> Result<Option<InterviewId>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM interviews
         WHERE user_id = $1 AND kata = $2 AND finished_at IS NULL AND ends_at > $3
         ORDER BY id DESC LIMIT 1",
    )
    .bind(user_id)
    .bind(kata)
    .bind(now)
    .fetch_optional(db)
    .await
}

/// Whether a running interview of the user asks the drill item `set`/`item`.
pub async fn holds_item(
    db: &Db,
    user_id: UserId,
    set: &str,
    item: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT a.id FROM drill_attempts a JOIN interviews i ON i.id = a.interview_id
         WHERE a.user_id = $1 AND a.drill_set = $2 AND a.item = $3
           AND i.finished_at IS NULL AND i.ends_at > $4
         LIMIT 1",
    )
    .bind(user_id)
    .bind(set)
    .bind(item)
    .bind(now)
    .fetch_optional(db)
    .await?;
    Ok(found.is_some())
}

/// The interview's editor draft, if one was saved.
pub async fn draft_of(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
) -> Result<Option<String>, sqlx::Error> {
    let draft: Option<Option<String>> =
        sqlx::query_scalar("SELECT draft FROM interviews WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .fetch_optional(db)
            .await?;
    Ok(draft.flatten())
}

/// Keeps the interview's editor draft while its clock runs; false once it is over.
pub async fn save_draft(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
    source: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE interviews SET draft = $1
         WHERE id = $2 AND user_id = $3 AND finished_at IS NULL AND ends_at > $4",
    )
    .bind(source)
    .bind(id)
    .bind(user_id)
    .bind(now)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}
