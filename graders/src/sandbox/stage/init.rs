//! Stage `init`: pid 1 of the job's pid namespace, root. Keeps the program off pid 1, where
//! default-action signals (SIGXCPU, SIGXFSZ, SIGABRT, ...) would be ignored and abort() would
//! end in a misleading SIGSEGV, and reaps orphans so zombies do not hold pids.
//!
//! The program cannot touch it: another uid, hidden from its /proc (`hidepid`), outside its
//! Landlock signal scope. When init exits, the kernel SIGKILLs the rest of the namespace.

use nix::errno::Errno;
use nix::sys::prctl;
use nix::sys::signal::Signal;
use nix::sys::wait::{WaitStatus, waitpid};
use nix::unistd::Pid;

use super::{next_stage, step};
use crate::sandbox::outcome::ExitStatus;
use crate::sandbox::spec::HelperSpec;
use crate::sandbox::status::StatusWriter;

pub(super) fn run(_: &HelperSpec, payload: &str, status: &mut StatusWriter) -> Result<i32, String> {
    step(prctl::set_pdeathsig(Signal::SIGKILL), "pdeathsig")?;
    let child = step(next_stage("inner", payload).spawn(), "spawn inner")?;
    let program = Pid::from_raw(child.id() as i32);
    // Reap everything; stop at the program's own end.
    loop {
        let end = match waitpid(None, None) {
            Ok(WaitStatus::Exited(pid, code)) if pid == program => ExitStatus::Exited(code),
            Ok(WaitStatus::Signaled(pid, sig, _)) if pid == program => {
                ExitStatus::Signaled(sig as i32)
            }
            Ok(_) | Err(Errno::EINTR) => continue,
            Err(e) => return Err(format!("wait: {e}")),
        };
        status.exited(end);
        return Ok(0);
    }
}
