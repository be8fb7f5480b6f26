//! `/progress`: the learner's standing on every kata. `/katas/{slug}/leaderboard`: the best
//! performance ratio among accepted submits, one row per user.

use super::i18n::Text;
use super::kata::find;
use super::view;
use super::{Layout, render};
use crate::auth::Viewer;
use crate::db::{now_ms, progress};
use crate::domain::SubmissionId;
use crate::error::AppError;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::Response;
use std::collections::HashMap;

#[derive(Debug)]
struct Row {
    slug: String,
    title: String,
    difficulty: &'static str,
    status: &'static str,
    status_class: &'static str,
    submissions: i64,
    best: String,
    last: String,
}

#[derive(Template)]
#[template(path = "progress.html")]
struct ProgressPage {
    layout: Layout,
    rows: Vec<Row>,
    solved: usize,
    attempted: usize,
    total: usize,
}

pub async fn show(State(state): State<AppState>, viewer: Viewer) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let mine: HashMap<String, progress::KataProgress> = progress::for_user(&state.db, user.id)
        .await?
        .into_iter()
        .map(|p| (p.kata.to_string(), p))
        .collect();
    let now = now_ms();
    let t = Text::of(viewer.lang);
    let titles = crate::services::catalogue::served_titles(&state, viewer.lang).await?;
    // Every kata served, published ones included; an unlisted one (a staff preview) only for
    // staff or a learner who has worked on it.
    let staff = user.role.is_staff();
    let availability = crate::db::kata_availability::all(&state.db).await?;
    let rows: Vec<Row> = crate::services::catalogue::every_kata(&state)
        .await?
        .into_iter()
        .filter(|k| {
            let slug = &k.meta().slug;
            staff
                || mine.contains_key(slug)
                || availability.get(slug) != Some(&crate::domain::Availability::Unlisted)
        })
        .map(|k| {
            let m = k.meta();
            let p = mine.get(&m.slug);
            let (status, status_class) = match p {
                Some(p) if p.solved.0 => (t.status_solved, "ok"),
                Some(_) => (t.status_attempted, "warn"),
                None => (t.status_not_started, "muted"),
            };
            Row {
                slug: m.slug.clone(),
                title: titles.of(&m.slug),
                difficulty: m.difficulty.as_str(),
                status,
                status_class,
                submissions: p.map_or(0, |p| p.submissions),
                best: p.and_then(|p| p.best_ratio).map_or("—".into(), view::ratio),
                last: p.map_or("—".into(), |p| t.ago(p.last_at, now)),
            }
        })
        .collect();
    render(&ProgressPage {
        layout: Layout::new(&viewer, "progress"),
        solved: rows.iter().filter(|r| r.status_class == "ok").count(),
        attempted: rows.iter().filter(|r| r.submissions > 0).count(),
        total: rows.len(),
        rows,
    })
}

#[derive(Debug)]
struct Standing {
    rank: usize,
    /// Link to the best submission, for the viewer's own row or once the viewer has solved it.
    link: Option<SubmissionId>,
    name: String,
    ratio: String,
    accepted: i64,
    since: String,
    me: bool,
}

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage {
    layout: Layout,
    slug: String,
    title: String,
    rows: Vec<Standing>,
}

pub async fn leaderboard(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let kata = find(&state, &slug).await?;
    let me = viewer.user.as_ref().map(|u| u.name.as_str());
    let solved = match &viewer.user {
        Some(u) => progress::has_solved(&state.db, u.id, &slug).await?,
        None => false,
    };
    let rows = progress::leaderboard(&state.db, &slug, 100)
        .await?
        .into_iter()
        .enumerate()
        .map(|(i, s)| Standing {
            rank: i + 1,
            link: solved.then_some(s.best_id),
            me: me == Some(s.name.as_str()),
            name: s.name,
            ratio: s
                .best_ratio
                .map_or(Text::of(viewer.lang).not_measured.into(), view::ratio),
            accepted: s.accepted,
            since: view::datetime(s.first_solved_at),
        })
        .collect();
    render(&LeaderboardPage {
        layout: Layout::new(&viewer, "catalogue"),
        slug,
        title: crate::services::catalogue::served_titles(&state, viewer.lang)
            .await?
            .of(&kata.meta().slug),
        rows,
    })
}
