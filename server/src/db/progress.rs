//! What the pages show about solving: solved marks, per-kata progress, leaderboards. A kata is
//! solved by an accepted `submit` (a `run` checks the samples only).

use super::Db;
use crate::domain::{Slug, SubmissionId, UserId};
use std::collections::HashSet;

/// Katas the user has solved.
pub async fn solved(db: &Db, user_id: UserId) -> Result<HashSet<Slug>, sqlx::Error> {
    let rows: Vec<Slug> = sqlx::query_scalar(
        "SELECT DISTINCT kata FROM submissions
         WHERE user_id = $1 AND mode = 'submit' AND verdict = 'accepted'",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().collect())
}

pub async fn has_solved(db: &Db, user_id: UserId, kata: &str) -> Result<bool, sqlx::Error> {
    // 0/1 rather than a boolean: the one shape both backends return.
    let solved: i64 = sqlx::query_scalar(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM submissions
           WHERE user_id = $1 AND kata = $2 AND mode = 'submit' AND verdict = 'accepted')
         THEN 1 ELSE 0 END",
    )
    .bind(user_id)
    .bind(kata)
    .fetch_one(db)
    .await?;
    Ok(solved != 0)
}

/// A 0/1 column read as a yes/no (PostgreSQL's booleans and SQLite's integers differ under
/// `Any`, so queries return integers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

impl From<i64> for Flag {
    fn from(v: i64) -> Self {
        Self(v != 0)
    }
}

/// One user's standing on one kata.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KataProgress {
    pub kata: Slug,
    pub submissions: i64,
    #[sqlx(try_from = "i64")]
    pub solved: Flag,
    /// Best performance ratio among accepted submits (lower is better).
    pub best_ratio: Option<f64>,
    pub last_at: i64,
}

/// Every kata the user has submitted to; withdrawn submissions (cancelled, or timed out waiting
/// for a worker) and custom-input runs (the learner's own input, not the kata's cases) are not
/// attempts.
pub async fn for_user(db: &Db, user_id: UserId) -> Result<Vec<KataProgress>, sqlx::Error> {
    sqlx::query_as(
        "SELECT kata, COUNT(*) AS submissions,
           MAX(CASE WHEN mode = 'submit' AND verdict = 'accepted' THEN 1 ELSE 0 END) AS solved,
           MIN(CASE WHEN mode = 'submit' AND verdict = 'accepted' THEN perf_ratio END) AS best_ratio,
           MAX(created_at) AS last_at
         FROM submissions WHERE user_id = $1 AND withdrawn IS NULL AND custom_input IS NULL
         GROUP BY kata",
    )
    .bind(user_id)
    .fetch_all(db)
    .await
}

/// A leaderboard row: one per user with an accepted submit.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Standing {
    pub name: String,
    /// The submission with the best ratio.
    pub best_id: SubmissionId,
    pub best_ratio: Option<f64>,
    pub accepted: i64,
    pub first_solved_at: i64,
}

/// Best performance ratio among each user's accepted submits, best first; ties (and accepted
/// submits without a measurement) go to whoever solved it first.
pub async fn leaderboard(db: &Db, kata: &str, limit: i64) -> Result<Vec<Standing>, sqlx::Error> {
    sqlx::query_as(
        "SELECT u.name AS name, MIN(s.perf_ratio) AS best_ratio,
           (SELECT b.id FROM submissions b
             WHERE b.user_id = s.user_id AND b.kata = $1 AND b.mode = 'submit'
               AND b.verdict = 'accepted'
             ORDER BY b.perf_ratio IS NULL, b.perf_ratio, b.id LIMIT 1) AS best_id, COUNT(*) AS accepted,
           MIN(s.created_at) AS first_solved_at
         FROM submissions s JOIN users u ON u.id = s.user_id
         WHERE s.kata = $1 AND s.mode = 'submit' AND s.verdict = 'accepted'
         GROUP BY s.user_id, u.name
         ORDER BY MIN(s.perf_ratio) IS NULL, MIN(s.perf_ratio), MIN(s.created_at)
         LIMIT $2",
    )
    .bind(kata)
    .bind(limit)
    .fetch_all(db)
    .await
}
