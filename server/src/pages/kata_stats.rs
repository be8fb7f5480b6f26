//! `/admin/katas/{slug}`: an instructor's view of one kata, per version (attempts, learners,
//! accept rate, verdicts, the case most often failed first, median time to a first accept), and
//! `/admin/katas/{slug}/stats.csv`, the same figures as a CSV file; `POST
//! /admin/katas/{slug}/availability` lists, unlists or retires the version served. The page also
//! holds the kata's versions and the upload form ([`super::kata_versions`]).

use super::form::CsrfForm;
use super::i18n::Text;
use super::{Layout, render};
use crate::auth::Staff;
use crate::db::kata_availability;
use crate::db::kata_stats::{self, VersionStats};
use crate::domain::{Availability, Word as _};
use crate::error::AppError;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};

struct Row {
    version: String,
    attempts: i64,
    learners: i64,
    accept_rate: String,
    verdicts: String,
    first_failing: String,
    to_first_accept: String,
}

#[derive(Template)]
#[template(path = "kata_stats.html")]
struct KataStatsPage {
    layout: Layout,
    slug: String,
    heading: String,
    columns: [&'static str; 7],
    rows: Vec<Row>,
    /// The empty note, the CSV link's label and what counts as an attempt.
    words: (&'static str, &'static str, &'static str),
    /// The availability control's label, its choices (stored word, label) and its button.
    availability_words: (
        &'static str,
        [(&'static str, &'static str); 3],
        &'static str,
    ),
    /// The served version's availability, as stored.
    availability: &'static str,
    versions: Vec<super::kata_versions::VersionRow>,
    /// The version a rejudge is offered against first: the live one (any version this build
    /// can grade may be typed in); `None` when there is none to offer.
    rejudge_against: Option<i64>,
    /// A stdin/stdout kata: its upload's bound and checks are that kind's.
    io: bool,
    p: &'static super::i18n_publishing::Publishing,
}

fn percent(rate: f64) -> String {
    format!("{:.0}%", rate * 100.0)
}

async fn stats(state: &AppState, slug: &str) -> Result<Vec<VersionStats>, AppError> {
    crate::services::catalogue::find(state, slug).await?;
    Ok(kata_stats::for_kata(&state.db, slug).await?)
}

pub async fn show(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let versions = stats(&state, &slug).await?;
    let t = Text::of(viewer.lang);
    let kata = crate::services::catalogue::find(&state, &slug).await?;
    let rows = versions
        .iter()
        .map(|v| Row {
            version: t.kata_version_label(v.version),
            attempts: v.attempts,
            learners: v.learners,
            accept_rate: percent(v.accept_rate()),
            verdicts: v
                .verdicts
                .iter()
                .map(|(word, n)| {
                    let label =
                        katas::Verdict::parse(word).map_or(word.as_str(), |v| t.verdict_label(v));
                    format!("{label} {n}")
                })
                .collect::<Vec<_>>()
                .join(" · "),
            first_failing: v
                .first_failing
                .as_ref()
                .map_or("—".into(), |(case, n)| format!("{case} ({n})")),
            to_first_accept: v
                .median_ms_to_first_accept
                .map_or("—".into(), |ms| t.span(ms)),
        })
        .collect();
    let published = super::kata_versions::rows(&state, &slug, t).await?;
    render(&KataStatsPage {
        layout: Layout::new(&viewer, "admin"),
        heading: t.kata_stats_heading(
            &crate::services::catalogue::served_titles(&state, viewer.lang)
                .await?
                .of(&kata.meta().slug),
        ),
        columns: t.kata_stats_columns(),
        words: t.kata_stats_words(),
        availability_words: t.availability_words(),
        availability: kata_availability::of(&state.db, &slug).await?.name(),
        rejudge_against: published
            .iter()
            .find(|v| v.live)
            .or_else(|| published.iter().find(|v| v.servable))
            .map(|v| v.number),
        io: kata.meta().kind == katas::KataKind::Io,
        versions: published,
        p: t.publishing,
        slug,
        rows,
    })
}

/// The figures as CSV, one row per version; machine words (verdict names, milliseconds), so a
/// spreadsheet can sum and sort them whatever the viewer's language.
pub async fn csv(
    State(state): State<AppState>,
    _: Staff,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let versions = stats(&state, &slug).await?;
    let mut out = csv::Writer::from_writer(Vec::new());
    let write = |out: &mut csv::Writer<Vec<u8>>, record: &[String]| {
        out.write_record(record)
            .map_err(|e| AppError::Internal(e.into()))
    };
    write(
        &mut out,
        &[
            "version",
            "attempts",
            "learners",
            "accepted",
            "accept_rate",
            "verdicts",
            "first_failing_case",
            "first_failing_count",
            "median_ms_to_first_accept",
        ]
        .map(String::from),
    )?;
    for v in &versions {
        let (case, count) = v
            .first_failing
            .clone()
            .map_or((String::new(), String::new()), |(c, n)| (c, n.to_string()));
        write(
            &mut out,
            &[
                v.version.map_or(String::new(), |n| n.to_string()),
                v.attempts.to_string(),
                v.learners.to_string(),
                v.accepted.to_string(),
                format!("{:.4}", v.accept_rate()),
                v.verdicts
                    .iter()
                    .map(|(w, n)| format!("{w}={n}"))
                    .collect::<Vec<_>>()
                    .join(";"),
                case,
                count,
                v.median_ms_to_first_accept
                    .map_or(String::new(), |ms| ms.to_string()),
            ],
        )?;
    }
    let body = out
        .into_inner()
        .map_err(|e| AppError::Internal(anyhow::anyhow!("writing the CSV: {e}")))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{slug}-stats.csv\""),
            ),
        ],
        body,
    )
        .into_response())
}

#[derive(Debug, serde::Deserialize)]
pub struct AvailabilityForm {
    #[serde(default)]
    status: String,
}

/// Lists, unlists or retires the version of `slug` this service serves; every replica reads
/// the change from the database at once.
pub async fn set_availability(
    State(state): State<AppState>,
    _: Staff,
    Path(slug): Path<String>,
    CsrfForm(f): CsrfForm<AvailabilityForm>,
) -> Result<Response, AppError> {
    crate::services::catalogue::find(&state, &slug).await?;
    let status = Availability::from_name(&f.status).ok_or_else(|| {
        let shown = crate::services::submissions::truncated(&f.status);
        AppError::BadRequest(format!(
            "unknown availability `{shown}`: listed, unlisted or retired"
        ))
        .zh(format!(
            "未知的状态 `{shown}`：应为 listed、unlisted 或 retired"
        ))
    })?;
    if !kata_availability::set(&state.db, &slug, status).await? {
        return Err(AppError::Conflict(format!(
            "the kata `{slug}` has no published version yet"
        )));
    }
    Ok(Redirect::to(&format!("/admin/katas/{slug}")).into_response())
}
