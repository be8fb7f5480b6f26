//! `/drills`: the drill sets; `/drills/{set}`: its items; `/drills/attempts/{id}`: one attempt
//! (the question as a form, then the graded result with the explanation); `/review`: what is
//! due today and the streak. In the viewer's language (`Viewer.lang`), like every page: the
//! layout's words from [`super::i18n::Text`], the items' own words from `set.toml`.
//!
//! The page of an open attempt is rendered from what the learner may see (`Presented`) only; the
//! key is read solely to grade.

use super::form::CsrfForm;
use super::markdown::code_spans;
use super::{Layout, render};
use crate::auth::{SignedIn, Viewer};
use crate::db::drills::Attempt;
use crate::db::{now_ms, review};
use crate::domain::InterviewId;
use crate::error::AppError;
use crate::services::drills::{
    answer_attempt, catalogue, kind_of, own_attempt, result_withheld, start_attempt,
    sync_solved_katas,
};
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use katas_drills::{Body, Graded, PartForm, Presented, Response as Answer};
use serde::Deserialize;

#[derive(Debug)]
struct SetCard {
    slug: String,
    title: String,
    question: String,
    items: usize,
}

#[derive(Template)]
#[template(path = "drills.html")]
struct DrillsPage {
    layout: Layout,
    sets: Vec<SetCard>,
}

pub async fn index(viewer: Viewer) -> Result<Response, AppError> {
    let l = viewer.lang.as_str();
    render(&DrillsPage {
        layout: Layout::new(&viewer, "drills"),
        sets: catalogue()
            .sets()
            .iter()
            .map(|s| SetCard {
                slug: s.slug.clone(),
                title: s.title.get(l).to_string(),
                question: code_spans(s.question.get(l)),
                items: s.items.len(),
            })
            .collect(),
    })
}

#[derive(Debug)]
struct ItemRow {
    id: String,
    title: String,
    kind: &'static str,
    tags: Vec<String>,
}

#[derive(Template)]
#[template(path = "drill_set.html")]
struct SetPage {
    layout: Layout,
    slug: String,
    title: String,
    question: String,
    items: Vec<ItemRow>,
}

pub async fn set(viewer: Viewer, Path(set): Path<String>) -> Result<Response, AppError> {
    let l = viewer.lang.as_str();
    let served = catalogue();
    let s = served
        .set(&set)
        .map_err(|e| AppError::NotFound(e.to_string()))?;
    render(&SetPage {
        layout: Layout::new(&viewer, "drills"),
        slug: s.slug.clone(),
        title: s.title.get(l).to_string(),
        question: code_spans(s.question.get(l)),
        items: s
            .items
            .iter()
            .map(|i| ItemRow {
                id: i.id.clone(),
                title: i.title_in(l).to_string(),
                kind: kind_of(&i.answer),
                // Drill tags in the viewer's language; kata slugs go through the catalogue's
                // topic names in the template.
                tags: i
                    .tags
                    .iter()
                    .chain(&i.katas)
                    .map(|t| katas_drills::words::tag(t, l).map_or(t.clone(), str::to_string))
                    .collect(),
            })
            .collect(),
    })
}

/// Form fields: the answer (`pick` for options, `p0`, `p1`, … otherwise).
type Fields = Vec<(String, String)>;

fn field<'a>(f: &'a Fields, name: &str) -> &'a str {
    f.iter()
        .find(|(k, _)| k == name)
        .map_or("", |(_, v)| v.as_str())
}

/// Starts an attempt from a page and shows it.
pub async fn start(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path((set, item)): Path<(String, String)>,
    _: CsrfForm<Fields>,
) -> Result<Response, AppError> {
    let (id, _) = start_attempt(&state, user.id, &set, &item).await?;
    Ok(Redirect::to(&format!("/drills/attempts/{id}")).into_response())
}

/// Items a random session may hold, and the sizes the set page offers.
const MAX_SESSION: usize = 20;

/// The items still to come in a session, as carried from page to page (`a,b,c`): only ids of
/// `set`, at most [`MAX_SESSION`], so the text a learner can send stays bounded.
fn queue_of(set: &str, text: &str) -> Vec<String> {
    let served = catalogue();
    let Ok(s) = served.set(set) else {
        return Vec::new();
    };
    text.split(',')
        .filter(|id| s.items.iter().any(|i| i.id == *id))
        .take(MAX_SESSION)
        .map(str::to_string)
        .collect()
}

fn attempt_url(id: i64, queue: &[String]) -> String {
    if queue.is_empty() {
        format!("/drills/attempts/{id}")
    } else {
        format!("/drills/attempts/{id}?queue={}", queue.join(","))
    }
}

