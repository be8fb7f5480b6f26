//! Who may see and submit to a kata: the status of the version this replica serves (see
//! [`Availability`]). Instructors change it at `/admin/katas/{slug}`; every replica reads it
//! from the database, so a change takes effect everywhere without a restart.

use super::Db;
use super::kata_versions::served_hash;
use crate::domain::{Availability, Stored};
use std::collections::HashMap;

/// The served version's availability of every kata that has one (a kata whose version was
/// never published, which the start-up sync prevents, counts as listed).
pub async fn all(db: &Db) -> Result<HashMap<String, Availability>, sqlx::Error> {
    let rows: Vec<(String, String, Stored<Availability>)> =
        sqlx::query_as("SELECT slug, content_hash, status FROM kata_versions")
            .fetch_all(db)
            .await?;
    Ok(rows
        .into_iter()
        .filter(|(slug, hash, _)| served_hash(slug) == Some(hash.as_str()))
        .map(|(slug, _, Stored(status))| (slug, status))
        .collect())
}

/// The served version's availability of `slug`.
pub async fn of(db: &Db, slug: &str) -> Result<Availability, sqlx::Error> {
    let Some(hash) = served_hash(slug) else {
        return Ok(Availability::Listed);
    };
    let status: Option<Stored<Availability>> = sqlx::query_scalar(
        "SELECT status FROM kata_versions WHERE slug = $1 AND content_hash = $2",
    )
    .bind(slug)
    .bind(hash)
    .fetch_optional(db)
    .await?;
    Ok(status.map_or(Availability::Listed, |Stored(s)| s))
}

/// Sets the availability of the version of `slug` this replica serves; `false` when it has
/// no published version.
pub async fn set(db: &Db, slug: &str, status: Availability) -> Result<bool, sqlx::Error> {
    let Some(hash) = served_hash(slug) else {
        return Ok(false);
    };
    let done =
        sqlx::query("UPDATE kata_versions SET status = $1 WHERE slug = $2 AND content_hash = $3")
            .bind(Stored(status))
            .bind(slug)
            .bind(hash)
            .execute(db)
            .await?;
    Ok(done.rows_affected() == 1)
}
