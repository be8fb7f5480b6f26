//! Published versions of kata packages (`kata_versions`), and what learners' work written for an
//! older one needs to be told.
//!
//! A version is identified by its package's content hash and numbered 1, 2, … per kata, in the
//! order the service first saw it. The built-in catalogue is published by the start-up sync
//! ([`super::katas::sync`]), so every replica, on either backend, numbers it the same.

use super::{Db, Tx, now_ms};
use katas::learner_api::{ApiChange, LearnerApi};

/// What identifies a package version and what learners' old code needs from it later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    pub content_hash: String,
    pub api: LearnerApi,
    pub starter: String,
}

impl Published {
    /// The version of a kata compiled into this binary.
    pub fn compiled(kata: &dyn katas::Kata) -> Result<Self, katas::learner_api::ApiError> {
        let package = kata.package();
        Ok(Self {
            content_hash: package.content_hash.to_string(),
            api: LearnerApi::of_logic(package.logic)?,
            starter: package.starter.to_string(),
        })
    }
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

/// The content hash of the version of `slug` this replica serves (its compiled package).
pub fn served_hash(slug: &str) -> Option<&'static str> {
    katas::catalogue::find(slug).map(|k| k.package().content_hash)
}

/// Stores `version` of `slug` under the next number unless it is already stored; returns its
/// number. Callers hold the catalogue sync's lock, so numbers are handed out one at a time.
pub async fn publish(tx: &mut Tx<'_>, slug: &str, version: &Published) -> Result<i64, sqlx::Error> {
    let api = serde_json::to_string(&version.api).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    // A new version starts as the live one was: an unlisted or retired kata stays so when a
    // fix to it is published.
    sqlx::query(
        "INSERT INTO kata_versions
           (slug, number, content_hash, api_hash, api, starter, published_at, status)
         SELECT $1, COALESCE(MAX(number), 0) + 1, $2, $3, $4, $5, $6,
                COALESCE((SELECT v.status FROM kata_versions v JOIN katas k
                            ON k.slug = v.slug AND k.live_version = v.number
                           WHERE v.slug = $1), 'listed')
           FROM kata_versions WHERE slug = $1
         ON CONFLICT (slug, content_hash) DO NOTHING",
    )
    .bind(slug)
    .bind(&version.content_hash)
    .bind(version.api.fingerprint())
    .bind(api)
    .bind(&version.starter)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    sqlx::query_scalar("SELECT number FROM kata_versions WHERE slug = $1 AND content_hash = $2")
        .bind(slug)
        .bind(&version.content_hash)
        .fetch_one(&mut **tx)
        .await
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

/// The number of the version of `slug` this replica serves.
pub async fn served_number(db: &Db, slug: &str) -> Result<Option<i64>, sqlx::Error> {
    match served_hash(slug) {
        Some(hash) => number_of(db, slug, hash).await,
        None => Ok(None),
    }
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
    let Some(current) = served_number(db, slug).await? else {
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
