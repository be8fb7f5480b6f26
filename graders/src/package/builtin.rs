//! The build's own katas as packages, made from the files embedded in the catalogue, so that
//! the grader judges them exactly as it judges a published version: their library and judge
//! built in the compile sandbox, their trusted side a sandboxed process. One grading path,
//! whoever wrote the kata, CPU or GPU.

use super::FunctionPackage;
use katas::archive::{Limits, PackageFiles};
use katas::catalogue::Kata;
use katas::layout;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The package of the build's kata `slug`; `None` for a slug the build does not have.
pub fn builtin(slug: &str) -> Option<&'static FunctionPackage> {
    static PACKAGES: OnceLock<HashMap<String, FunctionPackage>> = OnceLock::new();
    PACKAGES
        .get_or_init(|| {
            katas::builtin::all()
                .iter()
                .map(|k| (k.meta().slug.clone(), from_catalogue(*k)))
                .collect()
        })
        .get(slug)
}

/// The kata's embedded files, read as any package's files are ([`FunctionPackage::from_files`]).
fn from_catalogue(kata: &dyn Kata) -> FunctionPackage {
    let package = kata.package();
    let logic_file = if package.data_cases.is_empty() {
        (layout::LOGIC_FILE, package.logic)
    } else {
        (layout::DATA_CASES_FILE, package.data_cases)
    };
    let entries = [
        (layout::META_FILE, package.meta_toml),
        (layout::STATEMENT_FILE, package.statement),
        (layout::STATEMENT_ZH_FILE, package.statement_zh),
        (layout::STARTER_FILE, package.starter),
        (layout::REFERENCE_FILE, package.reference),
        logic_file,
    ]
    .into_iter()
    .chain(package.wrong.iter().map(|w| (w.file, w.source)))
    .map(|(name, text)| (name, text.as_bytes()));
    // The build's own files passed the build's checks, which are stricter than these.
    PackageFiles::from_entries(entries, &Limits::default())
        .map_err(|e| e.to_string())
        .and_then(|files| FunctionPackage::from_files(&files).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("the build's package `{}`: {e}", kata.meta().slug))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kata_of_the_build_is_a_package_of_the_files_it_was_built_from() {
        for kata in katas::catalogue::all() {
            let meta = kata.meta();
            let package =
                builtin(&meta.slug).unwrap_or_else(|| panic!("{} has no package", meta.slug));
            // The same files as the folder, so the version the service published for the build
            // is exactly what is graded.
            assert_eq!(
                package.files.content_hash(),
                kata.package().content_hash,
                "{}",
                meta.slug
            );
            assert_eq!(package.meta.slug, meta.slug);
            assert_eq!(package.logic, kata.package().logic, "{}", meta.slug);
            let mut built: Vec<_> = kata.package().wrong.iter().map(|w| w.sandboxed).collect();
            let mut read: Vec<_> = package.wrong.iter().map(|w| w.expected).collect();
            built.sort_by_key(|v| v.as_str());
            read.sort_by_key(|v| v.as_str());
            assert_eq!(read, built, "{}", meta.slug);
        }
        assert!(builtin("no-such-kata").is_none());
    }
}
