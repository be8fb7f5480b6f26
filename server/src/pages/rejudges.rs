//! `/admin/katas/{slug}/rejudges`: an instructor starts a rejudge against a version from the
//! kata's page, and `/admin/katas/{slug}/rejudges/{id}` shows its difference — every
//! submission's verdict and first failing case before and against the candidate — reloading
//! while submissions are still being graded again. The rules are `services::rejudges`'.

use super::form::CsrfForm;
use super::i18n::Text;
use super::i18n_publishing::Publishing;
use super::{Layout, render};
use crate::auth::Staff;
use crate::db::rejudges::{Row, Scope};
use crate::error::AppError;
use crate::services::rejudges;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};

#[derive(Debug, serde::Deserialize)]
pub struct StartForm {
    version: i64,
    scope: Scope,
}

pub async fn start(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    Path(slug): Path<String>,
    CsrfForm(f): CsrfForm<StartForm>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let (id, _) = rejudges::start(&state, user, &slug, f.version, f.scope).await?;
    Ok(Redirect::to(&format!("/admin/katas/{slug}/rejudges/{id}")).into_response())
}

#[derive(Template)]
#[template(path = "rejudge.html")]
struct RejudgePage {
    layout: Layout,
    slug: String,
    p: &'static Publishing,
    title: String,
    progress: String,
    version: i64,
    rows: Vec<Row>,
    /// Still grading: the page reloads itself.
    refresh: bool,
}

pub async fn show(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    Path((slug, id)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    let view = rejudges::view(&state, &slug, id).await?;
    let p = Text::of(viewer.lang).publishing;
    render(&RejudgePage {
        layout: Layout::new(&viewer, "admin"),
        title: p.rejudge_title(view.rejudge.version),
        progress: p.rejudge_progress(view.done, view.total, view.changed),
        version: view.rejudge.version,
        refresh: view.done < view.total,
        rows: view.rows,
        p,
        slug,
    })
}
