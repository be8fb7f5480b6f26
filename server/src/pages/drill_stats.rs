//! `/admin/drills`: for instructors — every drill item with its answer statistics (how many
//! answers, share correct, median time to answer), weakest first, so items that mislead or
//! are too hard stand out; and `POST /admin/drills/reload`, which reads the drill folder from
//! disk, validates it as the build does and serves it without a restart.

use super::form::{Button, CsrfForm};
use super::i18n::Text;
use super::{Layout, render};
use crate::auth::{Staff, Viewer};
use crate::db::drills::item_stats;
use crate::error::AppError;
use crate::services::drills::{catalogue, kind_of, reload};
use crate::state::AppState;
use askama::Template;
use axum::extract::State;
use axum::response::Response;
use std::collections::HashMap;

#[derive(Debug)]
struct Row {
    set: String,
    item: String,
    kind: &'static str,
    answered: i64,
    correct: String,
    median: String,
    /// Answered at least 5 times and right less than half the time.
    weak: bool,
}

#[derive(Template)]
#[template(path = "drill_stats.html")]
struct StatsPage {
    layout: Layout,
    rows: Vec<Row>,
    items: usize,
    message: Option<String>,
    problems: Vec<String>,
}

async fn page(
    state: &AppState,
    viewer: &Viewer,
    message: Option<String>,
    problems: Vec<String>,
) -> Result<Response, AppError> {
    let stats: HashMap<(String, String), _> = item_stats(&state.db)
        .await?
        .into_iter()
        .map(|s| ((s.drill_set.clone(), s.item.clone()), s))
        .collect();
    let served = catalogue();
    let mut rows: Vec<Row> = served
        .sets()
        .iter()
        .flat_map(|set| set.items.iter().map(move |i| (set, i)))
        .map(|(set, i)| {
            let s = stats.get(&(set.slug.clone(), i.id.clone()));
            Row {
                set: set.slug.clone(),
                item: i.id.clone(),
                kind: kind_of(&i.answer),
                answered: s.map_or(0, |s| s.answered),
                correct: s.map_or("—".into(), |s| format!("{:.0}%", s.correct_share * 100.0)),
                median: s
                    .and_then(|s| s.median_ms)
                    .map_or("—".into(), |ms| format!("{:.1} s", ms as f64 / 1000.0)),
                weak: s.is_some_and(|s| s.answered >= 5 && s.correct_share < 0.5),
            }
        })
        .collect();
    // Weakest first: answered items by share correct, then the unanswered.
    let share = |r: &Row| {
        stats
            .get(&(r.set.clone(), r.item.clone()))
            .map_or(2.0, |s| s.correct_share)
    };
    rows.sort_by(|a, b| share(a).total_cmp(&share(b)));
    render(&StatsPage {
        layout: Layout::new(viewer, "admin"),
        items: served.item_count(),
        rows,
        message,
        problems,
    })
}

pub async fn show(
    State(state): State<AppState>,
    Staff(viewer): Staff,
) -> Result<Response, AppError> {
    page(&state, &viewer, None, Vec::new()).await
}

pub async fn reload_from_disk(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    _: CsrfForm<Button>,
) -> Result<Response, AppError> {
    let dir = katas_drills::default_dir();
    let known: Vec<String> = crate::services::catalogue::every_kata(&state)
        .await?
        .iter()
        .map(|k| k.meta().slug.clone())
        .collect();
    let outcome = tokio::task::spawn_blocking(move || reload(&dir, &known))
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let t = Text::of(viewer.lang).practice;
    match outcome {
        Ok(d) => {
            let msg = t.reloaded(d.sets().len(), d.item_count());
            page(&state, &viewer, Some(msg), Vec::new()).await
        }
        Err(katas_drills::DrillError::Invalid { path, problems }) => {
            let msg = t.reload_failed(&t.invalid(&path.display().to_string()));
            page(&state, &viewer, Some(msg), problems).await
        }
        Err(e) => {
            let msg = t.reload_failed(&e.to_string());
            page(&state, &viewer, Some(msg), Vec::new()).await
        }
    }
}
