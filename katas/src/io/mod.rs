//! Stdin/stdout katas (`kind = "io"`): the learner writes a whole Rust program; each case is
//! an input file given on stdin and an answer file its output is judged against, as in a
//! Kattis problem package (whose `data/` tree such a package keeps as it is, so that
//! `kata import` and `kata export` only move files).
//!
//! ```text
//! <slug>/kata.toml            kind = "io", entry_points = ["main"], [io] (see decl.rs)
//!        README.md, README.zh.md, starter.rs, reference.rs (optional), wrong/*.rs
//!        data/sample/<case>.in, <case>.ans
//!        data/secret/[<group>/…]<case>.in, <case>.ans
//!        output_validator/…       a custom validator's sources
//!        input_validators/…       input validators' sources
//! ```
//!
//! This module holds what every executor shares: the package read under bounds
//! ([`IoPackage`]), the cases in judging order, and how one run's output is judged
//! ([`judge_output`] with the default validator, or an [`OutputValidator`] the grader runs in
//! the sandbox). The grader compiles and runs the program (`graders::io`); nothing here runs
//! instructor or learner code.

pub mod lint;
pub mod served;
pub mod validator;

pub use crate::meta::io_decl as decl;
pub use decl::{IoDecl, Language, ValidatorKind};

use crate::archive::{ArchiveError, Limits, PackageFiles};
use crate::layout;
use crate::meta::KataMeta;
use crate::report::{CaseReport, Outcome};
use crate::spec::{Group, Message};
use crate::verdict::Verdict;
use std::path::Path;
use validator::{FlagError, Flags};

/// Where the cases live inside a package.
pub const DATA_DIR: &str = "data";
/// At most this many cases; a judge runs one process per case.
pub const MAX_CASES: usize = 1000;

/// Bounds on an io package read from disk or an upload: test data makes these packages
/// larger than function katas.
pub fn limits() -> Limits {
    Limits {
        archive_bytes: 64 << 20,
        total_bytes: 256 << 20,
        file_bytes: 64 << 20,
        entries: 2 * MAX_CASES + 256,
        depth: 8,
        name_bytes: 255,
    }
}

/// One case: `data/<folder>/<name>.in` and its `.ans`.
#[derive(Debug, Clone, PartialEq)]
pub struct IoCase {
    /// The path under `data/` without extension: `sample/1`, `secret/group1/03`.
    pub name: String,
    pub group: Group,
    pub input: Vec<u8>,
    pub answer: Vec<u8>,
    /// The validator's flags for this case's test group.
    pub flags: Vec<String>,
}

/// Why a folder is not a usable io package. Each names the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    #[error(transparent)]
    Files(#[from] ArchiveError),
    #[error("{0}: missing")]
    Missing(&'static str),
    #[error("kata.toml: {0}")]
    Meta(String),
    #[error("kata.toml: `kind = \"io\"` needs an `[io]` table, and `[io]` needs `kind = \"io\"`")]
    NotIo,
    #[error("kata.toml: [io]: {0}")]
    Flags(#[from] FlagError),
    #[error("{0}: an input without its `.ans`, or an answer without its `.in`")]
    Unpaired(String),
    #[error("{0}: not under data/sample or data/secret")]
    Stray(String),
    #[error("data/: no cases (a package needs data/sample or data/secret with .in/.ans pairs)")]
    NoCases,
    #[error("data/: {0} cases; at most {MAX_CASES}")]
    TooManyCases(usize),
    #[error(
        "kata.toml: [io]: a custom validator needs `validator_language` and `validator_files`, which must be files of the package"
    )]
    Validator,
    #[error("{0}: the expected-verdict marker is missing or unknown")]
    WrongMarker(String),
}

/// A known solution of the package and the verdict it must get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownSolution {
    pub name: String,
    pub source: String,
    pub expected: Verdict,
}

/// An io package, read and checked.
#[derive(Debug, Clone)]
pub struct IoPackage {
    pub meta: KataMeta,
    pub decl: IoDecl,
    pub files: PackageFiles,
    pub cases: Vec<IoCase>,
}

