//! The result of running one solution on a kata's cases.

use crate::spec::{Group, Message, Mismatch};
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// How a single case went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Passed,
    WrongAnswer,
    RuntimeError,
    TimeLimitExceeded,
    /// The sandbox's memory limit stopped the run during this case (graded runs only).
    MemoryLimitExceeded,
    /// The solution printed more than the kata allows during this case (graded runs only).
    OutputLimitExceeded,
    /// Skipped because an earlier case stopped the run.
    NotRun,
    /// Our checker failed on this case; never the solution's fault.
    InternalError,
    /// A GPU kata's kernel source did not compile (the message is NVRTC's log).
    CompileError,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::WrongAnswer => "wrong_answer",
            Self::RuntimeError => "runtime_error",
            Self::TimeLimitExceeded => "time_limit_exceeded",
            Self::MemoryLimitExceeded => "memory_limit_exceeded",
            Self::OutputLimitExceeded => "output_limit_exceeded",
            Self::NotRun => "not_run",
            Self::InternalError => "internal_error",
            Self::CompileError => "compile_error",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseReport {
    pub name: String,
    /// The case's name in 中文 (absent in reports stored before cases had one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_zh: Option<String>,
    pub group: Group,
    pub outcome: Outcome,
    pub time_ms: f64,
    /// Input summary; filled for failures only.
    pub input: Option<String>,
    /// The input summary in 中文, beside `input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_zh: Option<String>,
    pub mismatch: Option<Mismatch>,
    /// Panic message or time-limit explanation (flat, as `message` and `message_zh`: see
    /// [`Message`]).
    #[serde(flatten)]
    pub message: Option<Message>,
    pub notes: Vec<String>,
    /// `notes` in 中文, one for each (absent in reports stored before notes had them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes_zh: Vec<String>,
    /// Device timing of a GPU performance case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<crate::gpu::DeviceTiming>,
}

impl CaseReport {
    /// The case's name in `lang`; English where it has no translation.
    pub fn name_in(&self, lang: crate::Lang) -> &str {
        match (lang, &self.name_zh) {
            (crate::Lang::Zh, Some(zh)) => zh,
            _ => &self.name,
        }
    }

    /// The checker's notes in `lang`; English where they have no translation.
    pub fn notes_in(&self, lang: crate::Lang) -> &[String] {
        match lang {
            crate::Lang::Zh if self.notes_zh.len() == self.notes.len() => &self.notes_zh,
            _ => &self.notes,
        }
    }

    /// The failing input's summary in `lang`; English where it has no translation.
    pub fn input_in(&self, lang: crate::Lang) -> Option<&str> {
        match (lang, &self.input_zh) {
            (crate::Lang::Zh, Some(zh)) => Some(zh),
            _ => self.input.as_deref(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub slug: String,
    pub verdict: Verdict,
    pub passed: usize,
    pub total: usize,
    pub cases: Vec<CaseReport>,
    /// Set with `internal_error`: what failed on our side.
    pub error: Option<String>,
}

/// Longest input/expected/got text shown for a failure.
pub const TRIM_CHARS: usize = 300;

pub fn trim(text: &str) -> String {
    if text.chars().count() <= TRIM_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(TRIM_CHARS).collect();
    format!("{head}… ({} chars in all)", text.chars().count())
}

impl Report {
    /// The verdict of a run is the outcome of its first failing case, in case order.
    pub fn from_cases(slug: &str, cases: Vec<CaseReport>) -> Self {
        let verdict = cases
            .iter()
            .find_map(|c| match c.outcome {
                Outcome::Passed | Outcome::NotRun => None,
                Outcome::WrongAnswer => Some(Verdict::WrongAnswer),
                Outcome::RuntimeError => Some(Verdict::RuntimeError),
                Outcome::TimeLimitExceeded => Some(Verdict::TimeLimitExceeded),
                Outcome::MemoryLimitExceeded => Some(Verdict::MemoryLimitExceeded),
                Outcome::OutputLimitExceeded => Some(Verdict::OutputLimitExceeded),
                Outcome::InternalError => Some(Verdict::InternalError),
                Outcome::CompileError => Some(Verdict::CompileError),
            })
            .unwrap_or(Verdict::Accepted);
        Self {
            slug: slug.to_string(),
            verdict,
            passed: cases
                .iter()
                .filter(|c| c.outcome == Outcome::Passed)
                .count(),
            total: cases.len(),
            cases,
            error: None,
        }
    }

    /// A run that could not happen because our side failed.
    pub fn internal_error(slug: &str, error: String) -> Self {
        Self {
            slug: slug.to_string(),
            verdict: Verdict::InternalError,
            passed: 0,
            total: 0,
            cases: Vec::new(),
            error: Some(error),
        }
    }

    pub fn first_failure(&self) -> Option<&CaseReport> {
        self.cases
            .iter()
            .find(|c| !matches!(c.outcome, Outcome::Passed | Outcome::NotRun))
    }

    /// A readable account: the verdict, the score and the first failing case in full.
    pub fn explain(&self) -> String {
        let mut out = format!(
            "{}: {} ({}/{} cases passed)\n",
            self.slug,
            self.verdict.label(),
            self.passed,
            self.total
        );
        if let Some(error) = &self.error {
            let _ = writeln!(out, "  {error}");
        }
        if let Some(case) = self.first_failure() {
            let _ = writeln!(
                out,
                "first failing case: {} [{}]",
                case.name,
                case.group.as_str()
            );
            if let Some(input) = &case.input {
                let _ = writeln!(out, "  input:    {input}");
            }
            if let Some(m) = &case.mismatch {
                let _ = writeln!(out, "  problem:  {}", m.message.en);
                let _ = writeln!(out, "  expected: {}", m.expected);
                let _ = writeln!(out, "  got:      {}", m.got);
            }
            if let Some(message) = &case.message {
                let _ = writeln!(out, "  message:  {message}");
            }
        }
        out
    }
}
