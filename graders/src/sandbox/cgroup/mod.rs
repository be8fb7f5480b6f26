//! cgroups: one group per job, limiting memory and pids and accounting CPU for the whole
//! process tree. v1 and v2 are sibling implementations of [`Driver`] (the hierarchy) and
//! [`Group`] (one job's group); the rest of the sandbox sees only the traits.
//!
//! The first helper writes its own pid into every `cgroup.procs` before it creates any other
//! process, so every descendant is inside from birth (same for v1 and v2).

mod v1;
mod v2;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use super::SandboxError;

/// Limits written into a job's group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GroupLimits {
    pub memory_bytes: u64,
    pub pids: u64,
}

/// What a group recorded, read after the job ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupStats {
    pub peak_memory_bytes: u64,
    pub oom_kills: u64,
    pub pids_refused: u64,
    pub cpu: Duration,
}

/// A cgroup hierarchy with a parent group for our jobs.
pub(crate) trait Driver: fmt::Debug + Send + Sync {
    /// For start-up logs, e.g. `cgroup v1 (memory, pids, cpuacct)`.
    fn describe(&self) -> String;
    /// Creates the job group `name` with `limits` applied.
    fn create(&self, name: &str, limits: GroupLimits) -> Result<Box<dyn Group>, SandboxError>;
    /// Existing job group `name` (for cleaning up after a crashed supervisor).
    fn open(&self, name: &str) -> Box<dyn Group>;
}

/// One job's group (in v1: one directory per controller).
pub(crate) trait Group: fmt::Debug + Send {
    /// Files a process writes its pid into to join.
    fn procs_files(&self) -> Vec<PathBuf>;
    /// Directories to remove once the group is empty.
    fn dirs(&self) -> Vec<PathBuf>;
    /// CPU used so far by every process that was ever in the group.
    fn cpu(&self) -> Duration;
    fn stats(&self) -> GroupStats;
    /// Kernel-side kill of every member where the hierarchy has one (v2 `cgroup.kill`).
    fn kill_native(&self) {}
    /// Replaces the limits the group was created with (a chain's start-up ones by the job's).
    fn set_limits(&self, limits: GroupLimits) -> Result<(), SandboxError>;
}

/// Picks the hierarchy the host uses: cgroup2 when `root` is a cgroup2 mount, else the v1
/// controllers mounted under `root/<controller>`. Errors name what is missing.
pub(crate) fn detect(root: &Path, prefix: &str) -> Result<Box<dyn Driver>, SandboxError> {
    if root.join("cgroup.controllers").exists() {
        Ok(Box::new(v2::Driver::new(root, prefix)?))
    } else {
        Ok(Box::new(v1::Driver::new(root, prefix)?))
    }
}

/// Every pid listed in any of the group's `cgroup.procs`.
pub(crate) fn member_pids(group: &dyn Group) -> Vec<i32> {
    let mut pids: Vec<i32> = group
        .procs_files()
        .iter()
        .filter_map(|f| fs::read_to_string(f).ok())
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| l.trim().parse().ok())
                .collect::<Vec<_>>()
        })
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

/// SIGKILLs every member until the group is empty. Looping matters: a fork bomb's children
/// outlive their parent, and a member may fork between our read and our kill. (v1 only knows
/// pids: a pid that exits and is reused between the read and the kill would be hit; with
/// `pid_max` in the millions that window is theoretical. v2 kills in the kernel.)
pub(crate) fn kill_all(group: &dyn Group) -> Result<(), SandboxError> {
    let give_up = Instant::now() + Duration::from_secs(5);
    loop {
        group.kill_native();
        let pids = member_pids(group);
        if pids.is_empty() {
            return Ok(());
        }
        if Instant::now() > give_up {
            return Err(SandboxError::io(
                "killing the job's processes",
                io::Error::other(format!("still running after 5 s: {pids:?}")),
            ));
        }
        for pid in pids {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        sleep(Duration::from_millis(1));
    }
}

/// Kills what is left, then removes the group (`rmdir` succeeds only once it is empty and
/// the kernel has finished tearing the members down, which takes from nothing to a few
/// milliseconds after a job: the waits start short and grow).
pub(crate) fn destroy(group: &dyn Group) -> Result<(), SandboxError> {
    kill_all(group)?;
    let give_up = Instant::now() + Duration::from_secs(1);
    for dir in group.dirs() {
        let mut wait = Duration::from_micros(50);
        loop {
            match fs::remove_dir(&dir) {
                Ok(()) => break,
                Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                Err(e) if Instant::now() > give_up => return Err(SandboxError::cgroup(dir, e)),
                Err(_) => {
                    sleep(wait);
                    wait = (wait * 2).min(Duration::from_millis(2));
                }
            }
        }
    }
    Ok(())
}

fn write(path: &Path, value: &str) -> Result<(), SandboxError> {
    fs::write(path, value).map_err(|e| SandboxError::cgroup(path, e))
}

fn mkdir(path: &Path) -> Result<(), SandboxError> {
    match fs::create_dir(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(SandboxError::cgroup(path, e)),
    }
}

fn read_u64(path: &Path) -> u64 {
    fs::read_to_string(path)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// `key`'s value in a flat-keyed file (`memory.events`, `pids.events`, `cpu.stat`, ...).
fn read_key(path: &Path, key: &str) -> u64 {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(' '))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(0)
}
