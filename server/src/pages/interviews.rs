//! `/interviews`: start a timed mock interview and see past reports; `/interviews/{id}`: the
//! session (clock, the kata's statement with hints at a cost and a submit form, the drill
//! items); `/interviews/{id}/report`: the kept report. `?lang=zh` for 中文.

use super::markdown::to_html;
use super::{Layout, render, view};
use crate::auth::Viewer;
use crate::db::drills as attempts;
use crate::db::{interviews, now_ms};
use crate::error::AppError;
use crate::routes::interviews::{
    DEFAULT_MINUTES, HINT_COST, Report, finish_interview, own_interview, start_interview,
};
use crate::services::submissions::enqueue;
use crate::state::AppState;
use askama::Template;
use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use katas::Mode;
use serde::Deserialize;

#[derive(Debug, Deserialize, Default)]
pub struct LangQuery {
    lang: Option<String>,
}

fn code(lang: Option<&str>) -> &'static str {
    if lang == Some("zh") { "zh" } else { "en" }
}

#[derive(Debug)]
struct PastRow {
    id: i64,
    when: String,
    kata: String,
    score: String,
    running: bool,
}

#[derive(Template)]
#[template(path = "interviews.html")]
struct ListPage {
    layout: Layout,
    zh: bool,
    lang: &'static str,
    minutes: u32,
    past: Vec<PastRow>,
}

pub async fn list(
    State(state): State<AppState>,
    viewer: Viewer,
    Query(q): Query<LangQuery>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let l = code(q.lang.as_deref());
    let now = now_ms();
    let past = interviews::list(&state.db, user.id)
        .await?
        .into_iter()
        .map(|i| {
            let score = i
                .report
                .as_deref()
                .and_then(|r| serde_json::from_str::<Report>(r).ok())
                .map_or("—".into(), |r| format!("{:.0}", r.score));
            PastRow {
                id: i.id,
                when: view::ago(i.started_at, now),
                kata: i.kata.clone(),
                running: i.open(now),
                score,
            }
        })
        .collect();
    render(&ListPage {
        layout: Layout::new(&viewer, "interview"),
        zh: l == "zh",
        lang: l,
        minutes: DEFAULT_MINUTES,
        past,
    })
}

#[derive(Debug, Deserialize)]
pub struct StartForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    minutes: Option<u32>,
    #[serde(default)]
    lang: Option<String>,
}

fn form<T>(body: Result<Form<T>, FormRejection>) -> Result<T, AppError> {
    body.map(|Form(f)| f)
        .map_err(|e| AppError::BadRequest(format!("malformed form: {}", e.body_text())))
}

pub async fn start(
    State(state): State<AppState>,
    viewer: Viewer,
    body: Result<Form<StartForm>, FormRejection>,
) -> Result<Response, AppError> {
    let user = viewer.require()?.clone();
    let f = form(body)?;
    viewer.check_csrf(&f.csrf)?;
    let id = start_interview(&state.db, user.id, f.minutes.unwrap_or(DEFAULT_MINUTES)).await?;
    let l = code(f.lang.as_deref());
    Ok(Redirect::to(&format!("/interviews/{id}?lang={l}")).into_response())
}

#[derive(Debug)]
struct ItemRow {
    attempt: i64,
    number: usize,
    answered: bool,
}

#[derive(Template)]
#[template(path = "interview.html")]
struct SessionPage {
    layout: Layout,
    zh: bool,
    lang: &'static str,
    id: i64,
    ends_ms: i64,
    left: String,
    statement: String,
    hints: Vec<String>,
    hints_left: usize,
    hint_cost: u32,
    /// The starter file, to edit in place.
    starter: String,
    submitted: Option<String>,
    items: Vec<ItemRow>,
}

pub async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    Query(q): Query<LangQuery>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let l = code(q.lang.as_deref());
    let (i, report) = own_interview(&state.db, id, user.id).await?;
    if report.is_some() {
        return Ok(Redirect::to(&format!("/interviews/{id}/report?lang={l}")).into_response());
    }
    let kata = katas::catalogue::find(&i.kata)
        .ok_or_else(|| AppError::NotFound(format!("unknown kata `{}`", i.kata)))?;
    let statement = kata.statement();
    let all_hints = statement.hints();
    let used = usize::try_from(i.hints_used)
        .unwrap_or(0)
        .min(all_hints.len());
    let best =
        interviews::best_submit(&state.db, user.id, &i.kata, i.started_at, i.ends_at).await?;
    let now = now_ms();
    let secs = (i.ends_at - now).max(0) / 1000;
    let items = attempts::of_interview(&state.db, i.id)
        .await?
        .iter()
        .enumerate()
        .map(|(n, a)| ItemRow {
            attempt: a.id,
            number: n + 1,
            answered: a.answered_at.is_some(),
        })
        .collect();
    render(&SessionPage {
        layout: Layout::new(&viewer, "interview"),
        zh: l == "zh",
        lang: l,
        id,
        ends_ms: i.ends_at,
        left: format!("{}:{:02}", secs / 60, secs % 60),
        statement: to_html(&statement.public_markdown()),
        hints: all_hints[..used].iter().map(|h| to_html(h)).collect(),
        hints_left: all_hints.len() - used,
        hint_cost: (HINT_COST * 100.0).round() as u32,
        starter: kata.package().starter.to_string(),
        submitted: best.map(|b| b.0.unwrap_or_else(|| "pending".into())),
        items,
    })
}

