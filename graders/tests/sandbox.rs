//! The sandbox proves each property from inside, the way bubblewrap's `tests/test-run.sh`
//! does: small programs in `tests/sandbox/*.rs`, compiled by the sandboxed compile profile
//! (which tests that profile too), run under the run profile, and their reports checked.
//!
//! Needs root and the kernel features. Otherwise each test prints why it skips — unless
//! `INFRAKATA_CI=1`, where that is a failure (CI runs as root).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use graders::sandbox::{
    BuildDir, ExitStatus, Job, LimitHit, Limits, NoWatch, Outcome, Profile, Sandbox, SandboxConfig,
    SandboxError, Watch, run_stage_if_requested,
};
use libtest_mimic::{Arguments, Failed, Trial};

const SIGKILL: i32 = 9;
const SIGABRT: i32 = 6;
const SIGXFSZ: i32 = 25;

/// Shared by every test: one sandbox, the compiled test programs.
struct Env {
    sandbox: Sandbox,
    dir: PathBuf,
    /// Program name → compiled binary (compiled on first use).
    bins: Mutex<HashMap<&'static str, Arc<Compiled>>>,
}

/// A test program's binary, compiled by whichever test needs it first.
type Compiled = OnceLock<Result<PathBuf, String>>;

fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join(format!("infrakata-sandbox-test-{}", std::process::id()))
}

/// A uid range and cgroup prefix of our own. Slots are host-wide, so concurrent test
/// processes (and graders) share them safely; `offset` gives a test a range of its own.
fn test_config(offset: u32) -> SandboxConfig {
    SandboxConfig {
        cgroup_prefix: "infrakata-slots-test".into(),
        state_dir: "/run/infrakata-sandbox-test".into(),
        uid_base: 200_000 + offset,
        slots: 8,
        ..SandboxConfig::default()
    }
}

fn env() -> Result<&'static Env, String> {
    static ENV: OnceLock<Result<Env, String>> = OnceLock::new();
    ENV.get_or_init(|| {
        if !nix::unistd::geteuid().is_root() {
            return Err("needs root (mounts, cgroups, uid drop)".into());
        }
        let sandbox = Sandbox::new(test_config(0)).map_err(|e| e.to_string())?;
        println!("sandbox: {}", sandbox.describe());
        let dir = scratch_dir();
        fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        Ok(Env {
            sandbox,
            dir,
            bins: Mutex::new(HashMap::new()),
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

type Check = fn(&Env) -> Result<(), String>;

/// Runs `check`, or explains the skip (a failure under `INFRAKATA_CI=1`).
fn trial(name: &'static str, check: Check) -> Trial {
    Trial::test(name, move || match env() {
        Ok(env) => check(env).map_err(Failed::from),
        Err(why) if std::env::var("INFRAKATA_CI").as_deref() == Ok("1") => {
            Err(format!("cannot run the sandbox tests: {why}").into())
        }
        Err(why) => {
            println!("skipping {name}: {why}");
            Ok(())
        }
    })
}

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sandbox")
        .join(format!("{name}.rs"))
}

/// `rustc <sandbox flags> <args>` in `dir` (seen at /build), plus read-only binds.
fn compile_job(
    env: &Env,
    dir: &BuildDir,
    args: &[&str],
    read_only: Vec<(PathBuf, PathBuf)>,
) -> Result<Job, String> {
    let toolchain = env.sandbox.toolchain().map_err(|e| e.to_string())?;
    let mut argv = vec![toolchain.rustc_inside()];
    argv.extend(toolchain.rustc_flags());
    argv.extend(args.iter().map(|a| a.to_string()));
    Ok(Job {
        profile: Profile::Compile {
            build_dir: dir.path().to_path_buf(),
            read_only,
        },
        argv,
        env: vec![],
        cwd: "/build".into(),
        stdin: vec![],
        limits: Limits::compile_default(),
    })
}

const BIN_ARGS: &[&str] = &[
    "--edition",
    "2024",
    "-C",
    "opt-level=1",
    "-o",
    "/build/out",
    "/build/main.rs",
];

/// Compiles `tests/sandbox/<name>.rs` in the sandbox; returns the outcome and the build dir.
fn compile_with(
    env: &Env,
    name: &str,
    args: &[&str],
    read_only: Vec<(PathBuf, PathBuf)>,
) -> Result<(Outcome, BuildDir), String> {
    let src = fs::read(source(name)).map_err(|e| format!("{name}.rs: {e}"))?;
    let dir = BuildDir::new_in(&env.dir).map_err(|e| e.to_string())?;
    dir.write("main.rs", &src).map_err(|e| e.to_string())?;
    let job = compile_job(env, &dir, args, read_only)?;
    let outcome = env
        .sandbox
        .run(&job, &mut NoWatch)
        .map_err(|e| e.to_string())?;
    Ok((outcome, dir))
}

fn compile_in_sandbox(env: &Env, name: &str) -> Result<(Outcome, BuildDir), String> {
    compile_with(env, name, BIN_ARGS, vec![])
}

/// The compiled binary of `tests/sandbox/<name>.rs` (compiled once, in the sandbox).
fn program(env: &Env, name: &'static str) -> Result<PathBuf, String> {
    let cell = env
        .bins
        .lock()
        .map_err(|e| e.to_string())?
        .entry(name)
        .or_default()
        .clone();
    cell.get_or_init(|| {
        let (outcome, dir) = compile_in_sandbox(env, name)?;
        if !outcome.status.success() {
            return Err(format!("compiling {name}: {}", describe(&outcome)));
        }
        let bin = env.dir.join(name);
        dir.copy_out("out", &bin, 64 << 20, 0o755)
            .map_err(|e| e.to_string())?;
        Ok(bin)
    })
    .clone()
}

fn run_job(env: &Env, name: &'static str, limits: Limits) -> Result<Job, String> {
    Ok(Job {
        profile: Profile::Run {
            program: program(env, name)?,
        },
        argv: vec!["/prog".into()],
        env: vec![],
        cwd: "/tmp".into(),
        stdin: vec![],
        limits,
    })
}

fn run(env: &Env, name: &'static str, limits: Limits) -> Result<Outcome, String> {
    let job = run_job(env, name, limits)?;
    env.sandbox
        .run(&job, &mut NoWatch)
        .map_err(|e| e.to_string())
}

fn describe(o: &Outcome) -> String {
    format!(
        "{:?} limit={:?} wall={:?} cpu={:?} peak={}KiB\nstdout: {}\nstderr: {}",
        o.status,
        o.limit,
        o.wall,
        o.cpu,
        o.peak_memory_bytes >> 10,
        String::from_utf8_lossy(&o.stdout[..o.stdout.len().min(2000)]),
        String::from_utf8_lossy(&o.stderr[..o.stderr.len().min(2000)]),
    )
}

fn stdout(o: &Outcome) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn ensure(cond: bool, what: &str, o: &Outcome) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(format!("{what}\n{}", describe(o)))
    }
}

/// The line of `o`'s stdout starting with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines().find(|l| l.starts_with(prefix)).unwrap_or("")
}

