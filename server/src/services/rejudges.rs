//! Rejudging a kata's submissions against a candidate version before it goes live (CMS's "make
//! live" view): the API and the instructor's pages both call these. The candidate is any
//! version this service can grade: one whose package is stored (a stdin/stdout kata's, a
//! published function kata's, a version of a built-in kata built from its files), graded from
//! its own files, or the build's own version (or a statement fix of it), graded by the build —
//! to see what rolling back to it, or a new build's changed kata, would change. A version of
//! another build is refused: this build cannot grade against it.

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
    let versions = crate::db::kata_versions::list(&state.db, slug).await?;
    match versions
        .iter()
        .find(|v| v.number == version)
        .map(|v| v.servable)
    {
        None => Err(
            AppError::NotFound(format!("`{slug}` has no version {version}"))
                .zh(format!("`{slug}` 没有第 {version} 版")),
        ),
        Some(false) => Err(AppError::Conflict(format!(
            "version {version} of `{slug}` is graded by another build's code than this \
             replica's: it cannot be rejudged against from here"
        ))
        .zh(format!(
            "`{slug}` 的第 {version} 版由另一个构建（不是本副本的构建）的代码评测：\
             无法从这里用它重新评测"
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
