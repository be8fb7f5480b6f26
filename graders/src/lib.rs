//! Grading: turns (kata, learner source, mode) into a [`GradeReport`].
//!
//! The learner's code is compiled and run only inside the [`sandbox`]; the sandboxed process
//! produces output bytes and nothing else — cases, expected results and the checker stay on the
//! trusted side (its threat model is the [`sandbox`] module's doc).
#![forbid(unsafe_code)]

pub mod cache;
pub mod compile;
pub mod diagnostics;
pub mod gpu;
pub mod grade;
mod hardware_counter;
pub mod package;
pub mod report;
pub mod run;
pub mod sandbox;
pub mod source;
pub mod source_policy;
pub mod toolchain;
pub mod validator;

pub use grade::{Grade, Grader, GraderConfig, Judged, MAX_SOURCE_BYTES, PackageCheck, Stage};
pub use report::{CustomOutputs, GpuCaseSpeed, GpuPerformance, GradeReport, Measured};

/// Why a grading could not produce a report. A learner's code never causes one of these.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    #[error("unknown kata `{0}`")]
    UnknownKata(String),
    #[error("the source is {bytes} bytes; the limit is {limit}")]
    SourceTooLarge { bytes: usize, limit: usize },
    #[error("toolchain: {0}")]
    Toolchain(String),
    #[error("sandbox: {0}")]
    Sandbox(#[from] sandbox::SandboxError),
    #[error("{what}: {source}")]
    Io {
        what: &'static str,
        source: std::io::Error,
    },
    /// A custom input the kata refuses (bad JSON, out of the statement's constraints).
    #[error("{0}")]
    CustomInput(katas::custom::CustomError),
    #[error("internal error: {0}")]
    Internal(String),
    /// The kata's own trusted side failed (its generator or reference panicked): ours, and the
    /// same again would fail again.
    #[error("kata `{slug}` is broken: {source}")]
    Kata {
        slug: String,
        source: katas::judge::KataError,
    },
    /// This host cannot grade this kata now (e.g. no usable GPU): another worker, or this one
    /// later, can.
    #[error("unavailable here: {0}")]
    Unavailable(String),
}

impl GradeError {
    pub fn io(what: &'static str, source: std::io::Error) -> Self {
        Self::Io { what, source }
    }

    /// For `map_err`: kata `slug`'s own trusted side failed.
    pub fn kata(slug: &str) -> impl FnOnce(katas::judge::KataError) -> Self + '_ {
        move |source| Self::Kata {
            slug: slug.to_string(),
            source,
        }
    }

    /// A bad request (the caller's input), as opposed to our failure.
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            Self::UnknownKata(_) | Self::SourceTooLarge { .. } | Self::CustomInput(_)
        )
    }

    /// Whether grading the same submission again (on another worker, or later) can help.
    /// Transient host trouble (the sandbox, the disk, a missing device) can; a bad request, a
    /// broken toolchain or a kata whose own checker fails cannot.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::Sandbox(_) | Self::Io { .. } | Self::Unavailable(_)
        )
    }
}
