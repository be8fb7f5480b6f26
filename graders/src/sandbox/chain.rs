//! A job's helper stages started before the job: `outer` has joined the slot's group and
//! unshared the namespaces, `init` is pid 1, and `inner` waits for the job's spec at the head
//! of its stdin. Starting them takes three executions of the stage binary, a few milliseconds
//! that a job would otherwise wait for; the supervisor starts the next job's chain while the
//! current job runs, on the core rustc leaves idle.
//!
//! Nothing of the job is known to a chain before it is handed the spec: no mounts, no
//! program, no limits beyond the group's small start-up ones, the job's uid not yet taken.
//! A chain that is never used is killed with its group; if the supervisor dies, the end of
//! the stdin pipe stops `inner`, and with it the namespace.

use std::fs::{self, OpenOptions};
use std::io;
use std::os::unix::fs::{OpenOptionsExt, lchown};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;

use super::SandboxError;
use super::cgroup::{self, Driver, Group, GroupLimits};
use super::spec::HelperSpec;
use super::stage::STAGE_ARG;

/// The two helpers (`outer`, `init`) live in the job's group too.
pub(crate) const HELPERS: u64 = 2;

/// The group's limits until the job's are written: the helpers and `inner` (with room for a
/// thread std may start), and memory for three small processes.
const START_LIMITS: GroupLimits = GroupLimits {
    memory_bytes: 64 << 20,
    pids: HELPERS + 2,
};

#[derive(Debug)]
pub(crate) struct Chain {
    pub child: Child,
    pub state: JobState,
}

impl Chain {
    /// Creates the slot's status file and group and starts `outer` through `spawner`.
    pub fn start(
        spawner: &Spawner,
        stage_exe: &Path,
        cgroups: &dyn Driver,
        status_file: PathBuf,
        name: &str,
    ) -> Result<Chain, SandboxError> {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&status_file)
            .map_err(|e| SandboxError::io("create status file", e))?;
        let group = match cgroups.create(name, START_LIMITS) {
            Ok(group) => group,
            Err(e) => {
                let _ = fs::remove_file(&status_file);
                return Err(e);
            }
        };
        let state = JobState {
            status_file,
            group,
            build_dir: None,
            finished: false,
        };
        let spec = HelperSpec {
            status_file: state.status_file.clone(),
            cgroup_procs: state.group.procs_files(),
        };
        let mut command = Command::new(stage_exe);
        command
            .args([STAGE_ARG, "outer", &spec.encode()?])
            .env_clear()
            // Its own process group: nothing inside can signal the supervisor's group.
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = spawner
            .spawn(command)
            .map_err(|e| SandboxError::io(format!("spawn {}", stage_exe.display()), e))?;
        Ok(Chain { child, state })
    }

    /// Whether the helpers are still waiting (a chain killed from outside is not used).
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the helpers and removes the group and the status file.
    pub fn discard(mut self) -> Result<(), SandboxError> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.state.finish()
    }
}

impl Drop for Chain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Host-side state of one job, undone on every path out of a job.
#[derive(Debug)]
pub(crate) struct JobState {
    pub status_file: PathBuf,
    pub group: Box<dyn Group>,
    /// The build dir, chowned to the job's uid while it runs.
    pub build_dir: Option<PathBuf>,
    finished: bool,
}

impl JobState {
    pub fn finish(&mut self) -> Result<(), SandboxError> {
        if std::mem::replace(&mut self.finished, true) {
            return Ok(());
        }
        let mut result = cgroup::destroy(self.group.as_ref());
        if let Some(dir) = self.build_dir.take() {
            // Back to root: the job's uid will be someone else's next.
            let chown = lchown(&dir, Some(0), Some(0))
                .map_err(|e| SandboxError::io(format!("chown {}", dir.display()), e));
            result = result.and(chown);
        }
        let _ = fs::remove_file(&self.status_file);
        result
    }
}

impl Drop for JobState {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// Starts every chain from one long-lived thread. `outer` dies with its parent (its
/// `PR_SET_PDEATHSIG`), and to the kernel the parent is the *thread* that forked it: a chain
/// started by a grading's thread would be killed when a thread pool retires that thread,
/// perhaps while the chain waits for the next grading, which may run on any thread.
#[derive(Debug)]
pub(crate) struct Spawner {
    requests: mpsc::Sender<(Command, mpsc::Sender<io::Result<Child>>)>,
}

impl Spawner {
    pub fn new() -> io::Result<Spawner> {
        let (requests, incoming) = mpsc::channel::<(Command, mpsc::Sender<io::Result<Child>>)>();
        thread::Builder::new()
            .name("sandbox-spawner".into())
            .spawn(move || {
                // Ends when the sandbox (the only sender) is dropped.
                for (mut command, reply) in incoming {
                    let _ = reply.send(command.spawn());
                }
            })?;
        Ok(Spawner { requests })
    }

    fn spawn(&self, command: Command) -> io::Result<Child> {
        let (reply, answer) = mpsc::channel();
        self.requests
            .send((command, reply))
            .map_err(|_| io::Error::other("the sandbox's spawner thread is gone"))?;
        answer
            .recv()
            .map_err(|_| io::Error::other("the sandbox's spawner thread is gone"))?
    }
}
