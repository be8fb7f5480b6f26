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
