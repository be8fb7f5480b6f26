//! Verdicts and case outcomes: data, never errors. `Err` in this workspace means our own
//! infrastructure failed; anything a solution does ends up as one of these values.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The verdict of a whole grading run. The names (snake_case) are part of the public JSON API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    CompileError,
    RuntimeError,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    OutputLimitExceeded,
    /// Our fault; never given for anything the solution did.
    InternalError,
    /// A custom-input run whose input the kata refused (not its JSON shape, or outside the
    /// statement's constraints) where only the kata's own code can tell: a version built from
    /// its package admits input in its sandboxed judge, not at the API. The program did not
    /// run; only a custom run (never an attempt) gets it.
    InputRefused,
}

impl Verdict {
    pub const ALL: [Verdict; 9] = [
        Self::Accepted,
        Self::WrongAnswer,
        Self::CompileError,
        Self::RuntimeError,
        Self::TimeLimitExceeded,
        Self::MemoryLimitExceeded,
        Self::OutputLimitExceeded,
        Self::InternalError,
        Self::InputRefused,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::WrongAnswer => "wrong_answer",
            Self::CompileError => "compile_error",
            Self::RuntimeError => "runtime_error",
            Self::TimeLimitExceeded => "time_limit_exceeded",
            Self::MemoryLimitExceeded => "memory_limit_exceeded",
            Self::OutputLimitExceeded => "output_limit_exceeded",
            Self::InternalError => "internal_error",
            Self::InputRefused => "input_refused",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// Human wording for tables and pages.
    pub fn label(self) -> &'static str {
        match self {
            Self::Accepted => "Accepted",
            Self::WrongAnswer => "Wrong answer",
            Self::CompileError => "Compile error",
            Self::RuntimeError => "Runtime error",
            Self::TimeLimitExceeded => "Time limit exceeded",
            Self::MemoryLimitExceeded => "Memory limit exceeded",
            Self::OutputLimitExceeded => "Output limit exceeded",
            Self::InternalError => "Internal error",
            Self::InputRefused => "Input refused",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
