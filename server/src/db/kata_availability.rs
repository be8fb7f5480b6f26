//! Who may see and submit to a kata: the status of the version this replica serves (see
//! [`Availability`] and [`super::served`]). Instructors change it at `/admin/katas/{slug}`;
//! every replica reads it from the database, so a change takes effect everywhere without a
//! restart.

use super::Db;
use super::served;
use crate::domain::{Availability, Stored};
use std::collections::HashMap;

/// The served version's availability of every kata that has one (a kata whose version was
/// never published, which the start-up sync prevents, counts as listed).
pub async fn all(db: &Db) -> Result<HashMap<String, Availability>, sqlx::Error> {
    Ok(served::all(db)
        .await?
        .into_iter()
        .map(|(slug, served)| (slug, served.status))
        .collect())
}

/// The served version's availability of `slug`.
pub async fn of(db: &Db, slug: &str) -> Result<Availability, sqlx::Error> {
    Ok(served::served(db, slug)
        .await?
        .map_or(Availability::Listed, |s| s.status))
}

/// Sets the availability of version `number` of `slug` (a new version published unlisted).
pub async fn set_in(
    tx: &mut super::Tx<'_>,
    slug: &str,
    number: i64,
    status: Availability,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE kata_versions SET status = $1 WHERE slug = $2 AND number = $3")
        .bind(Stored(status))
        .bind(slug)
        .bind(number)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Sets the availability of the version of `slug` this replica serves; `false` when it has
/// no published version.
pub async fn set(db: &Db, slug: &str, status: Availability) -> Result<bool, sqlx::Error> {
    let Some(served) = served::served(db, slug).await? else {
        return Ok(false);
    };
    let done = sqlx::query("UPDATE kata_versions SET status = $1 WHERE slug = $2 AND number = $3")
        .bind(Stored(status))
        .bind(slug)
        .bind(served.number)
        .execute(db)
        .await?;
    Ok(done.rows_affected() == 1)
}
