//! The `kata.toml` of an io package, as the importer writes it and the exporter reads it back.
//! Its own struct, not `KataMeta`: the keys are exactly the ones the io loader accepts (with
//! `deny_unknown_fields`), and `[io]` is specific to packages graded on stdin/stdout.
//!
//! ```toml
//! slug = "…"          # the Kattis folder's name: lowercased, other characters `-`
//! title = "…"         # problem.yaml `name` (English, else the first), else \problemname, else the slug
//! summary = "…"       # the statement's first sentence, plain, at most 200 characters
//! summary_zh = "从 Kattis 题目包导入的标准输入输出题：…"
//! difficulty = "medium"
//! topics = ["imported"]
//! kind = "io"
//! order = 1000
//! entry_points = ["main"]
//! [topic_names]
//! imported = { en = "imported", zh = "导入" }
//! [limits]            # time_limit s × 1000 (else 2000); × cases, at most 600000;
//! case_time_ms = 2000 # memory MiB, at most 1024 (else 1024); output MiB × 1024, at most
//! total_time_ms = 8000 # 65536 (else 8192); one thread
//! memory_mb = 1024
//! output_kb = 8192
//! max_threads = 1
//! [io]
//! source_format = "legacy" | "2023-07-draft" | "2025-09"
//! validator = "default" | "custom"
//! validator_flags = ["float_tolerance", "1e-6"]   # Kattis words, for every case
//! validator_language = "python3"                  # custom only: python3, cpp, c or rust
//! validator_files = ["output_validator/validator.py"]
//! [[io.input_validators]]     # language, files (paths in the package), flags
//! [[io.groups]]               # path (under data/), validator_flags: the longest matching path wins
//! [[io.not_run]]              # path (in the Kattis package), expected (verdict or folder name)
//! [[io.skipped_validators]]   # path (in the Kattis package), reason
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IoManifest {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub summary_zh: String,
    pub difficulty: String,
    pub topics: Vec<String>,
    pub kind: String,
    pub order: u32,
    pub entry_points: Vec<String>,
    pub topic_names: BTreeMap<String, TopicName>,
    pub limits: IoLimits,
    pub io: IoSection,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicName {
    pub en: String,
    pub zh: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IoLimits {
    pub case_time_ms: u64,
    pub total_time_ms: u64,
    pub memory_mb: u64,
    pub output_kb: u64,
    pub max_threads: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IoSection {
    pub source_format: String,
    pub validator: String,
    pub validator_flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator_language: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validator_files: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_validators: Vec<InputValidator>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupFlags>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<NotRun>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_validators: Vec<SkippedValidator>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputValidator {
    pub language: String,
    /// Paths inside the io package (`input_validators/…`).
    pub files: Vec<String>,
    pub flags: Vec<String>,
}

/// Validator flags for the cases under `data/<path>` that differ from the root ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFlags {
    pub path: String,
    pub validator_flags: Vec<String>,
}

/// A submission the io package does not carry (not Rust, not a single file, or a verdict
/// folder we do not grade), listed for the verification report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotRun {
    pub path: String,
    pub expected: String,
}

/// An input validator in a language we do not run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkippedValidator {
    pub path: String,
    pub reason: String,
}

impl IoManifest {
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("plain strings, numbers and tables always serialize")
    }

    pub fn parse(text: &str) -> Result<Self, toml::de::Error> {
        toml::from_str(text)
    }
}
