//! `/interviews`: start a timed mock interview and see past reports; `/interviews/{id}`: the
//! session (clock, the kata's statement with hints at a cost, the kata's editor with its live
//! verdict, the drill items); `/interviews/{id}/report`: the kept report. In the viewer's
//! language, like every page.

use super::form::CsrfForm;
use super::i18n::Text;
use super::markdown::code_spans;
use super::markdown::to_html;
use super::{Layout, render};
use crate::auth::{SignedIn, Viewer};
use crate::db::drills as attempts;
use crate::db::interviews::{self, Interview};
use crate::db::now_ms;
use crate::db::users::User;
use crate::domain::InterviewId;
use crate::error::AppError;
use crate::services::catalogue::{Titles, served_titles};
use crate::services::drills::{catalogue, interview_over};
use crate::services::interviews::{
    DEFAULT_MINUTES, HINT_COST, KataOutcome, Report, finish_interview, own_interview,
    start_interview,
};
use crate::services::submissions::enqueue;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use katas::{Lang, Mode};
use katas_drills::Graded;
use katas_drills::words::quantity;
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Debug)]
struct PastRow {
    id: InterviewId,
    when: String,
    kata: String,
    score: String,
    running: bool,
}

#[derive(Template)]
#[template(path = "interviews.html")]
struct ListPage {
    layout: Layout,
    minutes: u32,
    past: Vec<PastRow>,
}

pub async fn list(State(state): State<AppState>, viewer: Viewer) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let t = Text::of(viewer.lang);
    let now = now_ms();
    let titles = served_titles(&state, viewer.lang).await?;
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
                when: t.ago(i.started_at, now),
                kata: titles.of(&i.kata),
                running: i.open(now),
                score,
            }
        })
        .collect();
    render(&ListPage {
        layout: Layout::new(&viewer, "interview"),
        minutes: DEFAULT_MINUTES,
        past,
    })
}

#[derive(Debug, Deserialize)]
pub struct StartForm {
    #[serde(default)]
    minutes: Option<u32>,
}

pub async fn start(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    CsrfForm(f): CsrfForm<StartForm>,
) -> Result<Response, AppError> {
    let id = start_interview(&state, user.id, f.minutes.unwrap_or(DEFAULT_MINUTES)).await?;
    Ok(Redirect::to(&format!("/interviews/{id}")).into_response())
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
    id: InterviewId,
    slug: String,
    ends_ms: i64,
    left: String,
    statement: String,
    hints: Vec<String>,
    hints_left: usize,
    hint_cost: u32,
    /// The interview's saved draft, else the starter file, to edit in place.
    starter: String,
    /// The best submit so far: its stored verdict word (`pending` while graded) and label.
    submitted: Option<(String, String)>,
    items: Vec<ItemRow>,
    codemirror: bool,
}

/// The kata's outcome as the learner reads it.
fn verdict_words(t: &Text, outcome: KataOutcome) -> String {
    match outcome {
        KataOutcome::Pending => t.pending.into(),
        KataOutcome::None => t.practice.no_submit.into(),
        KataOutcome::Graded(v) => t.verdict_label(v).into(),
    }
}

pub async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<InterviewId>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let t = Text::of(viewer.lang);
    let (i, report) = own_interview(&state.db, id, user.id).await?;
    if report.is_some() {
        return Ok(Redirect::to(&format!("/interviews/{id}/report")).into_response());
    }
    let kata = crate::services::catalogue::find(&state, i.kata.as_str()).await?;
    let statement = crate::services::catalogue::statement(&state, kata, viewer.lang).await?;
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
        id,
        slug: i.kata.to_string(),
        ends_ms: i.ends_at,
        left: format!("{}:{:02}", secs / 60, secs % 60),
        statement: to_html(&statement.public_markdown()),
        hints: all_hints[..used].iter().map(|h| to_html(h)).collect(),
        hints_left: all_hints.len() - used,
        hint_cost: (HINT_COST * 100.0).round() as u32,
        starter: interviews::draft_of(&state.db, id, user.id)
            .await?
            .unwrap_or_else(|| kata.package().starter.to_string()),
        submitted: best.map(|b| {
            let outcome = b
                .verdict
                .map_or(KataOutcome::Pending, |v| KataOutcome::Graded(v.0));
            (outcome.as_str().to_string(), verdict_words(t, outcome))
        }),
        items,
        codemirror: super::assets::HAS_EDITOR,
    })
}

