//! The one run loop. An [`Executor`] runs a solution on the selected cases and hands back what
//! came out of it — frames stamped with their arrival time, and why the stream stopped; the
//! session turns that into case reports the same way wherever the solution ran: deadlines,
//! which case a stop is blamed on, the stop's verdict, cases not run after it, and judging.
//!
//! Two executors exist: [`crate::evaluate::InProcess`] (a thread of this process: `cargo test
//! -p katas`, `kata check`, the package tests) and the grader's sandboxed one (CPU, GPU and
//! measuring profiles). They differ only in how a run is contained and stopped — an in-process
//! thread that misses its deadline is abandoned, a sandboxed program is killed.

use crate::catalogue::{CaseInfo, Judging};
use crate::evaluate::JudgeFailure;
use crate::meta::Limits;
use crate::report::{CaseReport, Outcome};
use crate::runner::Frame;
use std::time::{Duration, Instant};

/// Time a program may take to generate its cases before its first answer's clock starts.
pub const SETUP_ALLOWANCE: Duration = Duration::from_secs(5);

/// What to do when our side fails to judge a case (see [`JudgeFailure`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failures {
    /// Stop and return the failure: a grader retries elsewhere or says it was ours.
    Escalate,
    /// Report the case as `internal_error` and go on: a local run has nobody to retry it.
    Report,
}

/// One run of a solution: which cases, under which limits.
#[derive(Debug, Clone)]
pub struct Plan<'a> {
    pub seed: u64,
    pub selected: &'a [CaseInfo],
    /// The kata's limits, as its statement states them.
    pub limits: &'a Limits,
    /// How many times slower than native the executor runs the program (an instruction
    /// counter): deadlines stretch by it and reported times shrink by it.
    pub slowdown: u32,
    pub failures: Failures,
    /// A custom input in the wire format, run as the only case instead of the seed's cases
    /// (see [`crate::runner::RunRequest::custom`]).
    pub custom: Option<&'a [u8]>,
}

impl Plan<'_> {
    pub fn case_limit(&self) -> Duration {
        Duration::from_millis(self.limits.case_time_ms) * self.slowdown
    }

    pub fn setup(&self) -> Duration {
        SETUP_ALLOWANCE * self.slowdown
    }

    /// When the next answer is due: a case's limit after the previous frame, or the set-up
    /// allowance after the start while no frame has come.
    pub fn deadline(&self, started: Instant, last_frame: Option<Instant>) -> Instant {
        match last_frame {
            None => started + self.setup(),
            Some(at) => at + self.case_limit(),
        }
    }
}

/// Why the frames stopped coming. Reported against the first selected case with no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The program ended normally (a missing answer means it returned early).
    Exited(i32),
    /// No answer by [`Plan::deadline`], or past the run's wall-clock bound.
    Deadline,
    /// The run's total CPU time was used up.
    Cpu,
    Memory,
    /// The program aborted after an allocation failed.
    AllocationFailed,
    /// More threads (or processes) than the kata allows.
    Threads,
    /// Printed past the output budget.
    Printed,
    /// An answer far larger than any right one (see [`Judging::answer_bound`]).
    Oversized {
        case: u32,
        bound_bytes: usize,
    },
    FileSize,
    Signaled(i32),
    /// The thread running the solution died without unwinding.
    Vanished,
    /// The solution could not be started at all (our side).
    NotStarted(String),
}

impl Stop {
    /// The verdict and message of the case a stop is blamed on.
    pub fn verdict(&self, limits: &Limits) -> (Outcome, String) {
        match self {
            Self::Exited(0) => (
                Outcome::RuntimeError,
                "the program exited before answering this case".to_string(),
            ),
            Self::Exited(code) => (
                Outcome::RuntimeError,
                format!("the program exited with status {code}"),
            ),
            Self::Deadline => (
                Outcome::TimeLimitExceeded,
                format!("no answer within {} ms", limits.case_time_ms),
            ),
            Self::Cpu => (
                Outcome::TimeLimitExceeded,
                format!(
                    "used more than {} ms of CPU time in all",
                    limits.total_time_ms
                ),
            ),
            Self::Memory => (
                Outcome::MemoryLimitExceeded,
                format!("used more than {} MiB of memory", limits.memory_mb),
            ),
            Self::AllocationFailed => (
                Outcome::MemoryLimitExceeded,
                "a memory allocation failed".to_string(),
            ),
            Self::Threads => (
                Outcome::RuntimeError,
                format!(
                    "started more than {} threads at once (or a process)",
                    limits.max_threads
                ),
            ),
            Self::Printed => (
                Outcome::OutputLimitExceeded,
                format!("printed more than {} KiB", limits.output_kb),
            ),
            Self::Oversized { case, bound_bytes } => (
                Outcome::OutputLimitExceeded,
                format!(
                    "the answer to case #{case} is far larger than any right one (over {} KiB)",
                    bound_bytes >> 10
                ),
            ),
            Self::FileSize => (
                Outcome::RuntimeError,
                "wrote a file larger than the sandbox allows".to_string(),
            ),
            Self::Signaled(sig) => (
                Outcome::RuntimeError,
                format!("killed by signal {sig} ({})", signal_name(*sig)),
            ),
            Self::Vanished => (
                Outcome::RuntimeError,
                "the solution thread died without an answer".to_string(),
            ),
            Self::NotStarted(why) => (
                Outcome::InternalError,
                format!("could not start the solution (our side): {why}"),
            ),
        }
    }
}

