//! The prebuilt `katas` library submissions link against (the compiler itself, as the sandbox
//! sees it, is `sandbox::Toolchain`).
//!
//! The library must come from the very `rustc` that compiles submissions (else E0514), so it is
//! built here with `cargo` from the same toolchain, once per grader start, into a target dir of
//! its own (never the workspace's, whose lock a running `cargo test` may hold).

use crate::GradeError;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Clone)]
pub struct Toolchain {
    /// `rustc -vV`, part of every cache key.
    pub version: String,
    /// The prebuilt `libkatas-*.rlib`.
    pub katas_rlib: PathBuf,
    /// Folder with the rlib and all its dependencies (`-L dependency=`).
    pub deps_dir: PathBuf,
    /// Hash of the rlib: a changed catalogue invalidates cached binaries.
    pub katas_hash: String,
}

impl Toolchain {
    /// Finds `rustc` and builds the `katas` library (release) into `target_dir`.
    pub fn prepare(workspace_root: &Path, target_dir: &Path) -> Result<Self, GradeError> {
        // The runner library is built from this checkout; the trusted side is compiled into
        // this binary. They must be the same catalogue, or a judge would grade the wrong kata.
        let katas_dir = workspace_root.join("katas");
        let checkout = katas::layout::catalogue_fingerprint(&katas_dir)
            .map_err(|e| GradeError::io("fingerprinting the katas checkout", e))?;
        if checkout != katas::CATALOGUE_HASH {
            return Err(GradeError::Toolchain(format!(
                "the katas at {} (catalogue {checkout}) are not the ones this binary was built \
                 with (catalogue {}): rebuild infrakata from that checkout",
                katas_dir.display(),
                katas::CATALOGUE_HASH
            )));
        }
        let version = output(Command::new("rustc").arg("-vV"))?;
        let built = output(
            Command::new("cargo")
                .current_dir(workspace_root)
                // Without `solutions`: a submission must not reach the reference or the wrong
                // solutions (re-exporting the reference would pass every case).
                .args([
                    "build",
                    "--release",
                    "--quiet",
                    "-p",
                    "katas",
                    "--lib",
                    "--no-default-features",
                    "--message-format=json",
                ])
                .arg("--target-dir")
                .arg(target_dir)
                // Outer flags (e.g. from a developer's shell) would make the library differ from
                // what submissions are compiled with.
                .env_remove("RUSTFLAGS")
                .env_remove("CARGO_ENCODED_RUSTFLAGS")
                .env_remove("INFRAKATA_WORKSPACE"),
        )?;
        let katas_rlib = built
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "katas")
            .flat_map(|m| m["filenames"].as_array().cloned().unwrap_or_default())
            .filter_map(|f| f.as_str().map(PathBuf::from))
            .find_map(|f| {
                // cargo reports `release/libkatas.rlib` (a hard-linked copy) and the deps rmeta;
                // the deps folder holds the hashed rlib that dependents must name.
                let rmeta = f.file_name()?.to_str()?.strip_suffix(".rmeta")?.to_string();
                Some(f.with_file_name(format!("{rmeta}.rlib")))
            })
            .ok_or_else(|| GradeError::Toolchain("cargo built no katas rlib".into()))?;
        let deps_dir = katas_rlib
            .parent()
            .ok_or_else(|| GradeError::Toolchain("rlib has no folder".into()))?
            .to_path_buf();
        let bytes = std::fs::read(&katas_rlib)
            .map_err(|e| GradeError::Toolchain(format!("{}: {e}", katas_rlib.display())))?;
        let katas_hash = hex(&Sha256::digest(&bytes));
        Ok(Self {
            version,
            katas_rlib,
            deps_dir,
            katas_hash,
        })
    }
}

fn output(cmd: &mut Command) -> Result<String, GradeError> {
    let shown = format!("{cmd:?}");
    let out = cmd
        .output()
        .map_err(|e| GradeError::Toolchain(format!("{shown}: {e}")))?;
    if !out.status.success() {
        return Err(GradeError::Toolchain(format!(
            "{shown} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
