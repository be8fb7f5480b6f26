//! seccomp allow-lists, installed last, right before `execve` of the program. Anything not
//! listed fails with `ENOSYS` (so libraries fall back, e.g. glibc from `clone3` to `clone`,
//! instead of the process dying).
//!
//! The run list is what a static Rust binary needs for std, threads, stdio and files in
//! /tmp. The compile list adds what rustc, the C driver, collect2 and rust-lld use
//! (measured with `strace -f`), including process creation. Neither may create namespaces:
//! `clone` is checked by flag, and `clone3` (flags in memory, out of BPF's reach) is denied.
//! Neither has socket calls, ptrace, mount, bpf, keyctl, io_uring, perf or landlock.
//!
//! `execve` is how the stage becomes the program, so the filter allows it — but outside the
//! compile profile only with the pathname pointer the stage itself passes (a heap address of
//! the stage's, gone once the program runs): the program cannot start anything else, not even
//! itself. That matters most when the program is a measuring tool whose report shares stderr
//! with the learner's code: no exec'd look-alike can print a count after it. `execveat` is
//! never allowed.
//!
//! The run profile makes no new machine code: a mapping may be executable only if it is a
//! read-only view of a file (`mmap` with `PROT_EXEC` needs no `PROT_WRITE` and no
//! `MAP_ANONYMOUS`, and `mprotect` never adds `PROT_EXEC`). The only writable places, `/tmp` and
//! writable binds, are mounted `noexec`, `memfd_create` is not listed and `/proc/self/mem` is
//! read-only under Landlock, so a program that forges pointers through a soundness hole can jump
//! only to code that was compiled (issue 22 §1). The dynamic loader's mappings fit that rule.
//! The measuring profile cannot have it (valgrind translates into anonymous executable memory,
//! and counts whatever the program jumps to), nor can the GPU profile (the CUDA driver).
//!
//! `kill` is allowed in the run profile: the program's targets are then refused by the
//! lower layers, which the tests prove (pid 1 and every helper run as another uid, in a pid
//! namespace of their own, outside the Landlock signal scope).
//!
//! x86_64 only (syscall numbers).

use std::collections::BTreeMap;

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::spec::Syscalls;

const RUN: &[i64] = &[
    // files and pipes
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_pread64,
    libc::SYS_pwrite64,
    libc::SYS_lseek,
    libc::SYS_close,
    libc::SYS_openat,
    libc::SYS_newfstatat,
    libc::SYS_fstat,
    libc::SYS_statx,
    libc::SYS_fcntl,
    libc::SYS_ioctl,
    libc::SYS_getdents64,
    libc::SYS_readlink,
    libc::SYS_readlinkat,
    libc::SYS_getcwd,
    libc::SYS_dup,
    libc::SYS_dup3,
    libc::SYS_pipe2,
    libc::SYS_poll,
    libc::SYS_ppoll,
    libc::SYS_ftruncate,
    libc::SYS_unlinkat,
    libc::SYS_mkdirat,
    libc::SYS_renameat2,
    libc::SYS_fsync,
    // memory
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mprotect,
    libc::SYS_mremap,
    libc::SYS_madvise,
    libc::SYS_brk,
    // signals and threads
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_sigaltstack,
    libc::SYS_tgkill,
    libc::SYS_kill,
    libc::SYS_futex,
    libc::SYS_set_robust_list,
    libc::SYS_rseq,
    libc::SYS_set_tid_address,
    libc::SYS_arch_prctl,
    libc::SYS_membarrier,
    libc::SYS_sched_yield,
    libc::SYS_sched_getaffinity,
    // time, identity, randomness
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_clock_nanosleep,
    libc::SYS_nanosleep,
    libc::SYS_gettimeofday,
    libc::SYS_getrandom,
    libc::SYS_getpid,
    libc::SYS_gettid,
    libc::SYS_getppid,
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    libc::SYS_uname,
    libc::SYS_getrusage,
    libc::SYS_exit,
    libc::SYS_exit_group,
];