fn limits(f: impl FnOnce(&mut Limits)) -> Limits {
    let mut l = Limits::run_default();
    f(&mut l);
    l
}

// ---- the checks ----

fn hello(env: &Env) -> Result<(), String> {
    let mut job = run_job(env, "hello", Limits::run_default())?;
    job.stdin = b"echo me\n".to_vec();
    let o = env
        .sandbox
        .run(&job, &mut NoWatch)
        .map_err(|e| e.to_string())?;
    ensure(
        o.status == ExitStatus::Exited(0) && o.limit.is_none(),
        "clean exit",
        &o,
    )?;
    ensure(
        stdout(&o) == "hello from sandbox\necho me\n",
        "greeting and echoed stdin",
        &o,
    )
}

fn identity_and_environment(env: &Env) -> Result<(), String> {
    let o = run(env, "identity", Limits::run_default())?;
    let out = stdout(&o);
    ensure(o.status.success(), "runs", &o)?;
    // Not root, in any namespace: the job uid is unmapped in its own user namespace.
    ensure(
        !line(&out, "Uid:").contains(" 0") && !line(&out, "Uid:").is_empty(),
        "uid not 0",
        &o,
    )?;
    ensure(!line(&out, "Gid:").contains(" 0"), "gid not 0", &o)?;
    for cap in ["CapInh:", "CapPrm:", "CapEff:", "CapAmb:"] {
        ensure(
            line(&out, cap) == format!("{cap} 0000000000000000"),
            cap,
            &o,
        )?;
    }
    ensure(
        line(&out, "NoNewPrivs:") == "NoNewPrivs: 1",
        "no_new_privs",
        &o,
    )?;
    ensure(
        line(&out, "Seccomp:") == "Seccomp: 2",
        "seccomp filter mode",
        &o,
    )?;
    ensure(line(&out, "env ") == "env []", "empty environment", &o)?;
    ensure(
        line(&out, "self_environ") == "self_environ Ok(0)",
        "own environ empty",
        &o,
    )?;
    // pid 1 (init) belongs to another uid: hidden by hidepid, so not even readable.
    ensure(
        line(&out, "init_environ").contains("Err"),
        "/proc/1/environ unreadable",
        &o,
    )?;
    // Only the program itself is visible, as pid 2 of its own namespace.
    ensure(
        line(&out, "pids ") == "pids [\"2\"]",
        "sees only itself",
        &o,
    )?;
    ensure(line(&out, "pid ") == "pid 2", "own pid namespace", &o)?;
    // Whatever the supervisor inherited without close-on-exec (cargo's jobserver, a shell's
    // pipes) was closed on the way in.
    ensure(
        line(&out, "fds ") == "fds [0, 1, 2, 3]",
        "only stdio inherited",
        &o,
    )
}

