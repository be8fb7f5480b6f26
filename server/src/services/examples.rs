//! What a CPU function kata's custom-input form starts from (a sample input and an example
//! per entry point), made by the kata's own judge in the sandbox. An upload gets them while it
//! is verified; a build's own packages are stored at start-up without them — the replica runs
//! no kata's code — and a replica whose grader is ready makes them here, for every live version
//! that lacks them. Replicas without a grader pick them up from the database
//! ([`super::packages`]).

use super::packages::{Stored, load};
use crate::db::{Db, kata_packages};
use crate::error::AppError;
use graders::{Grade, GradeError};
use std::sync::Arc;

/// Once this replica's grader is ready, makes and stores the examples of every live function
/// version that has none. A version whose judge fails is logged and left without: its form
/// starts empty, as before, and its page still takes custom input.
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

async fn fill_with(db: &Db, grader: &Arc<dyn Grade>) -> Result<usize, AppError> {
    let mut made = 0;
    for content_hash in kata_packages::awaiting_examples(db).await? {
        let Stored::Function(package) = load(db, &content_hash).await? else {
            continue;
        };
        if package.meta.kind == katas::KataKind::Gpu {
            continue;
        }
        let slug = package.meta.slug.clone();
        let grader = Arc::clone(grader);
        let examples = tokio::task::spawn_blocking(move || grader.package_examples(&package))
            .await
            .map_err(|e| AppError::Internal(e.into()))?;
        match examples {
            Ok(examples) => {
                let json =
                    serde_json::to_string(&examples).map_err(|e| AppError::Internal(e.into()))?;
                kata_packages::store_examples(db, &content_hash, &json).await?;
                made += 1;
            }
            Err(GradeError::Kata { source, .. }) => {
                tracing::warn!(%slug, "the judge made no custom-input examples: {source}");
            }
            Err(e) => tracing::warn!(%slug, "custom-input examples not made: {e}"),
        }
    }
    Ok(made)
}
