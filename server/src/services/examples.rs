//! What a CPU function kata's custom-input form starts from (a sample input and an example
//! per entry point), made by the kata's own judge in the sandbox. An upload gets them while it
//! is verified; a build's own packages are stored at start-up without them — the replica runs
//! no kata's code — and a replica whose grader is ready makes them here, for every version
//! that lacks them and may be served (live, or not retired). Where no replica has a grader,
//! remote workers make them (`crate::worker::examples`). Replicas without a grader pick them
//! up from the database ([`super::packages`]).

use super::packages::{Stored, load};
use crate::db::{Db, kata_packages};
use crate::error::AppError;
use futures_util::StreamExt as _;
use graders::{Grade, GradeError};
use std::sync::Arc;

/// Once this replica's grader is ready, makes and stores the examples of every function
/// version that may be served and has none (`kata_packages::awaiting_examples`). A version
/// whose judge fails is logged and left without: its form starts empty, as before, and its page
/// still takes custom input.
pub async fn fill(db: Db, grader: crate::grader_slot::GraderSlot) {
    let Some(grader) = grader.get().await else {
        return;
    };
    match fill_with(&db, &grader).await {
        Ok(made) if made > 0 => tracing::info!(made, "custom-input examples made by the judges"),
        Ok(_) => {}
        Err(e) => tracing::warn!("custom-input examples not made: {e}"),
    }
}

/// Judges started at once: enough that the first katas' forms need not wait for the last
/// ones', few enough to leave a small host's cores to the service starting beside them.
const AT_ONCE: usize = 4;

async fn fill_with(db: &Db, grader: &Arc<dyn Grade>) -> Result<usize, AppError> {
    let awaiting = kata_packages::awaiting_examples(db).await?;
    let made = futures_util::stream::iter(awaiting)
        .map(|content_hash| fill_one(db, grader, content_hash))
        .buffer_unordered(AT_ONCE)
        .collect::<Vec<_>>()
        .await;
    let mut count = 0;
    for made in made {
        count += usize::from(made?);
    }
    Ok(count)
}

/// Makes and stores the examples of the version `content_hash`; whether it did.
async fn fill_one(
    db: &Db,
    grader: &Arc<dyn Grade>,
    content_hash: String,
) -> Result<bool, AppError> {
    let package = Arc::new(load(db, &content_hash).await?);
    let Some(json) = made(grader, package).await? else {
        return Ok(false);
    };
    kata_packages::store_examples(db, &content_hash, &json).await?;
    Ok(true)
}

/// The examples `package`'s judge makes, as they are stored (JSON); `None` where it makes none:
/// a stdin/stdout package or a GPU kata (no custom input), or a judge that fails (logged; the
/// form starts empty). The judge runs on a blocking thread.
pub(crate) async fn made(
    grader: &Arc<dyn Grade>,
    package: Arc<Stored>,
) -> Result<Option<String>, AppError> {
    let grader = Arc::clone(grader);
    let made = tokio::task::spawn_blocking(move || match &*package {
        Stored::Function(function) if function.meta.kind == katas::KataKind::Cpu => Some((
            function.meta.slug.clone(),
            grader.package_examples(function),
        )),
        _ => None,
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?;
    match made {
        None => Ok(None),
        Some((_, Ok(examples))) => serde_json::to_string(&examples)
            .map(Some)
            .map_err(|e| AppError::Internal(e.into())),
        Some((slug, Err(GradeError::Kata { source, .. }))) => {
            tracing::warn!(%slug, "the judge made no custom-input examples: {source}");
            Ok(None)
        }
        Some((slug, Err(e))) => {
            tracing::warn!(%slug, "custom-input examples not made: {e}");
            Ok(None)
        }
    }
}
