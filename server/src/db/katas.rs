//! The `katas` table mirrors the compiled catalogue, synced at start-up.
//!
//! During a rolling deploy replicas built from two catalogues start side by side; each sync
//! used to rewrite `listed` to its own catalogue, so the listing flipped with every restart.
//! The sync is monotonic instead: `catalogue_generation` holds the generation of the newest
//! catalogue synced so far, and only a catalogue at least that new may change listings,
//! titles and order. An older one only adds the rows its own katas need (unlisted), so that
//! what it serves can still be submitted.
//!
//! Each CPU kata's package is stored with its version ([`super::kata_packages`]), as an
//! instructor's upload is: a replica or worker of another build then serves and grades that
//! version from the database by hash, rather than from the code compiled into it.

use super::kata_versions::{self, Published};
use super::{Db, Dialect, dialect, kata_packages, now_ms};
use katas::archive::PackageFiles;
use std::collections::HashMap;

/// The advisory lock key of the catalogue sync (any constant unique to it in this database).
const CATALOGUE_SYNC_LOCK: i64 = 0x494e_4b41_5441_0001;

/// The generation of the catalogue compiled into this binary: `INFRAKATA_CATALOGUE_GENERATION`
/// when the build set it, else the commit time of the last commit that touched `katas/` (or
/// the build time when `katas/` had uncommitted changes or no git history) — see `build.rs`.
/// Later builds of the catalogue have larger generations.
pub const GENERATION: i64 = match i64::from_str_radix(env!("INFRAKATA_CATALOGUE_GENERATION"), 10) {
    Ok(g) => g,
    Err(_) => panic!("INFRAKATA_CATALOGUE_GENERATION is not a number"),
};

/// One kata as the `katas` table holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub difficulty: String,
    pub kind: String,
    /// JSON array.
    pub topics: String,
    /// The package version this catalogue holds, published by the sync.
    pub version: Published,
    /// Its files, stored with it (every function kata of the build has them).
    pub package: Option<BuildPackage>,
}

/// A build's package as the sync stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildPackage {
    /// The hash of `files`; stored only under the version that has it.
    pub content_hash: String,
    pub files: PackageFiles,
    pub kind: katas::KataKind,
}

impl BuildPackage {
    /// The package of the build's kata `slug`.
    fn of(slug: &str) -> Option<Self> {
        graders::package::builtin(slug).map(|package| BuildPackage {
            content_hash: package.content_hash.clone(),
            files: package.files.clone(),
            kind: package.meta.kind,
        })
    }
}

/// The packages of `catalogue` not stored yet (a build's first start), packed before the
/// sync's transaction. Their custom-input forms' examples are made later by their judges, in
/// the sandbox (`services::examples`): this process runs no kata's code. Another replica
/// storing one meanwhile is harmless: the same files, stored once.
async fn missing_packages(
    db: &Db,
    catalogue: &Catalogue,
) -> Result<HashMap<String, Vec<u8>>, sqlx::Error> {
    let mut missing = HashMap::new();
    for kata in &catalogue.katas {
        let Some(package) = kata
            .package
            .clone()
            .filter(|p| p.content_hash == kata.version.content_hash)
        else {
            continue;
        };
        if kata_packages::is_stored(db, &package.content_hash).await? {
            continue;
        }
        let hash = package.content_hash.clone();
        let archive = tokio::task::spawn_blocking(move || package.files.to_tar_gz())
            .await
            .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        missing.insert(hash, archive);
    }
    Ok(missing)
}

/// A catalogue to sync: its katas in order, and what orders it against other catalogues.
#[derive(Debug, Clone)]
pub struct Catalogue {
    pub generation: i64,
    pub fingerprint: String,
    pub katas: Vec<Row>,
}

impl Catalogue {
    /// The catalogue compiled into this binary.
    pub fn compiled() -> Result<Self, SyncError> {
        let katas = katas::builtin::all()
            .iter()
            .map(|kata| {
                let m = kata.meta();
                Ok(Row {
                    slug: m.slug.clone(),
                    title: m.title.clone(),
                    summary: m.summary.clone(),
                    difficulty: m.difficulty.as_str().to_string(),
                    kind: m.kind.as_str().to_string(),
                    topics: serde_json::to_string(&m.topics)
                        .map_err(|e| sqlx::Error::Encode(Box::new(e)))?,
                    version: Published::compiled(*kata).map_err(|source| SyncError::Api {
                        slug: m.slug.clone(),
                        source,
                    })?,
                    package: BuildPackage::of(&m.slug),
                })
            })
            .collect::<Result<_, SyncError>>()?;
        Ok(Self {
            generation: GENERATION,
            fingerprint: katas::CATALOGUE_HASH.to_string(),
            katas,
        })
    }
}

