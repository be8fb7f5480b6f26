//! What a learner has typed but not yet submitted (one draft per kata, replaced on every save),
//! and which hints they have opened.

use super::{Db, now_ms};
use crate::domain::UserId;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Draft {
    pub source: String,
    /// Milliseconds since the epoch (the page compares it with its offline copy).
    pub updated_at: i64,
    /// The kata version it was written for; `None` before versions were recorded.
    pub kata_version: Option<i64>,
}

pub async fn get(db: &Db, user_id: UserId, kata: &str) -> Result<Option<Draft>, sqlx::Error> {
    sqlx::query_as(
        "SELECT source, updated_at, kata_version FROM drafts WHERE user_id = $1 AND kata = $2",
    )
    .bind(user_id)
    .bind(kata)
    .fetch_optional(db)
    .await
}

/// Stores `source` as the draft; returns its time.
pub async fn put(db: &Db, user_id: UserId, kata: &str, source: &str) -> Result<i64, sqlx::Error> {
    let now = now_ms();
    sqlx::query(
        "INSERT INTO drafts (user_id, kata, source, updated_at, kata_version)
         VALUES ($1, $2, $3, $4,
           (SELECT number FROM kata_versions WHERE slug = $2 AND content_hash = $5))
         ON CONFLICT (user_id, kata) DO UPDATE SET source = excluded.source,
           updated_at = excluded.updated_at, kata_version = excluded.kata_version",
    )
    .bind(user_id)
    .bind(kata)
    .bind(source)
    .bind(now)
    .bind(
        super::served::served(db, kata)
            .await?
            .map(|v| v.content_hash),
    )
    .execute(db)
    .await?;
    Ok(now)
}

/// Records that the learner opened hint `hint` (0-based); opening it again changes nothing.
pub async fn open_hint(db: &Db, user_id: UserId, kata: &str, hint: u32) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO hints_opened (user_id, kata, hint, opened_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING",
    )
    .bind(user_id)
    .bind(kata)
    .bind(i64::from(hint))
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// The hints (0-based) the learner has opened on `kata`.
pub async fn opened_hints(db: &Db, user_id: UserId, kata: &str) -> Result<Vec<u32>, sqlx::Error> {
    let hints: Vec<i64> = sqlx::query_scalar(
        "SELECT hint FROM hints_opened WHERE user_id = $1 AND kata = $2 ORDER BY hint",
    )
    .bind(user_id)
    .bind(kata)
    .fetch_all(db)
    .await?;
    // The table's CHECK keeps them non-negative, and they index a kata's few hints.
    Ok(hints
        .into_iter()
        .filter_map(|h| u32::try_from(h).ok())
        .collect())
}
