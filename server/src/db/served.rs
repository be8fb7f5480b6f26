//! Which version of a kata this replica serves. A version whose package is stored
//! ([`super::kata_packages`]: every version of a CPU kata — a build's own, an upload, a
//! statement fix — and a stdin/stdout kata's) is graded from that package whatever the build
//! holds, so when it is live every replica serves it alike. A GPU kata's build versions and
//! their statement fixes are not stored: a replica grades them with the package compiled into
//! it, so it serves the live version when its grading hash (the package without its
//! statements, `katas::package_hash::grading_hash`) is its build's — a statement fix, or an
//! earlier version rolled back to — and otherwise the version of its own build (a replica of
//! another build during a rolling deploy).

use super::kata_versions::Statements;
use super::{Db, Tx};
use crate::domain::{Availability, Stored};
use std::collections::HashMap;

/// The version served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    pub number: i64,
    pub content_hash: String,
    pub status: Availability,
    /// Whether its statements are stored (an upload) rather than compiled into this build.
    pub stored_statements: bool,
}

/// Whether this build can grade a version: its package is stored (`packaged`: graded from it),
/// or its `grading_hash` is the build's (unknown for versions stored before grading hashes
/// were: only the build's own content hash vouches for those).
pub fn can_serve(slug: &str, grading_hash: Option<&str>, packaged: bool) -> bool {
    packaged
        || katas::builtin::find(slug)
            .is_some_and(|kata| Some(kata.package().grading_hash) == grading_hash)
}

type Row = (
    String,
    i64,
    String,
    Option<String>,
    Stored<Availability>,
    Option<i64>,
    i64,
    i64,
);

fn rows_sql() -> String {
    format!(
        "SELECT v.slug, v.number, v.content_hash, v.grading_hash, v.status, k.live_version,
            CASE WHEN v.statement IS NULL THEN 0 ELSE 1 END,
            CASE WHEN {} THEN 1 ELSE 0 END
       FROM kata_versions v JOIN katas k ON k.slug = v.slug",
        super::kata_packages::PACKAGED
    )
}

/// Picks, among one kata's candidate rows, the live version if this build can serve it, else
/// the build's own.
fn pick(slug: &str, rows: impl Iterator<Item = Row>) -> Option<Served> {
    let compiled = katas::builtin::find(slug).map(|k| k.package());
    let (mut live, mut own) = (None, None);
    for (_, number, content_hash, grading, Stored(status), live_version, stored, packaged) in rows {
        let served = Served {
            number,
            content_hash,
            status,
            stored_statements: stored == 1,
        };
        let is_live = live_version == Some(number);
        match compiled {
            Some(compiled) => {
                let servable = packaged == 1 || grading.as_deref() == Some(compiled.grading_hash);
                if is_live && servable {
                    live = Some(served);
                } else if served.content_hash == compiled.content_hash {
                    own = Some(served);
                }
            }
            None if is_live && packaged == 1 => live = Some(served),
            None => {}
        }
    }
    live.or(own)
}

/// The version of `slug` served; `None` for a kata this build does not have or never published.
pub async fn served(db: &Db, slug: &str) -> Result<Option<Served>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "{} WHERE v.slug = $1 AND (v.number = k.live_version OR v.content_hash = $2)",
        rows_sql()
    ))
    .bind(slug)
    .bind(compiled_hash(slug))
    .fetch_all(db)
    .await?;
    Ok(pick(slug, rows.into_iter()))
}

/// [`served`] inside a transaction (work recorded with the version it was written for).
pub async fn served_in(tx: &mut Tx<'_>, slug: &str) -> Result<Option<Served>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "{} WHERE v.slug = $1 AND (v.number = k.live_version OR v.content_hash = $2)",
        rows_sql()
    ))
    .bind(slug)
    .bind(compiled_hash(slug))
    .fetch_all(&mut **tx)
    .await?;
    Ok(pick(slug, rows.into_iter()))
}

/// The version served of every kata.
pub async fn all(db: &Db) -> Result<HashMap<String, Served>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(&rows_sql()).fetch_all(db).await?;
    let mut by_slug: HashMap<String, Vec<Row>> = HashMap::new();
    for row in rows {
        by_slug.entry(row.0.clone()).or_default().push(row);
    }
    Ok(by_slug
        .into_iter()
        .filter_map(|(slug, rows)| Some((slug.clone(), pick(&slug, rows.into_iter())?)))
        .collect())
}

fn compiled_hash(slug: &str) -> Option<&'static str> {
    katas::builtin::find(slug).map(|k| k.package().content_hash)
}

/// The stored statements of version `number` of `slug`; `None` for a build's version.
pub async fn statements(
    db: &Db,
    slug: &str,
    number: i64,
) -> Result<Option<Statements>, sqlx::Error> {
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT statement, statement_zh FROM kata_versions WHERE slug = $1 AND number = $2",
    )
    .bind(slug)
    .bind(number)
    .fetch_optional(db)
    .await?;
    Ok(match row {
        Some((Some(en), Some(zh))) => Some(Statements { en, zh }),
        _ => None,
    })
}

/// What [`make_live`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MadeLive {
    Live,
    /// No such version.
    Unknown,
    /// Its grading differs from this build's: serving it needs the build it came from.
    OtherBuild,
}

/// Makes version `number` the one learners are served (a roll-back, or forward again), keeping
/// the kata's availability as it is now.
pub async fn make_live(db: &Db, slug: &str, number: i64) -> Result<MadeLive, sqlx::Error> {
    let mut tx = db.begin().await?;
    lock_kata(&mut tx, slug).await?;
    let version: Option<(Option<String>, i64)> = sqlx::query_as(&format!(
        "SELECT v.grading_hash, CASE WHEN {} THEN 1 ELSE 0 END
           FROM kata_versions v WHERE v.slug = $1 AND v.number = $2",
        super::kata_packages::PACKAGED
    ))
    .bind(slug)
    .bind(number)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((grading, packaged)) = version else {
        return Ok(MadeLive::Unknown);
    };
    if !can_serve(slug, grading.as_deref(), packaged == 1) {
        return Ok(MadeLive::OtherBuild);
    }
    set_live(&mut tx, slug, number).await?;
    tx.commit().await?;
    Ok(MadeLive::Live)
}

/// Takes the kata's row lock, so versions of one kata are published and made live one at a time
/// (on SQLite the write itself takes the database's write lock).
pub async fn lock_kata(tx: &mut Tx<'_>, slug: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE katas SET live_version = live_version WHERE slug = $1")
        .bind(slug)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Sets the live version to `number`, which takes the availability of the version served until
/// now.
pub async fn set_live(tx: &mut Tx<'_>, slug: &str, number: i64) -> Result<(), sqlx::Error> {
    if let Some(now) = served_in(tx, slug).await? {
        sqlx::query("UPDATE kata_versions SET status = $1 WHERE slug = $2 AND number = $3")
            .bind(Stored(now.status))
            .bind(slug)
            .bind(number)
            .execute(&mut **tx)
            .await?;
    }
    sqlx::query("UPDATE katas SET live_version = $1 WHERE slug = $2")
        .bind(number)
        .bind(slug)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
