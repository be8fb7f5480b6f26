//! An upload whose checks may outlast its request. A stdin/stdout package's verification runs
//! every program of the package on every case in the sandbox, which for a large package takes
//! longer than a request may be held. So every upload is recorded (`db::kata_uploads`) and
//! checked in a task of its own; the request waits for the report up to
//! `ServerConfig::publish_wait` and otherwise answers "checking" with the upload's id, whose
//! report any replica then serves (`GET /api/katas/{slug}/uploads/{id}`, the page
//! `/admin/katas/{slug}/uploads/{id}`). The check finishes whether or not anyone still waits.

use super::publishing::{self, Check, Placement, Report};
use crate::db::kata_uploads;
use crate::db::users::User;
use crate::error::AppError;
use crate::state::AppState;

/// A report not written this long after its upload never will be: the replica checking it
/// stopped.
const ABANDONED_MS: i64 = 60 * 60 * 1000;

/// Where an upload stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Done(Report),
    /// Still being checked; its report comes at upload `id`.
    Checking {
        id: i64,
    },
}

/// Checks `archive` as a version of `slug` and publishes it when every check passes
/// ([`publishing::verify_and_publish`]), waiting for the report up to the configured time.
pub async fn publish(
    state: &AppState,
    user: &User,
    slug: &str,
    archive: Vec<u8>,
    placement: Placement,
) -> Result<Outcome, AppError> {
    publishing::spend_upload(state, user).await?;
    let id = kata_uploads::start(&state.db, slug, user.id).await?;
    let task = {
        let (state, user, slug) = (state.clone(), user.clone(), slug.to_string());
        tokio::spawn(async move { check(&state, &user, &slug, archive, placement, id).await })
    };
    if state.config.publish_wait.is_zero() {
        // No wait: the answer is always "checking" (the task runs on regardless).
        return Ok(Outcome::Checking { id });
    }
    match tokio::time::timeout(state.config.publish_wait, task).await {
        Ok(joined) => Ok(Outcome::Done(
            joined.map_err(|e| AppError::Internal(e.into()))??,
        )),
        Err(_) => Ok(Outcome::Checking { id }),
    }
}

/// The checks of upload `id`, their report stored whatever the outcome.
async fn check(
    state: &AppState,
    user: &User,
    slug: &str,
    archive: Vec<u8>,
    placement: Placement,
    id: i64,
) -> Result<Report, AppError> {
    let checked = publishing::verify_and_publish(state, user, slug, archive, placement).await;
    let report = match &checked {
        Ok(report) => report.clone(),
        Err(e) => {
            tracing::warn!(upload = id, kata = slug, "checking an upload failed: {e:#}");
            refused(
                slug,
                "service",
                "the service failed while checking the package (ours, not the package's): \
                 nothing changed; upload it again",
                "检查题目包时服务出了故障（是我们的问题，不是题目包的）：服务上没有任何改变，\
                 请重新上传",
            )
        }
    };
    let json = serde_json::to_string(&report).map_err(|e| AppError::Internal(e.into()))?;
    kata_uploads::finish(&state.db, id, &json).await?;
    checked
}

fn refused(slug: &str, check: &str, en: &str, zh: &str) -> Report {
    Report {
        slug: slug.to_string(),
        checks: vec![Check {
            check: check.to_string(),
            passed: false,
            detail: en.to_string(),
            detail_zh: zh.to_string(),
        }],
        version: None,
        new: false,
        live: false,
    }
}

/// Upload `id` of `slug`: its report, or that it is still being checked.
pub async fn outcome(state: &AppState, slug: &str, id: i64) -> Result<Outcome, AppError> {
    let missing = || {
        AppError::NotFound(format!("`{slug}` has no upload {id}"))
            .zh(format!("`{slug}` 没有编号为 {id} 的上传"))
    };
    let upload = kata_uploads::get(&state.db, id)
        .await?
        .filter(|u| u.slug == slug)
        .ok_or_else(missing)?;
    match upload.report {
        Some(json) => Ok(Outcome::Done(
            serde_json::from_str(&json).map_err(|e| AppError::Internal(e.into()))?,
        )),
        None if crate::db::now_ms() - upload.created_at > ABANDONED_MS => {
            Ok(Outcome::Done(refused(
                slug,
                "service",
                "the check of this upload was interrupted (the replica checking it stopped): \
                 nothing changed; upload it again",
                "这次上传的检查被中断了（负责检查的副本已停止）：服务上没有任何改变，请重新上传",
            )))
        }
        None => Ok(Outcome::Checking { id }),
    }
}
