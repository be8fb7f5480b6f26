//! The prebuilt libraries programs link against (the compiler itself, as the sandbox sees it,
//! is `sandbox::Toolchain`): `katas-runtime` alone, which a CPU kata's library (and so a
//! learner's program for it) links beside the kata's own logic; `katas-runtime` with `cuda`,
//! which a GPU kata's library links the same way; and `katas` with `custom` and `cuda`, which
//! a kata's judge links (it reads learners' custom input as JSON, and a GPU kata's checker is
//! the harness's) and no learner's program does. A CPU submission's link then reads neither
//! cudarc nor toml/winnow nor the catalogue: an rlib's codegen units pull one another into the
//! link before the linker's GC drops what is unused, so what is compiled in is what the link
//! pays.
//!
//! The library must come from the very `rustc` that compiles submissions (else E0514), so it is
//! built with `cargo` driving that compiler, into a target dir of its own (never the
//! workspace's, whose lock a running `cargo test` may hold). A successful preparation is
//! recorded in `prepared.json` beside it; the next start reuses it without running `cargo` or
//! `rustc` when nothing it was made from has changed (the catalogue, `Cargo.lock`, the
//! compiler's files, the library's file), so `infrakata grade` starts in milliseconds. A grader
//! keeps the toolchain it prepared with until that toolchain's files change (`rustup update`)
//! or the record is removed; switching rustup's default does not move an existing cache.

use crate::GradeError;
use crate::sandbox::{self, Sandbox};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::UNIX_EPOCH;

/// The record of a finished preparation, beside the library's target dir.
const RECORD: &str = "prepared.json";
/// The library's dependencies a package's files may use (`crate::package`): serde for the
/// wire format, fastrand for case generation.
pub const PACKAGE_CRATES: [&str; 2] = ["serde", "fastrand"];
/// Bumped when the record's meaning changes.
const RECORD_VERSION: &str = "prepared v8";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Toolchain {
    /// `rustc -vV`, part of every cache key.
    pub version: String,
    /// `katas-runtime`, built alone: all a CPU kata's library (and so a learner's program for
    /// it) links besides [`PACKAGE_CRATES`] — no catalogue, no judge, no authoring tool.
    pub runtime: Prebuilt,
    /// `katas-runtime` with `cuda`: the same for a GPU kata's library, with the CUDA calls.
    pub gpu_runtime: Prebuilt,
    /// `katas` with `custom` and `cuda`, which every package's judge links.
    pub judge: Prebuilt,
    /// Folder with every rlib here and all their dependencies (`-L dependency=`).
    pub deps_dir: PathBuf,
    /// This start reused an earlier preparation (no `cargo`, no `rustc` run).
    #[serde(skip)]
    pub reused: bool,
}

/// One prebuilt library and what a crate linking it is given beside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prebuilt {
    /// The hashed `lib*.rlib` in [`Toolchain::deps_dir`].
    pub rlib: PathBuf,
    /// Hash of `rlib`: part of the cache key of everything built against it.
    pub hash: String,
    /// The crates a package's files may name beside `katas` and std ([`PACKAGE_CRATES`]): the
    /// very rlibs `rlib` links, so a package's derived wire format is the runtime's.
    pub crates: Vec<(String, PathBuf)>,
}

impl Toolchain {
    /// What a kata of `kind`'s library (and so its learners' programs) links.
    pub fn runtime_for(&self, kind: katas::KataKind) -> &Prebuilt {
        match kind {
            katas::KataKind::Gpu => &self.gpu_runtime,
            _ => &self.runtime,
        }
    }
}

/// What `prepared.json` holds: the result and what it was made from.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    key: String,
    compiler: sandbox::Toolchain,
    rustc: Stamp,
    /// The runtime's, the GPU runtime's and the judges' rlibs, in that order.
    rlibs: [Stamp; 3],
    toolchain: Toolchain,
}

/// A file as it was: a replaced or rewritten file gets a new length or modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    len: u64,
    modified_ns: u128,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(Stamp {
            len: meta.len(),
            modified_ns: modified.as_nanos(),
        })
    }
}

