//! Published versions of kata packages (`kata_versions`), and what learners' work written for an
//! older one needs to be told.
//!
//! A version is identified by its package's content hash and numbered 1, 2, … per kata, in the
//! order the service first saw it. The built-in catalogue is published by the start-up sync
//! ([`super::katas::sync`]), so every replica, on either backend, numbers it the same; an
//! instructor's upload ([`crate::services::publishing`]) is published the same way. Which
//! version a replica serves is [`super::served`]'s rule.

use super::{Db, Tx, now_ms};
use crate::domain::UserId;
use crate::domain::{Availability, Stored, VersionSource};
use katas::learner_api::{ApiChange, LearnerApi};

/// What identifies a package version and what learners' old code needs from it later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    pub content_hash: String,
    /// The hash without the statements: a build serves every version that shares its own.
    pub grading_hash: String,
    pub api: LearnerApi,
    pub starter: String,
    pub source: VersionSource,
    /// An uploaded version's statements; a build's are compiled into it.
    pub statements: Option<Statements>,
    pub published_by: Option<UserId>,
}

/// A version's `README.md` and `README.zh.md`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statements {
    pub en: String,
    pub zh: String,
}

impl Published {
    /// The version of a kata compiled into this binary.
    pub fn compiled(kata: &dyn katas::Kata) -> Result<Self, katas::learner_api::ApiError> {
        let package = kata.package();
        Ok(Self {
            content_hash: package.content_hash.to_string(),
            grading_hash: package.grading_hash.to_string(),
            api: LearnerApi::of_logic(package.logic)?,
            starter: package.starter.to_string(),
            source: VersionSource::Build,
            statements: None,
            published_by: None,
        })
    }
}

/// What [`publish`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Publication {
    pub number: i64,
    /// `false` when the same files were already published (under `number`).
    pub new: bool,
}

/// One stored version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub number: i64,
    pub content_hash: String,
    pub api_hash: String,
    pub api: LearnerApi,
    pub starter: String,
    pub published_at: i64,
}

/// One version as the instructor's list shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Listed {
    pub number: i64,
    pub content_hash: String,
    pub source: VersionSource,
    pub status: Availability,
    pub published_at: i64,
    /// Who uploaded it; `None` for a build's version.
    pub published_by: Option<String>,
    /// Whether this build can serve it (its package is stored, or its grading hash is the
    /// build's).
    pub servable: bool,
    /// Whether its package is stored on the service, so any replica or worker grades it from
    /// its own files (a build's versions are stored when it starts, a statement fix when it is
    /// published; a version an older build never stored is graded only by a build with the
    /// same grading).
    pub packaged: bool,
    pub live: bool,
}

/// Code written for one version, read against the version served now, whose API differs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ApiChanged {
    pub written_for: i64,
    pub current: i64,
    pub changes: Vec<ApiChange>,
    /// The current version's starter, offered in place of the old code.
    pub starter: String,
}

#[derive(Debug, thiserror::Error)]
pub enum VersionError {
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error("stored API of {slug} version {number} does not decode: {source}")]
    Api {
        slug: String,
        number: i64,
        source: serde_json::Error,
    },
}

/// Stores `version` of `slug` under the next number unless it is already stored. Callers hold
/// a lock on the kata's versions (the catalogue sync's, or the kata row's for an upload), so
/// numbers are handed out one at a time.
pub async fn publish(
    tx: &mut Tx<'_>,
    slug: &str,
    version: &Published,
) -> Result<Publication, sqlx::Error> {
    if let Some(number) = number_in(tx, slug, &version.content_hash).await? {
        // Versions stored before grading hashes were recorded get theirs.
        sqlx::query(
            "UPDATE kata_versions SET grading_hash = $1
              WHERE slug = $2 AND number = $3 AND grading_hash IS NULL",
        )
        .bind(&version.grading_hash)
        .bind(slug)
        .bind(number)
        .execute(&mut **tx)
        .await?;
        return Ok(Publication { number, new: false });
    }
    let api = serde_json::to_string(&version.api).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let (statement, statement_zh) = match &version.statements {
        Some(s) => (Some(s.en.as_str()), Some(s.zh.as_str())),
        None => (None, None),
    };
    // A new version starts as the live one was: an unlisted or retired kata stays so when a
    // fix to it is published.
    sqlx::query(
        "INSERT INTO kata_versions
           (slug, number, content_hash, api_hash, api, starter, published_at, status,
            grading_hash, source, statement, statement_zh, published_by)
         SELECT $1, COALESCE(MAX(number), 0) + 1, $2, $3, $4, $5, $6,
                COALESCE((SELECT v.status FROM kata_versions v JOIN katas k
                            ON k.slug = v.slug AND k.live_version = v.number
                           WHERE v.slug = $1), 'listed'),
                $7, $8, $9, $10, $11
           FROM kata_versions WHERE slug = $1",
    )
    .bind(slug)
    .bind(&version.content_hash)
    .bind(version.api.fingerprint())
    .bind(api)
    .bind(&version.starter)
    .bind(now_ms())
    .bind(&version.grading_hash)
    .bind(Stored(version.source))
    .bind(statement)
    .bind(statement_zh)
    .bind(version.published_by)
    .execute(&mut **tx)
    .await?;
    let number = number_in(tx, slug, &version.content_hash)
        .await?
        .ok_or(sqlx::Error::RowNotFound)?;
    Ok(Publication { number, new: true })
}

