//! An instructor publishes a version of a kata to the running service: the upload is verified,
//! and only a package that passes every check is stored and made live (a refused one changes
//! nothing). The API (`POST /api/katas/{slug}/versions`, used by `infrakata kata publish`) and
//! the instructor's upload page both reach [`verify_and_publish`] through
//! [`super::uploads::publish`].
//!
//! A function kata's statement fix is graded by the build as it is; any other version of one, a
//! new kata included, is built from its files and verified in the sandbox
//! ([`super::publishing_function`]) — the replica's, or a worker's when the replica cannot run
//! it ([`super::package_checks`]). A stdin/stdout package holds no trusted code and publishes
//! once the sandbox has verified its programs ([`super::publishing_io`]). A version built from
//! its files is stored by content hash for every replica and worker.

use crate::db::allowance::Write;
use crate::db::kata_packages;
use crate::db::kata_versions::{self, Published};
use crate::db::users::User;
use crate::db::{kata_availability, served};
use crate::domain::Availability;
use crate::error::AppError;
use crate::services::publishing_function::Verification;
use crate::services::write_budget;
use crate::state::AppState;
use katas::archive::{Limits, PackageFiles};
use katas::layout;
use serde::{Deserialize, Serialize};

/// One verification step and what it found, in English and 中文.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    pub check: String,
    pub passed: bool,
    pub detail: String,
    pub detail_zh: String,
}

/// What publishing did: every check run, and the version when it went live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub slug: String,
    pub checks: Vec<Check>,
    /// The live version after publishing; `None` when the package was refused.
    pub version: Option<i64>,
    /// `false` when the same files were already a version (made live again).
    pub new: bool,
    /// Whether the version went live: `false` for a candidate, published to be rejudged
    /// against or made live later.
    #[serde(default = "live_by_default")]
    pub live: bool,
}

fn live_by_default() -> bool {
    true
}

/// How a version that passes every check is published.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Placement {
    /// Unlisted: only instructors and admins see it until it is listed. Without it a new
    /// version keeps the kata's availability, and a new kata is listed.
    #[serde(default)]
    pub unlisted: bool,
    /// A candidate: stored but not live, to rejudge submissions against or make live later.
    #[serde(default)]
    pub candidate: bool,
}

impl Report {
    pub fn published(&self) -> bool {
        self.version.is_some()
    }
}

/// The bounds on a function kata's upload.
pub fn limits() -> Limits {
    Limits::default()
}

/// The largest upload read (the upload routes' body limit): a stdin/stdout package's, whose
/// test data makes it the larger; a function kata's is held to [`limits`] once it is unpacked.
pub fn upload_limit() -> usize {
    limits()
        .archive_bytes
        .max(katas::io::limits().archive_bytes)
}

/// Spends `user`'s upload allowance: every upload is unpacked and checked, passing or not, so
/// its unit is spent first, on its own.
pub async fn spend_upload(state: &AppState, user: &User) -> Result<(), AppError> {
    let mut tx = state.db.begin().await?;
    write_budget::spend(&mut tx, &state.config, user.id, Write::KataUpload).await?;
    tx.commit().await?;
    Ok(())
}