impl Toolchain {
    /// The prebuilt libraries for this checkout, built with the compiler `sandbox` compiles
    /// submissions with — or the one an earlier start recorded, when still valid.
    pub fn prepare(
        sandbox: &Sandbox,
        workspace_root: &Path,
        target_dir: &Path,
    ) -> Result<Self, GradeError> {
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
        let key = record_key(sandbox, workspace_root);
        let record_path = target_dir.join(RECORD);
        if let Some(record) = read_record(&record_path)
            && record.key == key
            && Stamp::of(&record.compiler.rustc_host()) == Some(record.rustc)
            && record.toolchain.prebuilt().map(|p| Stamp::of(&p.rlib)) == record.rlibs.map(Some)
            && sandbox.adopt_toolchain(record.compiler.clone())
        {
            return Ok(Toolchain {
                reused: true,
                ..record.toolchain
            });
        }
        let compiler = sandbox.toolchain()?.clone();
        let toolchain = build(workspace_root, target_dir, &compiler)?;
        let record = Record {
            key,
            rustc: Stamp::of(&compiler.rustc_host())
                .ok_or_else(|| GradeError::Toolchain("the compiler vanished".into()))?,
            rlibs: stamps(&toolchain)?,
            compiler,
            toolchain: toolchain.clone(),
        };
        write_record(&record_path, &record)
            .map_err(|e| GradeError::io("recording the prepared library", e))?;
        Ok(toolchain)
    }
}

/// What a preparation depends on besides files with stamps: the catalogue this binary was
/// built with, the locked dependency versions, and how the sandbox finds its compiler.
fn record_key(sandbox: &Sandbox, workspace_root: &Path) -> String {
    let mut h = Sha256::new();
    h.update(RECORD_VERSION);
    h.update(katas::CATALOGUE_HASH);
    h.update(std::fs::read(workspace_root.join("Cargo.lock")).unwrap_or_default());
    h.update(format!("{:?}", sandbox.compiler_choice()));
    hex(&h.finalize())
}

fn read_record(path: &Path) -> Option<Record> {
    let text = std::fs::read(path).ok()?;
    // Ours, but a damaged or huge file is simply not reused.
    (text.len() < 64 << 10)
        .then(|| serde_json::from_slice(&text).ok())
        .flatten()
}

fn write_record(path: &Path, record: &Record) -> std::io::Result<()> {
    let json = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    std::fs::write(&partial, json)?;
    std::fs::rename(&partial, path)
}

impl Toolchain {
    /// The prebuilt libraries, in the record's order.
    fn prebuilt(&self) -> [&Prebuilt; 3] {
        [&self.runtime, &self.gpu_runtime, &self.judge]
    }
}

fn stamps(toolchain: &Toolchain) -> Result<[Stamp; 3], GradeError> {
    let [a, b, c] = toolchain.prebuilt().map(|p| Stamp::of(&p.rlib));
    match (a, b, c) {
        (Some(a), Some(b), Some(c)) => Ok([a, b, c]),
        _ => Err(GradeError::Toolchain(
            "a prebuilt library vanished as it was built".into(),
        )),
    }
}

/// Builds the three libraries (release, without `solutions`) with `compiler`.
fn build(
    workspace_root: &Path,
    target_dir: &Path,
    compiler: &sandbox::Toolchain,
) -> Result<Toolchain, GradeError> {
    let rustc = compiler.rustc_host();
    let version = output(Command::new(&rustc).arg("-vV"))?;
    let cargo = |package: &str, features: Option<&str>| {
        cargo_build(workspace_root, target_dir, &rustc, package, features)
    };
    let runtime = cargo("katas-runtime", None)?;
    let gpu_runtime = cargo("katas-runtime", Some("cuda"))?;
    let judge = cargo("katas", Some("custom,cuda"))?;
    let deps_dir = runtime
        .rlib
        .parent()
        .ok_or_else(|| GradeError::Toolchain("rlib has no folder".into()))?
        .to_path_buf();
    for other in [&gpu_runtime, &judge] {
        if other.rlib.parent() != Some(deps_dir.as_path()) {
            return Err(GradeError::Toolchain(format!(
                "the prebuilt libraries landed in different folders: {} and {}",
                runtime.rlib.display(),
                other.rlib.display()
            )));
        }
    }
    Ok(Toolchain {
        version,
        runtime,
        gpu_runtime,
        judge,
        deps_dir,
        reused: false,
    })
}

