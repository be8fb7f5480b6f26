//! Kattis problem packages in and out: a pure file transformation between a Kattis package
//! folder (formats `legacy`, `2023-07-draft` and `2025-09`) and an InfraKata stdin/stdout
//! ("io") package folder. Nothing here compiles or runs a program.
//!
//! The io package [`import`] writes, as `<out>/<slug>/`:
//!
//! ```text
//! <slug>/
//!   kata.toml           slug, title, summaries, kind = "io", [limits], [io] (see `manifest`)
//!   README.md           the statement in Markdown, in the sections the lint expects
//!   README.zh.md        the same sections under Chinese headings; a note in Chinese, then the English text
//!   starter.rs          a whole Rust program reading stdin and writing stdout; it does not solve the problem
//!   reference.rs        only if the package has an accepted Rust submission: the first by name
//!   wrong/<name>.rs     other Rust submissions with a non-accepted verdict, first line
//!                       `//! expected-verdict: <verdict>`
//!   data/sample/<case>.in, <case>.ans
//!   data/secret/[<group path>/]<case>.in, <case>.ans   the Kattis tree as is, .in/.ans pairs only
//!   output_validator/   only for a custom output validator: its files as they were
//!   input_validators/   only if the package has input validators we can run: one entry each
//! ```
//!
//! A Kattis package is an instructor's upload, so it is read as hostile: every file's size, the
//! number of entries and the folder depth are bounded ([`Bounds`]), a link or special file
//! anywhere we read is refused, and only plain names are accepted (no `..`, no separators).
//! Nothing is written to `<out>/<slug>` until the whole import has succeeded. Errors name the
//! file, and the field where there is one.

mod assemble;
mod data_tree;
mod export;
mod latex;
#[cfg(test)]
mod latex_tests;
mod latex_text;
mod manifest;
mod problem_yaml;
mod programs;
mod readme;
mod tree;

#[cfg(test)]
mod tests;

pub use export::export;
pub use manifest::{
    GroupFlags, InputValidator, IoLimits, IoManifest, IoSection, NotRun, SkippedValidator,
};
pub use problem_yaml::SourceFormat;
pub use tree::Bounds;

use std::path::{Path, PathBuf};

/// Why a package could not be imported or exported. Every message starts with the file (a path
/// inside the package) it is about.
#[derive(Debug, thiserror::Error)]
pub enum KattisError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A file or field is malformed.
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    /// The package is well formed but asks for something InfraKata does not do.
    #[error("{path}: {message}")]
    Unsupported { path: String, message: String },
    #[error(
        "output validator `{path}`: language {language} is not supported; supported: C, C++, Python 3, Rust"
    )]
    ValidatorLanguage { path: String, language: String },
    #[error("{path}: is a symbolic link or special file; only plain files and folders are read")]
    NotPlain { path: String },
    #[error("{path}: {size} bytes, over the limit of {limit} bytes")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("{path}: {message}")]
    OverBound { path: String, message: String },
}

impl KattisError {
    pub(crate) fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid {
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn unsupported(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Unsupported {
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn io(path: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}

/// What an import found and wrote, for the command's summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub format: SourceFormat,
    pub slug: String,
    /// The package folder written: `<out>/<slug>`.
    pub package_dir: PathBuf,
    /// Cases per folder under `data/` (`sample`, `secret`, `secret/group1`, …), sorted.
    pub cases: Vec<(String, usize)>,
    /// `default` or `custom`.
    pub validator: String,
    pub validator_language: Option<String>,
    /// Kattis paths of the Rust submissions written as `reference.rs` and `wrong/*.rs`.
    pub rust_imported: Vec<String>,
    pub not_run: Vec<NotRun>,
    pub skipped_validators: Vec<SkippedValidator>,
    /// Notes for the instructor (a scoring problem imported as pass-fail, files dropped).
    pub notes: Vec<String>,
}

/// Imports the Kattis package folder `dir` as an io package `<out>/<slug>` under the default
/// [`Bounds`].
pub fn import(dir: &Path, out: &Path) -> Result<Imported, KattisError> {
    import_bounded(dir, out, &Bounds::default())
}

/// [`import`] under explicit bounds.
pub fn import_bounded(dir: &Path, out: &Path, bounds: &Bounds) -> Result<Imported, KattisError> {
    let slug = slug_of(dir)?;
    let target = out.join(&slug);
    if std::fs::symlink_metadata(&target).is_ok() {
        return Err(KattisError::invalid(
            target.display().to_string(),
            "already exists; the import never overwrites a package",
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| KattisError::io(out.display().to_string(), e))?;
    // Written beside the target and renamed at the end, so a refusal leaves nothing behind.
    let staging = out.join(format!(".{slug}.importing"));
    if std::fs::symlink_metadata(&staging).is_ok() {
        std::fs::remove_dir_all(&staging)
            .map_err(|e| KattisError::io(staging.display().to_string(), e))?;
    }
    let result = assemble::build(dir, &slug, &staging, bounds);
    match result {
        Ok(mut imported) => {
            std::fs::rename(&staging, &target)
                .map_err(|e| KattisError::io(target.display().to_string(), e))?;
            imported.package_dir = target;
            Ok(imported)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

/// The slug a package folder's name gives: lowercased, anything but `[a-z0-9-]` made `-`, runs
/// of `-` folded, `-` trimmed at both ends.
pub fn slug_of(dir: &Path) -> Result<String, KattisError> {
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let mut slug = String::new();
    for c in name.to_lowercase().chars() {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() {
            c
        } else {
            '-'
        };
        if !(c == '-' && (slug.is_empty() || slug.ends_with('-'))) {
            slug.push(c);
        }
    }
    let slug = slug.trim_end_matches('-').to_string();
    let valid =
        slug.len() >= 2 && slug.len() <= 63 && slug.starts_with(|c: char| c.is_ascii_lowercase());
    if !valid {
        return Err(KattisError::invalid(
            dir.display().to_string(),
            format!(
                "folder name `{name}` gives the slug `{slug}`, which does not match \
                 ^[a-z][a-z0-9-]{{1,62}}$; rename the folder"
            ),
        ));
    }
    Ok(slug)
}
