//! `kata.toml`: what a kata is, how it is listed, and the limits the grader enforces.
//!
//! This file is also compiled into `build.rs` (via `#[path]`) so that a malformed or
//! misspelt `kata.toml` fails the build with the file's name, not at run time.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// `[data]`: here, beside the rest of `kata.toml`, so that `build.rs` reads it through this file.
#[path = "data/decl.rs"]
pub mod data_decl;

/// `[io]`, for the same reason.
#[path = "io/decl.rs"]
pub mod io_decl;

/// Parsed `kata.toml`. Unknown keys are refused so a typo never silently falls back to a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KataMeta {
    pub slug: String,
    pub title: String,
    /// One sentence for catalogue listings.
    pub summary: String,
    /// The same sentence in Chinese (the package lint requires it).
    #[serde(default)]
    pub summary_zh: String,
    pub difficulty: Difficulty,
    pub topics: Vec<String>,
    /// How each of `topics` is shown, in each language: catalogue words come from the
    /// packages, so a new topic needs no change to the service.
    #[serde(default)]
    pub topic_names: BTreeMap<String, TopicName>,
    pub kind: KataKind,
    /// Catalogue position: lower comes first; ties are broken by slug.
    pub order: u32,
    /// The functions a solution file must define, in the order of the kata's `Solution` struct.
    pub entry_points: Vec<String>,
    #[serde(default)]
    pub limits: Limits,
    /// A data-only kata's declaration (no `kata.rs`): see [`crate::data`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<data_decl::DataDecl>,
    /// A stdin/stdout kata's judging (`kind = "io"`): see [`crate::io`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io: Option<io_decl::IoDecl>,
}

/// A topic's display name in English and Chinese.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicName {
    pub en: String,
    pub zh: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KataKind {
    /// Graded on any worker.
    Cpu,
    /// Graded only on a worker that advertises a GPU.
    Gpu,
    /// A whole program reading stdin and writing stdout, one process per case (see
    /// [`crate::io`]); graded on any worker.
    Io,
}

/// Resource limits for one grading run. Defaults are deliberately tight: a kata raises them
/// explicitly when its large cases need more.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Wall-clock limit for one case.
    pub case_time_ms: u64,
    /// CPU-time limit for the whole run (all cases of a `submit`).
    pub total_time_ms: u64,
    pub memory_mb: u64,
    /// Most bytes the solution may write to stdout/stderr.
    pub output_kb: u64,
    /// Most threads the solution may have alive at once (ranks of a simulated ring count).
    pub max_threads: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            case_time_ms: 1_000,
            total_time_ms: 10_000,
            memory_mb: 256,
            output_kb: 64,
            max_threads: 4,
        }
    }
}

impl Difficulty {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Easy => "easy",
            Self::Medium => "medium",
            Self::Hard => "hard",
        }
    }
}

impl KataKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cpu => "cpu",
            Self::Gpu => "gpu",
            Self::Io => "io",
        }
    }
}

/// Why a `kata.toml` was refused.
#[derive(Debug, thiserror::Error)]
pub enum MetaError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

