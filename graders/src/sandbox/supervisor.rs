//! [`Sandbox`]: probes the host once, then runs jobs, each in its own host-wide slot (uid,
//! cgroup, status file). Safe to share between threads.

use std::fs::{self, DirBuilder};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt, lchown};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use nix::libc;

use super::cgroup::{self, Driver, GroupLimits};
use super::chain::{Chain, HELPERS, Spawner};
use super::layout::{layout, validate};
use super::pump::{pump, stop};
use super::slots::{Parked, Slot, SlotPool, kill_uid};
use super::spec::{Rlimits, StageSpec};
use super::status::StatusReport;
use super::toolchain::Toolchain;
use super::{
    ExitStatus, Job, LimitHit, Outcome, Profile, SandboxConfig, SandboxError, Watch, probe,
};

/// A measurement's nice value: the lowest priority there is. Its instruction count is the
/// same whenever it runs, so it takes only the CPU that no verdict wants.
const MEASURE_NICENESS: i32 = 19;

#[derive(Debug)]
pub struct Sandbox {
    config: SandboxConfig,
    cgroups: Box<dyn Driver>,
    landlock_abi: i32,
    slots: SlotPool,
    toolchain: OnceLock<Result<Toolchain, String>>,
    spawner: Spawner,
    /// At most one slot kept between jobs with the next job's chain started in it.
    parked: Mutex<Option<Parked>>,
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
            spawner: Spawner::new().map_err(|e| SandboxError::io("start the spawner thread", e))?,
            parked: Mutex::new(None),
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

    /// The slot kept with a chain waiting in it, if there is one; else waits for a free
    /// host-wide slot and takes it. If its previous holder did not finish cleanly (it died, or
    /// its clean-up failed), first kills every process of the slot's uid and removes the slot's
    /// cgroup and status file: holding the lock means nobody else uses them now. A caller that
    /// needs a folder named by the slot (see [`BuildDir::for_slot`](super::BuildDir::for_slot))
    /// takes the slot first and runs its job with [`run_in`](Sandbox::run_in).
    pub fn slot(&self) -> Result<Slot<'_>, SandboxError> {
        if let Some(parked) = self.take_parked() {
            return Ok(self.slots.resume(parked));
        }
        let mut slot = self.slots.acquire()?;
        self.clean(&mut slot)?;
        Ok(slot)
    }

    /// `n` slots at once, for jobs that must run side by side (the ranks of a rank kata).
    /// Callers in this process take their sets one at a time, so two of them never each hold
    /// part of a set while waiting for the rest.
    pub fn slots(&self, n: usize) -> Result<Vec<Slot<'_>>, SandboxError> {
        static TAKING: Mutex<()> = Mutex::new(());
        let _one_at_a_time = TAKING.lock().unwrap_or_else(PoisonError::into_inner);
        (0..n).map(|_| self.slot()).collect()
    }

    /// Starts the helpers of a job to come in a free slot and keeps both, unless one is kept
    /// already or no slot is free right now. Jobs call it as they start, so the next job finds
    /// its chain ready; a failure here only means the next job starts its own.
    fn warm_up(&self) {
        if self.lock_parked().is_some() {
            return;
        }
        let Ok(Some(mut slot)) = self.slots.try_acquire() else {
            return;
        };
        if self.clean(&mut slot).is_err() {
            return;
        }
        let Ok(chain) = self.start_chain(&mut slot) else {
            return;
        };
        let Some(parked) = slot.park(chain) else {
            return;
        };
        let mut kept = self.lock_parked();
        if kept.is_none() {
            *kept = Some(parked);
        } else {
            // Another thread kept one meanwhile: this one goes.
            drop(kept);
            drop(self.slots.resume(parked));
        }
    }

    fn take_parked(&self) -> Option<Parked> {
        self.lock_parked().take()
    }

    fn lock_parked(&self) -> std::sync::MutexGuard<'_, Option<Parked>> {
        // An `Option` stays consistent even if a holder panicked.
        self.parked.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn start_chain(&self, slot: &mut Slot<'_>) -> Result<Chain, SandboxError> {
        let name = slot.name();
        // Clean again only once the chain is undone.
        slot.dirty = true;
        Chain::start(
            &self.spawner,
            &self.config.stage_exe,
            self.cgroups.as_ref(),
            self.status_file(&name),
            &name,
        )
    }

    /// Removes what the slot's previous holder left, if it did not finish cleanly.
    fn clean(&self, slot: &mut Slot<'_>) -> Result<(), SandboxError> {
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
        Ok(())
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
            Profile::Run { .. }
            | Profile::Gpu { .. }
            | Profile::Measure { .. }
            | Profile::Tool { .. } => None,
        };
        let layout = layout(job, toolchain)?;
        let mut chain = match slot.chain.take() {
            Some(mut warm) => {
                if warm.alive() {
                    warm
                } else {
                    warm.discard()?;
                    self.start_chain(slot)?
                }
            }
            None => self.start_chain(slot)?,
        };
        let uid = slot.uid();
        if let Profile::Compile { build_dir, .. }
        | Profile::Tool {
            work_dir: build_dir,
            ..
        } = &job.profile
        {
            lchown(build_dir, Some(uid), Some(uid))
                .map_err(|e| SandboxError::io(format!("chown {}", build_dir.display()), e))?;
            chain.state.build_dir = Some(build_dir.clone());
        }
        let limits = &job.limits;
        let pids = u64::from(limits.pids) + HELPERS;
        let group = chain.state.group.as_ref();
        group.set_limits(GroupLimits {
            memory_bytes: limits.memory_bytes,
            pids,
        })?;
        // What the helpers used while they waited is not the job's.
        let cpu_before = group.cpu();
        let feed = watch.feed();
        let spec = StageSpec {
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
            niceness: match job.profile {
                Profile::Measure { .. } => MEASURE_NICENESS,
                _ => 0,
            },
            interactive: feed.is_some(),
            cwd: job.cwd.clone(),
            argv: job.argv.clone(),
            env: job.env.iter().cloned().chain(layout.env).collect(),
        };
        let mut stdin = spec.frame()?;
        stdin.extend_from_slice(&job.stdin);

        let child = &mut chain.child;
        // The next job's helpers start beside this one, off its path.
        let pumped = std::thread::scope(|s| {
            s.spawn(|| self.warm_up());
            pump(child, &stdin, feed, limits, group, cpu_before, watch)
        });
        let pumped = match pumped {
            Ok(p) => p,
            Err(e) => {
                let _ = stop(child, group);
                let _ = child.wait();
                return Err(e);
            }
        };
        // init's exit killed the namespace; anything else (a helper in mid-setup) goes now.
        cgroup::kill_all(group)?;
        let stats = group.stats();
        let cpu = stats.cpu.saturating_sub(cpu_before);
        let report = StatusReport::parse(
            &fs::read_to_string(&chain.state.status_file)
                .map_err(|e| SandboxError::io("read status file", e))?,
        );
        chain.state.finish()?;
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
            } else if killed && cpu >= limits.cpu {
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
            cpu,
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

impl Drop for Sandbox {
    fn drop(&mut self) {
        // The kept chain is killed and its slot marked free.
        if let Some(parked) = self.take_parked() {
            drop(self.slots.resume(parked));
        }
    }
}
