//! Stage `outer`: host pid namespace, host root. Puts the whole job into its cgroup and its
//! own namespaces.

use std::fs;

use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::Signal;

use super::{next_stage, step};
use crate::sandbox::spec::HelperSpec;
use crate::sandbox::status::StatusWriter;

pub(super) fn run(spec: &HelperSpec, payload: &str, _: &mut StatusWriter) -> Result<i32, String> {
    // First: join the group, so every process created from here on is limited and killable.
    let me = std::process::id().to_string();
    for procs in &spec.cgroup_procs {
        step(fs::write(procs, &me), &format!("join {}", procs.display()))?;
    }
    // Out of the OOM killer's way (inherited by init; the program's stage undoes it), so a
    // memory-hungry program is what gets killed and init can still report it. Best effort:
    // it needs CAP_SYS_RESOURCE, which some hosts withhold even from root; without it the
    // killer still prefers the program (the helpers are tiny), and if init dies instead the
    // job is reported killed by the memory limit all the same.
    let _ = fs::write("/proc/self/oom_score_adj", "-1000");
    // Die with the supervisor; no core files from any stage.
    step(prctl::set_pdeathsig(Signal::SIGKILL), "pdeathsig")?;
    step(setrlimit(Resource::RLIMIT_CORE, 0, 0), "rlimit core")?;
    // The user namespace comes last, in `inner`, after the uid drop: created unprivileged it
    // owns nothing.
    let flags = CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWNET
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS;
    step(unshare(flags), "unshare mount/pid/net/ipc/uts")?;
    // `init` becomes pid 1 of the new pid namespace; it records the program's status.
    step(next_stage("init", payload).status(), "spawn init")?;
    Ok(0)
}
