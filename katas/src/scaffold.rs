//! `infrakata kata new`: a package folder copied from a template in `katas/scaffold/`
//! (`new-kata/`, `new-data-kata/` for `--data`, `new-io-kata/` for `--io`), with
//! `TODO(instructor)` where the instructor must write. The first two are compiled into the
//! catalogue so they always build; the io template is checked in the sandbox by the grader's
//! tests.

use crate::layout;
use crate::meta::{is_valid_slug, slug_to_ident};
use std::path::{Path, PathBuf};

/// Which template a new package starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Template {
    /// `katas/scaffold/new-kata/`: a written `kata.rs`.
    Written,
    /// `katas/scaffold/new-data-kata/`: a data-only kata (`[data]` and `data/cases.toml`).
    Data,
    /// `katas/scaffold/new-io-kata/`: a stdin/stdout kata (`[io]` and `data/`).
    Io,
}

const WRITTEN_FILES: [(&str, &str); 6] = [
    (
        layout::META_FILE,
        include_str!("../scaffold/new-kata/kata.toml"),
    ),
    (
        layout::STATEMENT_FILE,
        include_str!("../scaffold/new-kata/README.md"),
    ),
    (
        layout::STATEMENT_ZH_FILE,
        include_str!("../scaffold/new-kata/README.zh.md"),
    ),
    (
        layout::LOGIC_FILE,
        include_str!("../scaffold/new-kata/kata.rs"),
    ),
    (
        layout::REFERENCE_FILE,
        include_str!("../scaffold/new-kata/reference.rs"),
    ),
    (
        layout::STARTER_FILE,
        include_str!("../scaffold/new-kata/starter.rs"),
    ),
];

const DATA_FILES: [(&str, &str); 6] = [
    (
        layout::META_FILE,
        include_str!("../scaffold/new-data-kata/kata.toml"),
    ),
    (
        layout::STATEMENT_FILE,
        include_str!("../scaffold/new-data-kata/README.md"),
    ),
    (
        layout::STATEMENT_ZH_FILE,
        include_str!("../scaffold/new-data-kata/README.zh.md"),
    ),
    (
        layout::DATA_CASES_FILE,
        include_str!("../scaffold/new-data-kata/data/cases.toml"),
    ),
    (
        layout::REFERENCE_FILE,
        include_str!("../scaffold/new-data-kata/reference.rs"),
    ),
    (
        layout::STARTER_FILE,
        include_str!("../scaffold/new-data-kata/starter.rs"),
    ),
];

const IO_FILES: [(&str, &str); 9] = [
    (
        layout::META_FILE,
        include_str!("../scaffold/new-io-kata/kata.toml"),
    ),
    (
        layout::STATEMENT_FILE,
        include_str!("../scaffold/new-io-kata/README.md"),
    ),
    (
        layout::STATEMENT_ZH_FILE,
        include_str!("../scaffold/new-io-kata/README.zh.md"),
    ),
    (
        layout::REFERENCE_FILE,
        include_str!("../scaffold/new-io-kata/reference.rs"),
    ),
    (
        layout::STARTER_FILE,
        include_str!("../scaffold/new-io-kata/starter.rs"),
    ),
    (
        "data/sample/1.in",
        include_str!("../scaffold/new-io-kata/data/sample/1.in"),
    ),
    (
        "data/sample/1.ans",
        include_str!("../scaffold/new-io-kata/data/sample/1.ans"),
    ),
    (
        "data/secret/1.in",
        include_str!("../scaffold/new-io-kata/data/secret/1.in"),
    ),
    (
        "data/secret/1.ans",
        include_str!("../scaffold/new-io-kata/data/secret/1.ans"),
    ),
];

impl Template {
    const ALL: [Template; 3] = [Self::Written, Self::Data, Self::Io];

