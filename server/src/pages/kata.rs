//! `/katas/{slug}`: the workbench — the statement with hints one at a time (opened ones stay
//! open), the editor (prefilled with a submission asked for by `?from=ID`, else the learner's
//! draft, else their last attempt, else the starter), Run and Submit. `/katas/{slug}/solution`:
//! the reference and the concept notes, once the learner has an accepted submit.

use super::form::CsrfForm;
use super::i18n::Text;
use super::markdown::to_html;
use super::{Layout, render};
use crate::auth::{SignedIn, Viewer};
use crate::db::{drafts, kata_packages, kata_versions, progress, submissions, workers};
use crate::domain::{JobKind, SubmissionId};
use crate::error::AppError;
use crate::services::submissions::{enqueue, not_yours};
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use katas::{Kata, KataKind, Mode};
use serde::Deserialize;

/// Kata `slug`, compiled in or published (`services::catalogue::find`).
pub async fn find(state: &AppState, slug: &str) -> Result<&'static dyn Kata, AppError> {
    crate::services::catalogue::find(state, slug).await
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
    hints: Vec<Hint>,
    /// Said of a kata that is not listed (a staff preview, or retired).
    availability_note: Option<&'static str>,
    /// A retired kata takes no submissions: its page offers no Run, Submit or custom run.
    retired: bool,
    /// A running interview on this kata: its hints are withheld here, where they would be free.
    interview: Option<crate::domain::InterviewId>,
    /// The draft that a past submission opened in the editor replaced, one click from coming back.
    replaced_draft: Option<String>,
    /// The learner's latest submission here while it is still being graded (a GPU kata's job
    /// may wait in the queue for minutes): app.js follows it again after a reload.
    pending: Option<SubmissionId>,
    source: String,
    /// Where `source` came from: "submission", "draft", "last" or "starter".
    source_from: &'static str,
    /// The submission loaded by `?from=ID` (0 otherwise).
    from_id: SubmissionId,
    /// The draft's time (ms since the epoch; 0 without one): the page compares it with its
    /// offline copy.
    draft_at: i64,
    starter: &'static str,
    solved: bool,
    /// The kata offered after an accepted submit.
    next: Option<NextKata>,
    /// A GPU kata while no GPU worker is connected.
    gpu_waiting: bool,
    /// How long a submission may wait for a worker (the server's `max_queue_wait`).
    max_wait_minutes: u64,
    limits: String,
    codemirror: bool,
    /// The Custom input tab's starting text: the kata's first sample as JSON (`None` for GPU
    /// katas, which offer no custom input).
    custom_sample: Option<String>,
    /// The input's format: an example for each entry point, `(entry point, JSON)`.
    custom_examples: Vec<(String, String)>,
    /// A stdin/stdout kata: the learner writes a whole program.
    io: bool,
    /// The code shown was written for a version whose API differs from the one served.
    api_changed: Option<kata_versions::ApiChanged>,
}

struct Hint {
    html: String,
    opened: bool,
}

struct NextKata {
    slug: String,
    title: String,
}

#[derive(Debug, Deserialize)]
pub struct ShowQuery {
    /// A past submission of the learner's to load into the editor.
    from: Option<SubmissionId>,
}

