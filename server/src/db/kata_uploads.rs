//! Package uploads and their verification reports (`kata_uploads`): written when an upload
//! starts, completed when its checks end, so a check that outlasts its request is read later
//! from any replica.

use super::{Db, now_ms};
use crate::domain::UserId;

/// One upload as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub slug: String,
    /// The report's JSON; `None` while the checks run.
    pub report: Option<String>,
    pub created_at: i64,
}

/// Records an upload whose checks are starting; its id.
pub async fn start(db: &Db, slug: &str, by: UserId) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO kata_uploads (slug, uploaded_by, created_at) VALUES ($1, $2, $3)
         RETURNING id",
    )
    .bind(slug)
    .bind(by)
    .bind(now_ms())
    .fetch_one(db)
    .await
}

/// Stores the report of upload `id`.
pub async fn finish(db: &Db, id: i64, report: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE kata_uploads SET report = $1, finished_at = $2 WHERE id = $3")
        .bind(report)
        .bind(now_ms())
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

pub async fn get(db: &Db, id: i64) -> Result<Option<Upload>, sqlx::Error> {
    let row: Option<(String, Option<String>, i64)> =
        sqlx::query_as("SELECT slug, report, created_at FROM kata_uploads WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(slug, report, created_at)| Upload {
        slug,
        report,
        created_at,
    }))
}
