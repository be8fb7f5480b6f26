//! Host directories a sandbox writes into, handled without ever following what the sandbox
//! may have planted there (Judge0 CVE-2024-28185/28189: a symlink named like the output made
//! the trusted side read or write through it).
//!
//! - Names are single path components; the directory itself was made by us in a root-owned
//!   parent, so only the last component is sandbox-controlled.
//! - Files are opened `O_NOFOLLOW | O_NONBLOCK` (a symlink fails, a fifo does not block),
//!   then must be a regular file within the size limit (checked on the open descriptor).
//! - Hard links to files outside cannot be made: nothing else of that filesystem is visible
//!   inside, and `link` across mounts fails anyway.
//! - Removal is [`remove_tree`](super::remove_tree::remove_tree): flat (no recursion, however
//!   deep the tree), bounded, and it unlinks symlinks instead of following them.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use nix::libc;

use super::{SandboxError, Slot};

/// A fresh directory for one compile job, removed (safely) on drop.
#[derive(Debug)]
pub struct BuildDir {
    path: PathBuf,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

impl BuildDir {
    /// Creates `parent/build-<pid>-<n>` (mode 0755, owned by us). `parent` must be a
    /// directory no sandbox can write.
    pub fn new_in(parent: &Path) -> Result<BuildDir, SandboxError> {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = parent.join(format!("build-{}-{n}", std::process::id()));
        fs::DirBuilder::new()
            .mode(0o755)
            .create(&path)
            .map_err(|e| SandboxError::io(format!("create {}", path.display()), e))?;
        Ok(BuildDir { path })
    }

    /// Creates `parent/build-<slot name>` for a job run in `slot`, after removing the one a
    /// previous holder of the slot may have left when it died. Drop it before the slot: once
    /// the slot is released, its next holder owns that name.
    pub fn for_slot(parent: &Path, slot: &Slot<'_>) -> Result<BuildDir, SandboxError> {
        let path = parent.join(format!("build-{}", slot.name()));
        if fs::symlink_metadata(&path).is_ok() {
            drop(BuildDir { path: path.clone() });
        }
        fs::DirBuilder::new()
            .mode(0o755)
            .create(&path)
            .map_err(|e| SandboxError::io(format!("create {}", path.display()), e))?;
        Ok(BuildDir { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes a new file (e.g. the learner's source) before the job runs.
    pub fn write(&self, name: &str, contents: &[u8]) -> Result<(), SandboxError> {
        let path = self.path.join(single_component(&self.path, name)?);
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .and_then(|mut f| f.write_all(contents))
            .map_err(|e| SandboxError::io(format!("write {}", path.display()), e))
    }

    /// Reads a file the job wrote; see [`read_output`].
    pub fn read(&self, name: &str, max_bytes: u64) -> Result<Vec<u8>, SandboxError> {
        read_output(&self.path, name, max_bytes)
    }

    /// Copies a file the job wrote to `dest` (a trusted path, replaced if present) with
    /// `mode`, e.g. a compiled binary to run next with `Profile::Run`.
    pub fn copy_out(
        &self,
        name: &str,
        dest: &Path,
        max_bytes: u64,
        mode: u32,
    ) -> Result<(), SandboxError> {
        let bytes = self.read(name, max_bytes)?;
        let _ = fs::remove_file(dest);
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(libc::O_NOFOLLOW)
            .open(dest)
            .and_then(|mut f| f.write_all(&bytes))
            .map_err(|e| SandboxError::io(format!("write {}", dest.display()), e))
    }
}

/// More entries than any compile writes; a tree past this is left for the operator.
const MAX_REMOVED_ENTRIES: usize = 1_000_000;

impl Drop for BuildDir {
    fn drop(&mut self) {
        if let Err(e) = super::remove_tree::remove_tree(&self.path, MAX_REMOVED_ENTRIES) {
            tracing::warn!("left {} behind: {e}", self.path.display());
        }
    }
}

fn single_component<'a>(dir: &Path, name: &'a str) -> Result<&'a str, SandboxError> {
    let mut parts = Path::new(name).components();
    match (parts.next(), parts.next()) {
        (Some(Component::Normal(_)), None) => Ok(name),
        _ => Err(SandboxError::UnsafeOutput {
            path: dir.join(name),
            reason: "name must be a single path component".into(),
        }),
    }
}

/// Reads `dir/name`, which a sandbox may have written, without following a symlink, without
/// blocking on a fifo, and only if it is a regular file of at most `max_bytes`.
pub fn read_output(dir: &Path, name: &str, max_bytes: u64) -> Result<Vec<u8>, SandboxError> {
    let path = dir.join(single_component(dir, name)?);
    let refuse = |reason: String| SandboxError::UnsafeOutput {
        path: path.clone(),
        reason,
    };
    let file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => refuse("it is a symlink".into()),
            _ => refuse(e.to_string()),
        })?;
    let meta = file.metadata().map_err(|e| refuse(e.to_string()))?;
    if !meta.is_file() {
        return Err(refuse("not a regular file".into()));
    }
    if meta.len() > max_bytes {
        return Err(refuse(format!(
            "{} bytes, more than {max_bytes}",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    // The size can still grow after the check if something holds the file open: cap it.
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(e.to_string()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(refuse(format!("grew beyond {max_bytes} bytes")));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_symlinks_fifos_dirs_and_big_files() {
        let parent = tempfile::tempdir().expect("tempdir");
        let dir = BuildDir::new_in(parent.path()).expect("build dir");
        let secret = parent.path().join("secret");
        fs::write(&secret, "top secret").expect("secret");
        std::os::unix::fs::symlink(&secret, dir.path().join("out")).expect("symlink");
        let err = dir.read("out", 1 << 20).expect_err("symlink followed");
        assert!(err.to_string().contains("symlink"), "{err}");

        nix::unistd::mkfifo(&dir.path().join("fifo"), nix::sys::stat::Mode::S_IRWXU).expect("fifo");
        assert!(dir.read("fifo", 10).is_err());
        fs::create_dir(dir.path().join("sub")).expect("sub");
        assert!(dir.read("sub", 10).is_err());
        assert!(dir.read("../secret", 100).is_err());

        dir.write("main.rs", b"fn main() {}").expect("write");
        assert_eq!(dir.read("main.rs", 100).expect("read"), b"fn main() {}");
        assert!(dir.read("main.rs", 3).is_err());
        assert!(
            dir.write("out", b"x").is_err(),
            "write through a planted symlink"
        );

        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(!path.exists());
        assert_eq!(
            fs::read_to_string(&secret).expect("secret kept"),
            "top secret"
        );
    }
}
