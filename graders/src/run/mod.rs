//! Step 2: the compiled submission runs in the sandbox on the selected cases — the sandboxed
//! executor of the one run loop ([`katas::session`]): it streams frames back under the session's
//! per-case deadlines and says what stopped the program; the session judges.
//!
//! The same loop serves the performance measurement: [`Purpose::Measure`] runs the same binary
//! under valgrind's instruction counter in the `Measure` profile — the run profile's walls
//! (tmpfs only, no fork, no exec, no sockets) with the kata's memory, threads and time scaled
//! for the tool's slowdown — and its answers are judged like any other run's: a figure only
//! stands beside answers that were right.

use crate::GradeError;
use crate::gpu::GpuHost;
use crate::sandbox::{
    self, ExitStatus, Job, LimitHit, MEASURE_TOOL_INSIDE, Profile, Sandbox, Watch,
};
use katas::judge::JudgeFailure;
use katas::judge::{CaseInfo, Judging};
use katas::rank_net::RankedKata;
use katas::runner::{FrameReader, RunRequest};
use katas::session::{
    self, Execution, Executor, Failures, Plan, SETUP_ALLOWANCE, SessionError, Stop,
};
use katas::{CaseReport, KataKind, KataMeta, Outcome};
use std::path::{Path, PathBuf};

mod ranked;
use std::time::{Duration, Instant};

/// How much slower a program runs under the instruction counter (measured ~16×, with room):
/// time limits of a measured run are the kata's times this. Also what a hostile accepted
/// submission can make a worker spend on its measurement, so no more than needed.
const MEASURE_SLOWDOWN: u32 = 25;
/// How much longer than its CPU bound a measurement may take on the wall clock: it runs at the
/// lowest priority (nice 19) and waits while verdicts use the cores. Its CPU limit (the kata's
/// times [`MEASURE_SLOWDOWN`]) stays what bounds its work; this bounds how long a program that
/// only sleeps can hold the measuring loop.
const MEASURE_WAIT_SLACK: u32 = 4;
/// valgrind's own memory beside the program's (its translation cache and tables).
const MEASURE_MEMORY_BYTES: u64 = 384 << 20;
/// Threads beyond `max_threads` the sandbox tolerates: a thread that has returned is still
/// counted by the kernel for a moment after `join`, so a solution that starts one thread per
/// query, one at a time, must not fail only when the machine is loaded.
const THREAD_HEADROOM: u32 = 8;
/// Room for the `Ready` frame (the catalogue fingerprint) when no case is asked for.
const READY_BOUND: usize = 1 << 10;

/// What a run needs of its kata: its kind and limits, and a rank kata's face.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub meta: &'a KataMeta,
    pub ranked: Option<&'a dyn RankedKata>,
}

/// What a run is for.
#[derive(Debug, Clone, Copy)]
pub enum Purpose<'a> {
    /// Judge the answers (the verdict).
    Judge,
    /// Count the instructions the learner's code executes, with `tool` (callgrind's static
    /// executable); the answers are judged too.
    Measure { tool: &'a Path },
    /// Judge the one case of a custom input, whose wire bytes the runner receives instead of
    /// generating cases from the seed.
    Custom { input: &'a [u8] },
}

#[derive(Debug)]
pub struct RunResult {
    pub cases: Vec<CaseReport>,
    pub message: Option<katas::Message>,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_memory_bytes: u64,
    pub output: Option<String>,
    /// [`Purpose::Measure`]: the count, or why there is none.
    pub instructions: Option<Result<u64, String>>,
    /// Processes the program ran as: one, or one per rank of a rank kata. A measured count
    /// holds each one's start-up.
    pub processes: u64,
}

/// Follows the frame stream: per-case deadlines (the session's) and the printed-output budget.
struct CaseClock<'p> {
    plan: &'p Plan<'p>,
    reader: FrameReader,
    started: Instant,
    last_frame: Option<Instant>,
    arrivals: Vec<Instant>,
    output_budget: usize,
    /// Payload bytes all answers together may take (each is bounded by the reader too).
    frame_budget: usize,
    /// Set once the solution printed or answered past its budgets: the run is stopped at once.
    printed_too_much: bool,
}

impl Watch for CaseClock<'_> {
    fn on_stdout(&mut self, chunk: &[u8]) {
        let before = self.reader.frames().len();
        let after = self.reader.push(chunk);
        let now = Instant::now();
        for _ in before..after {
            self.arrivals.push(now);
            self.last_frame = Some(now);
        }
        if self.reader.other_bytes > self.output_budget
            || self.reader.frame_bytes > self.frame_budget
            || self.reader.oversized.is_some()
        {
            self.printed_too_much = true;
        }
    }

    fn deadline(&self) -> Option<Instant> {
        if self.printed_too_much {
            return Some(self.started);
        }
        Some(self.plan.deadline(self.started, self.last_frame))
    }

    fn keeps_stdout(&self) -> bool {
        false
    }
}

