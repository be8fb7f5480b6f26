//! Verifying a function kata's upload. A version that differs from the build's only in its
//! statements ([`katas::package_hash::grading_hash`]) is graded by the build as it is (a CPU
//! kata's files are stored too, for replicas and workers of other builds). Any
//! other — new cases, a fixed checker, new limits, a changed API, a kata the build never saw —
//! is graded from its own files (`graders::package`): its judge and learners' programs are
//! built in the compile sandbox, it is verified there (reference accepted, starter refused,
//! each `wrong/` solution its marked verdict), and its files are stored by content hash for
//! every replica and worker.

use super::publishing::{
    Check, StoredPackage, check_lint, check_meta, fail, no_sandbox_here, pass, sandbox_rows,
    stored_archive,
};
use crate::db::kata_packages;
use crate::db::kata_versions::{Published, Statements};
use crate::domain::VersionSource;
use graders::package::FunctionPackage;
use graders::{Grade, GradeError};
use katas::archive::PackageFiles;
use katas::layout;
use katas::learner_api::LearnerApi;

/// A function kata's checks, in order, stopping where a later one could not run; the version
/// to publish (and, for one built from its files, the files to store) when all passed. `Err`
/// only when our side fails. Blocking: a package built from its files is verified through
/// `grader`, the replica's; `own_examples`, what [`own_input_examples`] read.
pub(super) fn verify(
    grader: Option<&dyn Grade>,
    slug: &str,
    files: &PackageFiles,
    own_examples: Option<String>,
    checks: &mut Vec<Check>,
) -> Result<Option<(Published, Option<StoredPackage>)>, GradeError> {
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
        return Ok(None);
    }
    let (Some(en), Some(zh)) = (
        files.text(layout::STATEMENT_FILE),
        files.text(layout::STATEMENT_ZH_FILE),
    ) else {
        // The lint has required both; unreachable for a package that passed it.
        return Ok(None);
    };
    let statements = Statements {
        en: en.to_string(),
        zh: zh.to_string(),
    };
    match katas::catalogue::find(slug) {
        Some(kata) if files.grading_hash() == kata.package().grading_hash => {
            let Some(version) = statement_fix(kata.package(), files, statements, checks) else {
                return Ok(None);
            };
            let stored = stored_fix(kata.meta(), files, own_examples, checks);
            Ok(stored.map(|stored| (version, Some(stored))))
        }
        compiled => built_from_files(grader, compiled, files, statements, checks),
    }
}

/// A version that differs from the build's in its statements only: graded as the build grades
/// its own.
fn statement_fix(
    package: &katas::Package,
    files: &PackageFiles,
    statements: Statements,
    checks: &mut Vec<Check>,
) -> Option<Published> {
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
    let api = match LearnerApi::of_logic(package.logic) {
        Ok(api) => api,
        Err(e) => {
            checks.push(fail("api", e.to_string(), e.to_string()));
            return None;
        }
    };
    Some(Published {
        content_hash: files.content_hash(),
        grading_hash: files.grading_hash(),
        api,
        starter: package.starter.to_string(),
        source: VersionSource::Upload,
        statements: Some(statements),
        published_by: None,
    })
}

/// What a statement fix stores, so that every replica and worker serves and grades it from its
/// files as it does the build's own version; the form's examples are the build's version's
/// (`examples`: the same cases). `None` with the refusal recorded when the packed files are
/// over the bound.
fn stored_fix(
    meta: &katas::KataMeta,
    files: &PackageFiles,
    examples: Option<String>,
    checks: &mut Vec<Check>,
) -> Option<StoredPackage> {
    let archive = stored_archive(files, super::publishing::limits().archive_bytes, checks)?;
    Some(StoredPackage {
        meta: meta.clone(),
        archive,
        input_examples: examples,
    })
}

/// The custom-input form's examples stored with the build's own version of `slug` (by the
/// start-up sync), which a statement fix of it shares; `None` for a kata the build lacks.
pub(super) async fn own_input_examples(
    db: &crate::db::Db,
    slug: &str,
) -> Result<Option<String>, sqlx::Error> {
    match katas::catalogue::find(slug) {
        Some(kata) => kata_packages::input_examples(db, kata.package().content_hash).await,
        None => Ok(None),
    }
}

