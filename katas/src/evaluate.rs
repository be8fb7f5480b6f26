//! Runs a solution on a kata's cases in this process: the package tests, `kata check` and a
//! learner's `cargo test -p katas` all come through here.
//!
//! The solution runs on its own thread so a panic becomes a runtime error and a case past its
//! time limit becomes a time-out without waiting for it. A timed-out thread cannot be killed
//! in-process; it is told to stop after its current case and left to finish. The grader, which
//! runs untrusted code, kills the whole sandbox instead.

use crate::meta::KataMeta;
use crate::report::{CaseReport, Outcome, Report, trim};
use crate::spec::{Case, Check, KataSpec, Mode};
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

/// Runs `solution` on the cases of `trial` that `mode` selects and judges every output.
pub fn evaluate<S: KataSpec>(
    meta: &KataMeta,
    trial: &Arc<Trial<S>>,
    solution: S::Solution,
    mode: Mode,
) -> Report {
    silence_solution_panics();
    let selected: Vec<usize> = (0..trial.cases.len())
        .filter(|&i| mode.includes(trial.cases[i].group))
        .collect();
    let limit = Duration::from_millis(meta.limits.case_time_ms);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(usize, Duration, CaseResult)>();

    let worker = {
        let trial = Arc::clone(trial);
        let stop = Arc::clone(&stop);
        let selected = selected.clone();
        move || {
            for i in selected {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let started = Instant::now();
                let result = run_one::<S>(solution, &trial.cases[i].input);
                if tx.send((i, started.elapsed(), result)).is_err() {
                    return;
                }
            }
        }
    };
    let spawned = std::thread::Builder::new()
        .name(format!("{SOLUTION_THREAD_PREFIX}-{}", meta.slug))
        .stack_size(SOLUTION_STACK_BYTES)
        .spawn(worker);

    let mut reports = Vec::with_capacity(selected.len());
    let mut timed_out = false;
    for &i in &selected {
        let case = &trial.cases[i];
        if timed_out || spawned.is_err() {
            let why = match &spawned {
                Err(e) => format!("could not start the solution thread: {e}"),
                Ok(_) => "not run: an earlier case exceeded the time limit".to_string(),
            };
            reports.push(case_report(
                case,
                Outcome::NotRun,
                0.0,
                None,
                Some(why),
                Vec::new(),
            ));
            continue;
        }
        match rx.recv_timeout(limit) {
            Ok((j, elapsed, result)) => {
                debug_assert_eq!(i, j, "worker answers cases in order");
                let ms = elapsed.as_secs_f64() * 1e3;
                reports.push(judge::<S>(case, &trial.expected[i], result, ms, limit));
            }
            Err(RecvTimeoutError::Timeout) => {
                timed_out = true;
                stop.store(true, Ordering::Relaxed);
                let why = format!("no answer within {} ms", limit.as_millis());
                reports.push(with_input::<S>(
                    case,
                    case_report(
                        case,
                        Outcome::TimeLimitExceeded,
                        limit.as_secs_f64() * 1e3,
                        None,
                        Some(why),
                        Vec::new(),
                    ),
                ));
            }
            Err(RecvTimeoutError::Disconnected) => {
                // The worker only stops early when told to, so this is a thread that died
                // without unwinding (e.g. a panic while panicking).
                let why = "the solution thread died without an answer".to_string();
                reports.push(with_input::<S>(
                    case,
                    case_report(
                        case,
                        Outcome::RuntimeError,
                        0.0,
                        None,
                        Some(why),
                        Vec::new(),
                    ),
                ));
                timed_out = true;
            }
        }
    }
    Report::from_cases(&meta.slug, reports)
}

/// Untrusted half of one case: solve, then encode the output for the trip back.
fn run_one<S: KataSpec>(solution: S::Solution, input: &S::Input) -> CaseResult {
    let output =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| S::solve(solution, input)))
            .map_err(|payload| panic_message(payload.as_ref()))?;
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

/// Trusted half of one case, for in-process runs: as [`judge_case`], with our own failures
/// reported as `internal_error` cases (a local run has nobody to retry it).
pub fn judge<S: KataSpec>(
    case: &Case<S::Input>,
    expected: &S::Output,
    result: CaseResult,
    ms: f64,
    limit: Duration,
) -> CaseReport {
    judge_case::<S>(case, expected, result, ms, limit).unwrap_or_else(|failure| {
        case_report(
            case,
            Outcome::InternalError,
            ms,
            None,
            Some(failure.to_string()),
            Vec::new(),
        )
    })
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
                Some(trim(&message)),
                Vec::new(),
            );
            return Ok(with_input::<S>(case, report));
        }
    };
    // A case that answered just after its limit is still a time-out; checking it anyway would
    // make the verdict depend on how quickly this thread got scheduled.
    if ms > limit.as_secs_f64() * 1e3 {
        let why = format!("took {ms:.0} ms; the limit is {} ms", limit.as_millis());
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
                Some(e.to_string()),
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
            case_report(case, Outcome::CompileError, ms, None, Some(log), Vec::new())
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
    message: Option<String>,
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

/// The text of a panic payload (`panic!` with a literal or a formatted message).
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("panicked: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("panicked: {s}")
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
            if !quiet {
                default(info);
            }
        }));
    });
}
