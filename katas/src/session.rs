//! The one run loop. An [`Executor`] runs a solution on the selected cases and hands back what
//! came out of it — frames stamped with their arrival time, and why the stream stopped; the
//! session turns that into case reports the same way wherever the solution ran: deadlines,
//! which case a stop is blamed on, the stop's verdict, cases not run after it, and judging.
//!
//! Two executors exist: the in-process one (`evaluate::InProcess`, a thread of this process:
//! `cargo test -p katas`, `kata check`, the package tests) and the grader's sandboxed one (CPU,
//! GPU and measuring profiles). They differ only in how a run is contained and stopped — an in-process
//! thread that misses its deadline is abandoned, a sandboxed program is killed.

use crate::judge::{CaseInfo, JudgeFailure, Judging};
use crate::meta::Limits;
use crate::report::{CaseReport, Outcome};
use crate::runner::Frame;
use crate::spec::Message;
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
    /// The verdict and message of the case a stop is blamed on, in English and 中文.
    pub fn verdict(&self, limits: &Limits) -> (Outcome, Message) {
        match self {
            Self::Exited(0) => (
                Outcome::RuntimeError,
                Message::new(
                    "the program exited before answering this case",
                    "程序在回答这个用例之前就退出了",
                ),
            ),
            Self::Exited(code) => (
                Outcome::RuntimeError,
                Message::new(
                    format!("the program exited with status {code}"),
                    format!("程序以退出码 {code} 结束"),
                ),
            ),
            Self::Deadline => (
                Outcome::TimeLimitExceeded,
                Message::new(
                    format!("no answer within {} ms", limits.case_time_ms),
                    format!("{} ms 内没有给出答案", limits.case_time_ms),
                ),
            ),
            Self::Cpu => (
                Outcome::TimeLimitExceeded,
                Message::new(
                    format!(
                        "used more than {} ms of CPU time in all",
                        limits.total_time_ms
                    ),
                    format!("CPU 时间总计超过 {} ms", limits.total_time_ms),
                ),
            ),
            Self::Memory => (
                Outcome::MemoryLimitExceeded,
                Message::new(
                    format!("used more than {} MiB of memory", limits.memory_mb),
                    format!("内存使用超过 {} MiB", limits.memory_mb),
                ),
            ),
            Self::AllocationFailed => (
                Outcome::MemoryLimitExceeded,
                Message::new("a memory allocation failed", "一次内存分配失败了"),
            ),
            Self::Threads => (
                Outcome::RuntimeError,
                Message::new(
                    format!(
                        "started more than {} threads at once (or a process)",
                        limits.max_threads
                    ),
                    format!(
                        "同时启动的线程超过 {} 个（或启动了进程）",
                        limits.max_threads
                    ),
                ),
            ),
            Self::Printed => (
                Outcome::OutputLimitExceeded,
                Message::new(
                    format!("printed more than {} KiB", limits.output_kb),
                    format!("打印的内容超过 {} KiB", limits.output_kb),
                ),
            ),
            Self::Oversized { case, bound_bytes } => (
                Outcome::OutputLimitExceeded,
                Message::new(
                    format!(
                        "the answer to case #{case} is far larger than any right one (over {} KiB)",
                        bound_bytes >> 10
                    ),
                    format!(
                        "第 {case} 号用例的答案远大于任何正确答案（超过 {} KiB）",
                        bound_bytes >> 10
                    ),
                ),
            ),
            Self::FileSize => (
                Outcome::RuntimeError,
                Message::new(
                    "wrote a file larger than the sandbox allows",
                    "写入的文件超过了沙箱允许的大小",
                ),
            ),
            Self::Signaled(sig) => (
                Outcome::RuntimeError,
                Message::new(
                    format!("killed by signal {sig} ({})", signal_name(*sig).0),
                    format!("被信号 {sig} 终止（{}）", signal_name(*sig).1),
                ),
            ),
            Self::Vanished => (
                Outcome::RuntimeError,
                Message::new(
                    "the solution thread died without an answer",
                    "解答所在的线程没有给出答案就终止了",
                ),
            ),
            Self::NotStarted(why) => (
                Outcome::InternalError,
                Message::new(
                    format!("could not start the solution (our side): {why}"),
                    format!("无法启动解答（评测方的问题，不是你的）：{why}"),
                ),
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
    pub stopped: Option<Message>,
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
    // Every case up to the first without an answer is judged (that one as an empty panic, which
    // gives its report with its input shown); the rest were not run.
    let mut previous = ready.map_or(execution.started, |(_, at)| at);
    let mut answers = Vec::with_capacity(plan.selected.len());
    let mut unanswered = false;
    for info in plan.selected {
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
                answers.push((info.index, result, ms));
            }
            None => {
                answers.push((info.index, Err(String::new()), 0.0));
                unanswered = true;
                break;
            }
        }
    }
    let judged = judging.judge_all(answers);
    let mut cases = Vec::with_capacity(plan.selected.len());
    let mut stopped = None;
    let last = judged.len();
    for (k, (info, report)) in plan.selected.iter().zip(judged).enumerate() {
        let mut report = match report {
            Ok(report) => report,
            Err(failure) => match plan.failures {
                Failures::Escalate => return Err(SessionError::Judge(failure)),
                Failures::Report => our_failure(info, failure),
            },
        };
        if unanswered && k + 1 == last {
            let (outcome, why) = execution.stop.verdict(plan.limits);
            report.outcome = outcome;
            report.message = Some(why.clone());
            stopped = Some(why);
        }
        cases.push(report);
    }
    cases.extend(plan.selected.iter().skip(cases.len()).map(not_run));
    Ok(Judged { cases, stopped })
}

/// A case our side could not judge, in a run that reports such failures as cases.
fn our_failure(info: &CaseInfo, failure: JudgeFailure) -> CaseReport {
    CaseReport {
        name: info.name.clone(),
        name_zh: info.name_zh.clone(),
        group: info.group,
        outcome: Outcome::InternalError,
        time_ms: 0.0,
        input: None,
        input_zh: None,
        mismatch: None,
        message: Some(Message::new(
            failure.to_string(),
            format!("评测方出错，不是你的问题：{failure}"),
        )),
        notes: Vec::new(),
        notes_zh: Vec::new(),
        device: None,
    }
}

fn not_run(info: &CaseInfo) -> CaseReport {
    CaseReport {
        name: info.name.clone(),
        name_zh: info.name_zh.clone(),
        group: info.group,
        outcome: Outcome::NotRun,
        time_ms: 0.0,
        input: None,
        input_zh: None,
        mismatch: None,
        message: Some(Message::new(
            "not run: an earlier case stopped the program",
            "未运行：前面的用例已让程序停止",
        )),
        notes: Vec::new(),
        notes_zh: Vec::new(),
        device: None,
    }
}

/// A signal's name in English and 中文.
fn signal_name(sig: i32) -> (&'static str, &'static str) {
    match sig {
        4 => ("illegal instruction", "非法指令"),
        6 => ("abort", "abort 中止"),
        7 => ("bus error", "总线错误"),
        8 => ("arithmetic error", "算术错误"),
        9 => ("killed", "被强制终止"),
        11 => (
            "segmentation fault, e.g. a stack overflow",
            "段错误，例如栈溢出",
        ),
        31 => ("bad system call", "不允许的系统调用"),
        _ => ("signal", "信号"),
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
