//! cgroup v1: separate `memory`, `pids` and `cpuacct` hierarchies, one directory per job in
//! each.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Group as _, GroupLimits, GroupStats, mkdir, read_key, read_u64, write};
use crate::sandbox::SandboxError;

const CONTROLLERS: [&str; 3] = ["memory", "pids", "cpuacct"];

#[derive(Debug)]
pub(crate) struct Driver {
    /// `root/<controller>/<prefix>` for each of [`CONTROLLERS`].
    parents: [PathBuf; 3],
}

impl Driver {
    pub fn new(root: &Path, prefix: &str) -> Result<Driver, SandboxError> {
        let probe = [
            ("memory", "memory.limit_in_bytes"),
            ("pids", "cgroup.procs"),
            ("cpuacct", "cpuacct.usage"),
        ];
        let missing: Vec<&str> = probe
            .iter()
            .filter(|(c, f)| !root.join(c).join(f).exists())
            .map(|(c, _)| *c)
            .collect();
        if !missing.is_empty() {
            return Err(SandboxError::Unsupported(format!(
                "no cgroup2 at {0} and cgroup v1 controllers missing under {0}: {1}",
                root.display(),
                missing.join(", ")
            )));
        }
        // The pids controller's root group has no pids.max; ours will.
        let parents = CONTROLLERS.map(|c| root.join(c).join(prefix));
        for p in &parents {
            mkdir(p)?;
        }
        Ok(Driver { parents })
    }
}

impl super::Driver for Driver {
    fn describe(&self) -> String {
        format!("cgroup v1 ({})", CONTROLLERS.join(", "))
    }

    fn create(
        &self,
        name: &str,
        limits: GroupLimits,
    ) -> Result<Box<dyn super::Group>, SandboxError> {
        let group = self.group(name);
        let configured = configure(&group, limits);
        if configured.is_err() {
            for d in group.dirs() {
                let _ = std::fs::remove_dir(d);
            }
        }
        configured.map(|()| Box::new(group) as Box<dyn super::Group>)
    }

    fn open(&self, name: &str) -> Box<dyn super::Group> {
        Box::new(self.group(name))
    }
}

impl Driver {
    fn group(&self, name: &str) -> Group {
        let [memory, pids, cpuacct] = self.parents.clone().map(|p| p.join(name));
        Group {
            memory,
            pids,
            cpuacct,
        }
    }
}

fn configure(group: &Group, limits: GroupLimits) -> Result<(), SandboxError> {
    for d in group.dirs() {
        mkdir(&d)?;
    }
    apply(group, limits)
}

fn apply(group: &Group, limits: GroupLimits) -> Result<(), SandboxError> {
    let mem = limits.memory_bytes.to_string();
    // memsw exists only with swap accounting; where it does, swap must not extend the
    // limit. Either way swappiness 0 keeps the group's pages out of swap. The kernel refuses
    // a memsw limit below the memory limit, so a growing limit raises memsw first (a shrinking
    // one is refused there and set after).
    let memsw = group.memory.join("memory.memsw.limit_in_bytes");
    let has_memsw = memsw.exists();
    if has_memsw {
        let _ = write(&memsw, &mem);
    }
    write(&group.memory.join("memory.limit_in_bytes"), &mem)?;
    if has_memsw {
        write(&memsw, &mem)?;
    }
    let _ = write(&group.memory.join("memory.swappiness"), "0");
    write(&group.pids.join("pids.max"), &limits.pids.to_string())
}

#[derive(Debug)]
pub(crate) struct Group {
    memory: PathBuf,
    pids: PathBuf,
    cpuacct: PathBuf,
}

impl super::Group for Group {
    fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs().iter().map(|d| d.join("cgroup.procs")).collect()
    }

    fn dirs(&self) -> Vec<PathBuf> {
        vec![self.memory.clone(), self.pids.clone(), self.cpuacct.clone()]
    }

    fn cpu(&self) -> Duration {
        Duration::from_nanos(read_u64(&self.cpuacct.join("cpuacct.usage")))
    }

    fn set_limits(&self, limits: GroupLimits) -> Result<(), SandboxError> {
        apply(self, limits)
    }

    fn stats(&self) -> GroupStats {
        GroupStats {
            peak_memory_bytes: read_u64(&self.memory.join("memory.max_usage_in_bytes")),
            oom_kills: read_key(&self.memory.join("memory.oom_control"), "oom_kill"),
            pids_refused: read_key(&self.pids.join("pids.events"), "max"),
            cpu: self.cpu(),
        }
    }
}
