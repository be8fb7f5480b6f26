//! Runs a solution on a kata's cases in this process: the package tests, `kata check` and a
//! learner's `cargo test -p katas` all come through here.
//!
//! The solution runs on its own thread ([`InProcess`], one of the session's executors) so a panic
//! becomes a runtime error and a case past its time limit becomes a time-out without waiting for
//! it; the judging is [`crate::session`]'s, the grader's too.

use crate::catalogue::{CaseInfo, Prepared};
use crate::meta::KataMeta;
use crate::report::{CaseReport, Outcome, Report, trim};
use crate::runner::Frame;
use crate::session::{self, Execution, Executor, Failures, Plan, Stop};
use crate::spec::{Case, Check, KataSpec, Message, Mode};
use crate::wire;
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

/// Threads that run solution code carry this name prefix; their panics are reported as
/// runtime errors rather than printed.
pub const SOLUTION_THREAD_PREFIX: &str = "kata-solution";

/// Stack for a solution's thread: recursion depth a learner may reasonably use.
const SOLUTION_STACK_BYTES: usize = 64 << 20;

/// The trusted half of a run: the cases and the reference's output for each.
#[derive(Debug)]
pub struct Trial<S: KataSpec> {
    pub cases: Vec<Case<S::Input>>,
    pub expected: Vec<S::Output>,
}

impl<S: KataSpec> Trial<S> {
    /// The cases as the session sees them: position, name, group.
    pub fn infos(&self) -> impl Iterator<Item = CaseInfo> + '_ {
        self.cases.iter().enumerate().map(|(index, c)| CaseInfo {
            index,
            name: c.name.clone(),
            group: c.group,
        })
    }

    /// Generates every case for `seed` and runs the (trusted) reference on each. A panic here is
    /// a broken kata, reported as such — never blamed on a solution.
    pub fn prepare(reference: S::Solution, seed: u64) -> Result<Self, String> {
        let cases = std::panic::catch_unwind(|| S::cases(seed))
            .map_err(|p| format!("generating the cases {}", panic_message(p.as_ref())))?;
        let mut expected = Vec::with_capacity(cases.len());
        for case in &cases {
            if let Some(out) = S::oracle(&case.input) {
                expected.push(out);
                continue;
            }
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                S::solve(reference, &case.input)
            }))
            .map_err(|p| {
                format!(
                    "the reference on case `{}` {}",
                    case.name,
                    panic_message(p.as_ref())
                )
            })?;
            expected.push(out);
        }
        Ok(Self { cases, expected })
    }
}

/// What the untrusted side produced for one case: encoded output bytes or a panic message.
pub type CaseResult = Result<Vec<u8>, String>;

/// Runs `solution` on the cases of `trial` that `mode` selects and judges every output, through
/// the same session loop the grader uses (see [`crate::session`]).
pub fn evaluate<S: KataSpec>(
    meta: &KataMeta,
    trial: &Arc<Trial<S>>,
    solution: S::Solution,
    mode: Mode,
) -> Report {
    let selected: Vec<CaseInfo> = trial.infos().filter(|c| mode.includes(c.group)).collect();
    let judging = Prepared::unbounded(
        Arc::clone(trial),
        Duration::from_millis(meta.limits.case_time_ms),
    );
    let plan = Plan {
        seed: crate::DEFAULT_SEED,
        selected: &selected,
        limits: &meta.limits,
        slowdown: 1,
        failures: Failures::Report,
        custom: None,
    };
    let mut executor = InProcess {
        trial: Arc::clone(trial),
        solution,
        thread_name: format!("{SOLUTION_THREAD_PREFIX}-{}", meta.slug),
    };
    match session::run(&mut executor, &judging, &plan) {
        Ok(judged) => Report::from_cases(&meta.slug, judged.cases),
        Err(e) => Report::internal_error(&meta.slug, e.to_string()),
    }
}

