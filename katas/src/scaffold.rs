//! `infrakata kata new`: a package folder copied from the compiled template in
//! `katas/scaffold/new-kata/`, with `TODO(instructor)` where the instructor must write.

use crate::layout;
use crate::meta::{is_valid_slug, slug_to_ident};
use std::path::{Path, PathBuf};

const TEMPLATE_SLUG: &str = "new-kata";

const FILES: [(&str, &str); 6] = [
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

/// Creates `<problems_dir>/<slug>/` from the template and returns its path.
pub fn create(problems_dir: &Path, slug: &str) -> Result<PathBuf, ScaffoldError> {
    if !is_valid_slug(slug) {
        return Err(ScaffoldError::BadSlug(slug.to_string()));
    }
    if slug == TEMPLATE_SLUG {
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
    for (name, text) in FILES {
        let path = dir.join(name);
        let text = text
            .replace(TEMPLATE_SLUG, slug)
            .replace(&slug_to_ident(TEMPLATE_SLUG), &slug_to_ident(slug));
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
        let dir = create(tmp.path(), "kv-cache").unwrap();
        let toml = std::fs::read_to_string(dir.join("kata.toml")).unwrap();
        assert!(toml.contains("slug = \"kv-cache\""));
        let meta = crate::KataMeta::load(&dir).unwrap();
        assert_eq!(meta.module_name(), "kv_cache");
        assert!(matches!(
            create(tmp.path(), "kv-cache"),
            Err(ScaffoldError::Exists(_))
        ));
        assert!(matches!(
            create(tmp.path(), "new-kata"),
            Err(ScaffoldError::Reserved(_))
        ));
        assert!(matches!(
            create(tmp.path(), "No"),
            Err(ScaffoldError::BadSlug(_))
        ));
    }
}
