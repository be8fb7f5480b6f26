//! `[io]` in `kata.toml`: a stdin/stdout kata's judging — the output validator (Kattis's
//! default one with its flags, or the instructor's own program), input validators, flags per
//! test group, and what an import could not bring. Serde and std only: reached through
//! `meta.rs`, so `build.rs` reads it too.

use serde::{Deserialize, Serialize};

/// The `[io]` table.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IoDecl {
    /// The Kattis format an imported package came in (`legacy`, `2023-07-draft`, `2025-09`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_format: Option<String>,
    #[serde(default)]
    pub validator: ValidatorKind,
    /// The default validator's flags for every case, in Kattis's words
    /// (`float_tolerance 1e-6`, `case_sensitive`, …); a custom validator's extra arguments.
    #[serde(default)]
    pub validator_flags: Vec<String>,
    /// A custom validator's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator_language: Option<Language>,
    /// A custom validator's source files, as paths inside the package.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validator_files: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_validators: Vec<InputValidator>,
    /// Flags of the test groups whose own differ from the root's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupFlags>,
    /// Known solutions an import listed but InfraKata does not run (not Rust).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<NotRun>,
    /// Input validators an import could not bring (a language we do not run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_validators: Vec<Skipped>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValidatorKind {
    /// Token by token, with Kattis's default validator's flags.
    #[default]
    Default,
    /// The instructor's program, run in the sandbox: exit 42 accepts, 43 rejects.
    Custom,
}

/// A language instructor programs (validators) may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    Python3,
    Cpp,
    C,
    Rust,
}

impl Language {
    pub fn name(self) -> &'static str {
        match self {
            Self::Python3 => "Python 3",
            Self::Cpp => "C++",
            Self::C => "C",
            Self::Rust => "Rust",
        }
    }

    /// Its name in `kata.toml`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Python3 => "python3",
            Self::Cpp => "cpp",
            Self::C => "c",
            Self::Rust => "rust",
        }
    }

    /// By its name in `kata.toml` (`python3`, `cpp`, `c`, `rust`).
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Python3, Self::Cpp, Self::C, Self::Rust]
            .into_iter()
            .find(|l| l.as_str() == name)
    }

    /// By a source file's extension, as Kattis tells languages apart.
    pub fn of_file(name: &str) -> Option<Self> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "py" | "py3" => Some(Self::Python3),
            "cpp" | "cc" | "cxx" | "c++" => Some(Self::Cpp),
            "c" => Some(Self::C),
            "rs" => Some(Self::Rust),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputValidator {
    pub language: Language,
    pub files: Vec<String>,
    #[serde(default)]
    pub flags: Vec<String>,
}

/// A test group's flags: the group is a folder under `data/` (`secret/group1`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupFlags {
    pub path: String,
    pub validator_flags: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotRun {
    pub path: String,
    pub expected: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
}

impl IoDecl {
    /// The flags that apply to a case in the folder `group` (`sample`, `secret/g1/sub`): the
    /// deepest declared group containing it, else the root's.
    pub fn flags_for(&self, group: &str) -> &[String] {
        self.groups
            .iter()
            .filter(|g| group == g.path || group.starts_with(&format!("{}/", g.path)))
            .max_by_key(|g| g.path.len())
            .map_or(&self.validator_flags, |g| &g.validator_flags)
    }
}
