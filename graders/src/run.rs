//! Step 2: the compiled submission runs in the sandbox on the selected cases; the trusted side
//! reads its frames as they stream, enforces the per-case deadline, and judges each output with
//! the kata's checker.

use crate::GradeError;
use crate::gpu::GpuHost;
use crate::sandbox::{self, ExitStatus, Job, LimitHit, Profile, Sandbox, Watch};
use katas::catalogue::CaseInfo;
use katas::runner::{Frame, FrameReader, RunRequest};
use katas::{CaseReport, Kata, KataKind, Outcome};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time the submission may take to generate its cases before the first one starts.
const SETUP_ALLOWANCE: Duration = Duration::from_secs(5);
/// Room for the result frames themselves (tensor katas return MBs).
const FRAME_BYTES: usize = 512 << 20;

#[derive(Debug)]
pub struct RunResult {
    pub cases: Vec<CaseReport>,
    pub message: Option<String>,
    pub wall: Duration,
    pub cpu: Duration,
    pub peak_memory_bytes: u64,
    pub output: Option<String>,
}

/// Follows the frame stream: per-case deadlines and the printed-output budget.
struct CaseClock {
    reader: FrameReader,
    started: Instant,
    last_frame: Option<Instant>,
    arrivals: Vec<Instant>,
    case_limit: Duration,
    output_budget: usize,
    /// Set once the solution printed past its budget: the run is stopped at once.
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
        if self.reader.other_bytes > self.output_budget {
            self.printed_too_much = true;
        }
    }

    fn deadline(&self) -> Option<Instant> {
        if self.printed_too_much {
            return Some(self.started);
        }
        Some(match self.last_frame {
            None => self.started + SETUP_ALLOWANCE,
            Some(t) => t + self.case_limit,
        })
    }
}

pub fn run(
    sandbox: &Sandbox,
    kata: &dyn Kata,
    binary: &Path,
    selected: &[CaseInfo],
    seed: u64,
    gpu: &GpuHost,
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
    let case_limit = Duration::from_millis(limits.case_time_ms);
    let output_budget = (limits.output_kb as usize) << 10;
    let is_gpu = meta.kind == KataKind::Gpu;
    let (profile, env) = if is_gpu {
        (
            Profile::Gpu {
                program: binary.to_path_buf(),
                libraries: gpu.library_mounts(),
                devices: gpu.devices.clone(),
            },
            vec![("LD_LIBRARY_PATH".to_string(), gpu.library_path())],
        )
    } else {
        (
            Profile::Run {
                program: binary.to_path_buf(),
            },
            Vec::new(),
        )
    };
    let job = Job {
        profile,
        argv: vec!["/prog".into()],
        env,
        cwd: PathBuf::from("/tmp"),
        stdin,
        limits: sandbox::Limits {
            wall: SETUP_ALLOWANCE + case_limit * (selected.len() as u32 + 1),
            cpu: Duration::from_millis(limits.total_time_ms) + SETUP_ALLOWANCE,
            memory_bytes: limits.memory_mb << 20,
            // The CUDA driver reserves address space for the device's whole memory.
            address_space_bytes: (!is_gpu).then(|| (limits.memory_mb << 20) * 4 + (1 << 30)),
            pids: limits.max_threads + 2,
            stdout_bytes: FRAME_BYTES + output_budget,
            stderr_bytes: output_budget,
            file_bytes: 16 << 20,
            open_files: 64,
        },
    };
    let mut clock = CaseClock {
        reader: FrameReader::new(nonce),
        started: Instant::now(),
        last_frame: None,
        arrivals: Vec::new(),
        case_limit,
        output_budget,
        printed_too_much: false,
    };
    let outcome = sandbox.run(&job, &mut clock)?;
    let arrivals = clock.arrivals.clone();
    let printed_too_much = clock.printed_too_much;
    let started = clock.started;
    let (frames, printed, head) = clock.reader.finish();
    let stderr_bytes = outcome.stderr.len();

    // Why the stream ended, for the first case without an answer.
    let ended = if printed_too_much || printed + stderr_bytes > output_budget {
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
                    "started more than {} threads or processes",
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

    let ready_at = frames
        .iter()
        .position(|f| *f == Frame::Ready)
        .map(|i| arrivals[i]);
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
                let ms = at.saturating_duration_since(previous).as_secs_f64() * 1e3;
                previous = at;
                cases.push(kata.judge(seed, info.index, result, ms));
            }
            None => {
                stopped = true;
                let mut report = kata.judge(seed, info.index, Err(String::new()), 0.0);
                report.outcome = ended.0;
                report.message = Some(ended.1.clone());
                cases.push(report);
            }
        }
    }
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
    })
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