/// Verifies `archive` as a version of `slug` and, when every check passes, publishes it and
/// makes it live. `Err` only when our side fails; a refused package is an `Ok` report. `user`
/// is an instructor or admin whose upload allowance [`spend_upload`] has charged; callers go
/// through [`super::uploads::publish`].
pub async fn verify_and_publish(
    state: &AppState,
    user: &User,
    slug: &str,
    archive: Vec<u8>,
    placement: Placement,
) -> Result<Report, AppError> {
    // One upload is checked at a time on a replica: unpacking, packing and hashing up to 256 MiB
    // and running every program of a package in the sandbox are bounded by one such job, off the
    // request threads, whatever an instructor sends.
    static CHECKING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);
    let _turn = CHECKING
        .acquire()
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    // Just after start the grader may still be being prepared: the upload waits for it.
    let (grader, owned_slug) = (state.grader.get().await, slug.to_string());
    let own_examples = super::publishing_function::own_input_examples(&state.db, slug).await?;
    let (mut checks, verified) = tokio::task::spawn_blocking(move || {
        let (slug, mut checks) = (owned_slug, Vec::new());
        let verified =
            match unpack(&archive, &mut checks) {
                Some(files) if is_io(&files) => Verification::Decided(
                    super::publishing_io::verify(grader.as_deref(), &slug, &files, &mut checks)?,
                ),
                Some(files) => {
                    let grader = grader.as_deref();
                    super::publishing_function::verify(
                        grader,
                        &slug,
                        &files,
                        own_examples,
                        &mut checks,
                    )?
                }
                None => Verification::Decided(None),
            };
        Ok::<_, graders::GradeError>((checks, verified))
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?
    .map_err(|e| AppError::Internal(e.into()))?;
    let verified = match verified {
        Verification::Decided(verified) => verified,
        Verification::OnWorker(candidate) => {
            super::package_checks::on_worker(state, candidate, &mut checks).await?
        }
    };
    let mut report = Report {
        slug: slug.to_string(),
        checks,
        version: None,
        new: false,
        live: false,
    };
    let Some((version, stored)) = verified else {
        return Ok(report);
    };
    let version = Published {
        published_by: Some(user.id),
        ..version
    };
    let mut tx = state.db.begin().await?;
    if let Some(stored) = &stored {
        kata_packages::add_kata(&mut tx, &stored.meta, "cpu").await?;
        kata_packages::store(
            &mut tx,
            &version.content_hash,
            &stored.archive,
            stored.meta.kind,
            stored.input_examples.as_deref(),
        )
        .await?;
    }
    served::lock_kata(&mut tx, slug).await?;
    let publication = kata_versions::publish(&mut tx, slug, &version).await?;
    if !placement.candidate {
        served::set_live(&mut tx, slug, publication.number).await?;
    }
    if placement.unlisted {
        kata_availability::set_in(&mut tx, slug, publication.number, Availability::Unlisted)
            .await?;
    }
    tx.commit().await?;
    // A statement fix of a build's kata stored before its judge made the build's examples has
    // none either: this replica's grader makes them, as it does at start (a candidate's too:
    // it is previewed, and made live, with them).
    if let Some(stored) = &stored
        && stored.input_examples.is_none()
        && stored.meta.kind == katas::KataKind::Cpu
    {
        tokio::spawn(super::examples::fill(
            state.db.clone(),
            state.grader.clone(),
        ));
    }
    report.version = Some(publication.number);
    report.new = publication.new;
    report.live = !placement.candidate;
    Ok(report)
}

/// A package's files as stored for every replica and worker (a stdin/stdout package, or a
/// function kata graded from its files).
pub(super) struct StoredPackage {
    pub meta: katas::KataMeta,
    /// The canonical archive of exactly the files verified.
    pub archive: Vec<u8>,
    /// A function kata's `katas::custom::InputExamples` as JSON, made by its judge.
    pub input_examples: Option<String>,
}

/// The upload's files, or `None` with the refusal recorded: read under a stdin/stdout
/// package's bounds, then, unless it is one, again under a function kata's.
fn unpack(archive: &[u8], checks: &mut Vec<Check>) -> Option<PackageFiles> {
    let files = match PackageFiles::unpack(archive, &katas::io::limits()) {
        Ok(files) if is_io(&files) => Ok(files),
        Ok(_) => PackageFiles::unpack(archive, &limits()),
        Err(e) => Err(e),
    };
    match files {
        Ok(files) => {
            checks.push(pass(
                "archive",
                format!("{} files", files.names().count()),
                format!("{} 个文件", files.names().count()),
            ));
            Some(files)
        }
        Err(e) => {
            checks.push(fail("archive", e.to_string(), e.zh()));
            None
        }
    }
}

/// Whether `kata.toml` declares a stdin/stdout kata.
fn is_io(files: &PackageFiles) -> bool {
    files
        .text(layout::META_FILE)
        .and_then(|t| katas::KataMeta::parse(t, std::path::Path::new(layout::META_FILE)).ok())
        .is_some_and(|m| m.kind == katas::KataKind::Io)
}

/// `kata.toml` parses and names `slug`.
pub(super) fn check_meta(files: &PackageFiles, slug: &str, checks: &mut Vec<Check>) -> bool {
    let Some(text) = files.text(layout::META_FILE) else {
        checks.push(fail(
            "kata_toml",
            "no kata.toml at the package's root".into(),
            "题目包根目录下没有 kata.toml".into(),
        ));
        return false;
    };
    match katas::KataMeta::parse(text, std::path::Path::new(layout::META_FILE)) {
        Ok(meta) if meta.slug == slug => {
            checks.push(pass(
                "kata_toml",
                format!("slug `{slug}`"),
                format!("slug `{slug}`"),
            ));
            true
        }
        Ok(meta) => {
            checks.push(fail(
                "kata_toml",
                format!("kata.toml says slug `{}`, published as `{slug}`", meta.slug),
                format!(
                    "kata.toml 写的 slug 是 `{}`，发布目标是 `{slug}`",
                    meta.slug
                ),
            ));
            false
        }
        Err(e) => {
            checks.push(fail("kata_toml", e.to_string(), e.to_string()));
            false
        }
    }
}

/// `lint` (the function-kata or the stdin/stdout one), on the files written into a private
/// temporary folder named as the kata (text checks only: nothing in the package runs).
pub(super) fn check_lint(
    files: &PackageFiles,
    slug: &str,
    checks: &mut Vec<Check>,
    lint: fn(&std::path::Path) -> Vec<katas::lint::Finding>,
    passed: (&str, &str),
) -> bool {
    let written = tempfile::tempdir().and_then(|dir| {
        files.write_into(&dir.path().join(slug))?;
        Ok(dir)
    });
    let dir = match written {
        Ok(dir) => dir,
        Err(e) => {
            checks.push(fail(
                "lint",
                format!("the package could not be unpacked for the lint: {e}"),
                format!("无法解包以检查：{e}"),
            ));
            return false;
        }
    };
    let findings = lint(&dir.path().join(slug));
    if findings.is_empty() {
        checks.push(pass("lint", passed.0.into(), passed.1.into()));
        return true;
    }
    let listed = findings
        .iter()
        .map(|f| format!("{}: {}", f.file, f.problem))
        .collect::<Vec<_>>()
        .join("; ");
    checks.push(fail("lint", listed.clone(), listed));
    false
}

pub(super) fn pass(check: &str, detail: String, detail_zh: String) -> Check {
    Check {
        check: check.to_string(),
        passed: true,
        detail,
        detail_zh,
    }
}

pub(super) fn fail(check: &str, detail: String, detail_zh: String) -> Check {
    Check {
        check: check.to_string(),
        passed: false,
        detail,
        detail_zh,
    }
}

/// The grader's sandbox rows (`graders::PackageCheck`) as checks; whether every one passed.
pub(super) fn sandbox_rows(rows: Vec<graders::PackageCheck>, checks: &mut Vec<Check>) -> bool {
    let mut passed = true;
    for row in rows {
        passed &= row.ok;
        let (en, zh) = (
            format!("{}: expected {}, got {}", row.part, row.expected, row.got),
            format!("{}：应为 {}，实际 {}", row.part, row.expected, row.got),
        );
        checks.push(if row.ok {
            pass("sandbox", en, zh)
        } else {
            fail("sandbox", en, zh)
        });
    }
    passed
}

/// `files` packed for storage, or `None` with the refusal when the packed archive is over
/// `bound`: workers fetch a version under that bound, so one over it could never be graded.
pub(super) fn stored_archive(
    files: &PackageFiles,
    bound: usize,
    checks: &mut Vec<Check>,
) -> Option<Vec<u8>> {
    let archive = files.to_tar_gz();
    if archive.len() <= bound {
        return Some(archive);
    }
    checks.push(fail(
        "archive",
        format!(
            "packed for storage the package takes {} bytes, over {bound}",
            archive.len()
        ),
        format!(
            "打包存储后题目包有 {} 字节，超过上限 {bound}",
            archive.len()
        ),
    ));
    None
}

/// The refusal of a replica without a grader: what it cannot do before a version goes live,
/// in both languages.
pub(super) fn no_sandbox_here(cannot: (&str, &str), checks: &mut Vec<Check>) {
    checks.push(fail(
        "sandbox",
        format!(
            "this replica runs no grader (the sandbox is not available here), so it cannot \
             {} in the sandbox before it goes live: publish through a replica where the \
             sandbox is available",
            cannot.0
        ),
        format!(
            "这个副本没有评测器（这里无法使用沙箱），无法在上线前于沙箱中{}：请通过可以使用沙箱的副本发布",
            cannot.1
        ),
    ));
}

/// Makes version `number` of `slug` the one learners are served (a roll-back, or forward
/// again: `db::served::make_live`). A version that lacks its custom-input examples (retired
/// until now, or one whose judge was not reached when it was stored) gets them from this
/// replica's grader, as at start.
pub async fn make_live(
    state: &AppState,
    slug: &str,
    number: i64,
) -> Result<served::MadeLive, AppError> {
    let made = served::make_live(&state.db, slug, number).await?;
    if made == served::MadeLive::Live {
        tokio::spawn(super::examples::fill(
            state.db.clone(),
            state.grader.clone(),
        ));
    }
    Ok(made)
}
