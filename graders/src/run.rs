//! Step 2: the compiled submission runs in the sandbox on the selected cases; the trusted side
//! reads its frames as they stream, enforces the per-case deadline, and judges each output with
//! the kata's checker.
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
use katas::catalogue::{CaseInfo, Judging};
use katas::evaluate::JudgeFailure;
use katas::runner::{Frame, FrameReader, RunRequest};
use katas::{CaseReport, Kata, KataKind, Outcome};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time the submission may take to generate its cases before the first one starts.
const SETUP_ALLOWANCE: Duration = Duration::from_secs(5);
/// How much slower a program runs under the instruction counter (measured ~16×, with room):
/// time limits of a measured run are the kata's times this. Also what a hostile accepted
/// submission can make a worker spend on its measurement, so no more than needed.
const MEASURE_SLOWDOWN: u32 = 25;
/// valgrind's own memory beside the program's (its translation cache and tables).
const MEASURE_MEMORY_BYTES: u64 = 384 << 20;
/// Threads beyond `max_threads` the sandbox tolerates: a thread that has returned is still
/// counted by the kernel for a moment after `join`, so a solution that starts one thread per
/// query, one at a time, must not fail only when the machine is loaded.
const THREAD_HEADROOM: u32 = 8;

/// What a run is for.
#[derive(Debug, Clone, Copy)]
pub enum Purpose<'a> {
    /// Judge the answers (the verdict).
    Judge,
    /// Count the instructions the learner's code executes, with `tool` (callgrind's static
    /// executable); the answers are judged too.
    Measure { tool: &'a Path },
}

#[derive(Debug)]
pub struct RunResult {
    pub cases: Vec<CaseReport>,
    pub message: Option<String>,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_memory_bytes: u64,
    pub output: Option<String>,
    /// [`Purpose::Measure`]: the count, or why there is none.
    pub instructions: Option<Result<u64, String>>,
}

/// Follows the frame stream: per-case deadlines and the printed-output budget.
struct CaseClock {
    reader: FrameReader,
    started: Instant,
    last_frame: Option<Instant>,
    arrivals: Vec<Instant>,
    case_limit: Duration,
    setup: Duration,
    output_budget: usize,
    /// Payload bytes all answers together may take (each is bounded by the reader too).
    frame_budget: usize,
    /// Set once the solution printed or answered past its budgets: the run is stopped at once.
    printed_too_much: bool,
}

