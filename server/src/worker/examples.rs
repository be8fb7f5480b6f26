//! The custom-input examples a remote worker makes for the service: where no replica runs a
//! grader (the sandbox only on worker nodes), a build's own versions are stored without them
//! and nothing there can make them. Each worker process asks a replica now and then which
//! versions still lack theirs, makes each with the version's judge in its sandbox — the code
//! a replica with a grader runs (`services::examples::made`) — and stores it; the replicas read
//! them from the database (`services::packages`). Two workers may make the same version's
//! once: the first stored stays.

use super::RemoteSource;
use crate::services::examples::made;
use graders::Grade;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

/// How often a worker asks: often enough that a version made live finds its examples within a
/// minute or so, rarely enough to cost a replica nothing.
const ASK_EVERY: Duration = Duration::from_secs(60);

/// Makes the examples that are due, for as long as this task runs. A version is tried once per
/// process (a judge that makes none would make none again); one whose package or answer did
/// not get through is tried again at the next ask.
pub async fn fill(source: Arc<RemoteSource>, grader: Arc<dyn Grade>) {
    let mut tried = HashSet::new();
    loop {
        match source.awaiting_examples().await {
            Ok(due) => {
                for content_hash in due {
                    if tried.contains(&content_hash) {
                        continue;
                    }
                    match fill_one(&source, &grader, &content_hash).await {
                        Ok(()) => {
                            tried.insert(content_hash);
                        }
                        Err(e) => tracing::warn!(
                            version = %content_hash,
                            "custom-input examples not made: {e:#}"
                        ),
                    }
                }
            }
            Err(e) => tracing::debug!("asking for versions that lack examples failed: {e:#}"),
        }
        tokio::time::sleep(ASK_EVERY).await;
    }
}

/// Makes and stores the examples of `content_hash`, unless its judge makes none.
async fn fill_one(
    source: &Arc<RemoteSource>,
    grader: &Arc<dyn Grade>,
    content_hash: &str,
) -> anyhow::Result<()> {
    let package = super::packages::package_once(&**source, content_hash).await?;
    if let Some(json) = made(grader, package).await? {
        source.store_examples(content_hash, json).await?;
        tracing::info!(version = %content_hash, "custom-input examples made");
    }
    Ok(())
}