/// The sandboxed executor: the compiled submission in the kata kind's profile (CPU or GPU),
/// or under the instruction counter when measuring.
struct Sandboxed<'a> {
    sandbox: &'a Sandbox,
    kata: Subject<'a>,
    judging: &'a dyn Judging,
    binary: &'a Path,
    gpu: &'a GpuHost,
    purpose: Purpose<'a>,
    /// What the session does not judge: the sandbox's accounting, printed text, the stop.
    after: Option<After>,
}

struct After {
    outcome: sandbox::Outcome,
    stop: Stop,
    printed: usize,
    head: Vec<u8>,
    stderr_bytes: usize,
    /// Every process's stderr (one, or one per rank), where a measured run's counts are.
    reports: Vec<Vec<u8>>,
}

impl Executor for Sandboxed<'_> {
    type Error = GradeError;

    fn execute(&mut self, plan: &Plan<'_>) -> Result<Execution, GradeError> {
        let meta = self.kata.meta;
        let limits = &meta.limits;
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the OS random source works");
        let measured = matches!(self.purpose, Purpose::Measure { .. });
        // A measured run is sent its inputs, not the seed they were made from.
        let inputs = measured
            .then(|| {
                plan.selected
                    .iter()
                    .map(|c| self.judging.input_bytes(c.index))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()
            .map_err(GradeError::kata(&self.kata.meta.slug))?;
        let request = RunRequest {
            seed: if measured { 0 } else { plan.seed },
            cases: plan.selected.iter().map(|c| c.index as u32).collect(),
            nonce,
            custom: plan.custom.map(<[u8]>::to_vec),
            inputs,
            rank: None,
        };
        let stdin = request
            .to_stdin()
            .map_err(|e| GradeError::Internal(format!("encoding the request: {e}")))?;
        let output_budget = (limits.output_kb as usize) << 10;
        let answer_bound = plan
            .selected
            .iter()
            .map(|c| self.judging.answer_bound(c.index))
            .max()
            // A run of no case (the empty harness) still sends its `Ready` frame.
            .unwrap_or(READY_BOUND);
        let frame_budget: usize = plan
            .selected
            .iter()
            .map(|c| self.judging.answer_bound(c.index))
            .sum::<usize>()
            + output_budget;
        let is_gpu = meta.kind == KataKind::Gpu;
        let (profile, env, argv) = profile(self.purpose, self.binary, self.gpu, is_gpu);
        let job = Job {
            profile,
            argv,
            env,
            cwd: PathBuf::from("/tmp"),
            stdin,
            limits: job_limits(plan, self.binary, is_gpu, measured, frame_budget)?,
        };
        let mut clock = CaseClock {
            plan,
            reader: FrameReader::with_bound(nonce, answer_bound),
            started: Instant::now(),
            last_frame: None,
            arrivals: Vec::new(),
            output_budget,
            frame_budget,
            printed_too_much: false,
        };
        let outcome = self.sandbox.run(&job, &mut clock)?;
        let CaseClock {
            reader,
            started,
            arrivals,
            printed_too_much,
            ..
        } = clock;
        let oversized = reader.oversized;
        let (frames, printed, head) = reader.finish();
        // Under measurement stderr also carries valgrind's report, which is not the learner's.
        let stderr_bytes = if measured { 0 } else { outcome.stderr.len() };
        let stop = if let Some(case) = oversized {
            Stop::Oversized {
                case,
                bound_bytes: answer_bound,
            }
        } else if printed_too_much || printed + stderr_bytes > output_budget {
            Stop::Printed
        } else {
            stop_of(&outcome)
        };
        self.after = Some(After {
            reports: vec![outcome.stderr.clone()],
            outcome,
            stop: stop.clone(),
            printed,
            head,
            stderr_bytes,
        });
        Ok(Execution {
            started,
            frames: frames.into_iter().zip(arrivals).collect(),
            stop,
        })
    }
}

/// The sandbox limits of one program of a run: the kata's, stretched for a measurement. Its
/// stdout holds `frame_budget` bytes of frames beside the learner's own prints.
fn job_limits(
    plan: &Plan<'_>,
    binary: &Path,
    is_gpu: bool,
    measured: bool,
    frame_budget: usize,
) -> Result<sandbox::Limits, GradeError> {
    let limits = plan.limits;
    let output_budget = (limits.output_kb as usize) << 10;
    // The program's own pages are file-backed and may sit in the page cache uncharged (the
    // grader wrote the file): the limit counts them as if they were the program's memory.
    let binary_bytes = std::fs::metadata(binary)
        .map_err(|e| GradeError::io("reading the compiled program's size", e))?
        .len();
    let memory_bytes = (limits.memory_mb << 20)
        .saturating_sub(binary_bytes)
        .max(8 << 20);
    Ok(sandbox::Limits {
        wall: plan.setup() + plan.case_limit() * (plan.selected.len() as u32 + 1),
        cpu: (Duration::from_millis(limits.total_time_ms) + SETUP_ALLOWANCE)
            * if measured {
                MEASURE_SLOWDOWN
            } else {
                plan.slowdown
            },
        memory_bytes: memory_bytes + if measured { MEASURE_MEMORY_BYTES } else { 0 },
        // The CUDA driver reserves address space for the device's whole memory, and so
        // does valgrind for its own.
        address_space_bytes: (!is_gpu && !measured)
            .then(|| (limits.memory_mb << 20) * 4 + (1 << 30)),
        pids: limits.max_threads + 2 + THREAD_HEADROOM,
        stdout_bytes: frame_budget + output_budget + (64 << 10),
        // valgrind's own report shares stderr.
        stderr_bytes: output_budget + if measured { 64 << 10 } else { 0 },
        file_bytes: 16 << 20,
        open_files: 64,
    })
}

/// The profile, environment and command line of a run: chosen once from the kata's kind and
/// the purpose.
fn profile(
    purpose: Purpose<'_>,
    binary: &Path,
    gpu: &GpuHost,
    is_gpu: bool,
) -> (Profile, Vec<(String, String)>, Vec<String>) {
    if let Purpose::Measure { tool } = purpose {
        (
            Profile::Measure {
                program: binary.to_path_buf(),
                tool: tool.to_path_buf(),
            },
            // The tool refuses to start without the launcher's variable; nothing reads it.
            vec![(
                "VALGRIND_LAUNCHER".to_string(),
                MEASURE_TOOL_INSIDE.to_string(),
            )],
            // The whole process on every thread: nothing the program can call, write or
            // jump to switches the count off.
            [
                MEASURE_TOOL_INSIDE,
                "--vgdb=no",
                "--cache-sim=no",
                "--cachegrind-out-file=/tmp/cachegrind.out",
                "/prog",
            ]
            .map(String::from)
            .to_vec(),
        )
    } else if is_gpu {
        (
            Profile::Gpu {
                program: binary.to_path_buf(),
                libraries: gpu.library_mounts(),
                devices: gpu.devices.clone(),
            },
            vec![("LD_LIBRARY_PATH".to_string(), gpu.library_path())],
            vec!["/prog".to_string()],
        )
    } else {
        (
            Profile::Run {
                program: binary.to_path_buf(),
            },
            Vec::new(),
            vec!["/prog".to_string()],
        )
    }
}

/// What the sandbox's own accounting says stopped the program.
fn stop_of(outcome: &sandbox::Outcome) -> Stop {
    match (outcome.limit, outcome.status) {
        (Some(LimitHit::Memory), _) => Stop::Memory,
        (Some(LimitHit::Stdout | LimitHit::Stderr), _) => Stop::Printed,
        (Some(LimitHit::Pids), _) => Stop::Threads,
        (Some(LimitHit::Cpu), _) => Stop::Cpu,
        (Some(LimitHit::FileSize), _) => Stop::FileSize,
        (Some(LimitHit::Wall | LimitHit::Deadline), _) => Stop::Deadline,
        (None, ExitStatus::Signaled(_)) if allocation_failed(&outcome.stderr) => {
            Stop::AllocationFailed
        }
        (None, ExitStatus::Signaled(sig)) => Stop::Signaled(sig),
        (None, ExitStatus::Exited(code)) => Stop::Exited(code),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    sandbox: &Sandbox,
    kata: Subject<'_>,
    judging: &dyn Judging,
    binary: &Path,
    selected: &[CaseInfo],
    seed: u64,
    gpu: &GpuHost,
    purpose: Purpose<'_>,
) -> Result<RunResult, GradeError> {
    let plan = Plan {
        seed,
        selected,
        limits: &kata.meta.limits,
        slowdown: match purpose {
            Purpose::Judge | Purpose::Custom { .. } => 1,
            Purpose::Measure { .. } => MEASURE_SLOWDOWN * MEASURE_WAIT_SLACK,
        },
        failures: Failures::Escalate,
        custom: match purpose {
            Purpose::Custom { input } => Some(input),
            _ => None,
        },
    };
    let mut executor = Sandboxed {
        sandbox,
        kata,
        judging,
        binary,
        gpu,
        purpose,
        after: None,
    };
    let judged = match kata.ranked {
        Some(ranked) => session::run(
            &mut ranked::RankedSandboxed {
                run: &mut executor,
                ranked,
            },
            judging,
            &plan,
        ),
        None => session::run(&mut executor, judging, &plan),
    };
    let after = executor.after;
    let judged = judged.map_err(|e| match e {
        SessionError::Executor(e) => e,
        SessionError::Judge(f) => failure(f),
        SessionError::Catalogue { .. } => GradeError::Toolchain(e.to_string()),
    })?;
    let Some(after) = after else {
        return Err(GradeError::Internal(
            "the sandboxed run left no account".to_string(),
        ));
    };
    let measured = matches!(purpose, Purpose::Measure { .. });
    if measured && after.stop == Stop::Deadline {
        // A measurement runs at the lowest priority: on a busy host its wall clock runs out
        // while it waits for the CPU. Its count does not depend on when it runs, so it is
        // measured again later (a bounded number of times), not reported missing.
        return Err(GradeError::Unavailable(
            "the measured run ran out of wall-clock time (at the lowest CPU priority it waits \
             while verdicts use the cores); it will be measured again"
                .into(),
        ));
    }
    let instructions = measured.then(|| {
        let ended = after.stop.verdict(plan.limits).1;
        count(
            &after.reports,
            after.outcome.limit,
            after.outcome.status,
            &judged.cases,
            &ended.en,
        )
    });
    let output = (after.printed > 0 || after.stderr_bytes > 0).then(|| {
        let mut text = String::from_utf8_lossy(&after.head).into_owned();
        text.push_str(&String::from_utf8_lossy(
            &after.outcome.stderr[..after.stderr_bytes.min(4096)],
        ));
        text
    });
    Ok(RunResult {
        message: judged.stopped,
        cases: judged.cases,
        wall: after.outcome.wall,
        cpu: after.outcome.cpu,
        peak_memory_bytes: after.outcome.peak_memory_bytes,
        processes: after.reports.len() as u64,
        output,
        instructions,
    })
}

fn failure(f: JudgeFailure) -> GradeError {
    match f {
        JudgeFailure::Checker(_) => GradeError::Internal(f.to_string()),
        JudgeFailure::Unavailable { .. } => GradeError::Unavailable(f.to_string()),
    }
}

/// The measured run's count, or why it cannot be trusted. valgrind writes its summary to
/// stderr after every thread of the program has ended, and the program cannot start any other
/// process that could print after it (the sandbox allows no `execve` but its own), so the last
/// `Collected :` line of a run that ended cleanly is the tool's.
fn count(
    reports: &[Vec<u8>],
    limit: Option<LimitHit>,
    status: ExitStatus,
    cases: &[CaseReport],
    ended: &str,
) -> Result<u64, String> {
    if let Some(case) = cases.iter().find(|c| c.outcome != Outcome::Passed) {
        return Err(format!(
            "the measured run's answer to `{}` was not accepted ({})",
            case.name,
            case.message
                .as_ref()
                .map_or(case.outcome.as_str(), |m| m.en.as_str())
        ));
    }
    if limit.is_some() || !status.success() {
        return Err(format!("the measured run did not end cleanly: {ended}"));
    }
    // A rank kata's processes are each counted; the run's count is their sum.
    reports
        .iter()
        .map(|r| collected(&String::from_utf8_lossy(r)))
        .sum::<Option<u64>>()
        .ok_or_else(|| "the instruction counter reported no count".to_string())
}

/// cachegrind's closing `==PID== I   refs:      N` (valgrind writes it after the program
/// has ended, so it is the last one).
fn collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .rev()
        .find_map(|l| {
            l.split_once("refs:")
                .filter(|(head, _)| head.trim_end().ends_with('I'))
                .map(|(_, n)| n.trim())
        })
        .and_then(|n| n.replace(',', "").parse().ok())
}

/// Rust's allocation-failure handler prints this before aborting. The text is the
/// solution's to fake, but faking it only changes its own verdict between two failures.
fn allocation_failed(stderr: &[u8]) -> bool {
    String::from_utf8_lossy(stderr).contains("memory allocation of")
}

#[cfg(test)]
mod tests {
    #[test]
    fn takes_the_last_count() {
        let stderr = "==1== I   refs:      5\nfake\n==1== \n==1== I   refs:      1,234\n==1==\n";
        assert_eq!(super::collected(stderr), Some(1234));
        assert_eq!(super::collected("==1== D   refs: 9\n"), None);
        assert_eq!(super::collected("nothing"), None);
    }
}
