//! An instructor's versions of a kata: `GET /api/katas/{slug}/versions` (every version, which is
//! live, which this build can serve), `POST /api/katas/{slug}/versions` (publish a package
//! archive: 201 with the verification report, or 422 with the report of a refused package,
//! which changes nothing) and `POST /api/katas/{slug}/live` (roll back, or forward, to a stored
//! version). Instructors and admins only.

use crate::auth::StaffUser;
use crate::db::rejudges::Scope;
use crate::db::{kata_versions, served};
use crate::error::{AppError, ErrorBody};
use crate::services::publishing::{self, Placement};
use crate::services::rejudges;
use crate::services::uploads::{self, Outcome};
use crate::state::AppState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

async fn known(state: &AppState, slug: &str) -> Result<(), AppError> {
    crate::services::catalogue::find(state, slug)
        .await
        .map(drop)
}

/// Instructors and admins: every version of a kata, newest first: number, content hash, source
/// (`build` or `upload`), availability, who uploaded it, whether this build can serve it,
/// whether its package is stored (`packaged`: any replica or worker grades it from those files,
/// whatever it was built with; every CPU kata's version of a build is, from that build's first
/// start), which is live.
#[utoipa::path(get, path = "/api/katas/{slug}/versions", tag = "publishing", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path)),
    responses(
        (status = 200, description = "`slug` and `versions`.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Not an instructor or admin, or a session cookie without its CSRF token.", body = ErrorBody),
        (status = 404, description = "Unknown kata.", body = ErrorBody),
    ))]
pub async fn list(
    State(state): State<AppState>,
    _: StaffUser,
    Path(slug): Path<String>,
) -> Result<Json<Value>, AppError> {
    known(&state, &slug).await?;
    let versions = kata_versions::list(&state.db, &slug).await?;
    Ok(Json(json!({ "slug": slug, "versions": versions })))
}

/// Instructors and admins: publish a package (the kata's folder as a .tar.gz or .zip, at most
/// 4 MiB for a function kata and 64 MiB for a stdin/stdout one; `infrakata kata publish` sends
/// one). It is verified first — archive safety, kata.toml, the lint in both languages, then,
/// unless only the statements differ from the version this build grades with, its judge and
/// programs built from its files and every solution of it (every program and validator of a
/// stdin/stdout package) run in the sandbox — and goes live only when every check passes. The
/// report lists each check in English and 中文.
#[utoipa::path(post, path = "/api/katas/{slug}/versions", tag = "publishing", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path), Placement),
    request_body(content(
        (crate::routes::openapi::PackageArchive = "application/gzip"),
        (crate::routes::openapi::PackageArchive = "application/zip"),
    )),
    responses(
        (status = 202, description = "Still being checked (a stdin/stdout package runs its \
            programs in the sandbox first): `state` `checking`, `report` (where its report will \
            be: `GET /api/katas/{slug}/uploads/{id}`).", body = Object),
        (status = 201, description = "Published: `version`, `live` (false for a candidate), `new` (false when the same \
            files were already a version), `checks`.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Not an instructor or admin, or a session cookie without its CSRF token.", body = ErrorBody),
        (status = 413, description = "The archive is over 64 MiB (a stdin/stdout package's \
            bound; a function kata's is 4 MiB, refused with 422 once unpacked).", body = ErrorBody),
        (status = 422, description = "Refused: `checks` says which check failed and why \
            (`error`/`error_zh` repeat the first). Nothing changed.", body = Object),
        (status = 429, description = "The uploader's budget is spent (10 at once, then 30 an \
            hour, refused packages included); `Retry-After` says when to try again.", body = ErrorBody),
    ))]
pub async fn publish(
    State(state): State<AppState>,
    StaffUser(user): StaffUser,
    Path(slug): Path<String>,
    Query(placement): Query<Placement>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let archive = body.map_err(|_| {
        let limit = publishing::upload_limit();
        AppError::TooLarge(format!("a package archive may be at most {limit} bytes"))
            .zh(format!("题目包压缩文件最多 {limit} 字节"))
    })?;
    let outcome = uploads::publish(&state, &user, &slug, archive.to_vec(), placement).await?;
    answer(&slug, outcome, StatusCode::CREATED)
}

/// An upload's report as JSON: `done` with the checks (`created` when a version went live, 422
/// when refused, with `error`/`error_zh` repeating the first failed check), or 202 `checking`
/// with where its report will be.
fn answer(
    slug: &str,
    outcome: Outcome,
    created: StatusCode,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let report = match outcome {
        Outcome::Done(report) => report,
        Outcome::Checking { id } => {
            return Ok((
                StatusCode::ACCEPTED,
                Json(json!({
                    "slug": slug,
                    "state": "checking",
                    "upload": id,
                    "report": format!("/api/katas/{slug}/uploads/{id}"),
                })),
            ));
        }
    };
    let status = if report.published() {
        created
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let mut body = serde_json::to_value(&report).map_err(|e| AppError::Internal(e.into()))?;
    body["state"] = json!("done");
    if !report.published() {
        let first = report.checks.iter().find(|c| !c.passed);
        body["error"] = json!(first.map_or("the package was refused", |c| c.detail.as_str()));
        body["error_zh"] = json!(first.map_or("题目包未通过检查", |c| c.detail_zh.as_str()));
    }
    Ok((status, Json(body)))
}

/// Instructors and admins: an upload's report, once its checks are done (the answer to an
/// upload that was still being checked when its request ended).
#[utoipa::path(get, path = "/api/katas/{slug}/uploads/{id}", tag = "publishing", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path), ("id" = i64, Path)),
    responses(
        (status = 200, description = "Checked and published: `state` `done`, `version`, \
            `checks`.", body = Object),
        (status = 202, description = "Still being checked: `state` `checking`.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Not an instructor or admin, or a session cookie without its CSRF token.", body = ErrorBody),
        (status = 404, description = "No such upload of this kata.", body = ErrorBody),
        (status = 422, description = "Checked and refused: `state` `done`, `checks`, `error`, \
            `error_zh`. Nothing changed.", body = Object),
    ))]
