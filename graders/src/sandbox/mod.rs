//! The production sandbox: compiles and runs untrusted learner Rust code, and instructors'
//! validators (as untrusted as a submission).
//!
//! # Threat model
//!
//! The attacker writes the source file. They control what rustc compiles (macros, const
//! evaluation, `include_str!`/`include!`/`env!` at compile time) and everything the binary
//! does at run time, including raw syscalls through `extern "C"`/`asm!`. They want to read
//! host secrets (files, environment, other learners' code), reach the network, keep the
//! machine busy or full (CPU, memory, pids, disk, output), escape to the host, or make the
//! grader misreport (forge a verdict, make their failure look like ours or the reverse).
//! Both the compile step and the run step are hostile; each layer below holds on its own,
//! and a job runs only if every layer could be installed ([`Sandbox::new`] probes first).
//!
//! | layer | stops |
//! |---|---|
//! | mount namespace + pivot_root into a read-only tmpfs root with only the profile's binds | reading host files (`/etc/shadow`, `/root`, other jobs' dirs), `include_str!` of secrets |
//! | empty environment (`env_clear` at every stage, `execve` with exactly `Job::env`) | `option_env!`/`env!` or `/proc/1/environ` leaking the supervisor's secrets |
//! | per-job uid from a host-wide slot (61000+slot, an `flock`ed file per slot shared by every grader process), no groups, all capabilities dropped | privileged operations, signalling/tracing helpers or other jobs, per-uid `RLIMIT_NPROC` shared with other jobs |
//! | user namespace, created after the drop | capabilities in any namespace that owns something |
//! | pid namespace, program under a small init, `/proc` with `hidepid=invisible,subset=pid` | seeing or signalling host processes; kernel/hardware info in `/proc` |
//! | no `/proc` at all in compile jobs (rustc gets `--sysroot`, the loader `LD_LIBRARY_PATH`, rust-lld is bound as `ld.lld`) | `include_bytes!` of `/proc/self/mountinfo`, which names the host path of every bind |
//! | the program copied into the root (`Mount::Copy`), not bound | a run reading its build folder's host path from `/proc/self/mountinfo` |
//! | net namespace (no interfaces up) + Landlock TCP rules + no socket syscalls | any network |
//! | ipc and uts namespaces | SysV IPC with the host; hostname changes |
//! | Landlock (fs ABI 5 hard requirement; signal/abstract-socket scopes when ABI ≥ 6) | opening anything outside the listed paths even if a mount slipped; writing outside `/tmp` and `/build`; executing anything written |
//! | seccomp allow-list (tight for runs, wider for rustc), `ENOSYS` default, no namespace flags on `clone`, no `clone3` | kernel attack surface: ptrace, mount, bpf, io_uring, keyctl, perf, sockets, fork in runs |
//! | rlimits: CPU (soft = hard), AS/DATA, FSIZE, NOFILE, CORE = 0, NPROC | runaway single processes, huge allocations, big files (`EFBIG`), core dumps |
//! | cgroup per job (v1 or v2): memory (no swap), pids, CPU accounting; wall clock; output caps | memory, fork/thread bombs, CPU burning across processes, sleeping forever, output floods |
//! | kill every pid in the group until empty, then rmdir | processes surviving the job (a fork bomb's orphans) |
//! | the job's spec sent at the head of the helpers' stdin, read to its stated length (≤ 1 MiB) by the program's stage before any layer goes on; the helpers started early hold no job data, only the slot's group and status file; the rest of stdin, the program's request, read whole into a sealed in-memory file that becomes its stdin (a rank of a rank kata keeps the pipe, as its replies come while it runs: its measured count may move by the few instructions of a read that returns early) | a program reading or shaping its own spec; a chain started ahead becoming a way into another job; a request read in pieces that depend on when the grader writes (a measured count that moves run to run) |
//! | status file written only by our stages (the program never holds it) | confusing "our setup failed" with "the program exited 125" |
//! | trusted side never follows paths in sandbox-writable dirs ([`read_output`], [`BuildDir`]) | planted symlinks/fifos making the grader read `/etc/shadow` or hang (Judge0 CVE-2024-28185/28189) |
//! | run and measure profiles: a program linked like a plain `rustc` program (std static, glibc dynamic), given exactly the dynamic loader (read + execute, at its `PT_INTERP` path) and `libc.so.6`, `libm.so.6`, `libgcc_s.so.1` as single read-only files, no folder of the host; an empty environment, so no `LD_PRELOAD`/`LD_LIBRARY_PATH`/`LD_AUDIT` (the measure profile's own `LD_PRELOAD` is valgrind's, set by the tool) | the loader loading anything else: it finds only these files; they are public system files, and the program can neither `execve` the loader with another environment (seccomp) nor add a library (`#[link]` needs `unsafe`, refused at the root) |
//! | GPU profile (GPU katas only): dynamically linked runner; `/usr` and the driver/NVRTC folders read-only; `/dev/nvidia*` as the only device mounts (Landlock: read, write, ioctl); `/proc` without `subset=pid` for `/proc/driver/nvidia`; seccomp list plus the driver's calls, still no fork or sockets | a kernel or its host code reaching anything but the GPU: device memory of other processes is isolated by the driver's per-context address spaces |
//! | tool profile (instructors' validators and their C/C++ compilers): the compile profile's layers and system calls without the Rust toolchain — `/usr` read-only, one work folder, no `/proc`, no network, the job's cgroup and limits | an instructor's validator reading host files, reaching the network, or outliving its job: it is as hostile as a submission, and the grader reads only its exit status and two bounded feedback files (`graders::validator`) |
//!
//! Not covered: kernel bugs reachable through the allowed syscalls (the allow-lists keep that
//! surface small), timing side channels, and the CPU caches shared with other jobs.
//!
//! # How a job runs
//!
//! A job's helpers start before the job (see [`chain`]): the stage binary is re-executed
//! three times deep, with no `unsafe` and no `fork` from the threaded supervisor: `outer`
//! joins the slot's cgroup and unshares, `init` is pid 1 and reports the program's status,
//! `inner` waits for the job's spec at the head of its stdin (see [`stage`]). Each job starts
//! the next one's chain beside it, so a job usually finds its chain waiting. `Sandbox::run`
//! (trusted, any thread) then writes the job's limits into the group and its spec into the
//! pipe; `inner` installs the layers and `execve`s the program. The supervisor streams output,
//! enforces wall/deadline/CPU/output limits, kills the group, reads the status file and the
//! group's counters, and removes everything.
//!
//! Host requirements: root; cgroup v2 with memory, pids and cpu, or v1 memory, pids and
//! cpuacct; Landlock ABI ≥ 5; seccomp; unprivileged user namespaces; x86_64.
//!
//! # Words unsafe in effect
//!
//! `#![forbid(unsafe_code)]` is not a complete wall: rustc accepts `#[unsafe(naked)]` functions,
//! whose `naked_asm!` is machine code of the submitter's choosing. So before rustc runs,
//! `source_policy` tokenizes the file as rustc would and refuses every word that is unsafe in
//! effect, wherever a macro could carry it into an attribute: a compile error on the learner's
//! line, with no rustc run.
//!
//! # Where each limit is enforced
//!
//! | what a submission could exhaust or forge | bound | enforced by |
//! |---|---|---|
//! | words unsafe in effect (`naked_asm!`, `include!`, …) | refused before rustc | `graders::source_policy` (compile_error) |
//! | the compiler (const eval, huge statics) | 30 s wall, 1.5 GiB, the compile profile | `compile.rs` limits → sandbox cgroup, pump |
//! | host paths at compile time (`include_bytes!` of `/proc/self/mountinfo` names every bind's host path) | compile jobs have no `/proc`: `--sysroot`, `LD_LIBRARY_PATH=/rust/lib` for the loader's `$ORIGIN`, rust-lld bound as `/lld/ld.lld` (rustc's `gcc-ld` wrapper needs /proc/self/exe); the runner library's paths remapped | `sandbox::layout`, `sandbox::toolchain` |
//! | host paths at run time (the same table names the program's build folder) | the program is copied into the sandbox's read-only root (`Mount::Copy`), not bound; every other run bind is the host's `/usr` (GPU runs still bind the driver and NVRTC folders) | `sandbox::layout`, `sandbox::stage::mounts` |
//! | the compiled program's size | 32 MiB | `grade.rs` `MAX_PROGRAM_BYTES` (compile_error) |
//! | memory, page cache of its own binary included | `memory_mb` minus the program's size | job cgroup (`run/mod.rs` sets it); `/tmp` is tmpfs inside it |
//! | threads | `max_threads` + 2 + 8 headroom (a joined thread is still counted for a moment) | job cgroup pids and `RLIMIT_NPROC` of the slot's uid |
//! | time | per case from frame arrivals; total CPU; wall | `session::Plan::deadline` via `run/mod.rs` `CaseClock` (trusted clock); pump (cgroup CPU, wall); `RLIMIT_CPU` |
//! | printed output | `output_kb` (stdout outside frames + stderr) | `FrameReader`, pump caps |
//! | answers | each ≤ 2× the reference's + 64 KiB; panic ≤ 4 KiB; all ≤ their sum + budget | `FrameReader::with_bound`, `CaseClock` stops the run |
//! | processes, exec | none; `execve` only with the stage's own pathname pointer | seccomp (`seccomp.rs`), Landlock execute rights |
//! | what other ranks of a rank kata hold (their vectors, shards, partial sums) | each rank a job of its own (uid, namespaces, memory), sent only its own start; messages and collectives, and their counts, in the grader | `run::ranked` (`Router`), `katas::ranks` |
//! | the grader's memory through a rank's traffic | a rank's stdout (requests included) capped by the kata's `traffic_bound` per case plus its answers' bounds | `run::ranked`, pump caps |
//! | new machine code (a soundness hole forges a pointer into bytes the program wrote) | run profile: `PROT_EXEC` only on read-only views of files, never through `mprotect`; `/tmp` and writable binds `noexec`; no `memfd_create`; `/proc/self/mem` read-only (measuring and GPU profiles cannot have it: valgrind and the CUDA driver make code, and valgrind counts what runs) | seccomp (`seccomp.rs`), mounts, Landlock |
//! | the performance figure | the whole process on every thread, no toggle; the empty harness subtracted; last line of a clean, correct run; single-use inputs sent, no seed | `run/mod.rs` `Purpose::Measure` + `Measure` profile (kata limits, time ×25, +384 MiB) |
//! | hidden inputs | fresh secret seed per grading | `grade.rs` |
//! | the grader's cleanup | flat, ≤ 10^6 entries | `sandbox::remove_tree` |
//! | the compile cache | 512 MiB, LRU, entries ≤ 32 MiB | `cache.rs` `CacheLimits` |
//! | other graders on the host | one `flock`ed slot (uid, cgroup, folders) per job, host-wide | `sandbox::slots` |
//! | the catalogue the runner was built from | must equal the binary's | `toolchain.rs` at start, `session::judge` per run (Ready frame) |
//! | an instructor's validator (stdin/stdout katas) | 5 s CPU, 10 s wall, 1 GiB, 16 pids, 64 KiB of output, feedback files read ≤ 4 KiB; anything but exit 42/43 is the kata's failure, never the learner's verdict | `graders::validator` limits → sandbox |
//! | a failure of ours | retried if transient (bounded), else `internal_error` "not counted against you" | `GradeError::is_retryable`, `server::worker` |

mod build_dir;
mod cgroup;
mod chain;
mod config;
mod error;
mod landlock;
mod layout;
mod outcome;
mod probe;
mod pump;
mod remove_tree;
mod seccomp;
mod slots;
mod spec;
pub mod stage;
mod status;
mod supervisor;
mod toolchain;

pub use build_dir::{BuildDir, read_output};
pub use config::{Job, Limits, MEASURE_TOOL_INSIDE, Profile, SandboxConfig, TOOL_PROGRAM_INSIDE};
pub use error::SandboxError;
pub use outcome::{ExitStatus, LimitHit, NoWatch, Outcome, Watch};
pub use slots::Slot;
pub use stage::run_stage_if_requested;
pub use supervisor::Sandbox;
pub use toolchain::{BUILD_INSIDE, SYSROOT_INSIDE, Toolchain};
