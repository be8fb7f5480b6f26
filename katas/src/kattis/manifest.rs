//! The `kata.toml` of an io package, as the importer writes it and the exporter reads it back:
//! `KataMeta` with its `[io]` table (`crate::io::decl`), the one definition of the file, so what
//! the importer writes is what the loader reads.
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

use crate::meta::KataMeta;

pub use crate::io::decl::{
    GroupFlags, InputValidator, IoDecl as IoSection, Language, NotRun, Skipped as SkippedValidator,
    ValidatorKind,
};
pub use crate::meta::{Limits as IoLimits, TopicName};

/// An io package's `kata.toml`.
pub type IoManifest = KataMeta;

pub fn to_toml(manifest: &IoManifest) -> String {
    toml::to_string(manifest).expect("plain strings, numbers and tables always serialize")
}

pub fn parse(text: &str) -> Result<IoManifest, toml::de::Error> {
    toml::from_str(text)
}

/// The `[io]` table of an io package's manifest (the importer always writes one).
pub fn io(manifest: &IoManifest) -> &IoSection {
    static EMPTY: std::sync::OnceLock<IoSection> = std::sync::OnceLock::new();
    manifest
        .io
        .as_ref()
        .unwrap_or_else(|| EMPTY.get_or_init(IoSection::default))
}