/// `POST /drills/{set}/next`: starts the next item of a session. With `n`, a new random session
/// of `n` distinct items; with `queue`, the first item still to come; else one random item other
/// than `after` (the "next item" of a single attempt).
pub async fn next(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path(set): Path<String>,
    CsrfForm(f): CsrfForm<Fields>,
) -> Result<Response, AppError> {
    let served = catalogue();
    let s = served
        .set(&set)
        .map_err(|e| AppError::NotFound(e.to_string()))?;
    let mut ids: Vec<String> = s.items.iter().map(|i| i.id.clone()).collect();
    let mut rng = fastrand::Rng::new();
    let mut queue = if let Ok(n) = field(&f, "n").parse::<usize>() {
        rng.shuffle(&mut ids);
        ids.truncate(n.clamp(1, MAX_SESSION));
        ids
    } else {
        let queued = queue_of(&set, field(&f, "queue"));
        if queued.is_empty() {
            let after = field(&f, "after");
            let others: Vec<String> = ids.iter().filter(|i| *i != after).cloned().collect();
            let pool = if others.is_empty() { ids } else { others };
            vec![pool[rng.usize(..pool.len())].clone()]
        } else {
            queued
        }
    };
    let first = queue.remove(0);
    let (id, _) = start_attempt(&state, user.id, &set, &first).await?;
    Ok(Redirect::to(&attempt_url(id, &queue)).into_response())
}

#[derive(Debug)]
struct Choice {
    label: String,
    /// HTML: authors mark code in option text with backticks, as in prompts.
    text: String,
}

#[derive(Debug)]
struct PartView {
    index: usize,
    /// HTML, backticks shown as code.
    label: String,
    hint: &'static str,
    /// (value sent, text shown in the viewer's language): `yes` shows as 是 in 中文.
    choices: Vec<(String, String)>,
}

#[derive(Debug)]
struct ResultPart {
    about: String,
    ok: bool,
    given: String,
    expected: String,
    /// HTML, backticks shown as code.
    feedback: String,
}

#[derive(Template)]
#[template(path = "drill_attempt.html")]
struct AttemptPage {
    layout: Layout,
    id: i64,
    set: String,
    set_title: String,
    kind: &'static str,
    prompt: String,
    unit: String,
    multiple: bool,
    options: Vec<Choice>,
    left: Vec<Choice>,
    right: Vec<Choice>,
    parts: Vec<PartView>,
    /// HTML: why the answer could not be graded, quoting it in backticks shown as code.
    error: Option<String>,
    answered: bool,
    correct: bool,
    score: String,
    result: Vec<ResultPart>,
    explanation: String,
    /// During an interview: the answer is recorded, its result waits for the report.
    interview: Option<InterviewId>,
    item: String,
    item_title: String,
    /// The session's items still to come, as the forms carry them (`a,b,c`; empty outside one).
    queue: String,
    queue_len: usize,
}

fn labeled(list: &[katas_drills::Labeled], l: &str) -> Vec<Choice> {
    list.iter()
        .map(|o| Choice {
            label: o.label.clone(),
            text: code_spans(o.text.get(l)),
        })
        .collect()
}

fn attempt_page(
    viewer: &Viewer,
    a: &Attempt,
    error: Option<String>,
    withheld: bool,
    queue: &[String],
) -> Result<AttemptPage, AppError> {
    let shown: Presented =
        serde_json::from_str(&a.presented).map_err(|e| AppError::Internal(e.into()))?;
    let graded: Option<Graded> = a
        .result
        .as_deref()
        .filter(|_| !withheld)
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| AppError::Internal(e.into()))?;
    let l = viewer.lang.as_str();
    let set_title = catalogue()
        .set(&a.drill_set)
        .map_or(a.drill_set.clone(), |s| s.title.get(l).to_string());
    let mut page = AttemptPage {
        layout: Layout::new(viewer, "drills"),
        id: a.id,
        set: a.drill_set.clone(),
        set_title,
        kind: "",
        prompt: code_spans(shown.prompt.get(l)),
        unit: String::new(),
        multiple: false,
        options: Vec::new(),
        left: Vec::new(),
        right: Vec::new(),
        parts: Vec::new(),
        error: error.as_deref().map(code_spans),
        answered: a.answered_at.is_some(),
        correct: false,
        score: String::new(),
        result: Vec::new(),
        explanation: String::new(),
        interview: a.interview_id,
        item: a.item.clone(),
        item_title: catalogue()
            .item(&a.drill_set, &a.item)
            .map_or(a.item.clone(), |(_, i)| i.title_in(l).to_string()),
        queue: queue.join(","),
        queue_len: queue.len(),
    };
    match &shown.body {
        Body::Numeric { unit } => {
            page.kind = "numeric";
            page.unit = katas_drills::words::word(unit, l);
        }
        Body::Choice { multiple, options } => {
            page.kind = "choice";
            page.multiple = *multiple;
            page.options = labeled(options, l);
        }
        Body::Ordering { steps } => {
            page.kind = "ordering";
            page.options = labeled(steps, l);
        }
        Body::Matching { left, right } => {
            page.kind = "matching";
            page.left = labeled(left, l);
            page.right = labeled(right, l);
        }
        Body::Predict { parts } => {
            page.kind = "predict";
            page.parts = parts
                .iter()
                .enumerate()
                .map(|(index, p)| PartView {
                    index,
                    label: code_spans(p.label.get(l)),
                    hint: match p.form {
                        PartForm::Tuple => "(a, b, …)",
                        PartForm::Number => "n",
                        PartForm::Word => "",
                    },
                    choices: p
                        .choices
                        .iter()
                        .map(|c| (c.clone(), katas_drills::words::word(c, l)))
                        .collect(),
                })
                .collect();
        }
    }
    if let Some(g) = graded {
        page.correct = g.correct;
        page.score = katas_drills::show_percent(g.score);
        page.explanation = code_spans(g.explanation.get(l));
        page.result = g
            .parts
            .iter()
            .map(|p| ResultPart {
                about: p.about.clone(),
                ok: p.ok,
                given: katas_drills::words::quantity(&p.given, l),
                expected: katas_drills::words::quantity(&p.expected, l),
                feedback: p
                    .feedback
                    .as_ref()
                    .map_or(String::new(), |f| code_spans(f.get(l))),
            })
            .collect();
    }
    Ok(page)
}

