//! SQLite storage: one file, WAL, foreign keys on, migrations from `migrations/` applied at start.

pub mod drafts;
pub mod jobs;
pub mod katas;
pub mod progress;
pub mod sessions;
pub mod submissions;
pub mod users;
pub mod workers;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use std::path::Path;
use std::time::Duration;

pub type Db = sqlx::SqlitePool;

/// Opens (creating if needed) and migrates the database at `path`.
pub async fn open(path: &Path) -> Result<Db, sqlx::Error> {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10));
    let db = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await?;
    sqlx::migrate!("../migrations").run(&db).await?;
    Ok(db)
}

/// Milliseconds since the Unix epoch: every timestamp column.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
