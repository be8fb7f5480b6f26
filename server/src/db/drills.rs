//! Drill attempts. The attempt's key (expected answer, correct options, explanation) is stored
//! here when the attempt starts and leaves the server only once the learner has answered.

use super::{Db, Tx, now_ms};
use crate::domain::InterviewId;
use crate::domain::UserId;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Attempt {
    pub id: i64,
    pub user_id: UserId,
    pub drill_set: String,
    pub item: String,
    pub presented: String,
    pub answer_key: String,
    pub started_at: i64,
    pub answered_at: Option<i64>,
    pub response: Option<String>,
    pub result: Option<String>,
    pub score: Option<f64>,
    /// 1 when the answer was right, 0 when not (flags are integers on both backends).
    pub correct: Option<i64>,
    /// The interview the attempt belongs to, if any.
    pub interview_id: Option<InterviewId>,
}

/// Stores a started attempt (part of `interview_id`'s, if given) in the caller's transaction,
/// which also spends the budget it is paid from.
pub async fn create(
    tx: &mut Tx<'_>,
    user_id: UserId,
    set: &str,
    item: &str,
    presented: &str,
    key: &str,
    interview_id: Option<InterviewId>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO drill_attempts
           (user_id, drill_set, item, presented, answer_key, started_at, interview_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(user_id)
    .bind(set)
    .bind(item)
    .bind(presented)
    .bind(key)
    .bind(now_ms())
    .bind(interview_id)
    .fetch_one(&mut **tx)
    .await
}

/// How many of the user's attempts await an answer.
pub async fn open_count(tx: &mut Tx<'_>, user_id: UserId) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM drill_attempts WHERE user_id = $1 AND answered_at IS NULL",
    )
    .bind(user_id)
    .fetch_one(&mut **tx)
    .await
}

/// An interview's attempts, in the order they were made.
pub async fn of_interview(db: &Db, interview_id: InterviewId) -> Result<Vec<Attempt>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM drill_attempts WHERE interview_id = $1 ORDER BY id")
        .bind(interview_id)
        .fetch_all(db)
        .await
}

/// The user's own attempt; `None` for another user's, so ids reveal nothing.
pub async fn get(db: &Db, id: i64, user_id: UserId) -> Result<Option<Attempt>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM drill_attempts WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .fetch_optional(db)
        .await
}

/// Stores the answer and its result once; `false` when the attempt was already answered (the
/// first answer stands).
pub async fn record(
    db: &Db,
    id: i64,
    user_id: UserId,
    response: &str,
    result: &str,
    score: f64,
    correct: bool,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE drill_attempts SET answered_at = $1, response = $2, result = $3, score = $4, correct = $5
         WHERE id = $6 AND user_id = $7 AND answered_at IS NULL",
    )
    .bind(now_ms())
    .bind(response)
    .bind(result)
    .bind(score)
    .bind(i64::from(correct))
    .bind(id)
    .bind(user_id)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The user's latest attempts, newest first.
pub async fn recent(db: &Db, user_id: UserId, limit: i64) -> Result<Vec<Attempt>, sqlx::Error> {
    sqlx::query_as("SELECT * FROM drill_attempts WHERE user_id = $1 ORDER BY id DESC LIMIT $2")
        .bind(user_id)
        .bind(limit)
        .fetch_all(db)
        .await
}

/// Answer statistics of one item over every learner, for the instructors' page.
#[derive(Debug, Clone)]
pub struct ItemStats {
    pub drill_set: String,
    pub item: String,
    pub answered: i64,
    pub correct_share: f64,
    pub median_ms: Option<i64>,
}

pub async fn item_stats(db: &Db) -> Result<Vec<ItemStats>, sqlx::Error> {
    let rows: Vec<(String, String, i64, i64)> = sqlx::query_as(
        "SELECT drill_set, item, answered_at - started_at, correct FROM drill_attempts
         WHERE answered_at IS NOT NULL ORDER BY drill_set, item, answered_at - started_at",
    )
    .fetch_all(db)
    .await?;
    let mut out: Vec<ItemStats> = Vec::new();
    let mut times: Vec<i64> = Vec::new();
    let mut right = 0i64;
    let flush =
        |out: &mut Vec<ItemStats>, times: &mut Vec<i64>, right: &mut i64, key: (&str, &str)| {
            if !times.is_empty() {
                out.push(ItemStats {
                    drill_set: key.0.to_string(),
                    item: key.1.to_string(),
                    answered: times.len() as i64,
                    correct_share: *right as f64 / times.len() as f64,
                    median_ms: Some(times[times.len() / 2]),
                });
            }
            times.clear();
            *right = 0;
        };
    let mut current: Option<(String, String)> = None;
    for (set, item, ms, correct) in rows {
        if current.as_ref() != Some(&(set.clone(), item.clone())) {
            if let Some((s, i)) = current.take() {
                flush(&mut out, &mut times, &mut right, (&s, &i));
            }
            current = Some((set.clone(), item.clone()));
        }
        times.push(ms);
        right += correct;
    }
    if let Some((s, i)) = current {
        flush(&mut out, &mut times, &mut right, (&s, &i));
    }
    Ok(out)
}