#[derive(Debug, Deserialize)]
pub struct SessionQuery {
    #[serde(default)]
    queue: String,
}

pub async fn attempt(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
    Query(q): Query<SessionQuery>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let a = own_attempt(&state.db, id, user.id).await?;
    let withheld = result_withheld(&state.db, &a).await?;
    let queue = queue_of(&a.drill_set, &q.queue);
    render(&attempt_page(&viewer, &a, None, withheld, &queue)?)
}

/// The answer from the form: every `pick` for options, else `p0`, `p1`, … in order.
fn answer_of(f: &Fields) -> Answer {
    let picks: Vec<String> = f
        .iter()
        .filter(|(k, _)| k == "pick")
        .map(|(_, v)| v.clone())
        .collect();
    if !picks.is_empty() {
        return Answer { parts: picks };
    }
    let mut numbered: Vec<(usize, String)> = f
        .iter()
        .filter_map(|(k, v)| {
            k.strip_prefix('p')
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n < katas_drills::grade::MAX_PARTS)
                .map(|n| (n, v.clone()))
        })
        .collect();
    numbered.sort_by_key(|(n, _)| *n);
    Answer {
        parts: numbered.into_iter().map(|(_, v)| v).collect(),
    }
}

/// Commits the form's answer; an answer that cannot be graded shows the question again with
/// the reason (the attempt stays open).
pub async fn answer(
    State(state): State<AppState>,
    SignedIn { user, viewer }: SignedIn,
    Path(id): Path<i64>,
    CsrfForm(f): CsrfForm<Fields>,
) -> Result<Response, AppError> {
    match answer_attempt(&state.db, user.id, id, &answer_of(&f)).await {
        Ok(_) => {
            let a = own_attempt(&state.db, id, user.id).await?;
            let queue = queue_of(&a.drill_set, field(&f, "queue"));
            let to = match a.interview_id {
                Some(i) if result_withheld(&state.db, &a).await? => {
                    format!("/interviews/{i}")
                }
                _ => attempt_url(id, &queue),
            };
            Ok(Redirect::to(&to).into_response())
        }
        Err(e) if e.status() == StatusCode::BAD_REQUEST => {
            let a = own_attempt(&state.db, id, user.id).await?;
            let withheld = result_withheld(&state.db, &a).await?;
            let why = e.message_in(viewer.lang);
            let queue = queue_of(&a.drill_set, field(&f, "queue"));
            let page = attempt_page(&viewer, &a, Some(why), withheld, &queue)?;
            Ok((StatusCode::BAD_REQUEST, render(&page)?).into_response())
        }
        Err(e) => Err(e),
    }
}

#[derive(Debug)]
struct DueRow {
    kind: String,
    set: String,
    item: String,
    title: String,
    /// A drill item's own title (empty for a kata).
    item_title: String,
    overdue: bool,
}

#[derive(Template)]
#[template(path = "review.html")]
struct ReviewPage {
    layout: Layout,
    due: Vec<DueRow>,
    streak: i64,
    best: i64,
}

pub async fn review_page(
    State(state): State<AppState>,
    viewer: Viewer,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let l = viewer.lang.as_str();
    sync_solved_katas(&state.db, user.id).await?;
    let titles = crate::services::catalogue::served_titles(&state, viewer.lang).await?;
    let now = now_ms();
    let cards = review::due(&state.db, user.id, review::end_of_day(now)).await?;
    let streak = review::streak(&state.db, user.id, now).await?;
    let due = cards
        .into_iter()
        .map(|c| {
            let (set, item) = c
                .subject
                .split_once('/')
                .map_or((String::new(), c.subject.clone()), |(s, i)| {
                    (s.to_string(), i.to_string())
                });
            let title = if c.kind == "kata" {
                titles.of(&c.subject)
            } else {
                catalogue()
                    .set(&set)
                    .map_or(set.clone(), |s| s.title.get(l).to_string())
            };
            let item_title = catalogue()
                .item(&set, &item)
                .map_or(item.clone(), |(_, i)| i.title_in(l).to_string());
            DueRow {
                kind: c.kind,
                set,
                item,
                title,
                item_title,
                overdue: c.due < now,
            }
        })
        .collect();
    render(&ReviewPage {
        layout: Layout::new(&viewer, "review"),
        due,
        streak: streak.current,
        best: streak.best,
    })
}
