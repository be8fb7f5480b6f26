//! cgroup v2: one unified directory per job, controllers enabled from the root down.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{GroupLimits, GroupStats, mkdir, read_key, read_u64, write};
use crate::sandbox::SandboxError;

const CONTROLLERS: [&str; 3] = ["memory", "pids", "cpu"];

#[derive(Debug)]
pub(crate) struct Driver {
    parent: PathBuf,
}

impl Driver {
    pub fn new(root: &Path, prefix: &str) -> Result<Driver, SandboxError> {
        let available = fs::read_to_string(root.join("cgroup.controllers")).unwrap_or_default();
        let missing: Vec<&str> = CONTROLLERS
            .iter()
            .copied()
            .filter(|c| !available.split_whitespace().any(|a| a == *c))
            .collect();
        if !missing.is_empty() {
            return Err(SandboxError::Unsupported(format!(
                "cgroup2 at {} lacks the controllers {}",
                root.display(),
                missing.join(", ")
            )));
        }
        let enable = CONTROLLERS.map(|c| format!("+{c}")).join(" ");
        // Enable for our parent group, then for its children (the jobs). The parent holds no
        // processes itself, as v2's "no internal processes" rule requires.
        write(&root.join("cgroup.subtree_control"), &enable)?;
        let parent = root.join(prefix);
        mkdir(&parent)?;
        write(&parent.join("cgroup.subtree_control"), &enable)?;
        Ok(Driver { parent })
    }
}

impl super::Driver for Driver {
    fn describe(&self) -> String {
        format!("cgroup v2 ({})", CONTROLLERS.join(", "))
    }

    fn create(
        &self,
        name: &str,
        limits: GroupLimits,
    ) -> Result<Box<dyn super::Group>, SandboxError> {
        let dir = self.parent.join(name);
        mkdir(&dir)?;
        let configured = configure(&dir, limits);
        if configured.is_err() {
            let _ = fs::remove_dir(&dir);
        }
        configured.map(|()| Box::new(Group { dir }) as Box<dyn super::Group>)
    }

    fn open(&self, name: &str) -> Box<dyn super::Group> {
        Box::new(Group {
            dir: self.parent.join(name),
        })
    }
}

fn configure(dir: &Path, limits: GroupLimits) -> Result<(), SandboxError> {
    write(&dir.join("memory.max"), &limits.memory_bytes.to_string())?;
    // Absent without swap support; where present, no swap.
    let swap = dir.join("memory.swap.max");
    if swap.exists() {
        write(&swap, "0")?;
    }
    write(&dir.join("pids.max"), &limits.pids.to_string())
}

#[derive(Debug)]
pub(crate) struct Group {
    dir: PathBuf,
}

impl super::Group for Group {
    fn procs_files(&self) -> Vec<PathBuf> {
        vec![self.dir.join("cgroup.procs")]
    }

    fn dirs(&self) -> Vec<PathBuf> {
        vec![self.dir.clone()]
    }

    fn cpu(&self) -> Duration {
        Duration::from_micros(read_key(&self.dir.join("cpu.stat"), "usage_usec"))
    }

    fn stats(&self) -> GroupStats {
        let events = self.dir.join("memory.events");
        GroupStats {
            peak_memory_bytes: read_u64(&self.dir.join("memory.peak")),
            oom_kills: read_key(&events, "oom_kill"),
            pids_refused: read_key(&self.dir.join("pids.events"), "max"),
            cpu: self.cpu(),
        }
    }

    fn kill_native(&self) {
        let _ = fs::write(self.dir.join("cgroup.kill"), "1");
    }

    fn set_limits(&self, limits: GroupLimits) -> Result<(), SandboxError> {
        configure(&self.dir, limits)
    }
}

/// The v2 path cannot run on this project's machines (cgroup v1 only), so its file writes and
/// reads are checked against a fake hierarchy in a temporary directory.
#[cfg(test)]
mod tests {
    use super::super::{GroupLimits, member_pids};
    use super::*;

    fn fake_root() -> tempfile::TempDir {
        let root = tempfile::tempdir().expect("tempdir");
        fs::write(
            root.path().join("cgroup.controllers"),
            "cpuset cpu io memory pids\n",
        )
        .expect("controllers");
        root
    }

    #[test]
    fn creates_parent_and_job_groups_with_limits() {
        let root = fake_root();
        let driver = super::super::detect(root.path(), "kata").expect("detect");
        assert_eq!(driver.describe(), "cgroup v2 (memory, pids, cpu)");
        let read = |p: &str| fs::read_to_string(root.path().join(p)).expect(p);
        assert_eq!(read("cgroup.subtree_control"), "+memory +pids +cpu");
        assert_eq!(read("kata/cgroup.subtree_control"), "+memory +pids +cpu");

        fs::create_dir(root.path().join("kata/job-1")).expect("mkdir");
        fs::write(root.path().join("kata/job-1/memory.swap.max"), "max").expect("swap");
        let group = driver
            .create(
                "job-1",
                GroupLimits {
                    memory_bytes: 256 << 20,
                    pids: 34,
                },
            )
            .expect("create");
        assert_eq!(read("kata/job-1/memory.max"), "268435456");
        assert_eq!(read("kata/job-1/memory.swap.max"), "0");
        assert_eq!(read("kata/job-1/pids.max"), "34");
        assert_eq!(
            group.procs_files(),
            vec![root.path().join("kata/job-1/cgroup.procs")]
        );

        group.kill_native();
        assert_eq!(read("kata/job-1/cgroup.kill"), "1");
        fs::write(root.path().join("kata/job-1/cgroup.procs"), "").expect("procs");
        assert!(member_pids(group.as_ref()).is_empty());
    }

    #[test]
    fn reads_stats_from_v2_files() {
        let root = fake_root();
        let driver = super::super::detect(root.path(), "kata").expect("detect");
        let group = driver
            .create(
                "j",
                GroupLimits {
                    memory_bytes: 1,
                    pids: 1,
                },
            )
            .expect("create");
        let dir = root.path().join("kata/j");
        fs::write(dir.join("memory.peak"), "4096\n").expect("peak");
        fs::write(
            dir.join("memory.events"),
            "low 0\nhigh 0\nmax 7\noom 1\noom_kill 1\n",
        )
        .expect("events");
        fs::write(dir.join("pids.events"), "max 3\n").expect("pids");
        fs::write(dir.join("cpu.stat"), "usage_usec 1500\nuser_usec 1000\n").expect("cpu");
        let stats = group.stats();
        assert_eq!(stats.peak_memory_bytes, 4096);
        assert_eq!(stats.oom_kills, 1);
        assert_eq!(stats.pids_refused, 3);
        assert_eq!(stats.cpu, Duration::from_micros(1500));
    }

    #[test]
    fn names_missing_controllers() {
        let root = tempfile::tempdir().expect("tempdir");
        fs::write(root.path().join("cgroup.controllers"), "cpu io\n").expect("controllers");
        let err = super::super::detect(root.path(), "kata").expect_err("must refuse");
        assert!(err.to_string().contains("memory, pids"), "{err}");
    }
}
