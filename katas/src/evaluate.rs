//! Runs a solution on a kata's cases in this process: the package tests, `kata check` and a
//! learner's `cargo test -p katas` all come through here.
//!
//! The solution runs on its own thread ([`InProcess`], one of the session's executors) so a panic
//! becomes a runtime error and a case past its time limit becomes a time-out without waiting for
//! it; the judging is [`crate::session`]'s, the grader's too.

use crate::judge::{CaseInfo, CaseResult, Prepared, Trial};
use crate::meta::KataMeta;
use crate::panics::{SOLUTION_THREAD_PREFIX, learner_panic_message, note_panic_location};
use crate::report::Report;
use crate::runner::Frame;
use crate::session::{self, Execution, Executor, Failures, Plan, Stop};
use crate::spec::{KataSpec, Mode};
use crate::wire;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

/// Stack for a solution's thread: recursion depth a learner may reasonably use.
const SOLUTION_STACK_BYTES: usize = 64 << 20;

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
