//! What each [`Profile`] sees: mounts, Landlock rules and syscall list, decided on the
//! trusted side and checked before anything runs.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::spec::{Access, Mount, Syscalls};
use super::toolchain::{BUILD_INSIDE, LLD_DIR_INSIDE, SYSROOT_INSIDE, Toolchain};
use super::{Job, Profile, SandboxError};

/// The ELF interpreter of dynamically linked x86_64 programs.
const DYNAMIC_LOADER: &str = "/lib64/ld-linux-x86-64.so.2";
/// Where glibc's loader looks for libraries when there is no `/etc/ld.so.cache` (its built-in
/// system folders: the multiarch ones of Debian first, then those of other distributions).
const LIBRARY_DIRS: [&str; 4] = [
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
];
/// What a Rust program linked like a plain `rustc` program (std static, glibc dynamic) can
/// load: libc, libm (float maths) and libgcc_s (unwinding). A submission cannot add to them:
/// `#[link]` needs an `unsafe extern` block, which the runner's `forbid(unsafe_code)` refuses.
const RUNTIME_LIBRARIES: [&str; 3] = ["libc.so.6", "libm.so.6", "libgcc_s.so.1"];
/// valgrind's core preload, which it adds to a dynamically linked program's `LD_PRELOAD`
/// (looked for beside the tool; without it the loader prints a line to the program's stderr).
const VALGRIND_PRELOAD: &str = "vgpreload_core-amd64-linux.so";

pub(crate) struct Layout {
    pub mounts: Vec<Mount>,
    pub landlock: Vec<(PathBuf, Access)>,
    pub syscalls: Syscalls,
    /// Variables the profile itself needs, after the job's own.
    pub env: Vec<(String, String)>,
}

impl Layout {
    fn bind(&mut self, host: &Path, inside: &str, access: Access) {
        let writable = access == Access::ReadWrite;
        self.mounts.push(Mount::Bind {
            host: host.into(),
            inside: inside.into(),
            writable,
        });
        self.landlock.push((inside.into(), access));
    }

    /// The program at `/prog`, copied rather than bound: a bind would show its host path in
    /// `/proc/self/mountinfo`.
    fn program(&mut self, host: &Path, access: Access) {
        self.mounts.push(Mount::Copy {
            host: host.into(),
            inside: "/prog".into(),
        });
        self.landlock.push(("/prog".into(), access));
    }

    /// `/usr` read-only and the host's `/lib`, `/lib64`, `/bin`: links into `/usr` on
    /// merged-/usr systems (Debian since bookworm), read-only directories elsewhere.
    fn usr_and_links(&mut self, access: Access) -> Result<(), SandboxError> {
        self.bind(Path::new("/usr"), "/usr", access);
        for top in ["/lib", "/lib64", "/bin"] {
            match fs::symlink_metadata(top) {
                Ok(m) if m.is_symlink() => {
                    let target = fs::read_link(top)
                        .map_err(|e| SandboxError::io(format!("readlink {top}"), e))?;
                    self.mounts.push(Mount::Symlink {
                        target,
                        inside: top.into(),
                    });
                }
                Ok(m) if m.is_dir() => self.bind(Path::new(top), top, access),
                _ => {}
            }
        }
        Ok(())
    }

    /// Exactly the files a glibc-dynamic program loads, read-only, each at the path the loader
    /// opens: the loader at its `PT_INTERP` path (`loader`: executable where the kernel maps it
    /// for an `execve`d program — Landlock's execute right covers the interpreter —, readable
    /// where a tool loads the program itself) and the runtime libraries, each at the first
    /// folder of the loader's search that holds it on the host. Nothing else of `/usr`.
    fn dynamic_runtime(&mut self, loader: Access) -> Result<(), SandboxError> {
        let real = fs::canonicalize(DYNAMIC_LOADER)
            .map_err(|e| SandboxError::io(format!("the dynamic loader {DYNAMIC_LOADER}"), e))?;
        self.bind(&real, DYNAMIC_LOADER, loader);
        for name in RUNTIME_LIBRARIES {
            let found = LIBRARY_DIRS
                .iter()
                .map(|dir| Path::new(dir).join(name))
                .find(|path| path.is_file())
                .ok_or_else(|| {
                    SandboxError::io(
                        format!("{name} in {LIBRARY_DIRS:?}"),
                        std::io::ErrorKind::NotFound.into(),
                    )
                })?;
            let real = fs::canonicalize(&found)
                .map_err(|e| SandboxError::io(format!("{}", found.display()), e))?;
            let inside = found.to_string_lossy().into_owned();
            self.bind(&real, &inside, Access::Read);
        }
        Ok(())
    }

