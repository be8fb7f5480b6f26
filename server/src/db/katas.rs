//! The `katas` table mirrors the compiled catalogue, synced at start-up.

use super::{Db, Dialect, dialect};

/// The advisory lock key of the catalogue sync (any constant unique to it in this database).
const CATALOGUE_SYNC_LOCK: i64 = 0x494e_4b41_5441_0001;

pub async fn sync(db: &Db) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    if dialect(db) == Dialect::Postgres {
        // Replicas starting together take turns (released at commit) rather than interleave
        // their rewrites of the same rows and deadlock.
        sqlx::query("SELECT 1 FROM pg_advisory_xact_lock($1)")
            .bind(CATALOGUE_SYNC_LOCK)
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("UPDATE katas SET listed = 0")
        .execute(&mut *tx)
        .await?;
    for (position, kata) in katas::catalogue::all().iter().enumerate() {
        let m = kata.meta();
        sqlx::query(
            "INSERT INTO katas (slug, title, summary, difficulty, kind, topics, position, listed)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 1)
             ON CONFLICT (slug) DO UPDATE SET title = excluded.title, summary = excluded.summary,
               difficulty = excluded.difficulty, kind = excluded.kind, topics = excluded.topics,
               position = excluded.position, listed = 1",
        )
        .bind(&m.slug)
        .bind(&m.title)
        .bind(&m.summary)
        .bind(m.difficulty.as_str())
        .bind(m.kind.as_str())
        .bind(serde_json::to_string(&m.topics).unwrap_or_default())
        .bind(position as i64)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}