impl Watch for CaseClock {
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
        Some(match self.last_frame {
            None => self.started + self.setup,
            Some(t) => t + self.case_limit,
        })
    }

    fn keeps_stdout(&self) -> bool {
        false
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    sandbox: &Sandbox,
    kata: &dyn Kata,
    judging: &dyn Judging,
    binary: &Path,
    selected: &[CaseInfo],
    seed: u64,
    gpu: &GpuHost,
    purpose: Purpose<'_>,
) -> Result<RunResult, GradeError> {
    let meta = kata.meta();
    let limits = &meta.limits;
    let mut nonce = [0u8; 16];
    nonce.iter_mut().for_each(|b| *b = fastrand::u8(..));
    let request = RunRequest {
        seed,
        cases: selected.iter().map(|c| c.index as u32).collect(),
        nonce,
    };
    let stdin = postcard::to_stdvec(&request)
        .map_err(|e| GradeError::Internal(format!("encoding the request: {e}")))?;
    let slowdown = match purpose {
        Purpose::Judge => 1,
        Purpose::Measure { .. } => MEASURE_SLOWDOWN,
    };
    let case_limit = Duration::from_millis(limits.case_time_ms) * slowdown;
    let setup = SETUP_ALLOWANCE * slowdown;
    let output_budget = (limits.output_kb as usize) << 10;
    let answer_bound = selected
        .iter()
        .map(|c| judging.answer_bound(c.index))
        .max()
        .unwrap_or(0);
    let frame_budget: usize = selected
        .iter()
        .map(|c| judging.answer_bound(c.index))
        .sum::<usize>()
        + output_budget;
    // The program's own pages are file-backed and may sit in the page cache uncharged (the
    // grader wrote the file): the limit counts them as if they were the program's memory.
    let binary_bytes = std::fs::metadata(binary)
        .map_err(|e| GradeError::io("reading the compiled program's size", e))?
        .len();
    let memory_bytes = (limits.memory_mb << 20)
        .saturating_sub(binary_bytes)
        .max(8 << 20);
    let is_gpu = meta.kind == KataKind::Gpu;
    let (profile, env, argv) = if let Purpose::Measure { tool } = purpose {
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
            [
                MEASURE_TOOL_INSIDE,
                "--vgdb=no",
                "--callgrind-out-file=/tmp/callgrind.out",
                // Order matters: a toggle option resets collect-atstart, so it comes first.
                &format!("--toggle-collect={}", katas::runner::UNMEASURED_SYMBOL),
                "--collect-atstart=yes",
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
    };
    let measured = matches!(purpose, Purpose::Measure { .. });
    let job = Job {
        profile,
        argv,
        env,
        cwd: PathBuf::from("/tmp"),
        stdin,
        limits: sandbox::Limits {
            wall: setup + case_limit * (selected.len() as u32 + 1),
            cpu: (Duration::from_millis(limits.total_time_ms) + SETUP_ALLOWANCE) * slowdown,
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
        },
    };
    let mut clock = CaseClock {
        reader: FrameReader::with_bound(nonce, answer_bound),
        started: Instant::now(),
        last_frame: None,
        arrivals: Vec::new(),
        case_limit,
        setup,
        output_budget,
        frame_budget,
        printed_too_much: false,
    };
    let outcome = sandbox.run(&job, &mut clock)?;
    let arrivals = clock.arrivals.clone();
    let printed_too_much = clock.printed_too_much;
    let started = clock.started;
    let oversized = clock.reader.oversized;
    let (frames, printed, head) = clock.reader.finish();
    // Under measurement stderr also carries valgrind's report, which is not the learner's.
    let stderr_bytes = if measured { 0 } else { outcome.stderr.len() };

    // Why the stream ended, for the first case without an answer.
    let ended = if let Some(case) = oversized {
        (
            Outcome::OutputLimitExceeded,
            format!(
                "the answer to case #{case} is far larger than any right one (over {} KiB)",
                answer_bound >> 10
            ),
        )
    } else if printed_too_much || printed + stderr_bytes > output_budget {
        (
            Outcome::OutputLimitExceeded,
            format!("printed more than {} KiB", limits.output_kb),
        )
    } else {
        match (outcome.limit, outcome.status) {
            (Some(LimitHit::Memory), _) => (
                Outcome::MemoryLimitExceeded,
                format!("used more than {} MiB of memory", limits.memory_mb),
            ),
            (Some(LimitHit::Stdout | LimitHit::Stderr), _) => {
                (Outcome::OutputLimitExceeded, "printed too much".to_string())
            }
            (Some(LimitHit::Pids), _) => (
                Outcome::RuntimeError,
                format!(
                    "started more than {} threads at once (or a process)",
                    limits.max_threads
                ),
            ),
            (Some(LimitHit::Cpu), _) => (
                Outcome::TimeLimitExceeded,
                format!(
                    "used more than {} ms of CPU time in all",
                    limits.total_time_ms
                ),
            ),
            (Some(LimitHit::FileSize), _) => (
                Outcome::RuntimeError,
                "wrote a file larger than the sandbox allows".to_string(),
            ),
            (Some(LimitHit::Wall | LimitHit::Deadline), _) => (
                Outcome::TimeLimitExceeded,
                format!("no answer within {} ms", limits.case_time_ms),
            ),
            (None, ExitStatus::Signaled(_)) if allocation_failed(&outcome.stderr) => (
                Outcome::MemoryLimitExceeded,
                "a memory allocation failed".to_string(),
            ),
            (None, ExitStatus::Signaled(sig)) => (
                Outcome::RuntimeError,
                format!("killed by signal {sig} ({})", signal_name(sig)),
            ),
            (None, ExitStatus::Exited(0)) => (
                Outcome::RuntimeError,
                "the program exited before answering this case".to_string(),
            ),
            (None, ExitStatus::Exited(code)) => (
                Outcome::RuntimeError,
                format!("the program exited with status {code}"),
            ),
        }
    };

    let ready = frames.iter().zip(&arrivals).find_map(|(f, at)| match f {
        Frame::Ready { catalogue } => Some((catalogue, *at)),
        _ => None,
    });
    if let Some((catalogue, _)) = ready
        && catalogue != katas::CATALOGUE_HASH
    {
        return Err(GradeError::Toolchain(format!(
            "the runner library was built from catalogue {catalogue}, this grader from {}: \
             rebuild both from one checkout",
            katas::CATALOGUE_HASH
        )));
    }
    let ready_at = ready.map(|(_, at)| at);
    let mut cases = Vec::with_capacity(selected.len());
    let mut previous = ready_at.unwrap_or(started);
    let mut stopped = false;
    for info in selected {
        if stopped {
            cases.push(not_run(info));
            continue;
        }
        let answer = frames.iter().zip(&arrivals).find_map(|(f, at)| match f {
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
                    / f64::from(slowdown);
                previous = at;
                cases.push(judging.judge(info.index, result, ms).map_err(failure)?);
            }
            None => {
                stopped = true;
                let mut report = judging
                    .judge(info.index, Err(String::new()), 0.0)
                    .map_err(failure)?;
                report.outcome = ended.0;
                report.message = Some(ended.1.clone());
                cases.push(report);
            }
        }
    }
    let instructions = measured.then(|| {
        count(
            &outcome.stderr,
            outcome.limit,
            outcome.status,
            &cases,
            &ended.1,
        )
    });
    let output = (printed > 0 || stderr_bytes > 0).then(|| {
        let mut text = String::from_utf8_lossy(&head).into_owned();
        text.push_str(&String::from_utf8_lossy(
            &outcome.stderr[..stderr_bytes.min(4096)],
        ));
        text
    });
    Ok(RunResult {
        message: stopped.then(|| ended.1.clone()),
        cases,
        wall: outcome.wall,
        cpu: outcome.cpu,
        peak_memory_bytes: outcome.peak_memory_bytes,
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
    stderr: &[u8],
    limit: Option<LimitHit>,
    status: ExitStatus,
    cases: &[CaseReport],
    ended: &str,
) -> Result<u64, String> {
    if let Some(case) = cases.iter().find(|c| c.outcome != Outcome::Passed) {
        return Err(format!(
            "the measured run's answer to `{}` was not accepted ({})",
            case.name,
            case.message.as_deref().unwrap_or(case.outcome.as_str())
        ));
    }
    if limit.is_some() || !status.success() {
        return Err(format!("the measured run did not end cleanly: {ended}"));
    }
    collected(&String::from_utf8_lossy(stderr))
        .ok_or_else(|| "the instruction counter reported no count".to_string())
}

/// callgrind's closing `==PID== Collected : N`.
fn collected(stderr: &str) -> Option<u64> {
    stderr
        .lines()
        .rev()
        .find_map(|l| l.split_once("Collected :").map(|(_, n)| n.trim()))
        .and_then(|n| n.replace(',', "").parse().ok())
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

/// Rust's allocation-failure handler prints this before aborting. The text is the
/// solution's to fake, but faking it only changes its own verdict between two failures.
fn allocation_failed(stderr: &[u8]) -> bool {
    String::from_utf8_lossy(stderr).contains("memory allocation of")
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

#[cfg(test)]
mod tests {
    #[test]
    fn takes_the_last_count() {
        let stderr =
            "==1== Collected : 5\nfake\n==1== Events    : Ir\n==1== Collected : 1,234\n==1==\n";
        assert_eq!(super::collected(stderr), Some(1234));
        assert_eq!(super::collected("nothing"), None);
    }
}