    /// tmpfs `/tmp`: its pages count against the group's memory, so its size is the memory
    /// limit.
    fn tmp(&mut self, memory_bytes: u64) {
        self.mounts.push(Mount::Tmpfs {
            inside: "/tmp".into(),
            bytes: memory_bytes,
        });
        self.landlock.push(("/tmp".into(), Access::ReadWrite));
    }

    /// [`Self::tmp`] and the job's own `/proc`.
    fn tmp_and_proc(&mut self, memory_bytes: u64) {
        self.tmp(memory_bytes);
        self.mounts.push(Mount::Proc {
            inside: "/proc".into(),
        });
        self.landlock.push(("/proc".into(), Access::Read));
    }
}

pub(crate) fn layout(job: &Job, toolchain: Option<&Toolchain>) -> Result<Layout, SandboxError> {
    let mut l = Layout {
        mounts: Vec::new(),
        landlock: Vec::new(),
        syscalls: Syscalls::Run,
        env: Vec::new(),
    };
    match &job.profile {
        Profile::Run { program } => {
            l.program(program, Access::ReadExec);
            l.dynamic_runtime(Access::ReadExec)?;
            l.tmp_and_proc(job.limits.memory_bytes);
        }
        Profile::Compile {
            build_dir,
            read_only,
        } => {
            let toolchain = toolchain.ok_or_else(|| invalid("compile job without toolchain"))?;
            l.syscalls = Syscalls::Compile;
            l.bind(&toolchain.sysroot, SYSROOT_INSIDE, Access::ReadExec);
            l.bind(
                &toolchain.lld_host(),
                &format!("{LLD_DIR_INSIDE}/ld.lld"),
                Access::ReadExec,
            );
            l.usr_and_links(Access::ReadExec)?;
            l.bind(build_dir, BUILD_INSIDE, Access::ReadWrite);
            for (host, inside) in read_only {
                let inside = inside_path(inside)?;
                l.bind(host, &inside, Access::Read);
            }
            // No `/proc`: its mountinfo names every bind's host path (the toolchain's, the build
            // folder's), and `include_bytes!` would bake it into the program. rustc is given
            // its sysroot; the dynamic loader, which finds rustc's libraries through `$ORIGIN`
            // (read from /proc/self/exe), is told where they are instead.
            l.tmp(job.limits.memory_bytes);
            l.env
                .push(("LD_LIBRARY_PATH".into(), format!("{SYSROOT_INSIDE}/lib")));
        }
        Profile::Tool { work_dir, program } => {
            l.syscalls = Syscalls::Compile;
            l.usr_and_links(Access::ReadExec)?;
            l.bind(work_dir, BUILD_INSIDE, Access::ReadWrite);
            if let Some(program) = program {
                l.program(program, Access::ReadExec);
            }
            // No `/proc`, for the reason `Compile` has none: it would name the host's paths.
            l.tmp(job.limits.memory_bytes);
        }
        Profile::Measure { program, tool } => {
            l.syscalls = Syscalls::Measure;
            l.program(program, Access::Read);
            l.bind(tool, super::MEASURE_TOOL_INSIDE, Access::ReadExec);
            // valgrind maps the program's loader and libraries itself: read, never execute.
            l.dynamic_runtime(Access::Read)?;
            if let Some(preload) = tool
                .parent()
                .map(|dir| dir.join(VALGRIND_PRELOAD))
                .filter(|p| p.is_file())
            {
                let inside = preload.to_string_lossy().into_owned();
                l.bind(&preload, &inside, Access::Read);
            }
            l.tmp_and_proc(job.limits.memory_bytes);
        }
        Profile::Gpu {
            program,
            libraries,
            devices,
        } => {
            l.syscalls = Syscalls::Gpu;
            l.program(program, Access::ReadExec);
            // Libraries are mapped, never executed: only the dynamic loader (which Landlock
            // treats as executed along with /prog) gets the execute right.
            l.usr_and_links(Access::Read)?;
            let loader = fs::canonicalize(DYNAMIC_LOADER)
                .map_err(|e| SandboxError::io(format!("the dynamic loader {DYNAMIC_LOADER}"), e))?;
            l.landlock.push((loader, Access::ReadExec));
            for (host, inside) in libraries.iter().filter(|(h, _)| !h.starts_with("/usr")) {
                let inside = inside_path(inside)?;
                if inside == "/tmp" || inside.starts_with("/tmp/") || inside.starts_with("/proc") {
                    return Err(invalid(format!("library folder at {inside}: mounted over")));
                }
                l.bind(host, &inside, Access::Read);
            }
            for dev in devices {
                let inside = inside_path(dev)?;
                l.mounts.push(Mount::Device {
                    host: dev.clone(),
                    inside: inside.clone().into(),
                });
                l.landlock.push((inside.into(), Access::Device));
            }
            l.mounts.push(Mount::Tmpfs {
                inside: "/tmp".into(),
                bytes: job.limits.memory_bytes,
            });
            l.landlock.push(("/tmp".into(), Access::ReadWrite));
            l.mounts.push(Mount::ProcWithDriver {
                inside: "/proc".into(),
            });
            l.landlock.push(("/proc".into(), Access::Read));
        }
    }
    Ok(l)
}

