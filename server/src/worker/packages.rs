//! The published packages (stdin/stdout, or function katas built from their files) this worker
//! process grades with, fetched by content hash from its [`JobSource`] (the database, or any
//! replica over HTTP) the first time a job names one, held to that hash, and kept for the next
//! jobs (a package fetched only to make its custom-input examples, `super::examples`, is not).
//! Versions never change, so a cached one is never stale; the cache holds a few, the least
//! recently used going first.

use super::JobSource;
use crate::services::packages::Stored;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Packages kept per process: each may hold up to 256 MiB of test data.
const KEPT: usize = 8;

type Kept = Mutex<VecDeque<(String, Arc<Stored>)>>;

fn kept() -> &'static Kept {
    static KEPT_PACKAGES: OnceLock<Kept> = OnceLock::new();
    KEPT_PACKAGES.get_or_init(Default::default)
}

fn cached(content_hash: &str) -> Option<Arc<Stored>> {
    let mut kept = kept().lock().unwrap_or_else(PoisonError::into_inner);
    let at = kept.iter().position(|(hash, _)| hash == content_hash)?;
    let entry = kept.remove(at)?;
    let package = Arc::clone(&entry.1);
    kept.push_front(entry);
    Some(package)
}

fn keep(content_hash: &str, package: Arc<Stored>) {
    let mut kept = kept().lock().unwrap_or_else(PoisonError::into_inner);
    if kept.iter().any(|(hash, _)| hash == content_hash) {
        return;
    }
    kept.push_front((content_hash.to_string(), package));
    kept.truncate(KEPT);
}

/// The package `content_hash` a job names, kept for the next jobs.
pub async fn package(source: &impl JobSource, content_hash: &str) -> anyhow::Result<Arc<Stored>> {
    if let Some(package) = cached(content_hash) {
        return Ok(package);
    }
    let package = fetched(source, content_hash).await?;
    keep(content_hash, Arc::clone(&package));
    Ok(package)
}

/// The package `content_hash` for one use (its custom-input examples): the kept one when there
/// is one, else fetched and not kept, so that making a large catalogue's examples does not
/// push out the packages jobs are using.
pub async fn package_once(
    source: &impl JobSource,
    content_hash: &str,
) -> anyhow::Result<Arc<Stored>> {
    match cached(content_hash) {
        Some(package) => Ok(package),
        None => fetched(source, content_hash).await,
    }
}

async fn fetched(source: &impl JobSource, content_hash: &str) -> anyhow::Result<Arc<Stored>> {
    let archive = source.package(content_hash).await?;
    let hash = content_hash.to_string();
    let package = tokio::task::spawn_blocking(move || {
        crate::services::packages::unpack(&hash, &archive).map(Arc::new)
    })
    .await??;
    Ok(package)
}
