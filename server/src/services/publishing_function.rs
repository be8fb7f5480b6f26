//! Verifying a function kata's upload. A version that differs from the build's only in its
//! statements ([`katas::package_hash::grading_hash`]) is graded by the build as it is (a CPU
//! kata's files are stored too, for replicas and workers of other builds). Any
//! other — new cases, a fixed checker, new limits, a changed API, a kata the build never saw —
//! is graded from its own files (`graders::package`): its judge and learners' programs are
//! built in the compile sandbox, it is verified there (reference accepted, starter refused,
//! each `wrong/` solution its marked verdict), and its files are stored by content hash for
//! every replica and worker.

use super::publishing::{
    Check, StoredPackage, check_lint, check_meta, fail, pass, sandbox_rows, stored_archive,
};
use crate::db::kata_packages;
use crate::db::kata_versions::{Published, Statements};
use crate::domain::VersionSource;
use graders::package::FunctionPackage;
use graders::{Grade, GradeError};
use katas::archive::PackageFiles;
use katas::layout;
use katas::learner_api::LearnerApi;
use serde::{Deserialize, Serialize};

/// A function kata's checks, in order, stopping where a later one could not run; the version
/// to publish (and, for one built from its files, the files to store) when all passed. `Err`
/// only when our side fails. Blocking: a package built from its files is verified through
/// `grader`, the replica's, or left to a worker when it cannot; `own_examples`, what
/// [`own_input_examples`] read.
pub(super) fn verify(
    grader: Option<&dyn Grade>,
    slug: &str,
    files: &PackageFiles,
    own_examples: Option<String>,
    checks: &mut Vec<Check>,
) -> Result<Verification, GradeError> {
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
        return Ok(Verification::Decided(None));
    }
    let (Some(en), Some(zh)) = (
        files.text(layout::STATEMENT_FILE),
        files.text(layout::STATEMENT_ZH_FILE),
    ) else {
        // The lint has required both; unreachable for a package that passed it.
        return Ok(Verification::Decided(None));
    };
    let statements = Statements {
        en: en.to_string(),
        zh: zh.to_string(),
    };
    match katas::builtin::find(slug) {
        Some(kata) if files.grading_hash() == kata.package().grading_hash => {
            let Some(version) = statement_fix(kata.package(), files, statements, checks) else {
                return Ok(Verification::Decided(None));
            };
            let stored = stored_fix(kata.meta(), files, own_examples, checks);
            Ok(Verification::Decided(
                stored.map(|stored| (version, Some(stored))),
            ))
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

/// The custom-input form's examples stored with the build's own version of `slug` (made by its
/// judge once a replica's grader was ready: `super::examples`), which a statement fix of it
/// shares; `None` for a kata the build lacks, or while they are not made.
pub(super) async fn own_input_examples(
    db: &crate::db::Db,
    slug: &str,
) -> Result<Option<String>, sqlx::Error> {
    match katas::builtin::find(slug) {
        Some(kata) => kata_packages::input_examples(db, kata.package().content_hash).await,
        None => Ok(None),
    }
}

/// A new kata, or a version whose code, cases, limits or wrong solutions changed: its judge
/// and learners' programs are built from its files, and it is verified in the sandbox — the
/// replica's, or a worker's when the replica cannot run it (no grader here, or a GPU kata and
/// a grader without a device).
fn built_from_files(
    grader: Option<&dyn Grade>,
    compiled: Option<&'static dyn katas::Kata>,
    files: &PackageFiles,
    statements: Statements,
    checks: &mut Vec<Check>,
) -> Result<Verification, GradeError> {
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
            return Ok(Verification::Decided(None));
        }
    };
    // Packed first: a worker that runs the checks reads exactly these bytes.
    let Some(archive) = stored_archive(files, super::publishing::limits().archive_bytes, checks)
    else {
        return Ok(Verification::Decided(None));
    };
    let candidate = Candidate {
        package,
        statements,
        content_hash: files.content_hash(),
        grading_hash: files.grading_hash(),
        archive,
    };
    // A GPU kata's solutions run on a device: where this process finds none, they go to a
    // worker with one before anything is built here for nothing.
    let grader = grader.filter(|_| !candidate.gpu() || graders::gpu::probe().is_ok());
    match grader.map(|grader| sandboxed(grader, &candidate.package)) {
        Some(Ok(ran)) => Ok(Verification::Decided(candidate.finish(ran, checks))),
        // The grader found the device unusable after all (its own probe of the sandbox's
        // GPU profile).
        Some(Err(GradeError::Unavailable(why))) if candidate.gpu() => {
            tracing::info!(kata = %candidate.package.meta.slug, "no GPU here ({why}): a worker checks it");
            Ok(Verification::OnWorker(candidate))
        }
        Some(Err(e)) => Err(e),
        None => Ok(Verification::OnWorker(candidate)),
    }
}

