//! An instructor's versions of a kata on `/admin/katas/{slug}`: the versions table (with "make
//! live" for each version this build can serve), `POST /admin/katas/{slug}/versions` (upload a
//! package archive; the publishing report in the viewer's language) and `POST
//! /admin/katas/{slug}/live` (roll back or forward). The rules are `services::publishing`'s and
//! `db::served`'s, the same the API calls.

use super::form::CsrfForm;
use super::i18n::Text;
use super::i18n_publishing::Publishing;
use super::view::datetime;
use super::{Layout, render};
use crate::auth::Staff;
use crate::db::{kata_versions, served};
use crate::domain::Word as _;
use crate::error::AppError;
use crate::services::submissions::unknown_kata;
use crate::services::uploads::{self, Outcome};
use crate::state::AppState;
use askama::Template;
use axum::extract::{Multipart, Path, State};
use axum::response::{IntoResponse, Redirect, Response};

/// One version as the table shows it.
pub struct VersionRow {
    pub number: i64,
    pub source: String,
    pub published: String,
    pub availability: &'static str,
    pub live: bool,
    pub servable: bool,
}

pub async fn rows(state: &AppState, slug: &str, t: &Text) -> Result<Vec<VersionRow>, AppError> {
    let p = t.publishing;
    let (_, labels, _) = t.availability_words();
    Ok(kata_versions::list(&state.db, slug)
        .await?
        .into_iter()
        .map(|v| VersionRow {
            number: v.number,
            source: match &v.published_by {
                Some(name) => format!("{} {name}", p.uploaded_by),
                None => p.from_build.to_string(),
            },
            published: datetime(v.published_at),
            availability: labels
                .iter()
                .find(|(word, _)| *word == v.status.name())
                .map_or(v.status.name(), |(_, label)| label),
            live: v.live,
            servable: v.servable,
        })
        .collect())
}

#[derive(Template)]
#[template(path = "kata_publish.html")]
struct ReportPage {
    layout: Layout,
    slug: String,
    p: &'static Publishing,
    /// (check, passed, detail in the viewer's language)
    checks: Vec<(String, bool, String)>,
    outcome: String,
    /// While the upload is still being checked: the page it reloads into.
    refresh: Option<String>,
}

/// The upload of a version of kata `slug`: its `csrf` field first, then the `package` file.
pub async fn upload(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    Path(slug): Path<String>,
    form: Multipart,
) -> Result<Response, AppError> {
    let upload = read_upload(&viewer, form).await?;
    publish_upload(&state, &viewer, slug, &upload).await
}

/// The upload of a new kata from the admin page: `csrf`, `slug`, then the `package` file.
pub async fn upload_new(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    form: Multipart,
) -> Result<Response, AppError> {
    let upload = read_upload(&viewer, form).await?;
    let slug = upload.slug.clone().unwrap_or_default().trim().to_string();
    publish_upload(&state, &viewer, slug, &upload).await
}

struct Upload {
    slug: Option<String>,
    /// Ticked "start unlisted" (the new kata form).
    unlisted: bool,
    archive: axum::body::Bytes,
}

async fn read_upload(
    viewer: &crate::auth::Viewer,
    mut form: Multipart,
) -> Result<Upload, AppError> {
    let t = Text::of(viewer.lang);
    let unreadable = |e: axum::extract::multipart::MultipartError| {
        AppError::BadRequest(format!("the upload could not be read: {}", e.body_text()))
            .zh("无法读取上传的内容")
    };
    let (mut csrf, mut slug, mut archive, mut unlisted) = (None, None, None, false);
    while let Some(field) = form.next_field().await.map_err(unreadable)? {
        match field.name() {
            Some("csrf") => csrf = Some(field.text().await.map_err(unreadable)?),
            Some("slug") => slug = Some(field.text().await.map_err(unreadable)?),
            Some("unlisted") => unlisted = true,
            Some("package") => archive = Some(field.bytes().await.map_err(unreadable)?),
            _ => {}
        }
    }
    // Multipart, so no `CsrfForm`: the token is a field read in the same pass as the file.
    viewer.check_csrf(csrf.as_deref().unwrap_or(""))?;
    let archive = archive
        .filter(|a| !a.is_empty())
        .ok_or_else(|| AppError::BadRequest(EN_NO_FILE.into()).zh(t.publishing.no_file))?;
    Ok(Upload {
        slug,
        unlisted,
        archive,
    })
}

