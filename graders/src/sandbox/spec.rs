//! The description the supervisor hands to the helper stages: one command-line argument,
//! postcard bytes in hex. Everything a stage does is decided here, on the trusted side.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct StageSpec {
    /// Root-only host file the stages append their status lines to (see `status`).
    pub status_file: PathBuf,
    /// `cgroup.procs` files the first stage writes its pid into before creating anything.
    pub cgroup_procs: Vec<PathBuf>,
    /// Empty host directory over which the sandbox root (a tmpfs) is mounted, inside the
    /// sandbox's private mount namespace only.
    pub root_dir: PathBuf,
    pub mounts: Vec<Mount>,
    pub landlock: Vec<(PathBuf, Access)>,
    pub syscalls: Syscalls,
    pub uid: u32,
    pub gid: u32,
    pub rlimits: Rlimits,
    pub cwd: PathBuf,
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) enum Mount {
    /// Bind `host` at `inside` (nosuid, nodev; read-only, or read-write and noexec).
    Bind {
        host: PathBuf,
        inside: PathBuf,
        writable: bool,
    },
    /// A fresh tmpfs (nosuid, nodev, noexec, mode 1777).
    Tmpfs { inside: PathBuf, bytes: u64 },
    /// procfs of the sandbox's pid namespace, showing only the caller's own processes.
    Proc { inside: PathBuf },
    /// `inside -> target`, recreating the host's merged-/usr links.
    Symlink { target: PathBuf, inside: PathBuf },
    /// A GPU device node bound at `inside`: read-write, nosuid, noexec, and (alone among the
    /// mounts) without nodev, or the device could not be opened.
    Device { host: PathBuf, inside: PathBuf },
    /// procfs as in `Proc` but without `subset=pid`: the NVIDIA driver library reads
    /// `/proc/driver/nvidia`. GPU runs only.
    ProcWithDriver { inside: PathBuf },
}

/// Landlock rights on one path inside the sandbox.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    ReadExec,
    /// Everything needed to create, write and remove files; never execute.
    ReadWrite,
    /// A device node: read, write and ioctl.
    Device,
}

/// Which seccomp allow-list the program gets.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) enum Syscalls {
    Run,
    Compile,
    /// Run plus what the CUDA driver and NVRTC use; threads, never processes.
    Gpu,
    /// Run plus what valgrind's tool uses to load and watch the program; threads, never
    /// processes.
    Measure,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct Rlimits {
    pub cpu_secs: u64,
    pub address_space: Option<u64>,
    pub file_bytes: u64,
    pub open_files: u64,
    pub processes: u64,
}

impl StageSpec {
    pub fn encode(&self) -> String {
        // Serializing plain data into a Vec cannot fail.
        let bytes = postcard::to_allocvec(self).unwrap_or_default();
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn decode(hex: &str) -> Result<StageSpec, String> {
        if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
            return Err("malformed stage spec".into());
        }
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|e| format!("malformed stage spec: {e}"))?;
        postcard::from_bytes(&bytes).map_err(|e| format!("malformed stage spec: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let spec = StageSpec {
            status_file: "/run/x/1.status".into(),
            cgroup_procs: vec!["/sys/fs/cgroup/pids/a/cgroup.procs".into()],
            root_dir: "/run/x/root".into(),
            mounts: vec![
                Mount::Bind {
                    host: "/bin/true".into(),
                    inside: "/prog".into(),
                    writable: false,
                },
                Mount::Tmpfs {
                    inside: "/tmp".into(),
                    bytes: 1 << 20,
                },
                Mount::Proc {
                    inside: "/proc".into(),
                },
                Mount::Symlink {
                    target: "usr/lib".into(),
                    inside: "/lib".into(),
                },
            ],
            landlock: vec![("/prog".into(), Access::ReadExec)],
            syscalls: Syscalls::Run,
            uid: 60_001,
            gid: 60_001,
            rlimits: Rlimits {
                cpu_secs: 3,
                address_space: None,
                file_bytes: 1,
                open_files: 2,
                processes: 4,
            },
            cwd: "/tmp".into(),
            argv: vec!["/prog".into(), "a b\u{1f}c".into()],
            env: vec![("K".into(), "v=w".into())],
        };
        assert_eq!(StageSpec::decode(&spec.encode()), Ok(spec));
        assert!(StageSpec::decode("zz").is_err());
    }
}