const COMPILE_EXTRA: &[i64] = &[
    libc::SYS_open,
    libc::SYS_access,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_stat,
    libc::SYS_lstat,
    libc::SYS_unlink,
    libc::SYS_mkdir,
    libc::SYS_rmdir,
    libc::SYS_rename,
    libc::SYS_renameat,
    libc::SYS_chmod,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_umask,
    libc::SYS_utimensat,
    libc::SYS_fdatasync,
    libc::SYS_fallocate,
    libc::SYS_flock,
    libc::SYS_statfs,
    libc::SYS_fstatfs,
    libc::SYS_copy_file_range,
    libc::SYS_sendfile,
    libc::SYS_chdir,
    libc::SYS_fchdir,
    libc::SYS_dup2,
    libc::SYS_pipe,
    libc::SYS_select,
    libc::SYS_pselect6,
    libc::SYS_eventfd2,
    libc::SYS_epoll_create1,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_wait,
    libc::SYS_epoll_pwait,
    libc::SYS_vfork,
    libc::SYS_wait4,
    libc::SYS_waitid,
    libc::SYS_getpgrp,
    libc::SYS_setpgid,
    libc::SYS_getpgid,
    libc::SYS_getsid,
    libc::SYS_rt_sigsuspend,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_getgroups,
    libc::SYS_getresuid,
    libc::SYS_getresgid,
    libc::SYS_sysinfo,
    libc::SYS_times,
    libc::SYS_getrlimit,
    libc::SYS_prctl,
    libc::SYS_getpriority,
    libc::SYS_setpriority,
    libc::SYS_getitimer,
    libc::SYS_setitimer,
    libc::SYS_alarm,
    libc::SYS_mincore,
    libc::SYS_memfd_create,
    libc::SYS_sched_setaffinity,
];

/// What the CUDA driver library and NVRTC add to a run (threads, the driver's event and
/// memory-policy calls, library loading). No process creation, no sockets.
const GPU_EXTRA: &[i64] = &[
    libc::SYS_open,
    libc::SYS_access,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_stat,
    libc::SYS_lstat,
    libc::SYS_statfs,
    libc::SYS_fstatfs,
    libc::SYS_dup2,
    libc::SYS_pipe,
    libc::SYS_select,
    libc::SYS_pselect6,
    libc::SYS_eventfd2,
    libc::SYS_epoll_create1,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_wait,
    libc::SYS_epoll_pwait,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_sysinfo,
    libc::SYS_getrlimit,
    libc::SYS_prctl,
    libc::SYS_getpriority,
    libc::SYS_setpriority,
    libc::SYS_mincore,
    libc::SYS_memfd_create,
    libc::SYS_mlock,
    libc::SYS_munlock,
    libc::SYS_get_mempolicy,
    libc::SYS_set_mempolicy,
    libc::SYS_mbind,
    libc::SYS_getcpu,
    libc::SYS_sched_setaffinity,
    libc::SYS_sched_getparam,
    libc::SYS_sched_getscheduler,
    libc::SYS_sched_get_priority_max,
    libc::SYS_sched_get_priority_min,
    libc::SYS_getdents,
    libc::SYS_fadvise64,
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmdt,
    libc::SYS_shmctl,
];

/// What valgrind's tool adds to a run: it opens the program and its own file by path, reads
/// `/proc/self/maps`, keeps temporary files in `/tmp`, a pipe as its thread lock, and sets its
/// own soft limits. No process creation, no sockets.
const MEASURE_EXTRA: &[i64] = &[
    libc::SYS_open,
    libc::SYS_access,
    libc::SYS_getxattr,
    libc::SYS_unlink,
    libc::SYS_pipe,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_prlimit64,
    libc::SYS_getrlimit,
    libc::SYS_setrlimit,
    libc::SYS_sysinfo,
];

const NAMESPACE_FLAGS: u64 = (libc::CLONE_NEWUSER
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWTIME) as u64;

/// `(arg & mask) == value` on syscall argument `arg`.
fn condition(arg: u8, mask: u64, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(mask),
        value,
    )
    .map_err(|e| e.to_string())
}

/// A rule of the one condition `(arg & mask) == value`.
fn masked(arg: u8, mask: u64, value: u64) -> Result<SeccompRule, String> {
    SeccompRule::new(vec![condition(arg, mask, value)?]).map_err(|e| e.to_string())
}

