//! Stdin/stdout packages published to the running service, as the service reads them back: a
//! version's stored archive unpacked under the io bounds and held to its content hash, and the
//! learner-facing view of every kata whose live version is one. Every replica answers from the
//! database, so a kata published through one is served by all without a restart.

use crate::db::{Db, kata_packages};
use crate::error::AppError;
use katas::Kata;
use katas::archive::PackageFiles;
use katas::io::IoPackage;
use katas::io::served::{intern, interned};

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("no package is stored as {0}")]
    Missing(String),
    #[error("the package stored as {hash} does not read: {message}")]
    Unreadable { hash: String, message: String },
    /// What was fetched is not what was asked for: never graded with.
    #[error("the package fetched as {wanted} holds files whose hash is {got}")]
    Mismatch { wanted: String, got: String },
}

impl From<PackageError> for AppError {
    fn from(e: PackageError) -> Self {
        AppError::Internal(e.into())
    }
}

/// The package in `archive`, fetched or loaded as `content_hash`: read under the io bounds
/// and refused unless its files hash to exactly that.
pub fn unpack(content_hash: &str, archive: &[u8]) -> Result<IoPackage, PackageError> {
    let unreadable = |message: String| PackageError::Unreadable {
        hash: content_hash.to_string(),
        message,
    };
    let files = PackageFiles::unpack(archive, &katas::io::limits())
        .map_err(|e| unreadable(e.to_string()))?;
    let got = files.content_hash();
    if got != content_hash {
        return Err(PackageError::Mismatch {
            wanted: content_hash.to_string(),
            got,
        });
    }
    IoPackage::from_files(files).map_err(|e| unreadable(e.to_string()))
}

/// The stored package `content_hash`, read from the database.
pub async fn load(db: &Db, content_hash: &str) -> Result<IoPackage, AppError> {
    let archive = kata_packages::archive(db, content_hash)
        .await?
        .ok_or_else(|| PackageError::Missing(content_hash.to_string()))?;
    // Up to 256 MiB to inflate and hash: off the request threads.
    let hash = content_hash.to_string();
    Ok(tokio::task::spawn_blocking(move || unpack(&hash, &archive))
        .await
        .map_err(|e| AppError::Internal(e.into()))??)
}

/// The learner-facing view of version `content_hash`, read once per process.
async fn view(db: &Db, content_hash: &str) -> Result<&'static dyn Kata, AppError> {
    if let Some(kata) = interned(content_hash) {
        return Ok(kata);
    }
    let package = load(db, content_hash).await?;
    intern(&package).map_err(|e| {
        PackageError::Unreadable {
            hash: content_hash.to_string(),
            message: e.to_string(),
        }
        .into()
    })
}

/// `slug`'s live version when that is a stored package.
pub async fn live_kata(db: &Db, slug: &str) -> Result<Option<&'static dyn Kata>, AppError> {
    match kata_packages::live_of(db, slug).await? {
        Some(hash) => Ok(Some(view(db, &hash).await?)),
        None => Ok(None),
    }
}

/// Every kata whose live version is a stored package, in the order they were first published.
pub async fn live_katas(db: &Db) -> Result<Vec<&'static dyn Kata>, AppError> {
    let mut katas = Vec::new();
    for (_, hash) in kata_packages::live(db).await? {
        katas.push(view(db, &hash).await?);
    }
    Ok(katas)
}
