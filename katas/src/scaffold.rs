//! `infrakata kata new`: a package folder copied from a compiled template in
//! `katas/scaffold/` (`new-kata/`, or `new-data-kata/` for `--data`), with `TODO(instructor)`
//! where the instructor must write.

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

impl Template {
    fn slug(self) -> &'static str {
        match self {
            Self::Written => "new-kata",
            Self::Data => "new-data-kata",
        }
    }

    fn files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::Written => &WRITTEN_FILES,
            Self::Data => &DATA_FILES,
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
    if [Template::Written, Template::Data]
        .iter()
        .any(|t| t.slug() == slug)
    {
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