#[derive(Debug, Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    source: String,
}

/// A form posted on one of the learner's own interviews: signed in, CSRF token checked, the
/// interview theirs (finished first if its clock ran out, then with its report).
struct InterviewPost {
    user: User,
    interview: Interview,
    report: Option<Report>,
    form: ActionForm,
}

async fn interview_post(
    state: &AppState,
    user: User,
    id: InterviewId,
    CsrfForm(form): CsrfForm<ActionForm>,
) -> Result<InterviewPost, AppError> {
    let (interview, report) = own_interview(&state.db, id, user.id).await?;
    Ok(InterviewPost {
        user,
        interview,
        report,
        form,
    })
}

/// No write budget: a counter on the interview, stopped at the kata's number of hints.
pub async fn hint(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path(id): Path<InterviewId>,
    body: CsrfForm<ActionForm>,
) -> Result<Response, AppError> {
    let p = interview_post(&state, user, id, body).await?;
    let kata = crate::services::catalogue::find(&state, p.interview.kata.as_str()).await?;
    let max = crate::services::catalogue::hint_count(&state, kata).await?;
    if !interviews::take_hint(&state.db, id, p.user.id, max as i64, now_ms()).await? {
        return Err(
            AppError::Conflict("no hint left, or the interview is over".into())
                .zh("没有剩余的提示了，或者面试已经结束"),
        );
    }
    Ok(Redirect::to(&format!("/interviews/{id}#hints")).into_response())
}

/// The kata's submit form inside the interview, without JavaScript (the page's script submits
/// through the API and follows the verdict live): graded as a normal submit, counted while the
/// clock runs.
pub async fn submit(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path(id): Path<InterviewId>,
    body: CsrfForm<ActionForm>,
) -> Result<Response, AppError> {
    let p = interview_post(&state, user, id, body).await?;
    if p.report.is_some() {
        return Err(interview_over());
    }
    // The page shows this code again after the redirect, not the starter.
    interviews::save_draft(&state.db, id, p.user.id, &p.form.source, now_ms()).await?;
    enqueue(
        &state,
        p.user.id,
        &p.interview.kata,
        &p.form.source,
        Mode::Submit,
    )
    .await?;
    Ok(Redirect::to(&format!("/interviews/{id}")).into_response())
}

pub async fn finish(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path(id): Path<InterviewId>,
    body: CsrfForm<ActionForm>,
) -> Result<Response, AppError> {
    let p = interview_post(&state, user, id, body).await?;
    finish_interview(&state.db, &p.interview).await?;
    Ok(Redirect::to(&format!("/interviews/{id}/report")).into_response())
}

#[derive(Debug)]
struct ReportRow {
    number: usize,
    set: String,
    prompt: String,
    outcome: String,
    time: String,
    explanation: String,
    /// The learner's answer beside the expected one, part by part, with the drawn numbers.
    parts: Vec<AnswerPart>,
}

/// One part of a drill answer on the report (an option, a position, a prediction).
#[derive(Debug)]
struct AnswerPart {
    ok: bool,
    about: String,
    given: String,
    expected: String,
}