impl IoPackage {
    /// Reads the package at `dir` (plain files only, within [`limits`]).
    pub fn read_dir(dir: &Path) -> Result<Self, IoError> {
        Self::from_files(PackageFiles::read_dir(dir, &limits())?)
    }

    pub fn from_files(files: PackageFiles) -> Result<Self, IoError> {
        let text = files
            .text(layout::META_FILE)
            .ok_or(IoError::Missing(layout::META_FILE))?;
        let meta = KataMeta::parse(text, Path::new(layout::META_FILE))
            .map_err(|e| IoError::Meta(e.to_string()))?;
        let decl = match (&meta.io, meta.kind) {
            (Some(decl), crate::KataKind::Io) => decl.clone(),
            _ => return Err(IoError::NotIo),
        };
        // A custom validator's flags are its own arguments; only the default one's are ours.
        if decl.validator == ValidatorKind::Default {
            Flags::parse(&decl.validator_flags)?;
            for group in &decl.groups {
                Flags::parse(&group.validator_flags)?;
            }
        }
        if decl.validator == ValidatorKind::Custom
            && (decl.validator_language.is_none()
                || decl.validator_files.is_empty()
                || decl.validator_files.iter().any(|f| files.get(f).is_none()))
        {
            return Err(IoError::Validator);
        }
        let cases = read_cases(&files, &decl)?;
        Ok(Self {
            meta,
            decl,
            files,
            cases,
        })
    }

    pub fn slug(&self) -> &str {
        &self.meta.slug
    }

    pub fn starter(&self) -> Option<&str> {
        self.files.text(layout::STARTER_FILE)
    }

    pub fn reference(&self) -> Option<&str> {
        self.files.text(layout::REFERENCE_FILE)
    }

    /// `wrong/*.rs`, each with the verdict its marker names.
    pub fn wrong(&self) -> Result<Vec<KnownSolution>, IoError> {
        let prefix = format!("{}/", layout::WRONG_DIR);
        self.files
            .names()
            .filter(|n| n.starts_with(&prefix) && n.ends_with(".rs"))
            .map(|name| {
                let source = self.files.text(name).unwrap_or_default().to_string();
                let expected = layout::verdict_marker(&source)
                    .and_then(|m| Verdict::parse(&m))
                    .ok_or_else(|| IoError::WrongMarker(name.to_string()))?;
                Ok(KnownSolution {
                    name: name[prefix.len()..].trim_end_matches(".rs").to_string(),
                    source,
                    expected,
                })
            })
            .collect()
    }
}

/// The `.in`/`.ans` pairs under `data/`: samples first, then secret, each folder's files in
/// name order before its subfolders', as Kattis orders them.
fn read_cases(files: &PackageFiles, decl: &IoDecl) -> Result<Vec<IoCase>, IoError> {
    let prefix = format!("{DATA_DIR}/");
    let mut stems = std::collections::BTreeSet::new();
    for name in files.names().filter(|n| n.starts_with(&prefix)) {
        let rest = &name[prefix.len()..];
        let Some((stem, ext)) = rest.rsplit_once('.') else {
            continue;
        };
        if ext != "in" && ext != "ans" {
            continue;
        }
        if !(rest.starts_with("sample/") || rest.starts_with("secret/")) {
            return Err(IoError::Stray(name.to_string()));
        }
        stems.insert(stem.to_string());
    }
    let mut ordered: Vec<&String> = stems.iter().collect();
    // Files of a folder before its subfolders': sort by (folder depth path, file name).
    ordered.sort_by(|a, b| {
        let key = |s: &str| {
            let (folder, file) = s.rsplit_once('/').unwrap_or(("", s));
            (
                !s.starts_with("sample/"),
                folder.to_string(),
                file.to_string(),
            )
        };
        key(a).cmp(&key(b))
    });
    if ordered.len() > MAX_CASES {
        return Err(IoError::TooManyCases(ordered.len()));
    }
    let mut cases = Vec::with_capacity(ordered.len());
    for stem in ordered {
        let input = files.get(&format!("{prefix}{stem}.in"));
        let answer = files.get(&format!("{prefix}{stem}.ans"));
        let (Some(input), Some(answer)) = (input, answer) else {
            return Err(IoError::Unpaired(format!("{prefix}{stem}")));
        };
        let folder = stem.rsplit_once('/').map_or("", |(f, _)| f);
        cases.push(IoCase {
            name: stem.clone(),
            group: if stem.starts_with("sample/") {
                Group::Sample
            } else {
                Group::Secret
            },
            input: input.to_vec(),
            answer: answer.to_vec(),
            flags: decl.flags_for(folder).to_vec(),
        });
    }
    if cases.is_empty() {
        return Err(IoError::NoCases);
    }
    Ok(cases)
}

