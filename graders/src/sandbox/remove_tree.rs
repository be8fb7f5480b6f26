//! Removing a folder a sandbox could have filled, with constant stack and file descriptors.
//!
//! `std::fs::remove_dir_all` recurses once per level (measured: ~14 000 nested folders
//! overflow a 2 MiB stack and abort the whole process). Here every subfolder is first renamed
//! to the top of the tree, so the walk is flat: one folder open at a time, short names only
//! (no `ENAMETOOLONG` however deep the tree was), symlinks unlinked and never followed.

use std::os::fd::AsFd;
use std::path::Path;

use nix::dir::{Dir, Type};
use nix::errno::Errno;
use nix::fcntl::{OFlag, renameat};
use nix::sys::stat::Mode;
use nix::unistd::{UnlinkatFlags, unlinkat};

/// Removes `path` and everything below it. Best effort: gives up (leaving the rest) after
/// `max_entries` removals, so a sandbox cannot make its cleanup unbounded either.
pub(crate) fn remove_tree(path: &Path, max_entries: usize) -> Result<(), Errno> {
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let top = Dir::open(path, flags, Mode::empty())?;
    let mut pending: Vec<String> = Vec::new();
    let mut next_name = 0usize;
    let mut removed = 0usize;
    // The top's own entries first, then every folder moved up beside them.
    let mut current: Option<String> = None;
    loop {
        let mut dir = match &current {
            None => Dir::open(path, flags, Mode::empty())?,
            Some(name) => Dir::openat(top.as_fd(), name.as_str(), flags, Mode::empty())?,
        };
        let mut entries = Vec::new();
        for entry in dir.iter() {
            let entry = entry?;
            let name = entry.file_name().to_owned();
            if name.to_bytes() == b"." || name.to_bytes() == b".." {
                continue;
            }
            entries.push((name, entry.file_type()));
        }
        for (name, kind) in entries {
            removed += 1;
            if removed > max_entries {
                return Err(Errno::E2BIG);
            }
            let is_dir = match kind {
                Some(t) => t == Type::Directory,
                None => nix::sys::stat::fstatat(
                    dir.as_fd(),
                    name.as_c_str(),
                    nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
                )
                .is_ok_and(|st| st.st_mode & nix::libc::S_IFMT == nix::libc::S_IFDIR),
            };
            if is_dir {
                let moved = format!(".rm-{next_name}");
                next_name += 1;
                renameat(dir.as_fd(), name.as_c_str(), top.as_fd(), moved.as_str())?;
                pending.push(moved);
            } else {
                unlinkat(dir.as_fd(), name.as_c_str(), UnlinkatFlags::NoRemoveDir)?;
            }
        }
        drop(dir);
        if let Some(name) = current.take() {
            unlinkat(top.as_fd(), name.as_str(), UnlinkatFlags::RemoveDir)?;
        }
        match pending.pop() {
            Some(name) => current = Some(name),
            None => break,
        }
    }
    drop(top);
    std::fs::remove_dir(path).map_err(|e| Errno::from_raw(e.raw_os_error().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    #[test]
    fn removes_a_tree_deeper_than_any_stack_or_path() {
        let root = tempfile::tempdir().unwrap();
        let top = root.path().join("t");
        std::fs::create_dir(&top).unwrap();
        // 20 000 levels: remove_dir_all's recursion would need far more than this thread's
        // stack, and the full path far more than PATH_MAX.
        let mut dir = Dir::open(&top, OFlag::O_RDONLY | OFlag::O_DIRECTORY, Mode::empty()).unwrap();
        for i in 0..20_000 {
            nix::sys::stat::mkdirat(dir.as_fd(), "d", Mode::from_bits_truncate(0o700)).unwrap();
            if i % 1000 == 0 {
                nix::unistd::symlinkat("/etc", dir.as_fd(), "link").unwrap();
                std::fs::write(format!("/proc/self/fd/{}/f", dir.as_raw_fd()), b"x").unwrap();
            }
            dir = Dir::openat(
                dir.as_fd(),
                "d",
                OFlag::O_RDONLY | OFlag::O_DIRECTORY,
                Mode::empty(),
            )
            .unwrap();
        }
        drop(dir);
        remove_tree(&top, 1_000_000).unwrap();
        assert!(!top.exists());
        assert!(Path::new("/etc/passwd").exists(), "a symlink was followed");
    }

    #[test]
    fn stops_at_its_bound() {
        let root = tempfile::tempdir().unwrap();
        for i in 0..10 {
            std::fs::write(root.path().join(i.to_string()), b"").unwrap();
        }
        assert_eq!(remove_tree(root.path(), 5), Err(Errno::E2BIG));
    }
}