/// The graded parts of each of the interview's answered attempts, by (set, item).
async fn graded_parts(
    state: &AppState,
    id: InterviewId,
    lang: Lang,
) -> Result<HashMap<(String, String), Vec<AnswerPart>>, AppError> {
    let l = lang.as_str();
    let mut parts = HashMap::new();
    for a in attempts::of_interview(&state.db, id).await? {
        let Some(result) = a.result.as_deref() else {
            continue;
        };
        let graded: Graded =
            serde_json::from_str(result).map_err(|e| AppError::Internal(e.into()))?;
        let shown = graded
            .parts
            .iter()
            .map(|p| AnswerPart {
                ok: p.ok,
                about: p.about.clone(),
                given: quantity(&p.given, l),
                expected: quantity(&p.expected, l),
            })
            .collect();
        parts.insert((a.drill_set, a.item), shown);
    }
    Ok(parts)
}

/// One line of "review next": where to go and what it is called in the page's language.
#[derive(Debug)]
struct ReviewLink {
    href: String,
    kind: &'static str,
    label: String,
}

#[derive(Template)]
#[template(path = "interview_report.html")]
struct ReportPage {
    layout: Layout,
    id: InterviewId,
    score: String,
    kata: String,
    kata_title: String,
    kata_verdict: String,
    kata_verdict_label: String,
    kata_cases: String,
    kata_time: String,
    hints_used: i64,
    rows: Vec<ReportRow>,
    review_next: Vec<ReviewLink>,
}

fn duration(ms: Option<i64>) -> String {
    ms.map_or("—".into(), |ms| {
        let s = ms.max(0) / 1000;
        format!("{}:{:02}", s / 60, s % 60)
    })
}

fn set_title(slug: &str, lang: Lang) -> String {
    catalogue()
        .set(slug)
        .map_or(slug.to_string(), |s| s.title.get(lang.as_str()).to_string())
}

/// The report keeps "review next" as `kata SLUG` / `drill set SLUG` (also in the API); the
/// page links each and names it in the viewer's language.
fn review_link(line: &str, lang: Lang, titles: &Titles) -> ReviewLink {
    if let Some(slug) = line.strip_prefix("kata ") {
        ReviewLink {
            href: format!("/katas/{slug}"),
            kind: "kata",
            label: titles.of(slug),
        }
    } else if let Some(slug) = line.strip_prefix("drill set ") {
        ReviewLink {
            href: format!("/drills/{slug}"),
            kind: "drill",
            label: set_title(slug, lang),
        }
    } else {
        ReviewLink {
            href: "/review".into(),
            kind: "",
            label: line.to_string(),
        }
    }
}

pub async fn report(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<InterviewId>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let lang = viewer.lang;
    let l = lang.as_str();
    let t = Text::of(lang);
    let (_, report) = own_interview(&state.db, id, user.id).await?;
    let Some(r) = report else {
        return Ok(Redirect::to(&format!("/interviews/{id}")).into_response());
    };
    let mut answers = graded_parts(&state, id, lang).await?;
    let titles = served_titles(&state, lang).await?;
    render(&ReportPage {
        layout: Layout::new(&viewer, "interview"),
        id,
        score: format!("{:.0}", r.score),
        kata: r.kata.clone(),
        kata_title: titles.of(&r.kata),
        kata_verdict_label: verdict_words(t, r.kata_verdict),
        kata_verdict: r.kata_verdict.as_str().to_string(),
        kata_cases: format!("{}/{}", r.kata_passed, r.kata_total),
        kata_time: duration(r.kata_time_ms),
        hints_used: r.hints_used,
        rows: r
            .items
            .iter()
            .enumerate()
            .map(|(n, it)| ReportRow {
                number: n + 1,
                set: set_title(&it.set, lang),
                prompt: code_spans(it.prompt.get(l)),
                outcome: it.outcome.as_str().to_string(),
                time: duration(it.time_ms),
                explanation: it
                    .explanation
                    .as_ref()
                    .map_or(String::new(), |e| code_spans(e.get(l))),
                parts: answers
                    .remove(&(it.set.clone(), it.item.clone()))
                    .unwrap_or_default(),
            })
            .collect(),
        review_next: r
            .review_next
            .iter()
            .map(|x| review_link(x, lang, &titles))
            .collect(),
    })
}
