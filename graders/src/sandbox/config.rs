//! What the caller configures: the sandbox as a whole ([`SandboxConfig`]) and one job
//! ([`Job`], [`Profile`], [`Limits`]).

use std::path::PathBuf;
use std::time::Duration;

/// Host-side settings of a [`Sandbox`](super::Sandbox). Any number of sandboxes, in any
/// number of processes, may run on one host with the same settings: they share the host-wide
/// slots in `slot_dir`, so no two jobs ever hold the same uid or cgroup at once.
#[derive(Clone, Debug)]
pub struct SandboxConfig {
    /// Binary re-executed for the helper stages; its `main` must call
    /// [`run_stage_if_requested`](super::run_stage_if_requested) first.
    /// Default `/proc/self/exe` (the running binary).
    pub stage_exe: PathBuf,
    /// Where the cgroup hierarchies are mounted. Default `/sys/fs/cgroup`. On a cgroup2 host
    /// this may be a delegated subtree, as long as it holds no processes of its own.
    pub cgroup_root: PathBuf,
    /// Name of the parent group under which each slot's job gets its group. Default
    /// `infrakata-slots`, a group older versions never touch: they removed every child of their
    /// `infrakata` group not named by a live pid.
    pub cgroup_prefix: String,
    /// Root-only directory for status files and the mount point of the sandbox root.
    /// Default `/run/infrakata-sandbox`.
    pub state_dir: PathBuf,
    /// First uid (and gid) of the slots; slot `n` runs its job as `uid_base + n`. Default
    /// 61000 (older versions, which take no slot locks, used 60000 up). Nothing else on the
    /// host may use these ids: a slot's previous holder may have died, and its processes are
    /// killed by uid before the slot is used again.
    pub uid_base: u32,
    /// Isolation slots on the whole host: jobs that may run at once across every grader
    /// process sharing `slot_dir`; further jobs wait for one. Default 64.
    pub slots: u32,
    /// Host-wide folder of the slot lock files (one per uid, created 0700). Every grader
    /// process on the host must use the same one. Default `/run/infrakata/slots`.
    pub slot_dir: PathBuf,
    /// `rustc` asked once for its sysroot when the first compile job arrives. Default `rustc`.
    pub rustc: PathBuf,
    /// C compiler driver used as linker inside the compile sandbox (must live under `/usr`).
    /// Default: `/usr/bin/cc` with its `/etc/alternatives` links resolved.
    pub linker: Option<PathBuf>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            stage_exe: PathBuf::from("/proc/self/exe"),
            cgroup_root: PathBuf::from("/sys/fs/cgroup"),
            cgroup_prefix: "infrakata-slots".to_string(),
            state_dir: PathBuf::from("/run/infrakata-sandbox"),
            uid_base: 61_000,
            slots: 64,
            slot_dir: PathBuf::from("/run/infrakata/slots"),
            rustc: PathBuf::from("rustc"),
            linker: None,
        }
    }
}

/// The filesystem a job sees. Nothing else of the host is visible.
#[derive(Clone, Debug)]
pub enum Profile {
    /// A rustc compile: the toolchain's sysroot read-only at `/rust`, `/usr` read-only (plus
    /// the host's `/lib`, `/lib64`, `/bin` links into it), `build_dir` read-write at `/build`,
    /// each `read_only` pair `(host, inside)` bound read-only, a tmpfs `/tmp` and an own
    /// `/proc`. `build_dir` must be a fresh, root-owned directory created by the trusted side
    /// (see [`BuildDir`](super::BuildDir)); it belongs to the job's uid while the job runs.
    Compile {
        build_dir: PathBuf,
        read_only: Vec<(PathBuf, PathBuf)>,
    },
    /// A program linked like a plain `rustc` program (std static, glibc dynamic): only
    /// `program` (read-only, executable, at `/prog`), the dynamic loader (read-only,
    /// executable: Landlock's execute right covers the ELF interpreter) and the runtime
    /// libraries `libc.so.6`, `libm.so.6`, `libgcc_s.so.1` (read-only files, each bound alone
    /// at the path the loader opens; no folder of the host is listable), a tmpfs `/tmp` and
    /// an own `/proc`. `program` must be a root-owned regular file outside any directory a
    /// sandbox could write (copy compiler output out with
    /// [`BuildDir::copy_out`](super::BuildDir::copy_out) first).
    ///
    /// Why `/proc`: std reads `/proc/self/exe` (`current_exe`) and `/proc/self/maps` (main
    /// thread's stack guard, for the "stack overflow" message), and a learner may inspect
    /// itself. Why it is safe: it is the procfs of the job's own pid namespace, mounted
    /// `hidepid=invisible` (only the job uid's processes are visible: not init, not the
    /// helpers), `subset=pid` (no sysctls, no kernel or hardware files), nosuid/nodev/noexec,
    /// and Landlock grants it read only (no `/proc/self/mem` writes, no `/proc/*/attr`).
    Run { program: PathBuf },
    /// A dynamically linked program that uses the GPU (a GPU kata's runner: the CUDA driver
    /// library cannot be loaded into a static binary). As `Run`, plus: `/usr` read-only with
    /// the host's `/lib*` links (the dynamic loader and libc), each of `libraries` — `(host
    /// folder, inside path)` pairs for the driver library and NVRTC, found by the trusted side —
    /// read-only (pairs whose host folder is under `/usr` are visible already), each of `devices` (`/dev/nvidia*`) as a device node, and a `/proc` that
    /// also shows `/proc/driver/nvidia`. Threads but no processes; no network.
    Gpu {
        program: PathBuf,
        libraries: Vec<(PathBuf, PathBuf)>,
        devices: Vec<PathBuf>,
    },
    /// A program measured by an instruction-counting tool (valgrind's callgrind): the `Run`
    /// profile with the tool — a static executable, bound read-only and executable at
    /// [`MEASURE_TOOL_INSIDE`] — as the only executable file, and `program`, its loader and
    /// libraries (plus valgrind's core preload, which it adds to the program's `LD_PRELOAD`)
    /// bound readable but not executable (the tool loads them itself). The tool's extra system calls
    /// (opening files, `prlimit`, pipes) are allowed; processes, sockets and any `execve`
    /// after the tool's own are not, so the program cannot hand its stderr to another process.
    Measure { program: PathBuf, tool: PathBuf },
    /// An instructor's program (a kata's output or input validator) or its compiler: the
    /// compile profile's filesystem and system calls without the Rust toolchain. `/usr`
    /// read-only and executable (the host's `python3`, `gcc`/`g++` and their runtimes) with
    /// the host's `/lib*` links, `work_dir` read-write at `/build` (the case's files and the
    /// feedback folder; the same rules as `Compile`'s `build_dir`), `program` — when given —
    /// read-only and executable at [`TOOL_PROGRAM_INSIDE`], a tmpfs `/tmp`, and no `/proc`.
    Tool {
        work_dir: PathBuf,
        program: Option<PathBuf>,
    },
}

