//! `/katas/{slug}`: the statement, hints one at a time, the editor (prefilled with the starter or
//! the learner's last attempt), Run and Submit. `/katas/{slug}/solution`: the reference and the
//! concept notes, once the learner has an accepted submit.

use super::accounts::form;
use super::i18n::kata_title;
use super::markdown::to_html;
use super::{Layout, render};
use crate::auth::Viewer;
use crate::db::{progress, submissions};
use crate::error::AppError;
use crate::routes::submissions::enqueue;
use crate::state::AppState;
use askama::Template;
use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use katas::{Kata, Mode};
use serde::Deserialize;

pub fn find(slug: &str) -> Result<&'static dyn Kata, AppError> {
    katas::catalogue::find(slug).ok_or_else(|| AppError::NotFound(format!("unknown kata `{slug}`")))
}

#[derive(Template)]
#[template(path = "kata.html")]
struct KataPage {
    layout: Layout,
    slug: String,
    title: String,
    difficulty: &'static str,
    topics: Vec<String>,
    statement: String,
    hints: Vec<String>,
    source: String,
    from_last: bool,
    solved: bool,
    limits: String,
    codemirror: bool,
}

pub async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let kata = find(&slug)?;
    let meta = kata.meta();
    let statement = kata.statement_in(viewer.lang);
    let (last, solved) = match &viewer.user {
        Some(u) => (
            submissions::last_source(&state.db, u.id, &slug).await?,
            progress::has_solved(&state.db, u.id, &slug).await?,
        ),
        None => (None, false),
    };
    // The statement without its title (the page prints it) and without hints and concept.
    let body = statement.public_markdown();
    let body = body
        .split_once('\n')
        .map_or(body.as_str(), |(_, rest)| rest);
    let l = &meta.limits;
    render(&KataPage {
        layout: Layout::new(&viewer, "catalogue"),
        slug: meta.slug.clone(),
        title: kata_title(kata, viewer.lang),
        difficulty: meta.difficulty.as_str(),
        topics: meta.topics.clone(),
        statement: to_html(body),
        hints: statement.hints().iter().map(|h| to_html(h)).collect(),
        from_last: last.is_some(),
        source: last.unwrap_or_else(|| kata.package().starter.to_string()),
        solved,
        limits: format!(
            "{} ms per case · {} MiB memory · {} thread{}",
            l.case_time_ms,
            l.memory_mb,
            l.max_threads,
            if l.max_threads == 1 { "" } else { "s" }
        ),
        codemirror: super::assets::HAS_EDITOR,
    })
}

#[derive(Debug, Deserialize)]
pub struct SubmitForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    source: String,
    mode: Mode,
}

/// The editor's form without JavaScript: store, then show the submission's page.
pub async fn submit(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(slug): Path<String>,
    body: Result<Form<SubmitForm>, FormRejection>,
) -> Result<Response, AppError> {
    let user = viewer.require()?.clone();
    let f = form(body)?;
    viewer.check_csrf(&f.csrf)?;
    let id = enqueue(&state, user.id, &slug, &f.source, f.mode).await?;
    Ok(Redirect::to(&format!("/submissions/{id}")).into_response())
}

#[derive(Template)]
#[template(path = "solution.html")]
struct SolutionPage {
    layout: Layout,
    slug: String,
    title: String,
    reference: String,
    concept: String,
}

pub async fn solution(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let kata = find(&slug)?;
    if !progress::has_solved(&state.db, user.id, &slug).await? {
        return Err(AppError::Forbidden(format!(
            "The reference solution and concept notes of `{slug}` unlock once you have an \
             accepted submit for it."
        )));
    }
    render(&SolutionPage {
        layout: Layout::new(&viewer, "catalogue"),
        slug: slug.clone(),
        title: kata_title(kata, viewer.lang),
        reference: kata.package().reference.to_string(),
        concept: to_html(kata.statement_in(viewer.lang).concept().unwrap_or("")),
    })
}
