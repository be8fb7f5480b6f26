//! The sandbox's filesystem, built by the `inner` stage (root, in the job's private mount
//! namespace): a small read-only tmpfs root holding only the profile's mounts, pivoted into;
//! the host's root is detached, so nothing else is reachable even by path tricks.

use std::fs;
use std::os::unix::fs::{PermissionsExt as _, symlink};
use std::path::{Path, PathBuf};

use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::unistd::{chdir, pivot_root};

use super::step;
use crate::sandbox::spec::{Mount, StageSpec};

const NONE: Option<&str> = None;

fn inside(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

fn mkdirs(path: &Path) -> Result<(), String> {
    step(
        fs::create_dir_all(path),
        &format!("mkdir {}", path.display()),
    )
}

/// Bind `host` at `target`, then remount to apply the flags (a bind mount ignores them on
/// creation). Not recursive: a submount of `host` could otherwise stay writable.
fn bind(host: &Path, target: &Path, writable: bool) -> Result<(), String> {
    let meta = step(fs::metadata(host), &format!("stat {}", host.display()))?;
    if meta.is_dir() {
        mkdirs(target)?;
    } else {
        mkdirs(target.parent().unwrap_or(target))?;
        step(
            fs::write(target, b""),
            &format!("create {}", target.display()),
        )?;
    }
    step(
        mount(Some(host), target, NONE, MsFlags::MS_BIND, NONE),
        &format!("bind {} at {}", host.display(), target.display()),
    )?;
    let mut flags = MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_NOSUID;
    flags |= MsFlags::MS_NODEV;
    flags |= if writable {
        MsFlags::MS_NOEXEC
    } else {
        MsFlags::MS_RDONLY
    };
    step(
        mount(NONE, target, NONE, flags, NONE),
        &format!("remount {}", target.display()),
    )
}

/// The root's own room: folders, mount points and symlinks.
const ROOT_BYTES: u64 = 1 << 20;

/// What the [`Mount::Copy`] files need in the root, a page more each for rounding.
fn copied_bytes(spec: &StageSpec) -> Result<u64, String> {
    let mut total = 0;
    for m in &spec.mounts {
        if let Mount::Copy { host, .. } = m {
            let meta = step(fs::metadata(host), &format!("stat {}", host.display()))?;
            total += meta.len() + 4096;
        }
    }
    Ok(total)
}

pub(super) fn build_root(spec: &StageSpec) -> Result<(), String> {
    let root = &spec.root_dir;
    // Nothing we mount may propagate back to the host.
    step(
        mount(NONE, "/", NONE, MsFlags::MS_REC | MsFlags::MS_PRIVATE, NONE),
        "make / private",
    )?;
    let root_flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    let root_size = format!("size={},mode=0755", ROOT_BYTES + copied_bytes(spec)?);
    step(
        mount(
            Some("tmpfs"),
            root,
            Some("tmpfs"),
            root_flags,
            Some(root_size.as_str()),
        ),
        "root tmpfs",
    )?;
    let hardened = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    for m in &spec.mounts {
        match m {
            Mount::Bind {
                host,
                inside: dst,
                writable,
            } => {
                bind(host, &inside(root, dst), *writable)?;
            }
            Mount::Copy { host, inside: dst } => {
                let dst = inside(root, dst);
                mkdirs(dst.parent().unwrap_or(root))?;
                step(
                    fs::copy(host, &dst),
                    &format!("copy {} to {}", host.display(), dst.display()),
                )?;
                step(
                    fs::set_permissions(&dst, fs::Permissions::from_mode(0o555)),
                    &format!("chmod {}", dst.display()),
                )?;
            }
            Mount::Tmpfs { inside: dst, bytes } => {
                let dst = inside(root, dst);
                mkdirs(&dst)?;
                let data = format!("size={bytes},mode=1777");
                step(
                    mount(
                        Some("tmpfs"),
                        &dst,
                        Some("tmpfs"),
                        hardened,
                        Some(data.as_str()),
                    ),
                    &format!("tmpfs {}", dst.display()),
                )?;
            }
            Mount::Proc { inside: dst } => {
                // Own pid namespace's procfs; `hidepid=invisible` shows each uid only its own
                // processes (not init, not the helpers); `subset=pid` drops everything that
                // is not a process (sysctls, kernel and hardware information).
                let dst = inside(root, dst);
                mkdirs(&dst)?;
                step(
                    mount(
                        Some("proc"),
                        &dst,
                        Some("proc"),
                        hardened,
                        Some("hidepid=invisible,subset=pid"),
                    ),
                    "proc",
                )?;
            }
            Mount::Device { host, inside: dst } => {
                let dst = inside(root, dst);
                bind(host, &dst, true)?;
                // `bind` made it nodev; a device node is useless so: remount without.
                let flags = MsFlags::MS_BIND
                    | MsFlags::MS_REMOUNT
                    | MsFlags::MS_NOSUID
                    | MsFlags::MS_NOEXEC;
                step(
                    mount(NONE, &dst, NONE, flags, NONE),
                    &format!("remount device {}", dst.display()),
                )?;
            }
            Mount::ProcWithDriver { inside: dst } => {
                let dst = inside(root, dst);
                mkdirs(&dst)?;
                step(
                    mount(
                        Some("proc"),
                        &dst,
                        Some("proc"),
                        hardened,
                        Some("hidepid=invisible"),
                    ),
                    "proc",
                )?;
            }
            Mount::Symlink {
                target,
                inside: dst,
            } => {
                let dst = inside(root, dst);
                mkdirs(dst.parent().unwrap_or(root))?;
                step(symlink(target, &dst), &format!("symlink {}", dst.display()))?;
            }
        }
    }
    // pivot_root(new, new) stacks the old root on top of the new one; detaching it leaves
    // the new root alone.
    step(chdir(root), "chdir to new root")?;
    step(pivot_root(".", "."), "pivot_root")?;
    step(umount2(".", MntFlags::MNT_DETACH), "detach old root")?;
    step(chdir("/"), "chdir /")?;
    let ro = MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY | MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
    step(mount(NONE, "/", NONE, ro, NONE), "remount / read-only")
}