async fn publish_upload(
    state: &AppState,
    viewer: &crate::auth::Viewer,
    slug: String,
    upload: &Upload,
) -> Result<Response, AppError> {
    let user = viewer.require()?.clone();
    // A new stdin/stdout kata is published under a slug not served yet: publishing decides.
    crate::domain::Slug::parse(&slug).map_err(|_| unknown_kata(&slug))?;
    let outcome = uploads::publish(
        state,
        &user,
        &slug,
        upload.archive.to_vec(),
        crate::services::publishing::Placement {
            unlisted: upload.unlisted,
            candidate: false,
        },
    )
    .await?;
    render(&report_page(viewer, slug, outcome))
}

/// `/admin/katas/{slug}/uploads/{id}`: an upload's report, or that it is still being checked
/// (the page then reloads itself).
pub async fn upload_report(
    State(state): State<AppState>,
    Staff(viewer): Staff,
    Path((slug, id)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    let outcome = uploads::outcome(&state, &slug, id).await?;
    render(&report_page(&viewer, slug, outcome))
}

const EN_NO_FILE: &str = super::i18n_publishing::EN.no_file;

fn report_page(viewer: &crate::auth::Viewer, slug: String, outcome: Outcome) -> ReportPage {
    let t = Text::of(viewer.lang);
    let p = t.publishing;
    let zh = viewer.lang == katas::Lang::Zh;
    let report = match outcome {
        Outcome::Done(report) => report,
        Outcome::Checking { id } => {
            return ReportPage {
                layout: Layout::new(viewer, "admin"),
                refresh: Some(format!("/admin/katas/{slug}/uploads/{id}")),
                slug,
                p,
                checks: Vec::new(),
                outcome: p.checking.to_string(),
            };
        }
    };
    let outcome = match report.version {
        Some(v) if !report.live => p.candidate(v),
        Some(v) => p.published(v, report.new),
        None => p.refused_note.to_string(),
    };
    ReportPage {
        layout: Layout::new(viewer, "admin"),
        refresh: None,
        slug,
        p,
        checks: report
            .checks
            .into_iter()
            .map(|c| (c.check, c.passed, if zh { c.detail_zh } else { c.detail }))
            .collect(),
        outcome,
    }
}

#[derive(Debug, serde::Deserialize)]
pub struct LiveForm {
    version: i64,
}

pub async fn make_live(
    State(state): State<AppState>,
    _: Staff,
    Path(slug): Path<String>,
    CsrfForm(f): CsrfForm<LiveForm>,
) -> Result<Response, AppError> {
    crate::services::catalogue::find(&state, &slug).await?;
    match crate::services::publishing::make_live(&state, &slug, f.version).await? {
        served::MadeLive::Live => Ok(Redirect::to(&format!("/admin/katas/{slug}")).into_response()),
        served::MadeLive::Unknown => Err(AppError::NotFound(format!(
            "`{slug}` has no version {}",
            f.version
        ))
        .zh(format!("`{slug}` 没有第 {} 版", f.version))),
        served::MadeLive::OtherBuild => Err(AppError::Conflict(format!(
            "version {} grades differently from this build: it can go live only on its own build",
            f.version
        ))
        .zh(format!(
            "第 {} 版与当前构建的评测方式不同：只能在它自己的构建上上线",
            f.version
        ))),
    }
}
