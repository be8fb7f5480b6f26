//! What a job did: [`Outcome`], and the caller's view of it while it runs: [`Watch`].

use std::time::{Duration, Instant};

/// How the job's program ended. Exact even for signals, because the program is not pid 1 of
/// its namespace (a small init is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    Exited(i32),
    Signaled(i32),
}

impl ExitStatus {
    pub fn success(self) -> bool {
        self == ExitStatus::Exited(0)
    }
}

/// The limit that stopped the job (or, for [`LimitHit::Pids`], that refused it a process).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// The cgroup ran out of memory and the kernel killed a process.
    Memory,
    /// A fork or thread creation failed because the group reached `pids`.
    Pids,
    /// The group used its CPU time.
    Cpu,
    /// The wall-clock limit passed.
    Wall,
    /// [`Watch::deadline`] passed.
    Deadline,
    /// More than `stdout_bytes` of output.
    Stdout,
    /// More than `stderr_bytes` of output.
    Stderr,
    /// A write went past `file_bytes`: the kernel refused it (`EFBIG`) and sent `SIGXFSZ`,
    /// which ended the program.
    FileSize,
}

/// Everything the sandboxed program did. Produced only when our setup succeeded.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: ExitStatus,
    pub wall: Duration,
    /// CPU of the whole group (cgroup accounting; includes the helpers' few milliseconds).
    pub cpu: Duration,
    pub peak_memory_bytes: u64,
    pub limit: Option<LimitHit>,
    /// At most `Limits::stdout_bytes`.
    pub stdout: Vec<u8>,
    /// At most `Limits::stderr_bytes`.
    pub stderr: Vec<u8>,
}

/// The caller's eye on a running job (the grader parses result frames as they stream).
pub trait Watch {
    /// Called on the thread that called [`Sandbox::run`](super::Sandbox::run) with each chunk
    /// of stdout as it arrives (only bytes within the stdout limit).
    fn on_stdout(&mut self, chunk: &[u8]);
    /// Stop the job at this instant ([`LimitHit::Deadline`]). Asked again after every chunk,
    /// so it may move.
    fn deadline(&self) -> Option<Instant>;
    /// Whether [`Outcome::stdout`] should hold stdout as well. A watch that reads every chunk
    /// itself says no, so the bytes are held once, by whoever bounds them.
    fn keeps_stdout(&self) -> bool {
        true
    }
    /// More bytes for the program's stdin while it runs, after `Job::stdin`, until every
    /// sender is dropped or the program ends. Asked once, before the job starts; `Some` leaves
    /// the program's stdin a pipe it reads as the grader writes (the replies to a rank's
    /// requests), where otherwise it is `Job::stdin` sealed into a file.
    fn feed(&mut self) -> Option<std::sync::mpsc::Receiver<Vec<u8>>> {
        None
    }
}

/// A [`Watch`] that looks at nothing and sets no deadline.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoWatch;

impl Watch for NoWatch {
    fn on_stdout(&mut self, _chunk: &[u8]) {}
    fn deadline(&self) -> Option<Instant> {
        None
    }
}
