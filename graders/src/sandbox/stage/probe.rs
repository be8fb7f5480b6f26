//! Stage `probe`: does, once, in a throwaway process, every kernel-facing step a job needs
//! (namespaces, uid drop, unprivileged user namespace, Landlock, seccomp) and prints
//! `ok landlock=<abi>` or `missing <what>: <error>`.

use nix::sched::{CloneFlags, unshare};
use nix::unistd::{Gid, Uid, setgroups, setresgid, setresuid};

use crate::sandbox::spec::Syscalls;
use crate::sandbox::{landlock, seccomp};

pub(crate) const OK: &str = "ok landlock=";
pub(crate) const MISSING: &str = "missing ";

pub(crate) fn main(payload: &str) -> i32 {
    super::close_inherited_descriptors();
    match check(payload) {
        Ok(abi) => {
            println!("{OK}{abi}");
            0
        }
        Err(what) => {
            println!("{MISSING}{what}");
            1
        }
    }
}

fn check(payload: &str) -> Result<i32, String> {
    let id: u32 = payload
        .parse()
        .map_err(|_| format!("probe uid {payload:?}"))?;
    let flags = CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS;
    unshare(flags).map_err(|e| format!("mount/pid/net/ipc/uts namespaces: {e}"))?;
    let (uid, gid) = (Uid::from_raw(id), Gid::from_raw(id));
    setgroups(&[])
        .and_then(|()| setresgid(gid, gid, gid))
        .and_then(|()| setresuid(uid, uid, uid))
        .map_err(|e| format!("dropping to uid {id} (are we root?): {e}"))?;
    unshare(CloneFlags::CLONE_NEWUSER).map_err(|e| format!("unprivileged user namespaces: {e}"))?;
    let abi = landlock::restrict(&[])?;
    seccomp::install(&seccomp::program(Syscalls::Run, None)?)?;
    Ok(abi)
}
