//! A function kata graded from its package's own files: a version an instructor published (new
//! cases, a fixed checker, a changed API, a kata the build never saw), and every kata of the
//! build itself, from the files embedded in it ([`builtin`]). A GPU kata takes the same path:
//! its library links the runtime with the CUDA calls, and its judge (the harness's checker,
//! which never touches the device) runs as a CPU kata's does.
//!
//! Everything is built in the compile sandbox against the prebuilt runner library, as a crate
//! named `katas` that re-exports the library and holds the package's logic at
//! `katas::problems::<module>`, so the package's files compile exactly as they do inside the
//! catalogue ([`programs`]):
//! - the package's **library** (built once per version, [`library`]), which each **learner's
//!   program** links as a catalogue kata's runner links the prebuilt library;
//! - the **judge**: the logic beside the reference, served by `katas::judge_process::serve` —
//!   the package's case generator, reference and checker as a sandboxed process of their own
//!   ([`ProcessJudging`]), never code in the grader.

mod builtin;
mod judge;
mod judge_link;
mod judge_net;
mod library;
pub(crate) mod programs;

pub use builtin::builtin;
pub use judge::ProcessJudging;
pub(crate) use library::library;

use katas::archive::PackageFiles;
use katas::{KataKind, KataMeta, Verdict, layout};
use std::path::Path;

/// A function package as read from its files.
#[derive(Debug, Clone)]
pub struct FunctionPackage {
    pub meta: KataMeta,
    /// `kata.rs`, or the logic a data-only package's declaration generates.
    pub logic: String,
    pub reference: String,
    pub starter: String,
    /// `wrong/*.rs`, in name order, each with the verdict it must get in the sandbox.
    pub wrong: Vec<WrongProgram>,
    /// [`katas::package_hash`] of the files: the version's identity.
    pub content_hash: String,
    /// The files as read.
    pub files: PackageFiles,
}

/// A known-wrong solution of a package.
#[derive(Debug, Clone)]
pub struct WrongProgram {
    pub name: String,
    pub source: String,
    pub expected: Verdict,
}

/// Why a folder or upload is not a function package this grader can build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackageError {
    #[error("missing {0}")]
    Missing(&'static str),
    #[error("{0}")]
    Meta(String),
    #[error("data/cases.toml: {0}")]
    Data(String),
    #[error("{name}: {why}")]
    Wrong { name: String, why: String },
    /// A kind this path does not build (a stdin/stdout kata has no logic).
    #[error("{0}")]
    Unsupported(String),
}

impl FunctionPackage {
    /// Reads the package in `files` (an upload, or a folder read under the archive's bounds).
    pub fn from_files(files: &PackageFiles) -> Result<Self, PackageError> {
        let text = |name: &'static str| files.text(name).ok_or(PackageError::Missing(name));
        let meta = KataMeta::parse(text(layout::META_FILE)?, Path::new(layout::META_FILE))
            .map_err(|e| PackageError::Meta(e.to_string()))?;
        match meta.kind {
            KataKind::Cpu | KataKind::Gpu => {}
            KataKind::Io => {
                return Err(PackageError::Unsupported(
                    "a stdin/stdout kata has no logic to build".into(),
                ));
            }
        }
        let logic = match &meta.data {
            Some(_) => katas::data::codegen::generate(&meta, text(layout::DATA_CASES_FILE)?)
                .map_err(|e| PackageError::Data(e.to_string()))?,
            None => text(layout::LOGIC_FILE)?.to_string(),
        };
        let mut wrong = Vec::new();
        let prefix = format!("{}/", layout::WRONG_DIR);
        for name in files.names() {
            let Some(file) = name.strip_prefix(&prefix) else {
                continue;
            };
            let Some(stem) = file.strip_suffix(".rs") else {
                continue;
            };
            let source = files.text(name).unwrap_or_default().to_string();
            let marker = layout::marker_value(&source, layout::SANDBOXED_VERDICT_MARKER)
                .or_else(|| layout::verdict_marker(&source))
                .ok_or_else(|| PackageError::Wrong {
                    name: name.to_string(),
                    why: format!("no `{} <verdict>` line at the top", layout::VERDICT_MARKER),
                })?;
            let expected = Verdict::parse(&marker).ok_or_else(|| PackageError::Wrong {
                name: name.to_string(),
                why: format!("unknown verdict `{marker}`"),
            })?;
            wrong.push(WrongProgram {
                name: stem.to_string(),
                source,
                expected,
            });
        }
        wrong.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Self {
            logic,
            reference: text(layout::REFERENCE_FILE)?.to_string(),
            starter: text(layout::STARTER_FILE)?.to_string(),
            wrong,
            content_hash: files.content_hash(),
            files: files.clone(),
            meta,
        })
    }

    /// What per-version figures and lists are kept under: the slug and the content hash.
    pub fn key(&self) -> String {
        format!("{}@{}", self.meta.slug, self.content_hash)
    }

    /// The `wrong/` solutions as `(name, source, verdict)`.
    pub fn wrong_sources(&self) -> Vec<(String, String, Verdict)> {
        self.wrong
            .iter()
            .map(|w| (w.name.clone(), w.source.clone(), w.expected))
            .collect()
    }

    /// Reads the package folder `dir` under the archive's bounds.
    pub fn read_dir(dir: &Path) -> Result<Self, PackageError> {
        let files = PackageFiles::read_dir(dir, &katas::archive::Limits::default())
            .map_err(|e| PackageError::Meta(format!("{}: {e}", dir.display())))?;
        Self::from_files(&files)
    }
}
