//! [`SandboxError`]: our side failed. Nothing the sandboxed program does produces one.

use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The host cannot enforce the sandbox; the message says what is missing.
    #[error("sandbox cannot be enforced on this host: {0}")]
    Unsupported(String),
    /// The job description is unusable (checked before anything runs).
    #[error("invalid sandbox job: {0}")]
    InvalidJob(String),
    /// A helper stage failed to build the sandbox (mount, cgroup join, rlimit, uid drop,
    /// Landlock, seccomp, execve of the program).
    #[error("sandbox setup failed in stage {stage}: {message}")]
    Setup { stage: String, message: String },
    /// A cgroup file or directory could not be created or written.
    #[error("cgroup {}: {source}", path.display())]
    Cgroup { path: PathBuf, source: io::Error },
    /// Other host-side I/O: state directory, status file, spawning the first helper.
    #[error("{context}: {source}")]
    Io { context: String, source: io::Error },
    /// The toolchain for compile jobs could not be located.
    #[error("toolchain: {0}")]
    Toolchain(String),
    /// A file a sandbox could write was not safe to read (symlink, not a regular file,
    /// too large) — see [`read_output`](super::read_output).
    #[error("refusing to read {}: {reason}", path.display())]
    UnsafeOutput { path: PathBuf, reason: String },
}

impl SandboxError {
    pub(crate) fn io(context: impl Into<String>, source: io::Error) -> SandboxError {
        SandboxError::Io {
            context: context.into(),
            source,
        }
    }

    pub(crate) fn cgroup(path: impl Into<PathBuf>, source: io::Error) -> SandboxError {
        SandboxError::Cgroup {
            path: path.into(),
            source,
        }
    }
}
