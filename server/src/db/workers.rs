//! Workers seen by the server, with their advertised capabilities.

use super::{Db, now_ms};
use serde::{Deserialize, Serialize};

/// What a worker can grade. GPU details arrive with the GPU issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    pub cores: u32,
    /// Job kinds it accepts (`cpu`, later `gpu`).
    pub kinds: Vec<String>,
}

pub async fn seen(
    db: &Db,
    id: &str,
    name: &str,
    caps: &Capabilities,
    builtin: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO workers (id, name, capabilities, builtin, last_seen) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, capabilities = excluded.capabilities,
           last_seen = excluded.last_seen",
    )
    .bind(id)
    .bind(name)
    .bind(serde_json::to_string(caps).unwrap_or_default())
    .bind(builtin)
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// A worker as the admin page lists it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub id: String,
    pub name: String,
    pub capabilities: Option<Capabilities>,
    pub builtin: bool,
    pub last_seen: i64,
}

/// Every worker ever seen, most recently seen first.
pub async fn list(db: &Db) -> Result<Vec<Seen>, sqlx::Error> {
    let rows: Vec<(String, String, String, bool, i64)> = sqlx::query_as(
        "SELECT id, name, capabilities, builtin, last_seen FROM workers ORDER BY last_seen DESC",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, caps, builtin, last_seen)| Seen {
            id,
            name,
            capabilities: serde_json::from_str(&caps).ok(),
            builtin,
            last_seen,
        })
        .collect())
}
