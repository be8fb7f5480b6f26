//! Verifying a stdin/stdout package uploaded to the running service: what `infrakata kata
//! check DIR` runs — the io lint, then the reference accepted, the starter refused, every
//! `wrong/` program its marked verdict and every input accepted by the input validators, all
//! in the sandbox through this replica's grader. Only a package that passes goes live.

use super::publishing::{
    Check, StoredPackage, check_lint, check_meta, fail, no_sandbox_here, sandbox_rows,
    stored_archive,
};
use crate::db::kata_versions::{Published, Statements};
use crate::domain::VersionSource;
use graders::{Grade, GradeError};
use katas::archive::PackageFiles;
use katas::io::IoPackage;
use katas::layout;
use katas::learner_api::LearnerApi;

/// The checks of a stdin/stdout package, recorded in `checks`; the version to publish and the
/// files to store when all passed. `Err` only when our side fails. Blocking: it runs the
/// package's programs through `grader`, the replica's.
pub(super) fn verify(
    grader: Option<&dyn Grade>,
    slug: &str,
    files: &PackageFiles,
    checks: &mut Vec<Check>,
) -> Result<Option<(Published, Option<StoredPackage>)>, GradeError> {
    if katas::builtin::find(slug).is_some() {
        checks.push(fail(
            "kind",
            format!(
                "`{slug}` is a function kata compiled into this service; a stdin/stdout \
                 package cannot replace it — publish it under a new slug"
            ),
            format!("`{slug}` 是编译进本服务的函数题，不能用标准输入输出题目包替换——请换一个新的 slug 发布"),
        ));
        return Ok(None);
    }
    if !check_meta(files, slug, checks)
        || !check_lint(
            files,
            slug,
            checks,
            katas::io::lint::lint,
            (
                "titles in both languages, a program starter, marked wrong/ programs, readable cases",
                "中英文标题、程序形式的初始代码、已标注的 wrong/ 程序、可读取的用例",
            ),
        )
    {
        return Ok(None);
    }
    let package = match IoPackage::from_files(files.clone()) {
        Ok(package) => package,
        Err(e) => {
            checks.push(fail("package", e.to_string(), e.to_string()));
            return Ok(None);
        }
    };
    let Some(grader) = grader else {
        no_sandbox_here(("run the package's programs", "运行题目包里的程序"), checks);
        return Ok(None);
    };
    if !sandbox_rows(grader.verify_io(&package)?, checks) {
        return Ok(None);
    }
    let (Some(en), Some(zh), Some(starter)) = (
        files.text(layout::STATEMENT_FILE),
        files.text(layout::STATEMENT_ZH_FILE),
        package.starter(),
    ) else {
        // The io lint has required all three; unreachable for a package that passed it.
        return Ok(None);
    };
    let version = Published {
        content_hash: files.content_hash(),
        grading_hash: files.grading_hash(),
        api: LearnerApi::program(),
        starter: starter.to_string(),
        source: VersionSource::Upload,
        statements: Some(Statements {
            en: en.to_string(),
            zh: zh.to_string(),
        }),
        published_by: None,
    };
    let Some(archive) = stored_archive(files, katas::io::limits().archive_bytes, checks) else {
        return Ok(None);
    };
    let stored = StoredPackage {
        meta: package.meta,
        archive,
        input_examples: None,
    };
    Ok(Some((version, Some(stored))))
}
