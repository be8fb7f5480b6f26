//! A package's sandbox checks, run for a replica that cannot (`services::package_checks`):
//! the candidate archive fetched, held to the content hash the replica read, and checked with
//! `publishing_function::sandboxed`, the function the replica runs when it can; the lease
//! renewed meanwhile, so a worker that stops is taken over within a minute.

use super::{CheckClaimed, JobSource};
use crate::services::package_checks::RENEWED_LEASE_MS;
use crate::services::{publishing, publishing_function};
use crate::worker_wire::CheckOutcome;
use graders::Grade;
use graders::package::FunctionPackage;
use katas::archive::PackageFiles;
use std::sync::Arc;
use std::time::Duration;

/// Runs `check` and answers it, whatever it found.
pub(super) async fn run(
    source: &Arc<impl JobSource>,
    grader: &Arc<dyn Grade>,
    check: &CheckClaimed,
) -> anyhow::Result<()> {
    tracing::info!(check = check.id, kata = %check.slug, "running a package's checks");
    let beats = tokio::spawn(renew_while_running(Arc::clone(source), check.clone()));
    let outcome = match source.check_archive(check).await {
        Ok(archive) => {
            let (grader, owned) = (Arc::clone(grader), check.clone());
            tokio::task::spawn_blocking(move || outcome(&*grader, &owned, &archive))
                .await
                .unwrap_or_else(|panic| CheckOutcome::Failed {
                    error: format!("the grader panicked: {panic}"),
                })
        }
        Err(e) => CheckOutcome::Failed {
            error: format!("fetching the package: {e:#}"),
        },
    };
    beats.abort();
    if !source.answer_check(check, &outcome).await? {
        tracing::info!(check = check.id, "answer dropped: the lease had moved on");
    }
    Ok(())
}

/// Renews the lease on `check` at a third of its length, so one lost renewal never costs it;
/// ends when the lease is lost (the answer will be dropped) or when aborted.
async fn renew_while_running(source: Arc<impl JobSource>, check: CheckClaimed) {
    let every = Duration::from_millis(RENEWED_LEASE_MS as u64 / 3);
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    loop {
        tick.tick().await;
        match source.renew_check(&check).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::info!(check = check.id, "the lease on the check was lost");
                return;
            }
            Err(e) => tracing::debug!(check = check.id, "renewing a check's lease failed: {e:#}"),
        }
    }
}

/// What the checks of `archive` found. Blocking.
fn outcome(grader: &dyn Grade, check: &CheckClaimed, archive: &[u8]) -> CheckOutcome {
    let failed = |error: String| CheckOutcome::Failed { error };
    let files = match PackageFiles::unpack(archive, &publishing::limits()) {
        Ok(files) => files,
        Err(e) => return failed(format!("unpacking the package: {e}")),
    };
    if files.content_hash() != check.content_hash {
        return failed(format!(
            "the archive holds {}, not the package queued ({})",
            files.content_hash(),
            check.content_hash
        ));
    }
    let package = match FunctionPackage::from_files(&files) {
        Ok(package) => package,
        Err(e) => return failed(format!("reading the package: {e}")),
    };
    match publishing_function::sandboxed(grader, &package) {
        Ok(ran) => CheckOutcome::Checked(ran),
        Err(e) => failed(e.to_string()),
    }
}
