//! The published packages (stdin/stdout, or function katas built from their files) this worker
//! process grades with, fetched by content hash from its [`JobSource`] (the database, or any
//! replica over HTTP) the first time a job names one (or its custom-input examples are due:
//! `super::examples`), held to that hash, and kept for the next jobs. Versions never change,
//! so a cached one is never stale; the cache holds a few, the least recently used going first.

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

/// The package `content_hash` (a job's, or one whose examples are due).
pub async fn package(source: &impl JobSource, content_hash: &str) -> anyhow::Result<Arc<Stored>> {
    if let Some(package) = cached(content_hash) {
        return Ok(package);
    }
    let archive = source.package(content_hash).await?;
    let hash = content_hash.to_string();
    let package = tokio::task::spawn_blocking(move || {
        crate::services::packages::unpack(&hash, &archive).map(Arc::new)
    })
    .await??;
    keep(content_hash, Arc::clone(&package));
    Ok(package)
}