/// Executable mappings only as read-only views of files (see the module doc).
fn no_new_code(rules: &mut BTreeMap<i64, Vec<SeccompRule>>) -> Result<(), String> {
    let exec = libc::PROT_EXEC as u64;
    let write = libc::PROT_WRITE as u64;
    let anonymous = libc::MAP_ANONYMOUS as u64;
    let file_view = SeccompRule::new(vec![
        condition(2, exec | write, exec)?,
        condition(3, anonymous, 0)?,
    ])
    .map_err(|e| e.to_string())?;
    rules.insert(libc::SYS_mmap, vec![masked(2, exec, 0)?, file_view]);
    rules.insert(libc::SYS_mprotect, vec![masked(2, exec, 0)?]);
    Ok(())
}

/// The allow-list for `syscalls`. `exec_path` is the address of the pathname the stage passes
/// to its own `execve` (see the module doc); `None` leaves `execve` out entirely (the probe).
pub(crate) fn program(syscalls: Syscalls, exec_path: Option<u64>) -> Result<BpfProgram, String> {
    let allow = |rules: &mut BTreeMap<i64, Vec<SeccompRule>>, list: &[i64]| {
        for &nr in list {
            rules.insert(nr, Vec::new()); // no conditions: always allowed
        }
    };
    let mut rules = BTreeMap::new();
    allow(&mut rules, RUN);
    let thread = libc::CLONE_THREAD as u64;
    if syscalls == Syscalls::Gpu {
        allow(&mut rules, GPU_EXTRA);
    }
    if syscalls == Syscalls::Measure {
        allow(&mut rules, MEASURE_EXTRA);
    }
    match (syscalls, exec_path) {
        (Syscalls::Compile, Some(_)) => allow(&mut rules, &[libc::SYS_execve]),
        (_, Some(address)) => {
            rules.insert(libc::SYS_execve, vec![masked(0, u64::MAX, address)?]);
        }
        (_, None) => {}
    }
    match syscalls {
        Syscalls::Measure => {
            rules.insert(
                libc::SYS_clone,
                vec![masked(0, thread | NAMESPACE_FLAGS, thread)?],
            );
        }
        Syscalls::Run | Syscalls::Gpu => {
            if syscalls == Syscalls::Run {
                no_new_code(&mut rules)?;
            }
            // Threads only: CLONE_THREAD set and no namespace flag, so no fork.
            rules.insert(
                libc::SYS_clone,
                vec![masked(0, thread | NAMESPACE_FLAGS, thread)?],
            );
            // Reading limits only (glibc's getrlimit): new_limit must be NULL.
            rules.insert(libc::SYS_prlimit64, vec![masked(2, u64::MAX, 0)?]);
        }
        Syscalls::Compile => {
            allow(&mut rules, COMPILE_EXTRA);
            rules.insert(libc::SYS_clone, vec![masked(0, NAMESPACE_FLAGS, 0)?]);
            // Lowering one's own limits is harmless; raising beyond the hard limit needs
            // privileges the sandbox does not have.
            allow(&mut rules, &[libc::SYS_prlimit64]);
        }
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::ENOSYS as u32),
        SeccompAction::Allow,
        TargetArch::x86_64,
    )
    .map_err(|e| format!("seccomp filter: {e}"))?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| format!("seccomp filter: {e}"))
}

/// Installs `program` on the calling thread (sets no_new_privs first).
pub(crate) fn install(program: &BpfProgram) -> Result<(), String> {
    seccompiler::apply_filter(program).map_err(|e| format!("seccomp install: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_compiles() {
        let run = program(Syscalls::Run, Some(0x1000)).expect("run filter");
        let compile = program(Syscalls::Compile, Some(0x1000)).expect("compile filter");
        assert!(compile.len() > run.len());
        let gpu = program(Syscalls::Gpu, Some(0x1000)).expect("gpu filter");
        assert!(gpu.len() > run.len());
        let measure = program(Syscalls::Measure, Some(0x1000)).expect("measure filter");
        assert!(measure.len() > run.len());
    }
}
