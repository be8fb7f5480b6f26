//! `/katas/{slug}/submissions`: the learner's history on a kata. `/submissions/{id}`: one
//! submission, live until its verdict; `/submissions/{id}/report` is the result panel alone,
//! which the page's script fetches when the verdict event arrives. Learners see their own
//! submissions, and someone else's accepted submit only once they have solved that kata
//! themselves (the leaderboard links to it); anything else answers 404.

use super::form::{Button, CsrfForm};
use super::i18n::Text;
use super::kata::find;
use super::view::{self, ReportView};
use super::{Layout, render};
use crate::auth::{SignedIn, Viewer};
use crate::db::submissions::{self, State as SubState, Submission};
use crate::db::{queue_state, users};
use crate::domain::SubmissionId;
use crate::error::AppError;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
struct Row {
    id: SubmissionId,
    /// (`2026-12-02`, `11:20:07 UTC`): the day and the time, kept whole when the row wraps.
    when: (String, String),
    /// The same time for `<time datetime>`, shown in the viewer's zone by the page script.
    when_iso: String,
    mode: &'static str,
    verdict: String,
    verdict_class: &'static str,
    score: String,
    ratio: String,
    withdrawn: Option<String>,
}

#[derive(Template)]
#[template(path = "history.html")]
struct HistoryPage {
    layout: Layout,
    slug: String,
    title: String,
    rows: Vec<Row>,
}

pub async fn history(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let user = viewer.require()?;
    let kata = find(&state, &slug).await?;
    let t = Text::of(viewer.lang);
    let rows = submissions::list_for(&state.db, user.id, &slug, 200)
        .await?
        .into_iter()
        .map(|s| {
            let (verdict, verdict_class) = match s.verdict {
                Some(v) => (t.verdict_label(v.0).to_string(), view::verdict_class(v.0)),
                None => (t.state_label(s.state.as_str()).to_string(), "muted"),
            };
            Row {
                id: s.id,
                when: view::datetime_seconds(s.created_at)
                    .split_once(' ')
                    .map(|(day, clock)| (day.to_string(), clock.to_string()))
                    .unwrap_or_default(),
                when_iso: view::iso(s.created_at),
                mode: t.submission_mode(s.mode, s.custom.0),
                verdict,
                verdict_class,
                score: match (s.passed, s.total) {
                    (Some(p), Some(t)) if t > 0 => format!("{p}/{t}"),
                    _ => "—".into(),
                },
                ratio: s.perf_ratio.map_or("—".into(), view::ratio),
                withdrawn: s.withdrawn,
            }
        })
        .collect();
    render(&HistoryPage {
        layout: Layout::new(&viewer, "catalogue"),
        slug,
        title: crate::services::catalogue::served_titles(&state, viewer.lang)
            .await?
            .of(&kata.meta().slug),
        rows,
    })
}

async fn visible(
    state: &AppState,
    viewer: &Viewer,
    id: SubmissionId,
) -> Result<Submission, AppError> {
    crate::services::submissions::visible(state, viewer.require()?.id, id).await
}

/// The result panel: the live status until the verdict, then the report.
#[derive(Debug)]
struct Panel {
    id: SubmissionId,
    /// The words of the panel and its report, in the viewer's language.
    t: &'static Text,
    state: &'static str,
    queue_position: Option<i64>,
    /// e.g. "GPU worker" while none that can grade it is connected.
    waiting_for: Option<String>,
    report: Option<ReportView>,
    /// `cancelled` or `timed_out`: ended without being graded (the report says why).
    withdrawn: Option<String>,
    /// For the Cancel button's form (the page's own token).
    csrf: String,
}

async fn panel(state: &AppState, s: &Submission, viewer: &Viewer) -> Result<Panel, AppError> {
    let t = Text::of(viewer.lang);
    Ok(Panel {
        id: s.id,
        t,
        withdrawn: submissions::withdrawn(&state.db, s.id).await?,
        csrf: viewer.csrf.clone(),
        state: s.state.as_str(),
        queue_position: queue_state::position(&state.db, s.id).await?,
        waiting_for: queue_state::waiting_for(&state.db, s.id)
            .await?
            .map(|w| t.worker_kind(&w)),
        report: match (&s.report, s.state) {
            (Some(r), SubState::Done | SubState::Measuring) => ReportView::from_json(r, t),
            _ => None,
        },
    })
}

#[derive(Template)]
#[template(path = "submission.html")]
struct SubmissionPage {
    layout: Layout,
    /// Someone else's (an accepted submit the viewer may study); `None` for the viewer's own.
    author: Option<String>,
    slug: String,
    title: String,
    mode: &'static str,
    when: String,
    when_iso: String,
    /// The source, one entry per line (the page numbers them and links `#L{n}`).
    lines: Vec<String>,
    panel: Panel,
    /// Written for a kata version whose API differs from the one served now.
    api_changed: Option<crate::db::kata_versions::ApiChanged>,
}

pub async fn show(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SubmissionId>,
) -> Result<Response, AppError> {
    let s = visible(&state, &viewer, id).await?;
    let title = crate::services::catalogue::served_titles(&state, viewer.lang)
        .await?
        .of(&s.kata);
    let author = match &viewer.user {
        Some(u) if u.id == s.user_id => None,
        _ => users::name_of(&state.db, s.user_id).await?,
    };
    let api_changed =
        crate::db::kata_versions::api_changed(&state.db, &s.kata, s.kata_version).await?;
    render(&SubmissionPage {
        api_changed,
        author,
        layout: Layout::new(&viewer, "catalogue"),
        panel: panel(&state, &s, &viewer).await?,
        slug: s.kata.into(),
        title,
        mode: Text::of(viewer.lang).submission_mode(s.mode, s.custom),
        when: view::datetime_seconds(s.created_at),
        when_iso: view::iso(s.created_at),
        lines: s.source.lines().map(str::to_string).collect(),
    })
}

#[derive(Template)]
#[template(path = "report_fragment.html")]
struct ReportFragment {
    panel: Panel,
}

pub async fn report(
    State(state): State<AppState>,
    viewer: Viewer,
    Path(id): Path<SubmissionId>,
) -> Result<Response, AppError> {
    let s = visible(&state, &viewer, id).await?;
    render(&ReportFragment {
        panel: panel(&state, &s, &viewer).await?,
    })
}

/// The panel's Cancel button without JavaScript.
pub async fn cancel(
    State(state): State<AppState>,
    SignedIn { user, .. }: SignedIn,
    Path(id): Path<SubmissionId>,
    _: CsrfForm<Button>,
) -> Result<Response, AppError> {
    crate::services::submissions::cancel_own(&state, user.id, id).await?;
    Ok(axum::response::Redirect::to(&format!("/submissions/{id}")).into_response())
}
