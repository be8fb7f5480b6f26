//! The helper stages. Each is the stage binary (`SandboxConfig::stage_exe`) re-executed with
//! `std::process::Command` and an empty environment, so every step runs in a fresh
//! single-threaded process and no `fork`/`pre_exec` (both `unsafe`) is needed.
//!
//! - `outer` (host pid namespace, root): joins the cgroup, unshares mount/pid/net/ipc/uts,
//!   spawns `init`.
//! - `init` (pid 1 of the new pid namespace, root): spawns `inner`, reaps every orphan,
//!   reports the program's exact wait status; when it exits the kernel kills the namespace.
//! - `inner` (pid 2, becomes the program): waits for the job's spec at the head of its stdin
//!   (the chain may be started before the job is known), takes the rest, the program's request,
//!   into a sealed in-memory file as the program's stdin, builds and pivots into the new root,
//!   sets rlimits, drops to the job uid, enters a fresh user namespace, applies Landlock and
//!   seccomp, then `execve`s the program with exactly the job's environment.
//! - `probe`: used once by `Sandbox::new` to check the kernel can do all of the above.

mod init;
mod inner;
mod mounts;
mod outer;
pub(crate) mod probe;

use std::ffi::OsString;

use super::spec::HelperSpec;
use super::status::StatusWriter;

/// `argv[1]` of a re-executed stage.
pub(crate) const STAGE_ARG: &str = "__infrakata_sandbox_stage";
/// Exit code of a stage that failed; the reason is in the status file.
const FAILED: i32 = 125;

/// Call first thing in every `main` that may host sandboxes (the `infrakata` binary, custom
/// test harnesses, bench mains). If this process was re-executed as a sandbox stage, it runs
/// the stage and never returns; otherwise returns immediately.
pub fn run_stage_if_requested() {
    let args: Vec<OsString> = std::env::args_os().skip(1).take(3).collect();
    if args.first().is_none_or(|a| a != STAGE_ARG) {
        return;
    }
    let stage = args.get(1).and_then(|s| s.to_str()).unwrap_or("");
    let payload = args.get(2).and_then(|s| s.to_str()).unwrap_or("");
    let code = match stage {
        "probe" => probe::main(payload),
        "outer" => with_spec("outer", payload, outer::run),
        "init" => with_spec("init", payload, init::run),
        "inner" => with_spec("inner", payload, inner::run),
        _ => {
            eprintln!("sandbox: unknown stage {stage:?}");
            FAILED
        }
    };
    std::process::exit(code);
}

type Stage = fn(&HelperSpec, &str, &mut StatusWriter) -> Result<i32, String>;

/// Decodes the spec, opens the status file and runs `stage`; a failure is recorded as a
/// `setup` line (stderr belongs to the program, so nothing is printed there).
fn with_spec(name: &str, payload: &str, stage: Stage) -> i32 {
    close_inherited_descriptors();
    let spec = match HelperSpec::decode(payload) {
        Ok(spec) => spec,
        Err(e) => {
            eprintln!("sandbox stage {name}: {e}");
            return FAILED;
        }
    };
    let mut status = match StatusWriter::open(&spec.status_file) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("sandbox stage {name}: {e}");
            return FAILED;
        }
    };
    match stage(&spec, payload, &mut status) {
        Ok(code) => code,
        Err(message) => {
            status.setup_failed(name, &message);
            FAILED
        }
    }
}

/// `Result` with the failed step named, for the status file.
fn step<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> Result<T, String> {
    r.map_err(|e| format!("{what}: {e}"))
}

/// Spawns the next stage: this same binary, empty environment, stdio inherited.
fn next_stage(stage: &str, payload: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new("/proc/self/exe");
    cmd.arg(STAGE_ARG).arg(stage).arg(payload).env_clear();
    cmd
}

/// Only stdin, stdout and stderr may pass from the supervisor to the program. Rust opens
/// everything close-on-exec, but the supervisor's own parent may have handed it descriptors
/// that are not (a shell's or a CI runner's pipes, a build tool's jobserver); `Command` passes
/// those on. Each stage closes them first thing, so none reaches the next stage.
fn close_inherited_descriptors() {
    const O_CLOEXEC: u32 = 0o2_000_000;
    let Ok(listing) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let inherited: Vec<i32> = listing
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&fd| fd > 2)
        .filter(|fd| {
            // Unreadable: the listing's own (close-on-exec) descriptor, already closed.
            std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).is_ok_and(|info| {
                let flags = info.lines().find_map(|l| l.strip_prefix("flags:"));
                let flags = flags.and_then(|v| u32::from_str_radix(v.trim(), 8).ok());
                flags.is_some_and(|f| f & O_CLOEXEC == 0)
            })
        })
        .collect();
    for fd in inherited {
        // Nothing in this process owns these descriptors (std's are all close-on-exec).
        let _ = nix::unistd::close(fd);
    }
}