    fn slug(self) -> &'static str {
        match self {
            Self::Written => "new-kata",
            Self::Data => "new-data-kata",
            Self::Io => "new-io-kata",
        }
    }

    fn files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::Written => &WRITTEN_FILES,
            Self::Data => &DATA_FILES,
            Self::Io => &IO_FILES,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error("`{0}` is not a valid slug: use lowercase letters, digits and single hyphens")]
    BadSlug(String),
    #[error("`{0}` is reserved for the template")]
    Reserved(String),
    #[error("{} already exists", .0.display())]
    Exists(PathBuf),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Creates `<problems_dir>/<slug>/` from `template` and returns its path.
pub fn create(
    problems_dir: &Path,
    slug: &str,
    template: Template,
) -> Result<PathBuf, ScaffoldError> {
    if !is_valid_slug(slug) {
        return Err(ScaffoldError::BadSlug(slug.to_string()));
    }
    if Template::ALL.iter().any(|t| t.slug() == slug) {
        return Err(ScaffoldError::Reserved(slug.to_string()));
    }
    let dir = problems_dir.join(slug);
    if dir.exists() {
        return Err(ScaffoldError::Exists(dir));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ScaffoldError::Io { path, source }
    };
    let wrong = dir.join(layout::WRONG_DIR);
    std::fs::create_dir_all(&wrong).map_err(io(&wrong))?;
    for (name, text) in template.files() {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        let text = text
            .replace(template.slug(), slug)
            .replace(&slug_to_ident(template.slug()), &slug_to_ident(slug));
        std::fs::write(&path, text).map_err(io(&path))?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_the_template_and_refuses_to_overwrite() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = create(tmp.path(), "kv-cache", Template::Written).unwrap();
        let toml = std::fs::read_to_string(dir.join("kata.toml")).unwrap();
        assert!(toml.contains("slug = \"kv-cache\""));
        let meta = crate::KataMeta::load(&dir).unwrap();
        assert_eq!(meta.module_name(), "kv_cache");
        assert!(matches!(
            create(tmp.path(), "kv-cache", Template::Written),
            Err(ScaffoldError::Exists(_))
        ));
        assert!(matches!(
            create(tmp.path(), "new-kata", Template::Data),
            Err(ScaffoldError::Reserved(_))
        ));
        assert!(matches!(
            create(tmp.path(), "No", Template::Written),
            Err(ScaffoldError::BadSlug(_))
        ));
    }

    #[test]
    fn an_io_package_reads_and_lacks_only_its_placeholders_and_wrong_programs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = create(tmp.path(), "sum-io", Template::Io).unwrap();
        let package = crate::io::IoPackage::read_dir(&dir).unwrap();
        assert_eq!((package.slug(), package.cases.len()), ("sum-io", 2));
        let findings = crate::io::lint::lint(&dir);
        assert!(!findings.is_empty(), "the placeholders keep it incomplete");
        // What is left to write: the placeholders and the known-wrong programs, nothing else.
        assert!(
            findings
                .iter()
                .all(|f| f.problem.contains("TODO(instructor)") || f.file == layout::WRONG_DIR),
            "{findings:?}"
        );
    }

    #[test]
    fn a_data_only_package_has_cases_and_no_kata_rs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = create(tmp.path(), "sum-of", Template::Data).unwrap();
        assert!(!dir.join(layout::LOGIC_FILE).exists());
        let meta = crate::KataMeta::load(&dir).unwrap();
        assert_eq!(meta.slug, "sum-of");
        let cases = std::fs::read_to_string(dir.join(layout::DATA_CASES_FILE)).unwrap();
        // The fresh package generates; only its placeholders keep it incomplete.
        crate::data::codegen::generate(&meta, &cases).unwrap();
        let findings = crate::lint::lint(&dir);
        assert!(
            findings
                .iter()
                .any(|f| f.file == layout::DATA_CASES_FILE && f.problem.contains("TODO")),
            "{findings:?}"
        );
        assert!(
            create(tmp.path(), "new-data-kata", Template::Written).is_err(),
            "the template's own slug is reserved"
        );
        // Declared and written at once is ambiguous: the lint names the file to remove.
        std::fs::write(dir.join(layout::LOGIC_FILE), "// written").unwrap();
        assert!(
            crate::lint::lint(&dir)
                .iter()
                .any(|f| f.file == layout::LOGIC_FILE && f.problem.contains("data-only")),
        );
    }
}