/// The in-process executor: the solution runs on a thread of this process and sends the same
/// frames a sandboxed runner writes. A thread past its deadline cannot be killed in-process; it
/// is told to stop after its current case and left to finish.
pub struct InProcess<S: KataSpec> {
    pub trial: Arc<Trial<S>>,
    pub solution: S::Solution,
    pub thread_name: String,
}

impl<S: KataSpec> std::fmt::Debug for InProcess<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InProcess")
            .field("thread_name", &self.thread_name)
            .finish_non_exhaustive()
    }
}

impl<S: KataSpec> Executor for InProcess<S> {
    type Error = std::convert::Infallible;

    fn execute(&mut self, plan: &Plan<'_>) -> Result<Execution, Self::Error> {
        silence_solution_panics();
        let started = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<(Frame, Instant)>();
        let worker = {
            let trial = Arc::clone(&self.trial);
            let stop = Arc::clone(&stop);
            let solution = self.solution;
            let selected: Vec<usize> = plan.selected.iter().map(|c| c.index).collect();
            move || {
                let ready = Frame::Ready {
                    catalogue: crate::CATALOGUE_HASH.to_string(),
                };
                if tx.send((ready, Instant::now())).is_err() {
                    return;
                }
                for i in selected {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let frame = match run_one::<S>(solution, &trial.cases[i].input) {
                        Ok(bytes) => Frame::Output {
                            case: i as u32,
                            bytes,
                        },
                        Err(message) => Frame::Panicked {
                            case: i as u32,
                            message,
                        },
                    };
                    if tx.send((frame, Instant::now())).is_err() {
                        return;
                    }
                }
            }
        };
        let spawned = std::thread::Builder::new()
            .name(self.thread_name.clone())
            .stack_size(SOLUTION_STACK_BYTES)
            .spawn(worker);
        if let Err(e) = spawned {
            return Ok(Execution {
                started,
                frames: Vec::new(),
                stop: Stop::NotStarted(e.to_string()),
            });
        }
        let mut frames: Vec<(Frame, Instant)> = Vec::new();
        let mut answered = 0;
        let stopped = loop {
            if answered == plan.selected.len() {
                break Stop::Exited(0);
            }
            let due = plan.deadline(started, frames.last().map(|(_, at)| *at));
            match rx.recv_timeout(due.saturating_duration_since(Instant::now())) {
                Ok((frame, at)) => {
                    if !matches!(frame, Frame::Ready { .. }) {
                        answered += 1;
                    }
                    frames.push((frame, at));
                }
                Err(RecvTimeoutError::Timeout) => {
                    stop.store(true, Ordering::Relaxed);
                    break Stop::Deadline;
                }
                // The worker only stops early when told to, so this is a thread that died
                // without unwinding (e.g. a panic while panicking).
                Err(RecvTimeoutError::Disconnected) => break Stop::Vanished,
            }
        };
        Ok(Execution {
            started,
            frames,
            stop: stopped,
        })
    }
}

/// Untrusted half of one case: solve, then encode the output for the trip back.
fn run_one<S: KataSpec>(solution: S::Solution, input: &S::Input) -> CaseResult {
    let output =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| S::solve(solution, input)))
            .map_err(|payload| learner_panic_message(payload.as_ref()))?;
    wire::encode(&output).map_err(|e| e.to_string())
}

/// Why the trusted side could not judge a case: never the learner's doing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeFailure {
    /// The kata's checker panicked on this case (our bug; the same again would fail again).
    #[error("the checker itself failed on case `{0}` (our bug, not yours)")]
    Checker(String),
    /// What this case needs is missing where it ran (no usable GPU): another machine can.
    #[error("no usable GPU where this ran (our side, not yours), case `{case}`: {why}")]
    Unavailable { case: String, why: String },
}

