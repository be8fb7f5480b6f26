//! Host checks done once by `Sandbox::new`. Never degrades: anything missing is an error
//! that names it.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::{Pid, geteuid};

use super::SandboxError;
use super::stage::{STAGE_ARG, probe};

pub(crate) fn require_root() -> Result<(), SandboxError> {
    let euid = geteuid();
    if euid.is_root() {
        Ok(())
    } else {
        Err(SandboxError::Unsupported(format!(
            "must run as root (mounts, cgroups and the per-job uid need it); running as uid {euid}"
        )))
    }
}

/// Runs the `probe` stage through `stage_exe`; returns the kernel's Landlock ABI. This also
/// proves `stage_exe` dispatches to the sandbox stages.
pub(crate) fn kernel(stage_exe: &Path, uid: u32) -> Result<i32, SandboxError> {
    let child = Command::new(stage_exe)
        .args([STAGE_ARG, "probe", &uid.to_string()])
        .env_clear()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| SandboxError::io(format!("spawn {}", stage_exe.display()), e))?;
    let pid = Pid::from_raw(child.id() as i32);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    let output = match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(out) => out.map_err(|e| SandboxError::io("probe stage", e))?,
        Err(_) => {
            // Not reaped yet (the waiting thread would have sent), so the pid is still ours.
            let _ = kill(pid, Signal::SIGKILL);
            return Err(not_a_stage(stage_exe, "it ran for 10 s"));
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().next().unwrap_or("");
    if let Some(abi) = line.strip_prefix(probe::OK) {
        abi.trim().parse().map_err(|_| not_a_stage(stage_exe, line))
    } else if let Some(what) = line.strip_prefix(probe::MISSING) {
        Err(SandboxError::Unsupported(what.to_string()))
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let said: String = format!("{stdout}{stderr}").chars().take(300).collect();
        Err(not_a_stage(stage_exe, &format!("it printed {said:?}")))
    }
}

fn not_a_stage(stage_exe: &Path, detail: &str) -> SandboxError {
    SandboxError::Unsupported(format!(
        "{} did not run the sandbox probe stage ({detail}); its main must call \
         graders::sandbox::run_stage_if_requested() first",
        stage_exe.display()
    ))
}