async fn number_in(
    tx: &mut Tx<'_>,
    slug: &str,
    content_hash: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT number FROM kata_versions WHERE slug = $1 AND content_hash = $2")
        .bind(slug)
        .bind(content_hash)
        .fetch_optional(&mut **tx)
        .await
}

/// Every version of `slug`, newest first.
pub async fn list(db: &Db, slug: &str) -> Result<Vec<Listed>, sqlx::Error> {
    type Row = (
        i64,
        String,
        Option<String>,
        Stored<VersionSource>,
        Stored<Availability>,
        i64,
        Option<String>,
        i64,
    );
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT v.number, v.content_hash, v.grading_hash, v.source, v.status, v.published_at,
                u.name, CASE WHEN {} THEN 1 ELSE 0 END
           FROM kata_versions v LEFT JOIN users u ON u.id = v.published_by
          WHERE v.slug = $1 ORDER BY v.number DESC",
        super::kata_packages::PACKAGED
    ))
    .bind(slug)
    .fetch_all(db)
    .await?;
    let served = super::served::served(db, slug).await?.map(|s| s.number);
    Ok(rows
        .into_iter()
        .map(
            |(number, content_hash, grading, Stored(source), Stored(status), at, by, packaged)| {
                Listed {
                    servable: super::served::can_serve(slug, grading.as_deref(), packaged == 1),
                    packaged: packaged == 1,
                    live: served == Some(number),
                    number,
                    content_hash,
                    source,
                    status,
                    published_at: at,
                    published_by: by,
                }
            },
        )
        .collect())
}

/// The number of the version with `content_hash`, if published.
pub async fn number_of(
    db: &Db,
    slug: &str,
    content_hash: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT number FROM kata_versions WHERE slug = $1 AND content_hash = $2")
        .bind(slug)
        .bind(content_hash)
        .fetch_optional(db)
        .await
}

pub async fn get(db: &Db, slug: &str, number: i64) -> Result<Option<Version>, VersionError> {
    let row: Option<(String, String, String, String, i64)> = sqlx::query_as(
        "SELECT content_hash, api_hash, api, starter, published_at
           FROM kata_versions WHERE slug = $1 AND number = $2",
    )
    .bind(slug)
    .bind(number)
    .fetch_optional(db)
    .await?;
    let Some((content_hash, api_hash, api, starter, published_at)) = row else {
        return Ok(None);
    };
    let api = serde_json::from_str(&api).map_err(|source| VersionError::Api {
        slug: slug.to_string(),
        number,
        source,
    })?;
    Ok(Some(Version {
        number,
        content_hash,
        api_hash,
        api,
        starter,
        published_at,
    }))
}

/// How the API changed since the version `written_for`, when code written for it would meet a
/// different API in the version served now; `None` when it would not (same API, or unknown:
/// work from before versions were recorded is not second-guessed).
pub async fn api_changed(
    db: &Db,
    slug: &str,
    written_for: Option<i64>,
) -> Result<Option<ApiChanged>, VersionError> {
    let Some(written_for) = written_for else {
        return Ok(None);
    };
    let Some(current) = super::served::served(db, slug).await?.map(|s| s.number) else {
        return Ok(None);
    };
    if current == written_for {
        return Ok(None);
    }
    let (Some(old), Some(new)) = (
        get(db, slug, written_for).await?,
        get(db, slug, current).await?,
    ) else {
        return Ok(None);
    };
    if old.api_hash == new.api_hash {
        return Ok(None);
    }
    Ok(Some(ApiChanged {
        written_for,
        current,
        changes: new.api.changes_from(&old.api),
        starter: new.starter,
    }))
}