impl KataMeta {
    /// Parses and validates the text of a `kata.toml`; `path` names it in errors.
    #[cfg(feature = "packages")]
    pub fn parse(text: &str, path: &Path) -> Result<Self, MetaError> {
        let meta: Self = toml::from_str(text).map_err(|e| MetaError::Invalid {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        meta.validated(path)
    }

    /// The checks beyond the file's shape (`parse` = toml + this). Separate so that `build.rs`,
    /// which has toml whatever the features, validates every package with the same rules.
    pub fn validated(self, path: &Path) -> Result<Self, MetaError> {
        let meta = self;
        let invalid = |message: String| MetaError::Invalid {
            path: path.display().to_string(),
            message,
        };
        if !is_valid_slug(&meta.slug) {
            return Err(invalid(format!(
                "slug `{}` must be lowercase ascii letters, digits and single hyphens",
                meta.slug
            )));
        }
        if let Some(dir) = path.parent().and_then(Path::file_name)
            && dir.to_string_lossy() != meta.slug
        {
            return Err(invalid(format!(
                "slug `{}` does not match its folder `{}`",
                meta.slug,
                dir.to_string_lossy()
            )));
        }
        if meta.entry_points.is_empty() {
            return Err(invalid(
                "entry_points must name at least one function".into(),
            ));
        }
        if let Some(bad) = meta.entry_points.iter().find(|e| !is_rust_ident(e)) {
            return Err(invalid(format!(
                "entry point `{bad}` is not a Rust identifier"
            )));
        }
        if let Some(unnamed) = meta.topics.iter().find(|t| {
            meta.topic_names
                .get(*t)
                .is_none_or(|n| n.en.trim().is_empty() || n.zh.trim().is_empty())
        }) {
            return Err(invalid(format!(
                "topic `{unnamed}` needs a name in both languages under [topic_names]: \
                 {unnamed} = {{ en = \"…\", zh = \"…\" }}"
            )));
        }
        if let Some(extra) = meta.topic_names.keys().find(|k| !meta.topics.contains(k)) {
            return Err(invalid(format!(
                "[topic_names] names `{extra}`, which is not in `topics`"
            )));
        }
        if meta.title.trim().is_empty() || meta.summary.trim().is_empty() {
            return Err(invalid("title and summary must not be empty".into()));
        }
        if (meta.kind == KataKind::Io) != meta.io.is_some() {
            return Err(invalid(
                "a stdin/stdout kata has `kind = \"io\"` and an [io] table; neither goes without the other"
                    .into(),
            ));
        }
        if meta.io.is_some() && (meta.data.is_some() || meta.entry_points != ["main"]) {
            return Err(invalid(
                "a stdin/stdout kata's program is its `main`: `entry_points = [\"main\"]` and no [data]"
                    .into(),
            ));
        }
        let l = &meta.limits;
        if l.case_time_ms == 0 || l.total_time_ms < l.case_time_ms || l.memory_mb == 0 {
            return Err(invalid(
                "limits: case_time_ms > 0, total_time_ms >= case_time_ms and memory_mb > 0".into(),
            ));
        }
        Ok(meta)
    }

    /// Reads and parses `<dir>/kata.toml`.
    #[cfg(feature = "packages")]
    pub fn load(dir: &Path) -> Result<Self, MetaError> {
        let path = dir.join("kata.toml");
        let text = std::fs::read_to_string(&path).map_err(|source| MetaError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, &path)
    }

    /// The Rust module name the slug maps to (`fast-power` → `fast_power`).
    pub fn module_name(&self) -> String {
        slug_to_ident(&self.slug)
    }
}

pub fn slug_to_ident(slug: &str) -> String {
    slug.replace('-', "_")
}

pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 64
        && slug.starts_with(|c: char| c.is_ascii_lowercase())
        && !slug.ends_with('-')
        && !slug.contains("--")
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn is_rust_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = r#"
slug = "demo"
title = "Demo"
summary = "A demo."
difficulty = "easy"
topics = ["x"]
topic_names = { x = { en = "x-rays", zh = "X 光" } }
kind = "cpu"
order = 1
entry_points = ["solve"]
"#;

    fn path() -> &'static Path {
        Path::new("katas/problems/demo/kata.toml")
    }

    #[test]
    fn a_valid_file_parses_with_default_limits() {
        let meta = KataMeta::parse(VALID, path()).unwrap();
        assert_eq!(meta.limits, Limits::default());
        assert_eq!(meta.module_name(), "demo");
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_the_file_and_the_key() {
        let text = format!("{VALID}time_limit = 3\n");
        let err = KataMeta::parse(&text, path()).unwrap_err().to_string();
        assert!(err.starts_with("katas/problems/demo/kata.toml:"), "{err}");
        assert!(err.contains("time_limit"), "{err}");
        let text = format!("{VALID}[limits]\nmemory = 3\n");
        let err = KataMeta::parse(&text, path()).unwrap_err().to_string();
        assert!(err.contains("memory"), "{err}");
    }

    #[test]
    fn the_slug_must_match_its_folder_and_be_well_formed() {
        let err = KataMeta::parse(VALID, Path::new("problems/other/kata.toml")).unwrap_err();
        assert!(
            err.to_string()
                .contains("does not match its folder `other`"),
            "{err}"
        );
        for bad in ["", "Demo", "a--b", "-a", "a-", "a_b", "1a"] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
        assert!(is_valid_slug("ring-allreduce2"));
    }

    #[test]
    fn limits_must_be_coherent() {
        let text = format!("{VALID}[limits]\ncase_time_ms = 5000\ntotal_time_ms = 1000\n");
        assert!(KataMeta::parse(&text, path()).is_err());
    }

    #[test]
    fn every_topic_is_named_in_both_languages_and_only_listed_topics_are() {
        let unnamed = VALID.replace(
            "topic_names = { x = { en = \"x-rays\", zh = \"X 光\" } }\n",
            "",
        );
        assert_ne!(unnamed, VALID);
        let err = KataMeta::parse(&unnamed, path()).unwrap_err().to_string();
        assert!(err.contains("topic `x` needs a name"), "{err}");
        let no_zh = VALID.replace("zh = \"X 光\"", "zh = \" \"");
        assert!(KataMeta::parse(&no_zh, path()).is_err());
        let extra = VALID.replace("x = {", "x = { en = \"x\", zh = \"x\" }, y = {");
        let err = KataMeta::parse(&extra, path()).unwrap_err().to_string();
        assert!(err.contains("`y`, which is not in `topics`"), "{err}");
    }
}
