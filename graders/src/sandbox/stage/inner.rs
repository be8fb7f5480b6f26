//! Stage `inner`: becomes the program. It first reads the job's spec from the head of stdin:
//! until the supervisor writes it, the chain waits here, started ahead of its job (and if the
//! supervisor dies first, the pipe's end stops it). Then every layer goes on in an order where
//! each step still has the privilege it needs and the next cannot undo it: filesystem (needs root) →
//! rlimits → uid drop (clears every capability) → user namespace (created unprivileged, it
//! owns nothing) → Landlock → seccomp (last, so it need not allow the calls above) → execve.

use std::ffi::CString;
use std::fs;
use std::os::fd::AsFd;

use nix::sched::{CloneFlags, unshare};
use nix::sys::resource::{Resource, setrlimit};
use nix::unistd::{Gid, Uid, chdir, execve, setgroups, sethostname, setresgid, setresuid};

use super::{mounts, step};
use crate::sandbox::spec::{HelperSpec, StageSpec};
use crate::sandbox::status::StatusWriter;
use crate::sandbox::{landlock, seccomp};

pub(super) fn run(_: &HelperSpec, _: &str, status: &mut StatusWriter) -> Result<i32, String> {
    // Unbuffered reads of the descriptor itself: whatever follows the frame is the program's.
    let stdin = std::io::stdin();
    let spec = StageSpec::read_frame(|buf| {
        nix::unistd::read(stdin.as_fd(), buf).map_err(|e| format!("read the job's spec: {e}"))
    })?;
    let spec = &spec;
    if !spec.interactive {
        request_as_sealed_file()?;
    }
    // Undo the helpers' OOM exemption: the program is what the OOM killer should pick.
    // (Raising it needs no privilege; it only fails where lowering it failed too.)
    let _ = fs::write("/proc/self/oom_score_adj", "0");
    mounts::build_root(spec)?;
    step(sethostname("sandbox"), "hostname")?;
    step(chdir(&spec.cwd), &format!("chdir {}", spec.cwd.display()))?;
    set_rlimits(spec)?;
    if spec.niceness != 0 {
        step(
            rustix::process::setpriority_process(None, spec.niceness),
            "nice value",
        )?;
    }

    let (uid, gid) = (Uid::from_raw(spec.uid), Gid::from_raw(spec.gid));
    step(setgroups(&[]), "setgroups")?;
    step(setresgid(gid, gid, gid), "setresgid")?;
    step(setresuid(uid, uid, uid), "setresuid")?;
    step(unshare(CloneFlags::CLONE_NEWUSER), "unshare user namespace")?;

    landlock::restrict(&spec.landlock)?;
    let cstr = |s: &str| step(CString::new(s), "argument with a NUL byte");
    let argv = spec
        .argv
        .iter()
        .map(|a| cstr(a))
        .collect::<Result<Vec<_>, _>>()?;
    let env = spec
        .env
        .iter()
        .map(|(k, v)| cstr(&format!("{k}={v}")))
        .collect::<Result<Vec<_>, _>>()?;
    let path = argv.first().ok_or("empty argv")?.clone();
    // `path` is not touched again before the exec, so its buffer stays where the filter
    // expects it.
    let filter = seccomp::program(spec.syscalls, Some(path.as_ptr() as u64))?;
    seccomp::install(&filter)?;
    status.line("exec");
    // Returns only on failure (the status file is close-on-exec, so the program never has it).
    let Err(err) = execve(&path, &argv, &env);
    Err(format!("execve {}: {err}", spec.argv[0]))
}

/// Takes the rest of stdin, the program's request, whole (the supervisor closes the pipe once
/// it is written) into a sealed in-memory file, and makes that the program's stdin. From a pipe,
/// a program that reads while the grader still writes gets its request in pieces that differ
/// from run to run, and a measured program's count includes every turn of its read loop; a file
/// answers each read in full, so the same program on the same inputs counts the same. Sealed:
/// the program can read what it was sent, not change it.
fn request_as_sealed_file() -> Result<(), String> {
    use nix::fcntl::{FcntlArg, SealFlag, fcntl};
    use nix::sys::memfd::{MFdFlags, memfd_create};
    use std::io::{Seek, SeekFrom};

    let memfd = step(
        memfd_create(
            c"request",
            MFdFlags::MFD_CLOEXEC | MFdFlags::MFD_ALLOW_SEALING,
        ),
        "memfd for the request",
    )?;
    let mut file = fs::File::from(memfd);
    step(
        std::io::copy(&mut std::io::stdin().lock(), &mut file),
        "read the program's request",
    )?;
    step(
        fcntl(
            &file,
            FcntlArg::F_ADD_SEALS(
                SealFlag::F_SEAL_WRITE
                    | SealFlag::F_SEAL_GROW
                    | SealFlag::F_SEAL_SHRINK
                    | SealFlag::F_SEAL_SEAL,
            ),
        ),
        "seal the request",
    )?;
    step(file.seek(SeekFrom::Start(0)), "rewind the request")?;
    // The copy on fd 0 is not close-on-exec; `file` itself is, and closes here.
    step(nix::unistd::dup2_stdin(&file), "request as stdin")
}

fn set_rlimits(spec: &StageSpec) -> Result<(), String> {
    let r = &spec.rlimits;
    // Soft == hard: the kernel's answer is SIGKILL (CPU) or EFBIG (file size), nothing the
    // program can catch and carry on from.
    let mut limits = vec![
        (Resource::RLIMIT_CORE, 0),
        (Resource::RLIMIT_CPU, r.cpu_secs),
        (Resource::RLIMIT_FSIZE, r.file_bytes),
        (Resource::RLIMIT_NOFILE, r.open_files),
        // Per uid, host-wide: each concurrent job has its own uid.
        (Resource::RLIMIT_NPROC, r.processes),
        // No way back from the nice value set below.
        (Resource::RLIMIT_NICE, 0),
    ];
    if let Some(bytes) = r.address_space {
        limits.push((Resource::RLIMIT_AS, bytes));
        limits.push((Resource::RLIMIT_DATA, bytes));
    }
    for (resource, value) in limits {
        step(setrlimit(resource, value, value), &format!("{resource:?}"))?;
    }
    Ok(())
}