/// A new kata, or a version whose code, cases, limits or wrong solutions changed: its judge
/// and learners' programs are built from its files, and it is verified in the sandbox.
fn built_from_files(
    grader: Option<&dyn Grade>,
    compiled: Option<&'static dyn katas::Kata>,
    files: &PackageFiles,
    statements: Statements,
    checks: &mut Vec<Check>,
) -> Result<Option<(Published, Option<StoredPackage>)>, GradeError> {
    if let Some(kata) = compiled {
        let differ = differing_files(files, kata.package());
        checks.push(pass(
            "grading_changed",
            format!("graded from this package's own files: {differ} differ from the build's"),
            format!("按本题目包自己的文件评测：{differ} 与构建时的版本不同"),
        ));
    }
    let package = match FunctionPackage::from_files(files) {
        Ok(package) => package,
        Err(e) => {
            checks.push(fail("package", e.to_string(), e.to_string()));
            return Ok(None);
        }
    };
    let Some(grader) = grader else {
        no_sandbox_here(("build and verify the package", "构建并验证题目包"), checks);
        return Ok(None);
    };
    let verified = match grader.verify_package(&package) {
        Ok(rows) => rows,
        // The package's own judge failed (did not compile, crashed, looped): its refusal.
        Err(GradeError::Kata { source, .. }) => {
            checks.push(fail(
                "judge",
                source.to_string(),
                format!("题目包的评测程序出错：{source}"),
            ));
            return Ok(None);
        }
        // A GPU kata's solutions run on a device: a grader without one cannot verify it.
        Err(GradeError::Unavailable(why)) if package.meta.kind == katas::KataKind::Gpu => {
            checks.push(fail(
                "gpu",
                format!(
                    "verifying a GPU kata runs its solutions on a device, and this replica's \
                     grader found none usable; publish it where the grader has a GPU ({why})"
                ),
                format!(
                    "验证 GPU 题要在设备上运行它的各个解答，而这个副本的评测器找不到可用的 GPU；\
                     请在评测器有 GPU 的地方发布（{why}）"
                ),
            ));
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    if !sandbox_rows(verified, checks) {
        return Ok(None);
    }
    let input_examples = if package.meta.kind == katas::KataKind::Gpu {
        checks.push(pass(
            "custom_input",
            "custom input is not offered for a GPU kata".into(),
            "GPU 题不提供自定义输入".into(),
        ));
        None
    } else {
        let Some(examples) = input_examples(grader, &package, checks)? else {
            return Ok(None);
        };
        Some(examples)
    };
    let api = match LearnerApi::of_logic(&package.logic) {
        Ok(api) => api,
        Err(e) => {
            checks.push(fail("api", e.to_string(), e.to_string()));
            return Ok(None);
        }
    };
    let Some(archive) = stored_archive(files, super::publishing::limits().archive_bytes, checks)
    else {
        return Ok(None);
    };
    let version = Published {
        content_hash: files.content_hash(),
        grading_hash: files.grading_hash(),
        api,
        starter: package.starter.clone(),
        source: VersionSource::Upload,
        statements: Some(statements),
        published_by: None,
    };
    let stored = StoredPackage {
        meta: package.meta,
        archive,
        input_examples,
    };
    Ok(Some((version, Some(stored))))
}

/// What the custom-input form starts from, as the package's judge makes it (JSON), with its
/// row; `None` with the refusal recorded when the judge cannot make it.
fn input_examples(
    grader: &dyn Grade,
    package: &FunctionPackage,
    checks: &mut Vec<Check>,
) -> Result<Option<String>, GradeError> {
    let examples = match grader.package_examples(package) {
        Ok(examples) => examples,
        Err(GradeError::Kata { source, .. }) => {
            checks.push(fail(
                "custom_input",
                format!("the examples of the custom-input form: {source}"),
                format!("自定义输入的示例：{source}"),
            ));
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let n = examples.examples.len();
    checks.push(pass(
        "custom_input",
        format!("custom input offered, starting from the first sample; {n} input examples"),
        format!("提供自定义输入，从第一个样例出发；{n} 个输入示例"),
    ));
    serde_json::to_string(&examples)
        .map(Some)
        .map_err(|e| GradeError::Internal(format!("writing the input examples: {e}")))
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
