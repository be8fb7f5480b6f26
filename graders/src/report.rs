//! What `infrakata grade --json` prints and the server stores: one object whose `verdict` is one
//! of the snake_case verdict names.

use crate::diagnostics::Diagnostic;
use katas::{CaseReport, Message, Mode, Verdict};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GradeReport {
    pub kata: String,
    pub mode: Mode,
    pub verdict: Verdict,
    pub score: Score,
    /// Every selected case, in run order.
    pub cases: Vec<CaseReport>,
    /// Compiler messages (errors and warnings), positioned in the learner's file.
    pub diagnostics: Vec<Diagnostic>,
    /// For accepted `submit`s: cost relative to the reference, measured the same way.
    pub performance: Option<Performance>,
    /// Why an accepted `submit` has no `performance` figure (e.g. the measured run exceeded a
    /// limit, or this host has no instruction counter). Never silently absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance_missing: Option<String>,
    pub resources: Resources,
    /// A one-line explanation when the verdict needs one (e.g. which limit stopped the run):
    /// `message` in English and, where the words are ours, `message_zh` (see [`Message`]).
    #[serde(flatten)]
    pub message: Option<Message>,
    /// The start of what the solution printed, if anything.
    pub output: Option<String>,
    /// For accepted GPU `submit`s: device timings of the performance cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_performance: Option<GpuPerformance>,
    /// For a custom-input run: the input and both answers, to show side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<CustomOutputs>,
    /// Each case's time limit in this grading (the version's own): what a case that ran past it
    /// shows instead of a time. Absent from reports stored before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_time_ms: Option<u64>,
}

/// A custom-input run's answers as JSON: the reference's (trusted side) and the learner's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomOutputs {
    /// The input as the learner wrote it.
    pub input: String,
    pub reference: String,
    /// `None` when the program gave no decodable answer (it panicked, ran out of time, ...).
    pub learner: Option<String>,
}

/// How fast an accepted GPU solution ran, case by case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuPerformance {
    /// The device it ran on.
    pub device: Option<katas::gpu::GpuInfo>,
    /// What "% of peak" means here: the worker's measurement at start.
    pub peak: Option<katas::gpu::Peak>,
    pub cases: Vec<GpuCaseSpeed>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuCaseSpeed {
    pub case: String,
    pub timing: katas::gpu::DeviceTiming,
    pub speed: katas::gpu::Speed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub passed: usize,
    pub total: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Performance {
    /// Instructions executed inside the solution on the performance cases (callgrind).
    pub instructions: u64,
    pub reference_instructions: u64,
    /// `instructions / reference_instructions`: below 1 is faster than the reference.
    pub ratio: f64,
    pub cases: usize,
    /// What the empty harness (the reference's program run on no case) counted; subtracted
    /// from both counts above.
    #[serde(default)]
    pub harness_instructions: u64,
}

/// What a measurement job produces for an accepted submit whose verdict is already published:
/// the figure, or why there is none. The verdict itself is never part of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measured {
    Figure(Performance),
    Missing(String),
}

impl Measured {
    /// Puts the figure (or why there is none) into the published report.
    pub fn apply_to(&self, report: &mut GradeReport) {
        match self {
            Self::Figure(p) => report.performance = Some(p.clone()),
            Self::Missing(why) => report.performance_missing = Some(why.clone()),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Resources {
    pub compile_ms: f64,
    /// The binary came from the compile cache.
    pub compile_cached: bool,
    pub run_wall_ms: f64,
    /// CPU time of the whole run, from cgroup accounting.
    pub run_cpu_ms: f64,
    pub peak_memory_bytes: u64,
}

impl GradeReport {
    /// A custom-input run whose input the kata's judge refused: the message says why, in
    /// both languages; nothing ran.
    pub fn input_refused(kata: &str, input: &str, message: Message) -> Self {
        Self {
            verdict: Verdict::InputRefused,
            message: Some(message),
            custom: Some(CustomOutputs {
                input: input.to_string(),
                reference: String::new(),
                learner: None,
            }),
            ..Self::compile_error(kata, Mode::Run, Vec::new(), None, Resources::default())
        }
    }

    /// A grading that could not finish because our side failed (never the learner's fault).
    pub fn internal_error(kata: &str, mode: Mode, message: Message) -> Self {
        Self {
            verdict: Verdict::InternalError,
            message: Some(message),
            ..Self::compile_error(kata, mode, Vec::new(), None, Resources::default())
        }
    }

    pub fn compile_error(
        kata: &str,
        mode: Mode,
        diagnostics: Vec<Diagnostic>,
        message: Option<Message>,
        resources: Resources,
    ) -> Self {
        Self {
            kata: kata.to_string(),
            mode,
            verdict: Verdict::CompileError,
            score: Score {
                passed: 0,
                total: 0,
            },
            cases: Vec::new(),
            diagnostics,
            performance: None,
            performance_missing: None,
            resources,
            message,
            output: None,
            gpu_performance: None,
            custom: None,
            case_time_ms: None,
        }
    }

    /// A judged run before any measurement: the cases, their verdict and what the run said.
    pub fn judged(
        judged: katas::Report,
        mode: Mode,
        diagnostics: Vec<Diagnostic>,
        resources: Resources,
        message: Option<Message>,
        output: Option<String>,
    ) -> Self {
        Self {
            verdict: judged.verdict,
            score: Score {
                passed: judged.passed,
                total: judged.total,
            },
            cases: judged.cases,
            message,
            output,
            ..Self::compile_error(&judged.slug, mode, diagnostics, None, resources)
        }
    }

    /// An accepted `submit` still without its figure or the reason it has none: a measurement
    /// is owed before the report is complete. (A custom run is a `run`; it never owes one.)
    pub fn awaits_figure(&self) -> bool {
        self.verdict == Verdict::Accepted
            && self.mode == Mode::Submit
            && self.performance.is_none()
            && self.performance_missing.is_none()
            && self.gpu_performance.is_none()
    }
}
