//! Verifying a function kata's upload. This build grades with the package compiled into it,
//! so a version it can go live with must grade exactly as that one does: same code, cases,
//! limits and wrong solutions — only the statements may differ
//! ([`katas::package_hash::grading_hash`]). A package whose grading changed is refused with the
//! files that differ.

use super::publishing::{Check, check_lint, check_meta, fail, pass};
use crate::db::kata_versions::{Published, Statements};
use crate::domain::VersionSource;
use katas::archive::PackageFiles;
use katas::layout;

/// A function kata's checks, in order, stopping where a later one could not run; the version
/// to publish when all passed.
pub(super) fn verify(
    slug: &str,
    files: &PackageFiles,
    checks: &mut Vec<Check>,
) -> Option<Published> {
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