/// What came out of one run: every frame with the moment it arrived, and why it stopped.
#[derive(Debug)]
pub struct Execution {
    pub started: Instant,
    pub frames: Vec<(Frame, Instant)>,
    pub stop: Stop,
}

/// Runs a solution under a [`Plan`]; how it is contained is the executor's business.
pub trait Executor {
    type Error;
    fn execute(&mut self, plan: &Plan<'_>) -> Result<Execution, Self::Error>;
}

/// The judged run.
#[derive(Debug)]
pub struct Judged {
    /// One report per selected case, in order.
    pub cases: Vec<CaseReport>,
    /// Why the run stopped before its last case, if it did.
    pub stopped: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum SessionError<E> {
    #[error(transparent)]
    Executor(E),
    #[error(transparent)]
    Judge(JudgeFailure),
    /// The program's runner was built from another catalogue than this judge.
    #[error(
        "the runner library was built from catalogue {runner}, this judge from {}: rebuild both \
         from one checkout",
        crate::CATALOGUE_HASH
    )]
    Catalogue { runner: String },
}

/// Executes `plan` and judges what came out.
pub fn run<E: Executor>(
    executor: &mut E,
    judging: &dyn Judging,
    plan: &Plan<'_>,
) -> Result<Judged, SessionError<E::Error>> {
    let execution = executor.execute(plan).map_err(SessionError::Executor)?;
    judge(judging, plan, &execution)
}

/// Judges an execution: each selected case's answer in order, timed from the frame before it;
/// the first case without one gets the stop's verdict, the rest are not run.
pub fn judge<E>(
    judging: &dyn Judging,
    plan: &Plan<'_>,
    execution: &Execution,
) -> Result<Judged, SessionError<E>> {
    let ready = execution.frames.iter().find_map(|(f, at)| match f {
        Frame::Ready { catalogue } => Some((catalogue, *at)),
        _ => None,
    });
    if let Some((catalogue, _)) = ready
        && catalogue != crate::CATALOGUE_HASH
    {
        return Err(SessionError::Catalogue {
            runner: catalogue.clone(),
        });
    }
    let judge_one = |info: &CaseInfo, result, ms| match judging.judge(info.index, result, ms) {
        Ok(report) => Ok(report),
        Err(failure) => match plan.failures {
            Failures::Escalate => Err(SessionError::Judge(failure)),
            Failures::Report => Ok(our_failure(info, failure)),
        },
    };
    let mut previous = ready.map_or(execution.started, |(_, at)| at);
    let mut cases = Vec::with_capacity(plan.selected.len());
    let mut stopped = None;
    for info in plan.selected {
        if stopped.is_some() {
            cases.push(not_run(info));
            continue;
        }
        let answer = execution.frames.iter().find_map(|(f, at)| match f {
            Frame::Output { case, bytes } if *case as usize == info.index => {
                Some((Ok(bytes.clone()), *at))
            }
            Frame::Panicked { case, message } if *case as usize == info.index => {
                Some((Err(message.clone()), *at))
            }
            _ => None,
        });
        match answer {
            Some((result, at)) => {
                let ms = at.saturating_duration_since(previous).as_secs_f64() * 1e3
                    / f64::from(plan.slowdown);
                previous = at;
                cases.push(judge_one(info, result, ms)?);
            }
            None => {
                let (outcome, why) = execution.stop.verdict(plan.limits);
                // Judging an empty panic gives the case's report with its input shown.
                let mut report = judge_one(info, Err(String::new()), 0.0)?;
                report.outcome = outcome;
                report.message = Some(why.clone());
                cases.push(report);
                stopped = Some(why);
            }
        }
    }
    Ok(Judged { cases, stopped })
}

/// A case our side could not judge, in a run that reports such failures as cases.
fn our_failure(info: &CaseInfo, failure: JudgeFailure) -> CaseReport {
    CaseReport {
        name: info.name.clone(),
        group: info.group,
        outcome: Outcome::InternalError,
        time_ms: 0.0,
        input: None,
        mismatch: None,
        message: Some(failure.to_string()),
        notes: Vec::new(),
        device: None,
    }
}

fn not_run(info: &CaseInfo) -> CaseReport {
    CaseReport {
        name: info.name.clone(),
        group: info.group,
        outcome: Outcome::NotRun,
        time_ms: 0.0,
        input: None,
        mismatch: None,
        message: Some("not run: an earlier case stopped the program".into()),
        notes: Vec::new(),
        device: None,
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        4 => "illegal instruction",
        6 => "abort",
        7 => "bus error",
        8 => "arithmetic error",
        9 => "killed",
        11 => "segmentation fault, e.g. a stack overflow",
        31 => "bad system call",
        _ => "signal",
    }
}