/// What the instructor's validator said about one output.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    Accepted,
    /// Rejected, with what the validator told the learner (`teammessage.txt`), if anything.
    Rejected(Option<Message>),
}

/// The instructor's output validator (run in the sandbox by the grader). `Err` is the
/// validator's failure — a judge error, never the learner's verdict.
pub trait OutputValidator {
    fn validate(&self, case: &IoCase, output: &[u8]) -> Result<Judgement, String>;
}

/// Judges the output of a run that exited normally: the default validator with the case's
/// flags, or `custom`. `Err` when our side (or the instructor's validator) failed.
pub fn judge_output(
    case: &IoCase,
    output: &[u8],
    time_ms: f64,
    custom: Option<&dyn OutputValidator>,
) -> Result<CaseReport, String> {
    let failure = match custom {
        Some(validator) => match validator.validate(case, output)? {
            Judgement::Accepted => None,
            Judgement::Rejected(message) => Some(message.unwrap_or_else(|| {
                Message::new(
                    "the output validator rejected the output",
                    "输出校验程序判定输出不正确",
                )
            })),
        },
        None => {
            let flags = Flags::parse(&case.flags).map_err(|e| e.to_string())?;
            validator::compare(&case.answer, output, &flags).err()
        }
    };
    Ok(match failure {
        None => case_report(case, Outcome::Passed, time_ms, None),
        // A sample's answer file is in the statement already, and under the default validator
        // it is the expected output: shown beside the program's, as a function kata shows both.
        Some(message) if case.group == Group::Sample && custom.is_none() => CaseReport {
            mismatch: Some(crate::spec::Mismatch {
                message,
                expected: shown(&case.answer),
                got: shown(output),
            }),
            ..case_report(case, Outcome::WrongAnswer, time_ms, None)
        },
        Some(message) => case_report(case, Outcome::WrongAnswer, time_ms, Some(message)),
    })
}

fn shown(bytes: &[u8]) -> String {
    crate::report::trim(String::from_utf8_lossy(bytes).trim_end())
}

/// A case's report line; the input is shown (trimmed) for samples only, whose files the
/// statement shows anyway.
pub fn case_report(
    case: &IoCase,
    outcome: Outcome,
    time_ms: f64,
    message: Option<Message>,
) -> CaseReport {
    let input = (outcome != Outcome::Passed && case.group == Group::Sample)
        .then(|| crate::report::trim(&String::from_utf8_lossy(&case.input)));
    CaseReport {
        name: case.name.clone(),
        name_zh: Some(case_name_zh(&case.name)),
        group: case.group,
        outcome,
        time_ms,
        input_zh: input.clone(),
        input,
        mismatch: None,
        message,
        notes: Vec::new(),
        notes_zh: Vec::new(),
        device: None,
    }
}

/// `sample/1` → `样例/1`, `secret/g1/03` → `隐藏/g1/03`.
fn case_name_zh(name: &str) -> String {
    if let Some(rest) = name.strip_prefix("sample/") {
        format!("样例/{rest}")
    } else if let Some(rest) = name.strip_prefix("secret/") {
        format!("隐藏/{rest}")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests;
