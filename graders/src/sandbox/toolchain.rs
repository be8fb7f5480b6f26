//! The Rust toolchain as compile jobs see it: the host sysroot bound read-only at `/rust`,
//! the C driver from `/usr` as linker, and rust-lld bound at `/lld/ld.lld`, where the C
//! driver's `-fuse-ld=lld` finds it and the name alone makes it the ELF linker. (rustc's own
//! `gcc-ld/ld.lld` is a wrapper that locates rust-lld through /proc/self/exe, and compile jobs
//! have no /proc.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::SandboxError;

/// Where the sysroot appears inside compile jobs.
pub const SYSROOT_INSIDE: &str = "/rust";
/// Where `Profile::Compile`'s `build_dir` appears inside.
pub const BUILD_INSIDE: &str = "/build";
/// The folder holding rust-lld as `ld.lld` inside compile jobs.
pub const LLD_DIR_INSIDE: &str = "/lld";

/// Resolved once per [`Sandbox`](super::Sandbox), on the first compile job (or adopted from
/// what an earlier grader start resolved, see `graders::toolchain`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Toolchain {
    /// Host path of the sysroot (`rustc --print sysroot`).
    pub sysroot: PathBuf,
    /// Host target tuple, e.g. `x86_64-unknown-linux-gnu`.
    pub target: String,
    /// The C driver under `/usr` (same path inside and out).
    pub linker: PathBuf,
}

impl Toolchain {
    pub(crate) fn detect(rustc: &Path, linker: Option<&Path>) -> Result<Toolchain, SandboxError> {
        let err = |m: String| SandboxError::Toolchain(m);
        // Trusted call in our own environment (rustup's proxy needs it), outside any sandbox.
        let out = Command::new(rustc)
            .args(["--print", "sysroot", "--print", "host-tuple"])
            .output()
            .map_err(|e| err(format!("{}: {e}", rustc.display())))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        let (Some(sysroot), Some(target)) = (lines.next(), lines.next()) else {
            return Err(err(format!(
                "{} printed no sysroot: {text:?}",
                rustc.display()
            )));
        };
        let sysroot = PathBuf::from(sysroot.trim());
        let toolchain = Toolchain {
            linker: match linker {
                Some(l) => l.to_path_buf(),
                None => find_linker()?,
            },
            sysroot,
            target: target.trim().to_string(),
        };
        for needed in [toolchain.sysroot.join("bin/rustc"), toolchain.lld_host()] {
            if !needed.exists() {
                return Err(err(format!("{} missing", needed.display())));
            }
        }
        if !toolchain.linker.starts_with("/usr") || !toolchain.linker.is_file() {
            return Err(err(format!(
                "linker {} must be a file under /usr (only /usr is mounted)",
                toolchain.linker.display()
            )));
        }
        Ok(toolchain)
    }

    /// The real compiler binary (not a rustup proxy).
    pub fn rustc_host(&self) -> PathBuf {
        self.sysroot.join("bin/rustc")
    }

    /// rust-lld on the host, bound at [`LLD_DIR_INSIDE`]`/ld.lld`.
    pub(crate) fn lld_host(&self) -> PathBuf {
        self.sysroot
            .join(format!("lib/rustlib/{}/bin/rust-lld", self.target))
    }

    /// `rustc` inside the sandbox.
    pub fn rustc_inside(&self) -> String {
        format!("{SYSROOT_INSIDE}/bin/rustc")
    }

    /// Flags every sandboxed rustc invocation needs: the sysroot's inside path and the
    /// linker. Programs link as a plain `rustc` program does (std static, glibc dynamic):
    /// the run sandbox holds exactly the loader and the runtime libraries (`layout.rs`), and
    /// linking against `libc.so` instead of `libc.a` is the cheaper link. An explicit
    /// `-C linker` makes rustc drop its own `-fuse-ld=lld -B<gcc-ld>`, so both come back by
    /// hand, pointing at [`LLD_DIR_INSIDE`] (without them collect2 looks for `ld` on a PATH the
    /// empty environment lacks).
    pub fn rustc_flags(&self) -> Vec<String> {
        [
            "--sysroot",
            SYSROOT_INSIDE,
            "-C",
            &format!("linker={}", self.linker.display()),
            "-C",
            "link-arg=-fuse-ld=lld",
            "-C",
            &format!("link-arg=-B{LLD_DIR_INSIDE}/"),
        ]
        .map(String::from)
        .to_vec()
    }
}

/// `/usr/bin/cc` with its links resolved on the host (`/etc/alternatives` is not mounted
/// inside), e.g. `/usr/bin/x86_64-linux-gnu-gcc-12`.
fn find_linker() -> Result<PathBuf, SandboxError> {
    for candidate in ["/usr/bin/cc", "/usr/bin/gcc"] {
        if let Ok(real) = fs::canonicalize(candidate)
            && real.starts_with("/usr")
        {
            return Ok(real);
        }
    }
    Err(SandboxError::Toolchain(
        "no C compiler driver under /usr (/usr/bin/cc); set SandboxConfig::linker".into(),
    ))
}
