//! Where things live inside a kata package folder. Shared with `build.rs`, so it uses only `std`
//! and the sibling `meta`/`verdict` modules.

use std::path::{Path, PathBuf};

pub const META_FILE: &str = "kata.toml";
pub const STATEMENT_FILE: &str = "README.md";
/// The statement in Chinese: the same sections, hints, code and backticked values.
pub const STATEMENT_ZH_FILE: &str = "README.zh.md";
pub const STARTER_FILE: &str = "starter.rs";
pub const REFERENCE_FILE: &str = "reference.rs";
/// The kata's own logic: types, case generation, `solve` and the checker.
pub const LOGIC_FILE: &str = "kata.rs";
/// A data-only package's cases (it has no `kata.rs`; see `katas::data`).
pub const DATA_CASES_FILE: &str = "data/cases.toml";
pub const WRONG_DIR: &str = "wrong";
/// First-lines marker in a `wrong/*.rs` file naming the verdict it must get.
pub const VERDICT_MARKER: &str = "//! expected-verdict:";
/// First-lines marker naming the verdict a `wrong/*.rs` file gets in the sandbox where that
/// differs: a rank kata's ranks are threads of one process in-process and processes of their
/// own in the sandbox, so a solution that passes data through memory the ranks share fails
/// one way in each.
pub const SANDBOXED_VERDICT_MARKER: &str = "//! sandboxed-verdict:";

/// A known-wrong solution file and the verdict its marker names (as written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongFile {
    /// File stem with `_` shown as `-` (`linear_loop.rs` → `linear-loop`).
    pub name: String,
    pub path: PathBuf,
    pub marker: Option<String>,
    /// [`SANDBOXED_VERDICT_MARKER`]'s verdict, as written, where the file has one.
    pub sandboxed: Option<String>,
}

/// The `wrong/*.rs` files of a package, sorted by name. A missing folder is an empty list.
pub fn wrong_files(package_dir: &Path) -> std::io::Result<Vec<WrongFile>> {
    let dir = package_dir.join(WRONG_DIR);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&path)?;
            out.push(WrongFile {
                name: stem.replace('_', "-"),
                marker: verdict_marker(&text),
                sandboxed: marker_value(&text, SANDBOXED_VERDICT_MARKER),
                path,
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The verdict named by the marker line, if the file has one among its leading comment lines.
pub fn verdict_marker(source: &str) -> Option<String> {
    marker_value(source, VERDICT_MARKER)
}

/// What follows `marker` on its line among the file's leading comment lines.
pub fn marker_value(source: &str, marker: &str) -> Option<String> {
    source
        .lines()
        .take_while(|l| l.trim_start().starts_with("//"))
        .find_map(|l| l.trim().strip_prefix(marker))
        .map(|v| v.trim().to_string())
}

/// Kata package folders under `problems_dir` (every sub-folder holding a `kata.toml`), sorted by path.
pub fn package_dirs(problems_dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(problems_dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(META_FILE).is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// What the catalogue fingerprint covers, relative to the `katas` crate folder.
const FINGERPRINTED: &[&str] = &[
    "Cargo.toml",
    "build.rs",
    "src",
    "runtime/Cargo.toml",
    "runtime/src",
    "problems",
    "scaffold",
];

/// A fingerprint of everything that makes up the catalogue (the crate's code, the runtime
/// learners' programs link (`runtime/`), and every
/// package's files; not learners' workspaces): FNV-1a over each file's relative path and bytes,
/// in path order. The grader compares the one compiled into it with the one of the runner
/// library it builds and the one each runner reports, so two trusted sides never disagree
/// silently.
pub fn catalogue_fingerprint(crate_dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = FINGERPRINTED.iter().map(|p| crate_dir.join(p)).collect();
    while let Some(path) = pending.pop() {
        let meta = std::fs::symlink_metadata(&path)?;
        if meta.is_dir() {
            for entry in std::fs::read_dir(&path)? {
                pending.push(entry?.path());
            }
        } else if meta.is_file() {
            files.push(path);
        }
    }
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for file in files {
        let relative = file.strip_prefix(crate_dir).unwrap_or(&file);
        let name = relative.to_string_lossy();
        let bytes = std::fs::read(&file)?;
        feed(&(name.len() as u64).to_le_bytes());
        feed(name.as_bytes());
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(&bytes);
    }
    Ok(format!("{hash:016x}"))
}