pub async fn upload(
    State(state): State<AppState>,
    _: StaffUser,
    Path((slug, id)): Path<(String, i64)>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let outcome = uploads::outcome(&state, &slug, id).await?;
    answer(&slug, outcome, StatusCode::OK)
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MakeLive {
    pub version: i64,
}

/// Instructors and admins: make a stored version the one learners are served (roll back, or
/// forward again); it takes the kata's current availability.
#[utoipa::path(post, path = "/api/katas/{slug}/live", tag = "publishing", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path)),
    request_body = MakeLive,
    responses(
        (status = 200, description = "Live: `slug`, `live`.", body = Object),
        (status = 400, description = "Malformed request body.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Not an instructor or admin, or a session cookie without its CSRF token.", body = ErrorBody),
        (status = 404, description = "Unknown kata or version.", body = ErrorBody),
        (status = 409, description = "That version grades differently from this build: it can \
            go live only on the build it came from.", body = ErrorBody),
    ))]
pub async fn make_live(
    State(state): State<AppState>,
    _: StaffUser,
    Path(slug): Path<String>,
    body: Result<Json<MakeLive>, JsonRejection>,
) -> Result<Json<Value>, AppError> {
    known(&state, &slug).await?;
    let MakeLive { version } = super::json_body(body, "request")?;
    match crate::services::publishing::make_live(&state, &slug, version).await? {
        served::MadeLive::Live => Ok(Json(json!({ "slug": slug, "live": version }))),
        served::MadeLive::Unknown => Err(AppError::NotFound(format!(
            "`{slug}` has no version {version}"
        ))
        .zh(format!("`{slug}` 没有第 {version} 版"))),
        served::MadeLive::OtherBuild => Err(AppError::Conflict(format!(
            "version {version} of `{slug}` grades differently from the build this service \
             runs: it can go live only on the build it came from"
        ))
        .zh(format!(
            "`{slug}` 的第 {version} 版与本服务运行的构建评测方式不同：只能在它所属的构建上上线"
        ))),
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartRejudge {
    /// The candidate version: one whose package is stored on the service (a stdin/stdout kata).
    pub version: i64,
    pub scope: Scope,
}

/// Instructors and admins: grade the kata's submits again against a candidate version, without
/// touching them (`accepted`: the accepted ones; `all`: every graded one; the newest 5,000).
/// The jobs run below every run and submit; the answer says where the difference will be.
#[utoipa::path(post, path = "/api/katas/{slug}/rejudges", tag = "publishing", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path)),
    request_body = StartRejudge,
    responses(
        (status = 201, description = "Queued: `id`, `submissions` (how many), `rejudge` (where \
            its difference is).", body = Object),
        (status = 400, description = "Malformed request body.", body = ErrorBody),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Not an instructor or admin, or a session cookie without its CSRF token.", body = ErrorBody),
        (status = 404, description = "Unknown kata or version.", body = ErrorBody),
        (status = 409, description = "That version is graded by the build's own code: only a \
            stored stdin/stdout version can be a candidate.", body = ErrorBody),
        (status = 429, description = "The staff member's rejudge budget is spent (3 at once, \
            then 10 an hour); `Retry-After` says when to try again.", body = ErrorBody),
    ))]
pub async fn start_rejudge(
    State(state): State<AppState>,
    StaffUser(user): StaffUser,
    Path(slug): Path<String>,
    body: Result<Json<StartRejudge>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let StartRejudge { version, scope } = super::json_body(body, "request")?;
    let (id, submissions) = rejudges::start(&state, &user, &slug, version, scope).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "slug": slug,
            "version": version,
            "submissions": submissions,
            "rejudge": format!("/api/katas/{slug}/rejudges/{id}"),
        })),
    ))
}

/// Instructors and admins: a rejudge's difference — every submission's verdict and first
/// failing case as stored and against the candidate (`after` is null while it is being graded
/// again), and how many changed.
#[utoipa::path(get, path = "/api/katas/{slug}/rejudges/{id}", tag = "publishing", security(("bearer" = []), ("session" = [])),
    params(("slug" = String, Path), ("id" = i64, Path)),
    responses(
        (status = 200, description = "`version`, `scope`, `total`, `done`, `changed`, `rows`.", body = Object),
        (status = 401, description = "No or unknown token.", body = ErrorBody), (status = 403, description = "Not an instructor or admin, or a session cookie without its CSRF token.", body = ErrorBody),
        (status = 404, description = "No such rejudge of this kata.", body = ErrorBody),
    ))]
pub async fn rejudge(
    State(state): State<AppState>,
    _: StaffUser,
    Path((slug, id)): Path<(String, i64)>,
) -> Result<Json<rejudges::View>, AppError> {
    Ok(Json(rejudges::view(&state, &slug, id).await?))
}