/// One `cargo build` of the library of `package` with only `features`: the hashed rlib it
/// made, its hash, and the rlibs of [`PACKAGE_CRATES`] as it links them.
fn cargo_build(
    workspace_root: &Path,
    target_dir: &Path,
    rustc: &Path,
    package: &str,
    features: Option<&str>,
) -> Result<Prebuilt, GradeError> {
    let mut cargo = Command::new("cargo");
    cargo
        .current_dir(workspace_root)
        // Without `solutions`: a submission must not reach the reference or the wrong
        // solutions (re-exporting the reference would pass every case).
        .args([
            "build",
            "--release",
            "--quiet",
            "-p",
            package,
            "--lib",
            "--no-default-features",
            "--message-format=json",
        ]);
    if let Some(features) = features {
        cargo.args(["--features", features]);
    }
    let built = output(
        cargo
            .arg("--target-dir")
            .arg(target_dir)
            // The compiler submissions are compiled with, not whatever rustup picks for cargo.
            .env("RUSTC", rustc)
            // Outer flags (e.g. from a developer's shell) would make the library differ from
            // what submissions are compiled with.
            .env_remove("RUSTC_WRAPPER")
            .env_remove("RUSTFLAGS")
            // The library's panic locations and `file!()`s name neutral paths, not the host's
            // checkout or cargo home: a submission links it and could print them.
            .env(
                "CARGO_ENCODED_RUSTFLAGS",
                remap_flags(workspace_root).join("\u{1f}"),
            )
            .env_remove("INFRAKATA_WORKSPACE"),
    )?;
    let artifacts: Vec<serde_json::Value> = built
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .collect();
    let name = package.replace('-', "_");
    let library = artifacts
        .iter()
        .find(|m| m["target"]["name"] == name.as_str())
        .ok_or_else(|| GradeError::Toolchain(format!("cargo built no {name} rlib")))?;
    // The build script's own serde is built with the build-override profile: the library's is
    // the one built with the library's profile.
    let crates = PACKAGE_CRATES
        .iter()
        .map(|&krate| {
            let artifact = artifacts
                .iter()
                .find(|m| m["target"]["name"] == krate && m["profile"] == library["profile"])
                .ok_or_else(|| GradeError::Toolchain(format!("cargo reported no {krate} rlib")))?;
            Ok((krate.to_string(), hashed_rlib(artifact, krate)?))
        })
        .collect::<Result<_, GradeError>>()?;
    let rlib = hashed_rlib(library, &name)?;
    Ok(Prebuilt {
        hash: file_hash(&rlib)?,
        rlib,
        crates,
    })
}

/// The hashed rlib in the deps folder, which dependents must name: cargo reports
/// `release/libNAME.rlib` (a hard-linked copy) and the deps rmeta.
fn hashed_rlib(artifact: &serde_json::Value, name: &str) -> Result<PathBuf, GradeError> {
    artifact["filenames"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f.as_str().map(PathBuf::from))
        .find_map(|f| {
            let rmeta = f.file_name()?.to_str()?.strip_suffix(".rmeta")?.to_string();
            Some(f.with_file_name(format!("{rmeta}.rlib")))
        })
        .ok_or_else(|| GradeError::Toolchain(format!("cargo built no {name} rlib")))
}

/// `--remap-path-prefix` for every host folder the library's sources come from.
fn remap_flags(workspace_root: &Path) -> Vec<String> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let mut flags = vec![format!(
        "--remap-path-prefix={}=/katas-source",
        workspace_root.display()
    )];
    if let Some(home) = cargo_home {
        flags.push(format!("--remap-path-prefix={}=/cargo", home.display()));
    }
    flags
}

fn file_hash(path: &Path) -> Result<String, GradeError> {
    let bytes = std::fs::read(path)
        .map_err(|e| GradeError::Toolchain(format!("{}: {e}", path.display())))?;
    Ok(hex(&Sha256::digest(&bytes)))
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
