//! An instructor publishes a version of a kata to the running service: the upload is verified,
//! and only a package that passes every check is stored and made live (a refused one changes
//! nothing). The API (`POST /api/katas/{slug}/versions`, used by `infrakata kata publish`) and
//! the instructor's upload page both call [`publish`].
//!
//! A function kata is graded with the package compiled into this build, so a version it can
//! go live with must grade exactly as that one does: same code, cases, limits and wrong
//! solutions — only the statements may differ ([`katas::package_hash::grading_hash`]). That is
//! a statement fix on a running service, on every replica at once. A package whose grading
//! changed is refused with the files that differ; building a version's judge at publish time
//! is the next step.
//!
//! A stdin/stdout package holds no trusted code, so any version of one — a new kata included —
//! publishes on the running service once the sandbox has verified it ([`super::publishing_io`]);
//! its files are stored by content hash for every replica and worker.

use crate::db::allowance::Write;
use crate::db::kata_packages;
use crate::db::kata_versions::{self, Published, Statements};
use crate::db::users::User;
use crate::db::{kata_availability, served};
use crate::domain::Availability;
use crate::domain::VersionSource;
use crate::error::AppError;
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
    unlisted: bool,
) -> Result<Report, AppError> {
    // One upload is checked at a time on a replica: unpacking, packing and hashing up to 256 MiB
    // and running every program of a package in the sandbox are bounded by one such job, off the
    // request threads, whatever an instructor sends.
    static CHECKING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);
    let _turn = CHECKING
        .acquire()
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
    let (grader, owned_slug) = (state.grader.clone(), slug.to_string());
    let (checks, verified) = tokio::task::spawn_blocking(move || {
        let (slug, mut checks) = (owned_slug, Vec::new());
        let verified = match unpack(&archive, &mut checks) {
            Some(files) if is_io(&files) => {
                super::publishing_io::verify(grader.as_deref(), &slug, &files, &mut checks)?
            }
            Some(files) => verify(&slug, &files, &mut checks).map(|v| (v, None)),
            None => None,
        };
        Ok::<_, graders::GradeError>((checks, verified))
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?
    .map_err(|e| AppError::Internal(e.into()))?;
    let mut report = Report {
        slug: slug.to_string(),
        checks,
        version: None,
        new: false,
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
        kata_packages::store(&mut tx, &version.content_hash, &stored.archive).await?;
    }
    served::lock_kata(&mut tx, slug).await?;
    let publication = kata_versions::publish(&mut tx, slug, &version).await?;
    served::set_live(&mut tx, slug, publication.number).await?;
    if unlisted {
        kata_availability::set_in(&mut tx, slug, publication.number, Availability::Unlisted)
            .await?;
    }
    tx.commit().await?;
    report.version = Some(publication.number);
    report.new = publication.new;
    Ok(report)
}

/// A stdin/stdout package's files as stored for every replica and worker.
pub(super) struct StoredPackage {
    pub meta: katas::KataMeta,
    /// The canonical archive of exactly the files verified.
    pub archive: Vec<u8>,
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

/// A function kata's checks, in order, stopping where a later one could not run; the version
/// to publish when all passed.
fn verify(slug: &str, files: &PackageFiles, checks: &mut Vec<Check>) -> Option<Published> {
    let Some(kata) = katas::catalogue::find(slug) else {
        checks.push(fail(
            "known_kata",
            format!(
                "`{slug}` is not a kata of this service: a new kata needs its judge built from \
                 its package, which the running service cannot do yet — add it under \
                 katas/problems/ and deploy a build"
            ),
            format!(
                "`{slug}` 不是本服务已有的题目：新题目需要从题目包构建评测程序，运行中的服务暂时\
                 做不到——请把它放进 katas/problems/ 并部署新版本"
            ),
        ));
        return None;
    };
    if !check_meta(files, slug, checks)
        || !check_lint(
            files,
            slug,
            checks,
            katas::lint::lint,
            (
                "statements in both languages in step, sections, hints, markers",
                "中英文题面一致，章节、提示、标注齐全",
            ),
        )
    {
        return None;
    }
    let package = kata.package();
    let grading_hash = files.grading_hash();
    if grading_hash != package.grading_hash {
        let differ = differing_files(files, package);
        checks.push(fail(
            "grading_unchanged",
            format!(
                "only the statements (README.md, README.zh.md) may change on a running service \
                 for now; these differ from the version it grades with: {differ} — a change to \
                 the code, cases, limits or wrong solutions needs a build"
            ),
            format!(
                "目前在运行中的服务上只能修改题面（README.md、README.zh.md）；以下文件与服务评测\
                 所用的版本不同：{differ}——修改代码、用例、限制或错误解法需要部署新版本"
            ),
        ));
        return None;
    }
    checks.push(pass(
        "grading_unchanged",
        "code, cases, limits and wrong solutions are the ones this service grades with".into(),
        "代码、用例、限制和错误解法与服务评测所用的一致".into(),
    ));
    checks.push(pass(
        "solutions",
        "reference accepted, starter fails, every wrong/ solution gets its marked verdict: \
         proven for exactly this code by the build's package tests"
            .into(),
        "参考解通过、初始代码不通过、每个 wrong/ 解法得到标注的结果：构建时的题目包测试已对这份\
         代码逐一验证"
            .into(),
    ));
    let (Some(en), Some(zh)) = (
        files.text(layout::STATEMENT_FILE),
        files.text(layout::STATEMENT_ZH_FILE),
    ) else {
        // The lint has required both; unreachable for a package that passed it.
        return None;
    };
    let version = Published {
        content_hash: files.content_hash(),
        grading_hash,
        api: match katas::learner_api::LearnerApi::of_logic(package.logic) {
            Ok(api) => api,
            Err(e) => {
                checks.push(fail("api", e.to_string(), e.to_string()));
                return None;
            }
        },
        starter: package.starter.to_string(),
        source: VersionSource::Upload,
        statements: Some(Statements {
            en: en.to_string(),
            zh: zh.to_string(),
        }),
        published_by: None,
    };
    Some(version)
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

/// The files of `package` (as compiled) that `files` has differently, or lacks, or adds.
fn differing_files(files: &PackageFiles, package: &katas::Package) -> String {
    let mut compiled: Vec<(String, &str)> = vec![
        (layout::META_FILE.into(), package.meta_toml),
        (layout::STARTER_FILE.into(), package.starter),
        (layout::REFERENCE_FILE.into(), package.reference),
    ];
    // A data-only package's logic is generated from its cases file, which is what was uploaded.
    if package.data_cases.is_empty() {
        compiled.push((layout::LOGIC_FILE.into(), package.logic));
    } else {
        compiled.push((layout::DATA_CASES_FILE.into(), package.data_cases));
    }
    for wrong in package.wrong {
        let file = format!("{}/{}.rs", layout::WRONG_DIR, wrong.name.replace('-', "_"));
        compiled.push((file, wrong.source));
    }
    let mut differ: Vec<String> = compiled
        .iter()
        .filter(|(name, text)| files.text(name) != Some(*text))
        .map(|(name, _)| name.clone())
        .collect();
    let known: Vec<&str> = compiled.iter().map(|(n, _)| n.as_str()).collect();
    differ.extend(
        files
            .names()
            .filter(|n| !known.contains(n) && !katas::package_hash::STATEMENT_FILES.contains(n))
            .map(|n| format!("{n} (added)")),
    );
    if differ.is_empty() {
        "files outside the statements".into()
    } else {
        differ.join(", ")
    }
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