/// Where a function kata's verification stands once the replica has done what it can.
pub(super) enum Verification {
    /// Decided here: the version to publish (and its files to store), or `None`, refused.
    Decided(Option<(Published, Option<StoredPackage>)>),
    /// The checks that run the package's code are left to a worker
    /// (`services::package_checks`).
    OnWorker(Candidate),
}

/// A version built from its files whose every check but the sandbox's has passed.
pub(super) struct Candidate {
    pub package: FunctionPackage,
    statements: Statements,
    pub content_hash: String,
    grading_hash: String,
    /// The canonical archive of exactly the files checked: what is stored, and what a worker
    /// running the checks reads.
    pub archive: Vec<u8>,
}

impl Candidate {
    pub fn gpu(&self) -> bool {
        self.package.meta.kind == katas::KataKind::Gpu
    }

    /// The version, once the sandbox's checks `ran`; `None` when one failed (recorded in
    /// `checks` with every row the sandbox wrote).
    pub fn finish(
        self,
        ran: Sandboxed,
        checks: &mut Vec<Check>,
    ) -> Option<(Published, Option<StoredPackage>)> {
        checks.extend(ran.checks);
        if !ran.passed {
            return None;
        }
        let api = match LearnerApi::of_logic(&self.package.logic) {
            Ok(api) => api,
            Err(e) => {
                checks.push(fail("api", e.to_string(), e.to_string()));
                return None;
            }
        };
        let version = Published {
            content_hash: self.content_hash,
            grading_hash: self.grading_hash,
            api,
            starter: self.package.starter.clone(),
            source: VersionSource::Upload,
            statements: Some(self.statements),
            published_by: None,
        };
        let stored = StoredPackage {
            meta: self.package.meta,
            archive: self.archive,
            input_examples: ran.input_examples,
        };
        Some((version, Some(stored)))
    }
}

/// What the checks that run a package's code found, wherever they ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sandboxed {
    /// Their rows; a failing one is the package's refusal.
    pub checks: Vec<Check>,
    /// Whether every one passed.
    pub passed: bool,
    /// A CPU kata's custom-input form's examples (`katas::custom::InputExamples` as JSON),
    /// made by its judge once every solution got its verdict.
    pub input_examples: Option<String>,
}

/// The checks that run `package`'s code, in `grader`'s sandbox: every solution graded
/// (reference accepted, starter refused, each `wrong/` solution its marked verdict) and, for a
/// CPU kata that passed, its custom-input form's examples made by its judge. The replica runs
/// them when its grader can, and otherwise a worker does, with this same function. `Err` only
/// when our side fails (`Unavailable` for a GPU kata on a grader without a device).
pub fn sandboxed(grader: &dyn Grade, package: &FunctionPackage) -> Result<Sandboxed, GradeError> {
    let mut checks = Vec::new();
    let refused = |checks| Sandboxed {
        checks,
        passed: false,
        input_examples: None,
    };
    let rows = match grader.verify_package(package) {
        Ok(rows) => rows,
        // The package's own judge failed (did not compile, crashed, looped): its refusal.
        Err(GradeError::Kata { source, .. }) => {
            checks.push(fail(
                "judge",
                source.to_string(),
                format!("题目包的评测程序出错：{source}"),
            ));
            return Ok(refused(checks));
        }
        Err(e) => return Err(e),
    };
    if !sandbox_rows(rows, &mut checks) {
        return Ok(refused(checks));
    }
    let input_examples = if package.meta.kind == katas::KataKind::Gpu {
        checks.push(pass(
            "custom_input",
            "custom input is not offered for a GPU kata".into(),
            "GPU 题不提供自定义输入".into(),
        ));
        None
    } else {
        let Some(examples) = input_examples(grader, package, &mut checks)? else {
            return Ok(refused(checks));
        };
        Some(examples)
    };
    Ok(Sandboxed {
        checks,
        passed: true,
        input_examples,
    })
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