/// What a sync did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Synced {
    /// The catalogue was at least as new as the stored one: the table now lists exactly it.
    Listed,
    /// A newer catalogue has been synced (its generation): only missing rows were added.
    Older { stored: i64 },
}

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error("the learner-facing API of {slug} cannot be read: {source}")]
    Api {
        slug: String,
        source: katas::learner_api::ApiError,
    },
}

/// The title `kata.toml` gave kata `slug` when its row was added (by the sync, or by its first
/// publish); `None` for a kata the service never had.
pub async fn title(db: &Db, slug: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT title FROM katas WHERE slug = $1")
        .bind(slug)
        .fetch_optional(db)
        .await
}

/// Syncs the compiled catalogue, publishing each package's version.
pub async fn sync(db: &Db) -> Result<Synced, SyncError> {
    Ok(sync_catalogue(db, &Catalogue::compiled()?).await?)
}

pub async fn sync_catalogue(db: &Db, catalogue: &Catalogue) -> Result<Synced, sqlx::Error> {
    let missing = missing_packages(db, catalogue).await?;
    let mut tx = db.begin().await?;
    if dialect(db) == Dialect::Postgres {
        // Replicas starting together take turns (released at commit) rather than interleave
        // their rewrites of the same rows and deadlock.
        sqlx::query("SELECT 1 FROM pg_advisory_xact_lock($1)")
            .bind(CATALOGUE_SYNC_LOCK)
            .execute(&mut *tx)
            .await?;
    }
    // A write first: on SQLite the transaction takes the write lock here, before any read.
    let newest: Option<i64> = sqlx::query_scalar(
        "INSERT INTO catalogue_generation (id, generation, fingerprint, synced_at)
         VALUES (1, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET generation = excluded.generation,
           fingerprint = excluded.fingerprint, synced_at = excluded.synced_at
           WHERE catalogue_generation.generation <= excluded.generation
         RETURNING generation",
    )
    .bind(catalogue.generation)
    .bind(&catalogue.fingerprint)
    .bind(now_ms())
    .fetch_optional(&mut *tx)
    .await?;
    let synced = match newest {
        Some(_) => {
            sqlx::query("UPDATE katas SET listed = 0")
                .execute(&mut *tx)
                .await?;
            Synced::Listed
        }
        None => {
            let stored: i64 =
                sqlx::query_scalar("SELECT generation FROM catalogue_generation WHERE id = 1")
                    .fetch_one(&mut *tx)
                    .await?;
            Synced::Older { stored }
        }
    };
    let on_conflict = match synced {
        Synced::Listed => {
            "DO UPDATE SET title = excluded.title, summary = excluded.summary,
               difficulty = excluded.difficulty, kind = excluded.kind, topics = excluded.topics,
               position = excluded.position, listed = 1"
        }
        Synced::Older { .. } => "DO NOTHING",
    };
    let listed = i64::from(synced == Synced::Listed);
    for (position, kata) in catalogue.katas.iter().enumerate() {
        sqlx::query(&format!(
            "INSERT INTO katas (slug, title, summary, difficulty, kind, topics, position, listed)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (slug) {on_conflict}"
        ))
        .bind(&kata.slug)
        .bind(&kata.title)
        .bind(&kata.summary)
        .bind(&kata.difficulty)
        .bind(&kata.kind)
        .bind(&kata.topics)
        .bind(position as i64)
        .bind(listed)
        .execute(&mut *tx)
        .await?;
        if let Some(package) = &kata.package
            && let Some(archive) = missing.get(&package.content_hash)
        {
            kata_packages::store(&mut tx, &package.content_hash, archive, package.kind, None)
                .await?;
        }
        // An older catalogue publishes its versions too (work submitted to it records one),
        // but only the newest decides which version is live.
        let published = kata_versions::publish(&mut tx, &kata.slug, &kata.version).await?;
        if synced == Synced::Listed {
            // A build not seen before goes live. A build seen before (a restart) leaves the
            // live version as instructors set it — an uploaded statement fix, a roll-back, a
            // version built from its stored package — whenever it can serve that version.
            sqlx::query(&format!(
                "UPDATE katas SET live_version = $1
                  WHERE slug = $2
                    AND ($3 = 1 OR live_version IS NULL OR NOT EXISTS (
                          SELECT 1 FROM kata_versions v
                           WHERE v.slug = katas.slug AND v.number = katas.live_version
                             AND (v.grading_hash = $4 OR {})))",
                super::kata_packages::PACKAGED
            ))
            .bind(published.number)
            .bind(&kata.slug)
            .bind(i64::from(published.new))
            .bind(&kata.version.grading_hash)
            .execute(&mut *tx)
            .await?;
        }
    }
    tx.commit().await?;
    Ok(synced)
}