/// Trusted half of one case: a decoded output is checked, a panic message becomes a runtime
/// error, and an answer that arrived after the limit is a time-out whatever it says.
pub fn judge_case<S: KataSpec>(
    case: &Case<S::Input>,
    expected: &S::Output,
    result: CaseResult,
    ms: f64,
    limit: Duration,
) -> Result<CaseReport, JudgeFailure> {
    let bytes = match result {
        Ok(bytes) => bytes,
        Err(message) => {
            let report = case_report(
                case,
                Outcome::RuntimeError,
                ms,
                None,
                Some(runtime_error(&trim(&message))),
                Vec::new(),
            );
            return Ok(with_input::<S>(case, report));
        }
    };
    // A case that answered just after its limit is still a time-out; checking it anyway would
    // make the verdict depend on how quickly this thread got scheduled.
    if ms > limit.as_secs_f64() * 1e3 {
        let why = Message::new(
            format!("took {ms:.0} ms; the limit is {} ms", limit.as_millis()),
            format!("用时 {ms:.0} ms；限制为 {} ms", limit.as_millis()),
        );
        return Ok(with_input::<S>(
            case,
            case_report(
                case,
                Outcome::TimeLimitExceeded,
                ms,
                None,
                Some(why),
                Vec::new(),
            ),
        ));
    }
    let got: S::Output = match wire::decode(&bytes) {
        Ok(got) => got,
        Err(e) => {
            let report = case_report(
                case,
                Outcome::WrongAnswer,
                ms,
                None,
                Some(Message::new(e.to_string(), format!("答案无法解码：{e}"))),
                Vec::new(),
            );
            return Ok(with_input::<S>(case, report));
        }
    };
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        S::check(&case.input, expected, &got)
    }));
    let Ok(checked) = checked else {
        return Err(JudgeFailure::Checker(case.name.clone()));
    };
    Ok(match checked {
        Check::Pass { notes } => case_report(case, Outcome::Passed, ms, None, None, notes),
        Check::PassTimed { notes, timing } => {
            let mut report = case_report(case, Outcome::Passed, ms, None, None, notes);
            report.device = Some(timing);
            report
        }
        Check::KernelRejected(log) => {
            // NVRTC's own words.
            case_report(
                case,
                Outcome::CompileError,
                ms,
                None,
                Some(Message::verbatim(log)),
                Vec::new(),
            )
        }
        Check::Unavailable(why) => {
            return Err(JudgeFailure::Unavailable {
                case: case.name.clone(),
                why,
            });
        }
        Check::Fail(mut m) => {
            m.expected = trim(&m.expected);
            m.got = trim(&m.got);
            with_input::<S>(
                case,
                case_report(case, Outcome::WrongAnswer, ms, Some(m), None, Vec::new()),
            )
        }
    })
}

fn case_report<I>(
    case: &Case<I>,
    outcome: Outcome,
    time_ms: f64,
    mismatch: Option<crate::spec::Mismatch>,
    message: Option<Message>,
    notes: Vec<String>,
) -> CaseReport {
    CaseReport {
        name: case.name.clone(),
        group: case.group,
        outcome,
        time_ms,
        input: None,
        mismatch,
        message,
        notes,
        device: None,
    }
}

fn with_input<S: KataSpec>(case: &Case<S::Input>, mut report: CaseReport) -> CaseReport {
    report.input = Some(trim(&S::describe(&case.input)));
    report
}

