//! [`Sandbox`]: probes the host once, then runs jobs, each in its own host-wide slot (uid,
//! cgroup, status file). Safe to share between threads.

use std::fs::{self, DirBuilder, OpenOptions};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt, lchown};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use nix::libc;

use super::cgroup::{self, Driver, Group, GroupLimits};
use super::layout::{layout, validate};
use super::pump::{pump, stop};
use super::slots::{Slot, SlotPool, kill_uid};
use super::spec::{Rlimits, StageSpec};
use super::stage::STAGE_ARG;
use super::status::StatusReport;
use super::toolchain::Toolchain;
use super::{
    ExitStatus, Job, LimitHit, Outcome, Profile, SandboxConfig, SandboxError, Watch, probe,
};

/// The two helpers (`outer`, `init`) live in the job's group too.
const HELPERS: u64 = 2;

#[derive(Debug)]
pub struct Sandbox {
    config: SandboxConfig,
    cgroups: Box<dyn Driver>,
    landlock_abi: i32,
    slots: SlotPool,
    toolchain: OnceLock<Result<Toolchain, String>>,
}

impl Sandbox {
    /// Probes the host once (root, cgroup v2 or v1 controllers, namespaces, unprivileged
    /// user namespaces, Landlock ABI, seccomp — the last ones by running the `probe` stage
    /// through `stage_exe`) and returns an error saying exactly what is missing if the
    /// sandbox cannot be enforced. Never silently degrades. (What a supervisor that died left
    /// is removed by the next holder of its slots: see [`slot`](Sandbox::slot).)
    pub fn new(config: SandboxConfig) -> Result<Sandbox, SandboxError> {
        probe::require_root()?;
        let slots = SlotPool::new(&config.slot_dir, config.uid_base, config.slots)?;
        let cgroups = cgroup::detect(&config.cgroup_root, &config.cgroup_prefix)?;
        let root_dir = config.state_dir.join("root");
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&root_dir)
            .map_err(|e| SandboxError::io(format!("create {}", root_dir.display()), e))?;
        fs::set_permissions(&config.state_dir, fs::Permissions::from_mode(0o700))
            .map_err(|e| SandboxError::io(format!("chmod {}", config.state_dir.display()), e))?;
        let mut sandbox = Sandbox {
            slots,
            config,
            cgroups,
            landlock_abi: 0,
            toolchain: OnceLock::new(),
        };
        // The probe drops to a job uid too, so it holds a slot like a job.
        sandbox.landlock_abi = {
            let mut slot = sandbox.slot()?;
            slot.dirty = true;
            let abi = probe::kernel(&sandbox.config.stage_exe, slot.uid())?;
            slot.dirty = false;
            abi
        };
        Ok(sandbox)
    }

    /// One line for start-up logs: what is enforced.
    pub fn describe(&self) -> String {
        format!(
            "{}, landlock ABI {}, seccomp allow-lists, namespaces user+pid+net+mount+ipc+uts, \
             uid {}+slot ({} host-wide slots in {})",
            self.cgroups.describe(),
            self.landlock_abi,
            self.config.uid_base,
            self.config.slots,
            self.config.slot_dir.display()
        )
    }

    /// The toolchain compile jobs get (resolved on first use, then cached — errors too).
    pub fn toolchain(&self) -> Result<&Toolchain, SandboxError> {
        let resolved = self.toolchain.get_or_init(|| {
            Toolchain::detect(&self.config.rustc, self.config.linker.as_deref())
                .map_err(|e| e.to_string())
        });
        resolved
            .as_ref()
            .map_err(|e| SandboxError::Toolchain(e.clone()))
    }

    /// How this sandbox finds its compiler (`rustc` to ask, linker override), for records of
    /// what was prepared with it.
    pub fn compiler_choice(&self) -> (&Path, Option<&Path>) {
        (&self.config.rustc, self.config.linker.as_deref())
    }

    /// Uses `toolchain` for compile jobs instead of asking `rustc` (a grader start that found
    /// it recorded and still in place). `false` if a toolchain was already resolved.
    pub fn adopt_toolchain(&self, toolchain: Toolchain) -> bool {
        self.toolchain.set(Ok(toolchain)).is_ok()
    }

    /// Waits for a free host-wide slot and takes it. If its previous holder did not finish
    /// cleanly (it died, or its clean-up failed), first kills every process of the slot's uid
    /// and removes the slot's cgroup and status file: holding the lock means nobody else uses
    /// them now. A caller that needs a folder named by the slot (see
    /// [`BuildDir::for_slot`](super::BuildDir::for_slot)) takes the slot first and runs its
    /// job with [`run_in`](Sandbox::run_in).
    pub fn slot(&self) -> Result<Slot<'_>, SandboxError> {
        let mut slot = self.slots.acquire()?;
        if slot.dirty {
            let name = slot.name();
            kill_uid(slot.uid())?;
            cgroup::destroy(self.cgroups.open(&name).as_ref())?;
            match fs::remove_file(self.status_file(&name)) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(SandboxError::io("remove a stale status file", e)),
            }
            slot.dirty = false;
        }
        Ok(slot)
    }

    /// Runs one job to completion in a slot of its own. Safe to call concurrently from
    /// several threads and processes (a call waits while every host-wide slot is taken).
    /// `Err` only when our side failed; whatever the program does is an `Ok(Outcome)`.
    pub fn run(&self, job: &Job, watch: &mut dyn Watch) -> Result<Outcome, SandboxError> {
        validate(job)?;
        let mut slot = self.slot()?;
        self.run_in(&mut slot, job, watch)
    }

    /// Runs one job in `slot` (taken from this sandbox with [`slot`](Sandbox::slot)).
    pub fn run_in(
        &self,
        slot: &mut Slot<'_>,
        job: &Job,
        watch: &mut dyn Watch,
    ) -> Result<Outcome, SandboxError> {
        if !slot.belongs_to(&self.slots) {
            return Err(SandboxError::InvalidJob(
                "the slot was taken from another sandbox".into(),
            ));
        }
        validate(job)?;
        let toolchain = match job.profile {
            Profile::Compile { .. } => Some(self.toolchain()?),
            Profile::Run { .. } | Profile::Gpu { .. } | Profile::Measure { .. } => None,
        };
        let layout = layout(job, toolchain)?;
        let uid = slot.uid();
        let name = slot.name();
        // Clean again only once everything below is undone.
        slot.dirty = true;
        let mut job_state = JobState {
            status_file: self.status_file(&name),
            group: None,
            build_dir: None,
        };
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&job_state.status_file)
            .map_err(|e| SandboxError::io("create status file", e))?;
        if let Profile::Compile { build_dir, .. } = &job.profile {
            lchown(build_dir, Some(uid), Some(uid))
                .map_err(|e| SandboxError::io(format!("chown {}", build_dir.display()), e))?;
            job_state.build_dir = Some(build_dir.clone());
        }
        let limits = &job.limits;
        let pids = u64::from(limits.pids) + HELPERS;
        let group = job_state.group.insert(self.cgroups.create(
            &name,
            GroupLimits {
                memory_bytes: limits.memory_bytes,
                pids,
            },
        )?);
        let spec = StageSpec {
            status_file: job_state.status_file.clone(),
            cgroup_procs: group.procs_files(),
            root_dir: self.config.state_dir.join("root"),
            mounts: layout.mounts,
            landlock: layout.landlock,
            syscalls: layout.syscalls,
            uid,
            gid: uid,
            rlimits: Rlimits {
                // A backstop only: the group's CPU is checked every few ms and stops the
                // job first.
                cpu_secs: limits.cpu.as_secs() + 2,
                address_space: limits.address_space_bytes,
                file_bytes: limits.file_bytes,
                open_files: limits.open_files,
                // Above pids.max, so the group is what refuses (and reports) a fork.
                processes: 2 * pids,
            },
            cwd: job.cwd.clone(),
            argv: job.argv.clone(),
            env: job.env.clone(),
        };

        let mut child = Command::new(&self.config.stage_exe)
            .args([STAGE_ARG, "outer", &spec.encode()])
            .env_clear()
            // Its own process group: nothing inside can signal the supervisor's group.
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                SandboxError::io(format!("spawn {}", self.config.stage_exe.display()), e)
            })?;
        let pumped = match pump(&mut child, &job.stdin, limits, group.as_ref(), watch) {
            Ok(p) => p,
            Err(e) => {
                let _ = stop(&mut child, group.as_ref());
                let _ = child.wait();
                return Err(e);
            }
        };
        // init's exit killed the namespace; anything else (a helper in mid-setup) goes now.
        cgroup::kill_all(group.as_ref())?;
        let stats = group.stats();
        let report = StatusReport::parse(
            &fs::read_to_string(&job_state.status_file)
                .map_err(|e| SandboxError::io("read status file", e))?,
        );
        job_state.finish()?;
        slot.dirty = false;

        if let Some((stage, message)) = report.setup_error {
            return Err(SandboxError::Setup { stage, message });
        }
        let stopped_by_us = matches!(pumped.limit, Some(LimitHit::Wall | LimitHit::Deadline));
        if !report.exec_started && !stopped_by_us {
            let stderr: String = String::from_utf8_lossy(&pumped.stderr)
                .chars()
                .take(300)
                .collect();
            let oom = if stats.oom_kills > 0 {
                " (memory limit hit during setup)"
            } else {
                ""
            };
            return Err(SandboxError::Setup {
                stage: "sandbox".into(),
                message: format!(
                    "helpers ended before the program started: {}{oom}; stderr {stderr:?}",
                    pumped.exit
                ),
            });
        }
        // No status from init: the job was stopped, and init with it.
        let status = report
            .program
            .unwrap_or(ExitStatus::Signaled(libc::SIGKILL));
        let limit = pumped.limit.or_else(|| {
            let killed = matches!(status, ExitStatus::Signaled(libc::SIGKILL | libc::SIGXCPU));
            if stats.oom_kills > 0 {
                Some(LimitHit::Memory)
            } else if killed && stats.cpu >= limits.cpu {
                Some(LimitHit::Cpu)
            } else if status == ExitStatus::Signaled(libc::SIGXFSZ) {
                Some(LimitHit::FileSize)
            } else if stats.pids_refused > 0 {
                Some(LimitHit::Pids)
            } else {
                None
            }
        });
        Ok(Outcome {
            status,
            wall: pumped.wall,
            cpu: stats.cpu,
            peak_memory_bytes: stats.peak_memory_bytes,
            limit,
            stdout: pumped.stdout,
            stderr: pumped.stderr,
        })
    }

    fn status_file(&self, name: &str) -> PathBuf {
        self.config.state_dir.join(format!("{name}.status"))
    }
}

/// Host-side state of one job, undone on every path out of `run`.
struct JobState {
    status_file: PathBuf,
    group: Option<Box<dyn Group>>,
    /// The build dir, chowned to the job's uid while it runs.
    build_dir: Option<PathBuf>,
}

impl JobState {
    fn finish(&mut self) -> Result<(), SandboxError> {
        let mut result = Ok(());
        if let Some(group) = self.group.take() {
            result = cgroup::destroy(group.as_ref());
        }
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