fn filesystem_is_minimal_and_read_only(env: &Env) -> Result<(), String> {
    let o = run(env, "fs_escape", Limits::run_default())?;
    let out = stdout(&o);
    ensure(o.status.success(), "runs", &o)?;
    for denied in [
        "read /etc/shadow",
        "read /etc/passwd",
        "list /",
        "write /x",
        "write /prog",
        "write /proc/self/comm",
        "mkdir /proc/x",
        "read /proc/meminfo",
        "read /sys",
        "exec /tmp/p",
        "list /lib64",
        "write /lib64/ld-linux-x86-64.so.2",
        "read /usr/bin/env",
    ] {
        ensure(line(&out, denied).contains("denied"), denied, &o)?;
    }
    // The loader and libc are there to be loaded (and so read), nothing beside them.
    for allowed in [
        "write /tmp/file",
        "read /tmp/file",
        "copy /prog to /tmp",
        "read /lib64/ld-linux-x86-64.so.2",
    ] {
        ensure(line(&out, allowed).ends_with(": ok"), allowed, &o)?;
    }
    Ok(())
}

/// The GPU profile, on any machine: a dynamically linked program starts (loader and libc from
/// `/usr`), reads libraries, and still cannot read host files, write, reach the network, fork,
/// or execute anything but itself.
fn gpu_profile_is_minimal_too(env: &Env) -> Result<(), String> {
    let src = fs::read(source("gpu_escape")).map_err(|e| e.to_string())?;
    let dir = BuildDir::new_in(&env.dir).map_err(|e| e.to_string())?;
    dir.write("main.rs", &src).map_err(|e| e.to_string())?;
    let job = compile_job(env, &dir, BIN_ARGS, vec![])?;
    let built = env
        .sandbox
        .run(&job, &mut NoWatch)
        .map_err(|e| e.to_string())?;
    ensure(built.status.success(), "compiles dynamically", &built)?;
    let bin = env.dir.join("gpu_escape");
    dir.copy_out("out", &bin, 64 << 20, 0o755)
        .map_err(|e| e.to_string())?;
    let job = Job {
        profile: Profile::Gpu {
            program: bin,
            libraries: Vec::new(),
            devices: Vec::new(),
        },
        argv: vec!["/prog".into()],
        env: vec![],
        cwd: "/tmp".into(),
        stdin: vec![],
        limits: Limits::run_default(),
    };
    let o = env
        .sandbox
        .run(&job, &mut NoWatch)
        .map_err(|e| e.to_string())?;
    let out = stdout(&o);
    ensure(o.status.success(), "runs", &o)?;
    for denied in [
        "read /etc/shadow",
        "read /etc/passwd",
        "write /usr/x",
        "write /prog",
        "tcp",
        "fork",
        "exec /bin/sh",
    ] {
        ensure(line(&out, denied).contains("denied"), denied, &o)?;
    }
    for allowed in [
        "read /usr/lib/os-release",
        "read /proc/self/status",
        "write /tmp/file",
    ] {
        ensure(line(&out, allowed).ends_with(": ok"), allowed, &o)?;
    }
    Ok(())
}

fn network_is_unreachable(env: &Env) -> Result<(), String> {
    let o = run(env, "net", Limits::run_default())?;
    let out = stdout(&o);
    ensure(
        line(&out, "tcp:").contains("denied"),
        "tcp connect fails",
        &o,
    )?;
    ensure(line(&out, "udp:").contains("denied"), "udp send fails", &o)
}

fn fork_is_refused(env: &Env) -> Result<(), String> {
    let o = run(env, "fork", Limits::run_default())?;
    ensure(
        line(&stdout(&o), "fork:").contains("denied"),
        "fork refused",
        &o,
    )?;
    ensure(!stdout(&o).contains("child ran"), "no child", &o)
}

fn thread_bomb_is_contained(env: &Env) -> Result<(), String> {
    let o = run(env, "threadbomb", limits(|l| l.pids = 16))?;
    ensure(
        o.status.success() && o.limit == Some(LimitHit::Pids),
        "pids limit reported",
        &o,
    )?;
    let count: u32 = line(&stdout(&o), "threads ")
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(u32::MAX);
    ensure(count < 16, "fewer threads than the pids limit", &o)
}