#[derive(Debug, Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default)]
    source: String,
}

pub async fn hint(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    body: Result<Form<ActionForm>, FormRejection>,
) -> Result<Response, AppError> {
    let user = viewer.require()?.clone();
    let f = form(body)?;
    viewer.check_csrf(&f.csrf)?;
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    let max = katas::catalogue::find(&i.kata).map_or(0, |k| k.statement().hints().len());
    if !interviews::take_hint(&state.db, id, user.id, max as i64, now_ms()).await? {
        return Err(AppError::Conflict(
            "no hint left, or the interview is over".into(),
        ));
    }
    let l = code(f.lang.as_deref());
    Ok(Redirect::to(&format!("/interviews/{id}?lang={l}#hints")).into_response())
}

/// The kata's submit form inside the interview: graded as a normal submit, counted while the
/// clock runs.
pub async fn submit(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    body: Result<Form<ActionForm>, FormRejection>,
) -> Result<Response, AppError> {
    let user = viewer.require()?.clone();
    let f = form(body)?;
    viewer.check_csrf(&f.csrf)?;
    let (i, report) = own_interview(&state.db, id, user.id).await?;
    if report.is_some() {
        return Err(AppError::Conflict(
            "the interview is over: its answers are locked".into(),
        ));
    }
    enqueue(&state, user.id, &i.kata, &f.source, Mode::Submit).await?;
    let l = code(f.lang.as_deref());
    Ok(Redirect::to(&format!("/interviews/{id}?lang={l}")).into_response())
}

pub async fn finish(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    body: Result<Form<ActionForm>, FormRejection>,
) -> Result<Response, AppError> {
    let user = viewer.require()?.clone();
    let f = form(body)?;
    viewer.check_csrf(&f.csrf)?;
    let (i, _) = own_interview(&state.db, id, user.id).await?;
    finish_interview(&state.db, &i).await?;
    let l = code(f.lang.as_deref());
    Ok(Redirect::to(&format!("/interviews/{id}/report?lang={l}")).into_response())
}

#[derive(Debug)]
struct ReportRow {
    number: usize,
    set: String,
    prompt: String,
    outcome: String,
    time: String,
    explanation: String,
}

#[derive(Template)]
#[template(path = "interview_report.html")]
struct ReportPage {
    layout: Layout,
    zh: bool,
    lang: &'static str,
    id: i64,
    score: String,
    kata: String,
    kata_title: String,
    kata_verdict: String,
    kata_cases: String,
    kata_time: String,
    hints_used: i64,
    rows: Vec<ReportRow>,
    review_next: Vec<String>,
}

fn duration(ms: Option<i64>) -> String {
    ms.map_or("—".into(), |ms| {
        let s = ms.max(0) / 1000;
        format!("{}:{:02}", s / 60, s % 60)
    })
}

pub async fn report(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    Query(q): Query<LangQuery>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let l = code(q.lang.as_deref());
    let (_, report) = own_interview(&state.db, id, user.id).await?;
    let Some(r) = report else {
        return Ok(Redirect::to(&format!("/interviews/{id}?lang={l}")).into_response());
    };
    render(&ReportPage {
        layout: Layout::new(&viewer, "interview"),
        zh: l == "zh",
        lang: l,
        id,
        score: format!("{:.0}", r.score),
        kata: r.kata.clone(),
        kata_title: r.kata_title.clone(),
        kata_verdict: r.kata_verdict.clone(),
        kata_cases: format!("{}/{}", r.kata_passed, r.kata_total),
        kata_time: duration(r.kata_time_ms),
        hints_used: r.hints_used,
        rows: r
            .items
            .iter()
            .enumerate()
            .map(|(n, it)| ReportRow {
                number: n + 1,
                set: it.set.clone(),
                prompt: it.prompt.get(l).to_string(),
                outcome: it.outcome.clone(),
                time: duration(it.time_ms),
                explanation: it
                    .explanation
                    .as_ref()
                    .map_or(String::new(), |e| e.get(l).to_string()),
            })
            .collect(),
        review_next: r.review_next.clone(),
    })
}