fn invalid(message: impl Into<String>) -> SandboxError {
    SandboxError::InvalidJob(message.into())
}

/// An absolute, normal path below `/` inside the sandbox.
fn inside_path(path: &Path) -> Result<String, SandboxError> {
    let ok = path.is_absolute()
        && path
            .components()
            .skip(1)
            .all(|c| matches!(c, Component::Normal(_)))
        && path.components().count() > 1;
    match path.to_str() {
        Some(s) if ok => Ok(s.to_string()),
        _ => Err(invalid(format!(
            "inside path {} must be absolute and normal",
            path.display()
        ))),
    }
}

/// Checks made before anything runs. Host paths the job binds are resolved by root when
/// mounted, so they must not be something a sandbox could have planted.
pub(crate) fn validate(job: &Job) -> Result<(), SandboxError> {
    let argv0 = job.argv.first().ok_or_else(|| invalid("empty argv"))?;
    if !argv0.starts_with('/') {
        return Err(invalid(format!(
            "argv[0] {argv0:?} must be an absolute path inside"
        )));
    }
    if !job.cwd.is_absolute() {
        return Err(invalid(format!(
            "cwd {} must be absolute",
            job.cwd.display()
        )));
    }
    let nul = job
        .argv
        .iter()
        .chain(job.env.iter().flat_map(|(k, v)| [k, v]))
        .any(|s| s.contains('\0'));
    if nul || job.env.iter().any(|(k, _)| k.is_empty() || k.contains('=')) {
        return Err(invalid(
            "NUL byte in argv/env, or an env name that is empty or has '='",
        ));
    }
    if job.limits.pids == 0 || job.limits.memory_bytes == 0 {
        return Err(invalid(
            "limits.pids and limits.memory_bytes must be positive",
        ));
    }
    match &job.profile {
        Profile::Run { program } => {
            let m = trusted(program)?;
            if !m.is_file() {
                return Err(invalid(format!(
                    "{} is not a regular file",
                    program.display()
                )));
            }
        }
        Profile::Measure { program, tool } => {
            for file in [program, tool] {
                if !trusted(file)?.is_file() {
                    return Err(invalid(format!("{} is not a regular file", file.display())));
                }
            }
        }
        Profile::Gpu {
            program,
            libraries,
            devices,
        } => {
            if !trusted(program)?.is_file() {
                return Err(invalid(format!(
                    "{} is not a regular file",
                    program.display()
                )));
            }
            for (host, inside) in libraries {
                inside_path(inside)?;
                if !fs::metadata(host).is_ok_and(|m| m.is_dir()) {
                    return Err(invalid(format!("{} is not a directory", host.display())));
                }
            }
            for dev in devices {
                use std::os::unix::fs::FileTypeExt;
                inside_path(dev)?;
                let m = fs::metadata(dev)
                    .map_err(|e| SandboxError::io(dev.display().to_string(), e))?;
                if !dev.starts_with("/dev/") || !m.file_type().is_char_device() {
                    return Err(invalid(format!(
                        "{} is not a character device under /dev",
                        dev.display()
                    )));
                }
            }
        }
        Profile::Tool { work_dir, program } => {
            if !trusted(work_dir)?.is_dir() {
                return Err(invalid(format!(
                    "{} is not a directory",
                    work_dir.display()
                )));
            }
            if let Some(program) = program
                && !trusted(program)?.is_file()
            {
                return Err(invalid(format!(
                    "{} is not a regular file",
                    program.display()
                )));
            }
        }
        Profile::Compile {
            build_dir,
            read_only,
        } => {
            if !trusted(build_dir)?.is_dir() {
                return Err(invalid(format!(
                    "{} is not a directory",
                    build_dir.display()
                )));
            }
            for (host, inside) in read_only {
                fs::metadata(host).map_err(|e| SandboxError::io(host.display().to_string(), e))?;
                inside_path(inside)?;
            }
        }
    }
    Ok(())
}

/// `path` itself (not followed) must exist, not be a symlink and belong to root.
fn trusted(path: &Path) -> Result<fs::Metadata, SandboxError> {
    let m = fs::symlink_metadata(path)
        .map_err(|e| SandboxError::io(format!("{}", path.display()), e))?;
    if m.is_symlink() || m.uid() != 0 {
        return Err(invalid(format!(
            "{} must be root-owned and not a symlink (never a path a sandbox could write)",
            path.display()
        )));
    }
    Ok(m)
}