/// A real fork bomb needs a profile that allows fork: the compile profile's `/bin/sh`.
/// Spinning children outlive their parents; afterwards nothing may be left.
fn fork_bomb_is_contained_and_cleaned_up(_: &Env) -> Result<(), String> {
    let mut config = test_config(32);
    config.cgroup_prefix = "infrakata-slots-test-bomb".into();
    config.slots = 1;
    let uid = config.uid_base;
    let sandbox = Sandbox::new(config.clone()).map_err(|e| e.to_string())?;
    let dir = BuildDir::new_in(&scratch_dir()).map_err(|e| e.to_string())?;
    let job = Job {
        profile: Profile::Compile {
            build_dir: dir.path().to_path_buf(),
            read_only: vec![],
        },
        argv: ["/bin/sh", "-c", "f() { f | f; while :; do :; done; }; f"]
            .map(String::from)
            .to_vec(),
        env: vec![],
        cwd: "/build".into(),
        stdin: vec![],
        limits: Limits {
            wall: Duration::from_millis(1500),
            cpu: Duration::from_secs(20),
            pids: 24,
            ..Limits::compile_default()
        },
    };
    let o = sandbox.run(&job, &mut NoWatch).map_err(|e| e.to_string())?;
    // Either the spinners run into the wall limit, or the top shell itself is refused a
    // fork and gives up (its exit ends init, which ends the namespace).
    let stopped = matches!(o.limit, Some(LimitHit::Wall | LimitHit::Pids));
    ensure(stopped, "stopped by the wall or pids limit", &o)?;
    ensure(
        String::from_utf8_lossy(&o.stderr).contains("Cannot fork"),
        "forks refused",
        &o,
    )?;
    // Nothing left: no process of the job's uid, no job cgroup.
    let survivors: Vec<String> = fs::read_dir("/proc")
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .filter(|e| {
            fs::read_to_string(e.path().join("status")).is_ok_and(|s| {
                s.lines()
                    .any(|l| l.starts_with("Uid:") && l.contains(&uid.to_string()))
            })
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ensure(
        survivors.is_empty(),
        &format!("processes left: {survivors:?}"),
        &o,
    )?;
    // The job's group is named by its slot's uid; it must be gone.
    let ours = format!("uid-{uid}");
    for controller in ["memory", "pids", "cpuacct", ""] {
        let parent = config
            .cgroup_root
            .join(controller)
            .join(&config.cgroup_prefix);
        let left: Vec<String> = fs::read_dir(&parent)
            .map(|d| {
                d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        let left: Vec<&String> = left.iter().filter(|n| **n == ours).collect();
        ensure(
            left.is_empty(),
            &format!("groups left under {}: {left:?}", parent.display()),
            &o,
        )?;
    }
    Ok(())
}

/// The cgroup directories of slot `uid` under `config` (one per v1 controller, or the v2 one).
fn slot_groups(config: &SandboxConfig, uid: u32) -> Vec<PathBuf> {
    let name = format!("uid-{uid}");
    if config.cgroup_root.join("cgroup.controllers").exists() {
        return vec![config.cgroup_root.join(&config.cgroup_prefix).join(&name)];
    }
    ["memory", "pids", "cpuacct"]
        .iter()
        .map(|c| {
            config
                .cgroup_root
                .join(c)
                .join(&config.cgroup_prefix)
                .join(&name)
        })
        .collect()
}

/// A grader that died mid-job leaves its slot's lock file saying so, a process under the
/// slot's uid, the slot's cgroup (with the process in it) and its status file. The next job
/// in that slot removes all of it before it starts.
fn dead_holders_leftovers_are_removed(env: &Env) -> Result<(), String> {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let mut config = test_config(40);
    config.cgroup_prefix = "infrakata-slots-test-stale".into();
    config.slots = 1;
    let uid = config.uid_base;
    let sandbox = Sandbox::new(config.clone()).map_err(|e| e.to_string())?;
    let name = format!("uid-{uid}");
    let leftover = std::process::Command::new("/bin/sleep")
        .arg("600")
        .uid(uid)
        .gid(uid)
        .spawn()
        .map_err(|e| format!("sleep as uid {uid}: {e}"))?;
    let leftover_pid = leftover.id();
    // Reaped at once, as init reaps a dead grader's orphans.
    let reaper = std::thread::spawn(move || {
        let mut leftover = leftover;
        leftover.wait()
    });
    let groups = slot_groups(&config, uid);
    for group in &groups {
        fs::create_dir_all(group).map_err(|e| format!("{}: {e}", group.display()))?;
        fs::write(group.join("cgroup.procs"), leftover_pid.to_string())
            .map_err(|e| format!("join {}: {e}", group.display()))?;
    }
    let status = config.state_dir.join(format!("{name}.status"));
    fs::write(&status, "left behind").map_err(|e| e.to_string())?;
    // No pid is that large: its holder is dead, and the lock (held by nobody) is free.
    fs::write(
        config.slot_dir.join(uid.to_string()),
        "held by pid 999999999\n",
    )
    .map_err(|e| e.to_string())?;

    let job = run_job(env, "hello", Limits::run_default())?;
    let o = sandbox.run(&job, &mut NoWatch).map_err(|e| e.to_string())?;
    ensure(o.status.success(), "the job ran in the cleaned slot", &o)?;
    let ended = reaper
        .join()
        .map_err(|_| "reaper panicked".to_string())?
        .map_err(|e| e.to_string())?;
    ensure(
        ended.signal() == Some(SIGKILL),
        "the leftover process was killed",
        &o,
    )?;
    ensure(!status.exists(), "the stale status file is gone", &o)?;
    let left: Vec<&PathBuf> = groups.iter().filter(|g| g.exists()).collect();
    ensure(left.is_empty(), &format!("groups left: {left:?}"), &o)?;
    let mark =
        fs::read_to_string(config.slot_dir.join(uid.to_string())).map_err(|e| e.to_string())?;
    ensure(
        mark == "free\n",
        &format!("the slot is marked free ({mark:?})"),
        &o,
    )
}

/// A job leaves the next job's helpers waiting in a second slot; a waiting chain killed from
/// outside is replaced, and dropping the sandbox kills the kept chain and frees its slot.
fn warm_chains_are_replaced_and_released(env: &Env) -> Result<(), String> {
    let mut config = test_config(48);
    config.cgroup_prefix = "infrakata-slots-test-warm".into();
    config.slots = 2;
    let uids = [config.uid_base, config.uid_base + 1];
    let mark = |uid: u32| fs::read_to_string(config.slot_dir.join(uid.to_string()));
    let groups = |uid: u32| slot_groups(&config, uid);
    let sandbox = Sandbox::new(config.clone()).map_err(|e| e.to_string())?;
    let job = run_job(env, "hello", Limits::run_default())?;
    let o = sandbox.run(&job, &mut NoWatch).map_err(|e| e.to_string())?;
    ensure(o.status.success(), "the first job ran", &o)?;
    let held = format!("held by pid {}\n", std::process::id());
    let kept: Vec<u32> = uids
        .into_iter()
        .filter(|&u| mark(u).is_ok_and(|m| m == held))
        .collect();
    ensure(kept.len() == 1, &format!("one slot kept: {kept:?}"), &o)?;
    // Kill the waiting helpers, as an operator's stray `kill` would.
    for group in groups(kept[0]) {
        let procs = fs::read_to_string(group.join("cgroup.procs")).unwrap_or_default();
        for pid in procs.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
    std::thread::sleep(Duration::from_millis(50));
    let o = sandbox.run(&job, &mut NoWatch).map_err(|e| e.to_string())?;
    ensure(
        o.status.success() && stdout(&o) == "hello from sandbox\n",
        "a job after its chain was killed still runs",
        &o,
    )?;
    drop(sandbox);
    for uid in uids {
        let m = mark(uid).map_err(|e| e.to_string())?;
        ensure(
            m == "free\n",
            &format!("slot {uid} marked free ({m:?})"),
            &o,
        )?;
        let left: Vec<PathBuf> = groups(uid).into_iter().filter(|g| g.exists()).collect();
        ensure(left.is_empty(), &format!("groups left: {left:?}"), &o)?;
        let status = config.state_dir.join(format!("uid-{uid}.status"));
        ensure(!status.exists(), "no status file left", &o)?;
    }
    Ok(())
}

fn huge_allocation_is_refused(env: &Env) -> Result<(), String> {
    let o = run(env, "alloc30g", Limits::run_default())?;
    // RLIMIT_AS fails the mmap; Rust aborts, and the abort is reported exactly (the program
    // is not pid 1, so SIGABRT is not turned into something else).
    ensure(o.status == ExitStatus::Signaled(SIGABRT), "aborted", &o)?;
    ensure(
        String::from_utf8_lossy(&o.stderr).contains("memory allocation of"),
        "alloc error",
        &o,
    )?;
    ensure(o.peak_memory_bytes < 64 << 20, "never got the memory", &o)
}

fn memory_limit_is_reported(env: &Env) -> Result<(), String> {
    let o = run(env, "touch1g", limits(|l| l.memory_bytes = 128 << 20))?;
    ensure(o.limit == Some(LimitHit::Memory), "memory limit", &o)?;
    ensure(o.status == ExitStatus::Signaled(SIGKILL), "OOM-killed", &o)
}

fn cpu_limit_stops_a_busy_loop(env: &Env) -> Result<(), String> {
    let o = run(env, "spin", limits(|l| l.cpu = Duration::from_millis(700)))?;
    ensure(
        o.limit == Some(LimitHit::Cpu) && o.status == ExitStatus::Signaled(SIGKILL),
        "cpu",
        &o,
    )?;
    ensure(
        o.cpu >= Duration::from_millis(700) && o.cpu < Duration::from_secs(2),
        "cpu used",
        &o,
    )
}

fn wall_limit_stops_a_sleeper(env: &Env) -> Result<(), String> {
    let o = run(
        env,
        "sleep",
        limits(|l| l.wall = Duration::from_millis(500)),
    )?;
    ensure(
        o.limit == Some(LimitHit::Wall) && o.status == ExitStatus::Signaled(SIGKILL),
        "wall",
        &o,
    )?;
    ensure(o.wall < Duration::from_secs(2), "stopped promptly", &o)
}

fn output_flood_is_capped(env: &Env) -> Result<(), String> {
    let o = run(env, "flood", limits(|l| l.stdout_bytes = 64 << 10))?;
    ensure(o.limit == Some(LimitHit::Stdout), "stdout limit", &o)?;
    ensure(o.stdout.len() == 64 << 10, "exactly the cap kept", &o)
}

/// RLIMIT_FSIZE: the write fails with EFBIG and the kernel sends SIGXFSZ, whose default
/// action ends the program (it is not pid 1, so the signal is not ignored).
fn large_file_is_stopped(env: &Env) -> Result<(), String> {
    let o = run(env, "bigfile", limits(|l| l.memory_bytes = 256 << 20))?;
    ensure(o.status == ExitStatus::Signaled(SIGXFSZ), "SIGXFSZ", &o)?;
    ensure(
        o.limit == Some(LimitHit::FileSize),
        "file size limit reported",
        &o,
    )
}

fn signals_reach_nothing(env: &Env) -> Result<(), String> {
    let o = run(env, "killer", Limits::run_default())?;
    let out = stdout(&o);
    ensure(
        o.status.success() && out.contains("still alive"),
        "survives its own kills",
        &o,
    )?;
    ensure(
        line(&out, "parent ") == "parent 1",
        "parent is the sandbox's init",
        &o,
    )?;
    for what in ["kill(1)", "kill(-1)", "kill(parent)"] {
        ensure(line(&out, what).contains("refused"), what, &o)?;
    }
    Ok(())
}

fn exit_125_is_the_programs(env: &Env) -> Result<(), String> {
    let o = run(env, "exit125", Limits::run_default())?;
    ensure(
        o.status == ExitStatus::Exited(125),
        "program's own exit code",
        &o,
    )
}

fn setup_failure_is_an_error(env: &Env) -> Result<(), String> {
    let expect_setup = |job: &Job, what: &str| match env.sandbox.run(job, &mut NoWatch) {
        Err(SandboxError::Setup { stage, message }) => {
            println!("{what}: setup error in {stage}: {message}");
            Ok(())
        }
        other => Err(format!("{what}: expected a setup error, got {other:?}")),
    };
    let mut job = run_job(env, "hello", Limits::run_default())?;
    job.argv = vec!["/missing".into()];
    expect_setup(&job, "execve of a missing program")?;
    let mut job = run_job(env, "hello", Limits::run_default())?;
    job.cwd = "/no/such/dir".into();
    expect_setup(&job, "chdir into a missing cwd")?;
    let mut job = run_job(env, "hello", Limits::run_default())?;
    job.profile = Profile::Run {
        program: "/etc/shadow-not-there".into(),
    };
    match env.sandbox.run(&job, &mut NoWatch) {
        Err(SandboxError::Io { .. } | SandboxError::InvalidJob(_)) => Ok(()),
        other => Err(format!(
            "missing program file: expected an error, got {other:?}"
        )),
    }
}

/// A stage binary whose `main` does not dispatch to the stages is caught by the probe,
/// before any job runs.
fn stage_exe_that_is_not_a_stage_is_refused(_: &Env) -> Result<(), String> {
    let config = SandboxConfig {
        stage_exe: "/bin/true".into(),
        ..test_config(48)
    };
    match Sandbox::new(config) {
        Err(SandboxError::Unsupported(m)) if m.contains("run_stage_if_requested") => Ok(()),
        other => Err(format!("expected a probe error, got {other:?}")),
    }
}

fn deadline_stops_the_job(env: &Env) -> Result<(), String> {
    struct ThreeTicks {
        ticks: usize,
        chunks: usize,
        started: Instant,
    }
    impl Watch for ThreeTicks {
        fn on_stdout(&mut self, chunk: &[u8]) {
            self.chunks += 1;
            self.ticks += chunk.iter().filter(|b| **b == b'\n').count();
        }
        fn deadline(&self) -> Option<Instant> {
            Some(if self.ticks >= 3 {
                self.started
            } else {
                self.started + Duration::from_secs(5)
            })
        }
    }
    let job = run_job(env, "ticker", Limits::run_default())?;
    let mut watch = ThreeTicks {
        ticks: 0,
        chunks: 0,
        started: Instant::now(),
    };
    let o = env
        .sandbox
        .run(&job, &mut watch)
        .map_err(|e| e.to_string())?;
    ensure(o.limit == Some(LimitHit::Deadline), "deadline", &o)?;
    ensure(
        watch.chunks >= 3 && stdout(&o).starts_with("tick 0\ntick 1\ntick 2\n"),
        "streamed",
        &o,
    )?;
    ensure(
        o.wall < Duration::from_secs(2),
        "stopped at the deadline",
        &o,
    )
}

fn compile_cannot_read_host_files(env: &Env) -> Result<(), String> {
    let (o, _dir) = compile_in_sandbox(env, "shadow")?;
    ensure(o.status == ExitStatus::Exited(1), "compile fails", &o)?;
    ensure(
        String::from_utf8_lossy(&o.stderr).contains("couldn't read `/etc/shadow`"),
        "no /etc",
        &o,
    )
}

fn compile_sees_no_environment(env: &Env) -> Result<(), String> {
    let o = run(env, "secret_env", Limits::run_default())?;
    ensure(
        stdout(&o) == "PATH=None HOME=None\n",
        "nothing baked in",
        &o,
    )
}

/// A symlink planted in the build dir (the sandbox could not make one itself: no symlink
/// syscalls, no Landlock right) is refused by the trusted side, never followed.
fn planted_symlink_is_not_followed(env: &Env) -> Result<(), String> {
    let (o, dir) = compile_in_sandbox(env, "hello")?;
    ensure(o.status.success(), "compiles", &o)?;
    let shadow_before = fs::read("/etc/shadow").map_err(|e| e.to_string())?;
    fs::remove_file(dir.path().join("out")).map_err(|e| e.to_string())?;
    std::os::unix::fs::symlink("/etc/shadow", dir.path().join("out")).map_err(|e| e.to_string())?;
    match dir.read("out", 1 << 20) {
        Err(SandboxError::UnsafeOutput { reason, .. }) if reason.contains("symlink") => {}
        other => return Err(format!("read through the symlink: {other:?}")),
    }
    let dest = env.dir.join("planted-copy");
    if dir.copy_out("out", &dest, 1 << 20, 0o644).is_ok() || dest.exists() {
        return Err("copy_out followed the symlink".into());
    }
    let path = dir.path().to_path_buf();
    drop(dir);
    if path.exists() || fs::read("/etc/shadow").map_err(|e| e.to_string())? != shadow_before {
        return Err("removing the build dir touched the symlink's target".into());
    }
    Ok(())
}

/// The compile profile's read-only binds: a library compiled (in the sandbox) earlier,
/// bound at /deps like the prebuilt katas rlib.
fn compile_with_read_only_deps(env: &Env) -> Result<(), String> {
    let lib_args = [
        "--edition",
        "2024",
        "--crate-type",
        "rlib",
        "--crate-name",
        "dep",
    ];
    let lib_args = [
        &lib_args[..],
        &["-o", "/build/libdep.rlib", "/build/main.rs"],
    ]
    .concat();
    let (o, lib_dir) = compile_with(env, "dep_lib", &lib_args, vec![])?;
    ensure(o.status.success(), "library compiles", &o)?;
    let deps = env.dir.join("deps");
    fs::create_dir_all(&deps).map_err(|e| e.to_string())?;
    lib_dir
        .copy_out("libdep.rlib", &deps.join("libdep.rlib"), 16 << 20, 0o644)
        .map_err(|e| e.to_string())?;
    let args = [&["--extern", "dep=/deps/libdep.rlib"], BIN_ARGS].concat();
    let (o, dir) = compile_with(env, "uses_dep", &args, vec![(deps, "/deps".into())])?;
    ensure(o.status.success(), "program against /deps compiles", &o)?;
    let bin = env.dir.join("uses_dep");
    dir.copy_out("out", &bin, 64 << 20, 0o755)
        .map_err(|e| e.to_string())?;
    let job = Job {
        profile: Profile::Run { program: bin },
        ..run_job(env, "hello", Limits::run_default())?
    };
    let o = env
        .sandbox
        .run(&job, &mut NoWatch)
        .map_err(|e| e.to_string())?;
    ensure(stdout(&o) == "answer 42\n", "runs", &o)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Sandboxed vs plain: rustc on the same file, and the compiled program, alternating in the
/// same run. Prints the figures; fails only on gross overhead. (Most precise alone:
/// `cargo test -p graders --test sandbox -- overhead --test-threads 1`.)
fn overhead(env: &Env) -> Result<(), String> {
    let toolchain = env.sandbox.toolchain().map_err(|e| e.to_string())?;
    let bin = program(env, "hello")?;
    let src = fs::read(source("hello")).map_err(|e| e.to_string())?;
    let plain_dir = env.dir.join("plain");
    fs::create_dir_all(&plain_dir).map_err(|e| e.to_string())?;
    fs::write(plain_dir.join("main.rs"), &src).map_err(|e| e.to_string())?;
    let gcc_ld = toolchain
        .sysroot
        .join(format!("lib/rustlib/{}/bin/gcc-ld", toolchain.target));
    let plain_rustc = || {
        std::process::Command::new(toolchain.sysroot.join("bin/rustc"))
            .args(["--edition", "2024", "-C", "opt-level=1"])
            .arg(format!("-Clinker={}", toolchain.linker.display()))
            .args(["-C", "link-arg=-fuse-ld=lld"])
            .arg(format!("-Clink-arg=-B{}", gcc_ld.display()))
            .arg("-o")
            .arg(plain_dir.join("out"))
            .arg(plain_dir.join("main.rs"))
            .env_clear()
            .status()
    };
    let (mut plain, mut boxed, mut plain_run, mut boxed_run) = (vec![], vec![], vec![], vec![]);
    for _ in 0..5 {
        let t = Instant::now();
        let st = plain_rustc().map_err(|e| e.to_string())?;
        plain.push(t.elapsed());
        if !st.success() {
            return Err(format!("plain rustc failed: {st}"));
        }
        let t = Instant::now();
        let (o, _dir) = compile_in_sandbox(env, "hello")?;
        boxed.push(t.elapsed());
        ensure(o.status.success(), "sandboxed rustc", &o)?;
    }
    for _ in 0..10 {
        let t = Instant::now();
        std::process::Command::new(&bin)
            .output()
            .map_err(|e| e.to_string())?;
        plain_run.push(t.elapsed());
        let t = Instant::now();
        run(env, "hello", Limits::run_default())?;
        boxed_run.push(t.elapsed());
    }
    let (p, b) = (median(plain), median(boxed));
    let (pr, br) = (median(plain_run), median(boxed_run));
    println!(
        "overhead: rustc plain {p:?} sandboxed {b:?} (x{:.2}); run plain {pr:?} sandboxed {br:?} (+{:?})",
        b.as_secs_f64() / p.as_secs_f64(),
        br.saturating_sub(pr)
    );
    if b > p * 2 + Duration::from_millis(300) {
        return Err(format!("sandboxed rustc {b:?} vs plain {p:?}"));
    }
    Ok(())
}

fn concurrent_jobs(env: &Env) -> Result<(), String> {
    program(env, "hello")?;
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|t| {
                s.spawn(move || -> Result<(), String> {
                    for i in 0..3 {
                        let mut job = run_job(env, "hello", Limits::run_default())?;
                        job.stdin = format!("thread {t} job {i}\n").into_bytes();
                        let o = env
                            .sandbox
                            .run(&job, &mut NoWatch)
                            .map_err(|e| e.to_string())?;
                        let want = format!("hello from sandbox\nthread {t} job {i}\n");
                        ensure(o.status.success() && stdout(&o) == want, "own output", &o)?;
                    }
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| "worker panicked".to_string())?)
    })
}

fn main() -> ExitCode {
    run_stage_if_requested();
    let args = Arguments::from_args();
    let checks: [(&'static str, Check); 27] = [
        ("hello", hello),
        ("gpu_profile_is_minimal_too", gpu_profile_is_minimal_too),
        ("identity_and_environment", identity_and_environment),
        (
            "filesystem_is_minimal_and_read_only",
            filesystem_is_minimal_and_read_only,
        ),
        ("network_is_unreachable", network_is_unreachable),
        ("fork_is_refused", fork_is_refused),
        ("thread_bomb_is_contained", thread_bomb_is_contained),
        (
            "fork_bomb_is_contained_and_cleaned_up",
            fork_bomb_is_contained_and_cleaned_up,
        ),
        (
            "dead_holders_leftovers_are_removed",
            dead_holders_leftovers_are_removed,
        ),
        (
            "warm_chains_are_replaced_and_released",
            warm_chains_are_replaced_and_released,
        ),
        ("huge_allocation_is_refused", huge_allocation_is_refused),
        ("memory_limit_is_reported", memory_limit_is_reported),
        ("cpu_limit_stops_a_busy_loop", cpu_limit_stops_a_busy_loop),
        ("wall_limit_stops_a_sleeper", wall_limit_stops_a_sleeper),
        ("output_flood_is_capped", output_flood_is_capped),
        ("large_file_is_stopped", large_file_is_stopped),
        ("signals_reach_nothing", signals_reach_nothing),
        ("exit_125_is_the_programs", exit_125_is_the_programs),
        ("setup_failure_is_an_error", setup_failure_is_an_error),
        (
            "stage_exe_that_is_not_a_stage_is_refused",
            stage_exe_that_is_not_a_stage_is_refused,
        ),
        ("deadline_stops_the_job", deadline_stops_the_job),
        (
            "compile_cannot_read_host_files",
            compile_cannot_read_host_files,
        ),
        ("compile_sees_no_environment", compile_sees_no_environment),
        (
            "planted_symlink_is_not_followed",
            planted_symlink_is_not_followed,
        ),
        ("compile_with_read_only_deps", compile_with_read_only_deps),
        ("concurrent_jobs", concurrent_jobs),
        ("overhead", overhead),
    ];
    let trials = checks
        .into_iter()
        .map(|(name, check)| trial(name, check))
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    let _ = fs::remove_dir_all(scratch_dir());
    conclusion.exit_code()
}