/// A frame's failure text as the learner reads it: a panic keeps its own words after a
/// prefix of ours, with the line of their code it came from when the runner knew it
/// ([`learner_panic_message`]); anything else came from the runner (ours, English only).
fn runtime_error(text: &str) -> Message {
    let Some(said) = text.strip_prefix(PANICKED) else {
        return Message::verbatim(text);
    };
    let located = said
        .strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
        .and_then(|(at, said)| {
            let mut parts = at.rsplitn(3, ':');
            let (column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
            Some((file, line, column, said))
        });
    match located {
        Some((file, line, column, said)) => Message::new(
            format!("panicked at {file}, line {line}, column {column}: {said}"),
            format!("程序在 {file} 第 {line} 行第 {column} 列 panic：{said}"),
        ),
        None => Message::new(text, format!("程序 panic：{said}")),
    }
}

thread_local! {
    /// Where the last panic on this thread happened, when it was in the learner's code.
    static PANIC_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// For the panic hook of a process or thread that runs learners' code: remembers the line of
/// theirs a panic came from (`track_caller` makes an index or an `unwrap` point at it), for
/// [`learner_panic_message`]. Library and harness locations are not the learner's line.
pub fn note_panic_location(info: &std::panic::PanicHookInfo<'_>) {
    let at = info
        .location()
        .filter(|l| is_learner_file(l.file()))
        .map(|l| {
            let name = l.file().rsplit('/').next().unwrap_or(l.file());
            format!("{name}:{}:{}", l.line(), l.column())
        });
    PANIC_AT.with(|p| *p.borrow_mut() = at);
}

fn is_learner_file(path: &str) -> bool {
    let ours = [
        "/rustc/",
        "/katas-source",
        "/cargo/",
        "/.cargo/",
        "/.rustup/",
    ];
    !ours.iter().any(|p| path.starts_with(p) || path.contains(p))
        && !path.contains("katas/src/")
        && !path.ends_with("/kata.rs")
}

/// [`panic_message`] with the learner's line it came from, when the hook noted one on this
/// thread ([`note_panic_location`]).
pub fn learner_panic_message(payload: &(dyn Any + Send)) -> String {
    let at = PANIC_AT.with(|p| p.borrow_mut().take());
    let text = panic_message(payload);
    match (at, text.strip_prefix(PANICKED)) {
        (Some(at), Some(said)) => format!("{PANICKED}[{at}] {said}"),
        _ => text,
    }
}

/// How [`panic_message`] begins; the runner sends it so across the sandbox boundary.
const PANICKED: &str = "panicked: ";

/// The text of a panic payload (`panic!` with a literal or a formatted message).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("{PANICKED}{s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("{PANICKED}{s}")
    } else {
        "panicked with a non-text payload".to_string()
    }
}

/// Keeps panics on solution threads out of the test output: they are reported as runtime
/// errors with their message. Panics anywhere else still print as usual.
fn silence_solution_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with(SOLUTION_THREAD_PREFIX));
            if quiet {
                note_panic_location(info);
            } else {
                default(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::{is_learner_file, runtime_error};
    use crate::Lang;

    #[test]
    fn a_panic_names_the_learners_line_in_both_languages() {
        let m = runtime_error("panicked: [solution.rs:3:6] index out of bounds: the len is 0");
        assert_eq!(
            m.in_lang(Lang::En),
            "panicked at solution.rs, line 3, column 6: index out of bounds: the len is 0"
        );
        assert_eq!(
            m.in_lang(Lang::Zh),
            "程序在 solution.rs 第 3 行第 6 列 panic：index out of bounds: the len is 0"
        );
        // Without a location, or with text that only looks like one, the words stay as said.
        let plain = runtime_error("panicked: [not a place] boom");
        assert_eq!(plain.in_lang(Lang::En), "panicked: [not a place] boom");
        assert_eq!(
            runtime_error("the program exited").in_lang(Lang::Zh),
            "the program exited"
        );
    }

    #[test]
    fn library_and_harness_lines_are_not_the_learners() {
        assert!(is_learner_file("solution.rs"));
        assert!(is_learner_file("katas/workspace/fast-power.rs"));
        assert!(!is_learner_file("/rustc/abc/library/core/src/option.rs"));
        assert!(!is_learner_file("/katas-source/src/runner.rs"));
        assert!(!is_learner_file("katas/problems/fast-power/kata.rs"));
        assert!(!is_learner_file(
            "/root/.cargo/registry/src/serde-1/src/de.rs"
        ));
    }
}