/// The first kata after `slug` in catalogue order (`all`, the viewer's listing) that the learner
/// has not solved (wrapping around), if any is left.
fn next_kata(
    slug: &str,
    solved: &std::collections::HashSet<crate::domain::Slug>,
    titles: &crate::services::catalogue::Titles,
    all: &[&'static dyn Kata],
) -> Option<NextKata> {
    let at = all.iter().position(|k| k.meta().slug == slug)?;
    all.iter()
        .cycle()
        .skip(at + 1)
        .take(all.len() - 1)
        .find(|k| !solved.contains(k.meta().slug.as_str()))
        .map(|k| NextKata {
            slug: k.meta().slug.clone(),
            title: titles.of(&k.meta().slug),
        })
}

pub async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(slug): Path<String>,
    Query(query): Query<ShowQuery>,
) -> Result<Response, AppError> {
    let staff = viewer.user.as_ref().is_some_and(|u| u.role.is_staff());
    let (kata, availability) = crate::services::catalogue::open(&state, &slug, staff).await?;
    let meta = kata.meta();
    let statement = crate::services::catalogue::statement(&state, kata, viewer.lang).await?;
    let starter = kata.package().starter;
    let mut solved_set = std::collections::HashSet::new();
    let (mut source, mut source_from, mut from_id, mut draft_at) =
        (None, "starter", SubmissionId(0), 0);
    // The kata version the code shown was written for.
    let mut written_for = None;
    let mut opened = Vec::new();
    let mut interview = None;
    let mut replaced_draft = None;
    let mut pending = None;
    if let Some(u) = &viewer.user {
        pending = submissions::list_for(&state.db, u.id, &slug, 1)
            .await?
            .into_iter()
            .find(|s| s.state != submissions::State::Done && s.withdrawn.is_none())
            .map(|s| s.id);
        if let Some(id) = query.from {
            // Only the learner's own submissions open in their editor (the draft saves it).
            let s = crate::services::submissions::visible(&state, u.id, id).await?;
            if s.user_id != u.id {
                return Err(not_yours(id));
            }
            if s.kata.as_str() == slug {
                (source, source_from, from_id) = (Some(s.source), "submission", id);
                written_for = s.kata_version;
            }
        }
        if let Some(d) = drafts::get(&state.db, u.id, &slug).await? {
            draft_at = d.updated_at;
            if source.is_none() {
                (source, source_from) = (Some(d.source), "draft");
                written_for = d.kata_version;
            } else if source.as_deref() != Some(d.source.as_str()) {
                replaced_draft = Some(d.source);
            }
        }
        if source.is_none()
            && let Some(last) = submissions::last_source(&state.db, u.id, &slug).await?
        {
            (source, source_from) = (Some(last), "last");
        }
        solved_set = progress::solved(&state.db, u.id).await?;
        opened = drafts::opened_hints(&state.db, u.id, &slug).await?;
        interview =
            crate::db::interviews::running_on(&state.db, u.id, &slug, crate::db::now_ms()).await?;
    }
    let api_changed = kata_versions::api_changed(&state.db, &slug, written_for).await?;
    let solved = solved_set.contains(slug.as_str());
    let gpu_waiting = meta.kind == KataKind::Gpu && !gpu_worker_for(&state, kata).await?;
    // The statement without its title (the page prints it) and without hints and concept.
    let body = statement.public_markdown();
    let body = body
        .split_once('\n')
        .map_or(body.as_str(), |(_, rest)| rest);
    let l = &meta.limits;
    render(&KataPage {
        layout: Layout::new(&viewer, "catalogue"),
        slug: meta.slug.clone(),
        title: crate::services::catalogue::title(kata, &statement),
        difficulty: meta.difficulty.as_str(),
        topics: meta.topics.clone(),
        statement: to_html(body),
        interview,
        replaced_draft,
        pending,
        hints: statement
            .hints()
            .iter()
            .enumerate()
            .map(|(i, h)| Hint {
                html: to_html(h),
                opened: u32::try_from(i).is_ok_and(|i| opened.contains(&i)),
            })
            .collect(),
        source: source.unwrap_or_else(|| starter.to_string()),
        source_from,
        from_id,
        draft_at,
        starter,
        solved,
        next: next_kata(
            &slug,
            &solved_set,
            &crate::services::catalogue::served_titles(&state, viewer.lang).await?,
            &crate::services::catalogue::listing(&state, staff)
                .await?
                .into_iter()
                .map(|(k, _)| k)
                .collect::<Vec<_>>(),
        ),
        gpu_waiting,
        max_wait_minutes: state.config.max_queue_wait.as_secs().div_ceil(60),
        limits: Text::of(viewer.lang).limits(l.case_time_ms, l.memory_mb, l.max_threads),
        codemirror: super::assets::HAS_EDITOR,
        custom_sample: kata.sample_input(),
        custom_examples: kata.input_examples(),
        io: meta.kind == KataKind::Io,
        api_changed,
        availability_note: Text::of(viewer.lang).availability_note(availability),
        retired: availability == crate::domain::Availability::Retired,
    })
}

#[derive(Debug, Deserialize)]
pub struct SubmitForm {
    #[serde(default)]
    source: String,
    mode: Mode,
}

/// The editor's form without JavaScript: store, then show the submission's page.
pub async fn submit(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path(slug): Path<String>,
    CsrfForm(f): CsrfForm<SubmitForm>,
) -> Result<Response, AppError> {
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
    let kata = find(&state, &slug).await?;
    if !progress::has_solved(&state.db, user.id, &slug).await? {
        return Err(AppError::Forbidden(
            Text::of(viewer.lang).solution_locked(&slug),
        ));
    }
    let statement = crate::services::catalogue::statement(&state, kata, viewer.lang).await?;
    render(&SolutionPage {
        layout: Layout::new(&viewer, "catalogue"),
        slug: slug.clone(),
        title: crate::services::catalogue::title(kata, &statement),
        reference: kata.package().reference.to_string(),
        concept: to_html(statement.concept().unwrap_or("")),
    })
}

/// Whether a worker that would grade the served version of the GPU kata `kata` has been seen:
/// one that grades GPU packages when the version is stored (every version a replica serves is,
/// from its build's first start), else any GPU worker.
async fn gpu_worker_for(state: &AppState, kata: &dyn Kata) -> Result<bool, AppError> {
    let held = if kata_packages::is_stored(&state.db, kata.package().content_hash).await? {
        workers::Held::Stored
    } else {
        workers::Held::Unknown
    };
    Ok(workers::able_connected(&state.db, JobKind::Gpu, held).await?)
}
