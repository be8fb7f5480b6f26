//! What the supervisor hands to the helper stages. Everything a stage does is decided here,
//! on the trusted side, in two parts: the slot's part ([`HelperSpec`], one command-line
//! argument, postcard bytes in hex), known before the job is, so the helpers can start early
//! (see `supervisor`'s warm chains); and the job's part ([`StageSpec`]), which the supervisor
//! writes as one length-prefixed frame at the head of the job's stdin, where the program's
//! stage reads exactly that frame and nothing of what follows.

use super::SandboxError;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The largest job frame a stage accepts (real ones are a few KiB).
pub(crate) const MAX_FRAME_BYTES: usize = 1 << 20;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct HelperSpec {
    /// Root-only host file the stages append their status lines to (see `status`).
    pub status_file: PathBuf,
    /// `cgroup.procs` files the first stage writes its pid into before creating anything.
    pub cgroup_procs: Vec<PathBuf>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct StageSpec {
    /// Empty host directory over which the sandbox root (a tmpfs) is mounted, inside the
    /// sandbox's private mount namespace only.
    pub root_dir: PathBuf,
    pub mounts: Vec<Mount>,
    pub landlock: Vec<(PathBuf, Access)>,
    pub syscalls: Syscalls,
    pub uid: u32,
    pub gid: u32,
    pub rlimits: Rlimits,
    /// The program's nice value (0, or 19 for a measurement: its count does not depend on
    /// when it runs, so it only takes CPU no verdict wants). It can never lower it again.
    #[serde(default)]
    pub niceness: i32,
    /// Leave stdin the supervisor's pipe, which it keeps writing to while the program runs
    /// (a rank's replies), instead of the request sealed into a file.
    #[serde(default)]
    pub interactive: bool,
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
    /// `host` copied into the read-only root at `inside` (mode 0555). Unlike a bind, its host
    /// path appears nowhere inside, not even in `/proc/self/mountinfo`; its pages count
    /// against the job's memory.
    Copy { host: PathBuf, inside: PathBuf },
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

impl HelperSpec {
    /// An error here is ours; an empty spec must never reach a helper as if it were one.
    pub fn encode(&self) -> Result<String, SandboxError> {
        let bytes = postcard::to_allocvec(self)
            .map_err(|e| SandboxError::InvalidJob(format!("encoding the helpers' spec: {e}")))?;
        Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    pub fn decode(hex: &str) -> Result<HelperSpec, String> {
        if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
            return Err("malformed helper spec".into());
        }
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|e| format!("malformed helper spec: {e}"))?;
        postcard::from_bytes(&bytes).map_err(|e| format!("malformed helper spec: {e}"))
    }
}

impl StageSpec {
    /// The frame: length (u32, little endian), then the postcard bytes.
    /// An error here is ours; an empty spec must never reach the stage as if it were one, and
    /// a length past `u32` would be cut silently.
    pub fn frame(&self) -> Result<Vec<u8>, SandboxError> {
        let bytes = postcard::to_allocvec(self)
            .map_err(|e| SandboxError::InvalidJob(format!("encoding the job's spec: {e}")))?;
        let len = u32::try_from(bytes.len()).map_err(|_| {
            SandboxError::InvalidJob(format!("a job spec of {} bytes is too long", bytes.len()))
        })?;
        let mut frame = len.to_le_bytes().to_vec();
        frame.extend_from_slice(&bytes);
        Ok(frame)
    }

    /// Reads one frame with `read` (one call per chunk, never beyond the frame's end).
    pub fn read_frame(
        mut read: impl FnMut(&mut [u8]) -> Result<usize, String>,
    ) -> Result<StageSpec, String> {
        let mut exact = |buf: &mut [u8]| -> Result<(), String> {
            let mut at = 0;
            while at < buf.len() {
                match read(&mut buf[at..])? {
                    0 => return Err("the job's spec ended early".into()),
                    n => at += n,
                }
            }
            Ok(())
        };
        let mut len = [0u8; 4];
        exact(&mut len)?;
        let len = u32::from_le_bytes(len) as usize;
        if len > MAX_FRAME_BYTES {
            return Err(format!("a job spec of {len} bytes"));
        }
        let mut bytes = vec![0u8; len];
        exact(&mut bytes)?;
        postcard::from_bytes(&bytes).map_err(|e| format!("malformed job spec: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let helpers = HelperSpec {
            status_file: "/run/x/1.status".into(),
            cgroup_procs: vec!["/sys/fs/cgroup/pids/a/cgroup.procs".into()],
        };
        assert_eq!(HelperSpec::decode(&helpers.encode().unwrap()), Ok(helpers));
        assert!(HelperSpec::decode("zz").is_err());
        let spec = StageSpec {
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
            niceness: 19,
            interactive: true,
            cwd: "/tmp".into(),
            argv: vec!["/prog".into(), "a b\u{1f}c".into()],
            env: vec![("K".into(), "v=w".into())],
        };
        // The frame is read in small pieces and not a byte beyond it.
        let mut stream = spec.frame().unwrap();
        stream.extend_from_slice(b"the program's stdin");
        let mut left = &stream[..];
        assert_eq!(StageSpec::read_frame(pieces(&mut left)), Ok(spec.clone()));
        assert_eq!(left, b"the program's stdin");
        let short = spec.frame().unwrap();
        let mut left = &short[..short.len() - 1];
        assert!(
            StageSpec::read_frame(pieces(&mut left)).is_err(),
            "a cut frame is refused"
        );
        let huge = u32::MAX.to_le_bytes();
        let mut left = &huge[..];
        assert!(
            StageSpec::read_frame(pieces(&mut left)).is_err(),
            "a huge length is refused"
        );
    }

    /// Reads from `left` at most 3 bytes a call, as a pipe may hand them over.
    fn pieces<'a>(left: &'a mut &[u8]) -> impl FnMut(&mut [u8]) -> Result<usize, String> + 'a {
        move |buf| {
            let n = buf.len().min(3).min(left.len());
            buf[..n].copy_from_slice(&left[..n]);
            *left = &left[n..];
            Ok(n)
        }
    }
}
