//! Rejudging a kata's submissions against a candidate version before it goes live (CMS's "make
//! live" view): the API and the instructor's pages both call these. A candidate must be a
//! version whose package is stored on the service — a stdin/stdout kata's, a published
//! function kata's, or a version of a build's kata built from its files —, graded from its own
//! files: a build's own version (or a statement fix of one) grades as the build does, so
//! rejudging against it could change nothing.

use crate::db::allowance::Write;
use crate::db::rejudges::{self, Rejudge, Row, Scope};
use crate::db::users::User;
use crate::error::AppError;
use crate::state::AppState;

/// A rejudge and where it stands.
#[derive(Debug, Clone, serde::Serialize)]
pub struct View {
    #[serde(flatten)]
    pub rejudge: Rejudge,
    /// Submissions taken.
    pub total: usize,
    /// Graded again so far.
    pub done: usize,
    /// Of those, the ones whose verdict or first failing case differs.
    pub changed: usize,
    pub rows: Vec<Row>,
}

/// Queues a rejudge of `slug`'s submissions (`scope`) against version `version`; its id and
/// how many submissions it takes.
pub async fn start(
    state: &AppState,
    user: &User,
    slug: &str,
    version: i64,
    scope: Scope,
) -> Result<(i64, i64), AppError> {
    super::catalogue::find(state, slug).await?;
    match crate::db::kata_packages::version_packaged(&state.db, slug, version).await? {
        None => Err(
            AppError::NotFound(format!("`{slug}` has no version {version}"))
                .zh(format!("`{slug}` 没有第 {version} 版")),
        ),
        Some(false) => Err(AppError::Conflict(format!(
            "version {version} of `{slug}` is graded by this build's own code, so a rejudge \
             against it could change nothing: only a version whose package is stored on the \
             service (published with its own code, cases or limits) can be rejudged against"
        ))
        .zh(format!(
            "`{slug}` 的第 {version} 版由本构建自身的代码评测，用它重新评测不会改变任何结果：\
             只有包存储在服务上的版本（带着自己的代码、用例或限制发布的版本）才能用来重新评测"
        ))),
        Some(true) => {
            let mut tx = state.db.begin().await?;
            super::write_budget::spend(&mut tx, &state.config, user.id, Write::Rejudge).await?;
            tx.commit().await?;
            let started = rejudges::start(&state.db, slug, version, scope, user.id).await?;
            state.jobs_waiting.notify_waiters();
            Ok(started)
        }
    }
}

/// Rejudge `id` of `slug`, with every submission's verdicts before and after.
pub async fn view(state: &AppState, slug: &str, id: i64) -> Result<View, AppError> {
    let rejudge = rejudges::get(&state.db, id)
        .await?
        .filter(|r| r.slug == slug)
        .ok_or_else(|| {
            AppError::NotFound(format!("`{slug}` has no rejudge {id}"))
                .zh(format!("`{slug}` 没有编号为 {id} 的重新评测"))
        })?;
    let rows = rejudges::rows(&state.db, id).await?;
    Ok(View {
        total: rows.len(),
        done: rows.iter().filter(|r| r.after.is_some()).count(),
        changed: rows.iter().filter(|r| r.changed).count(),
        rejudge,
        rows,
    })
}