/// Where [`Profile::Tool`]'s program is bound.
pub const TOOL_PROGRAM_INSIDE: &str = "/prog";

/// Where the measuring tool is bound inside a [`Profile::Measure`] sandbox.
pub const MEASURE_TOOL_INSIDE: &str = "/valgrind/tool";

/// One process to run to completion.
#[derive(Clone, Debug)]
pub struct Job {
    pub profile: Profile,
    /// `argv[0]` is the program's path inside the sandbox (e.g. `/prog`, `/rust/bin/rustc`).
    pub argv: Vec<String>,
    /// Exactly these variables; nothing is inherited.
    pub env: Vec<(String, String)>,
    /// Working directory inside the sandbox.
    pub cwd: PathBuf,
    pub stdin: Vec<u8>,
    pub limits: Limits,
}

/// Resource limits of one job. Every limit applies to the job's whole process tree unless
/// noted.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall clock from spawn to exit.
    pub wall: Duration,
    /// CPU time of the whole tree (cgroup accounting, checked every few ms; a per-process
    /// `RLIMIT_CPU` one second above it is the backstop).
    pub cpu: Duration,
    /// Memory of the whole tree, page cache and tmpfs included (cgroup; no swap).
    pub memory_bytes: u64,
    /// Per-process `RLIMIT_AS` and `RLIMIT_DATA`: makes huge allocations fail at once
    /// instead of reaching the cgroup limit. `None` for programs that reserve big address
    /// ranges up front (rustc does).
    pub address_space_bytes: Option<u64>,
    /// Processes and threads of the job (cgroup `pids.max`; the two sandbox helpers are
    /// added on top).
    pub pids: u32,
    /// Bytes of stdout kept; more stops the job ([`LimitHit::Stdout`](super::LimitHit)).
    pub stdout_bytes: usize,
    /// Bytes of stderr kept; more stops the job.
    pub stderr_bytes: usize,
    /// Largest file a process may write (`RLIMIT_FSIZE`; writes beyond fail with `EFBIG`).
    pub file_bytes: u64,
    /// Open file descriptors per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
}

impl Limits {
    /// Defaults for running a learner's binary once.
    pub fn run_default() -> Limits {
        Limits {
            wall: Duration::from_secs(5),
            cpu: Duration::from_secs(2),
            memory_bytes: 256 << 20,
            address_space_bytes: Some(4 << 30),
            pids: 32,
            stdout_bytes: 1 << 20,
            stderr_bytes: 64 << 10,
            file_bytes: 8 << 20,
            open_files: 64,
        }
    }

    /// Defaults for one rustc invocation on a single learner file.
    pub fn compile_default() -> Limits {
        Limits {
            wall: Duration::from_secs(20),
            cpu: Duration::from_secs(15),
            memory_bytes: 1 << 30,
            address_space_bytes: None,
            pids: 64,
            stdout_bytes: 256 << 10,
            stderr_bytes: 256 << 10,
            file_bytes: 64 << 20,
            open_files: 256,
        }
    }
}
