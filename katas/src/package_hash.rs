//! The content hash that identifies one version of a kata package: SHA-256 over every file of
//! the folder, by relative path. Shared with `build.rs` (which stamps it on each built-in
//! package), so it uses only `std` and `sha2`.
//!
//! Two folders with the same files hash the same wherever they sit, so a package copied under
//! another path (or uploaded) is recognised as the version it is; any change to any file — a
//! statement typo, a new case, a new `wrong/` solution — is a new version.

// `crate::layout` is the library's module, and `build.rs` includes it at its root too.
use crate::layout;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The files a version's grading does not depend on: its statements. Two versions that differ
/// only in them share a [`grading_hash`], so a statement fix can go live on a service whose
/// judge was built from the other.
pub const STATEMENT_FILES: [&str; 2] = [layout::STATEMENT_FILE, layout::STATEMENT_ZH_FILE];

/// The hash, as lowercase hex. Symbolic links and other non-regular files are refused: a
/// package is plain files, and hashing a link's target would let it name files outside.
pub fn content_hash(package_dir: &Path) -> std::io::Result<String> {
    let files = read_files(package_dir)?;
    Ok(hash_files(
        files.iter().map(|(n, b)| (n.as_str(), b.as_slice())),
    ))
}

/// The hash of every file but the statements: what grading depends on.
pub fn grading_hash(package_dir: &Path) -> std::io::Result<String> {
    let files = read_files(package_dir)?;
    Ok(hash_files(
        files
            .iter()
            .filter(|(n, _)| !STATEMENT_FILES.contains(&n.as_str()))
            .map(|(n, b)| (n.as_str(), b.as_slice())),
    ))
}

/// SHA-256 over `(relative name, bytes)` pairs, whatever order they come in; names use `/`.
pub fn hash_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut named: Vec<(&str, &[u8])> = files.into_iter().collect();
    named.sort();
    let mut hasher = Sha256::new();
    for (name, bytes) in named {
        // Length-prefixed, so no two different file sets feed the same bytes.
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every plain file under `package_dir`, by relative `/`-separated name.
fn read_files(package_dir: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    let mut pending = vec![package_dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let kind = std::fs::symlink_metadata(&path)?.file_type();
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                files.push(path);
            } else {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{} is not a plain file", path.display()),
                ));
            }
        }
    }
    files
        .into_iter()
        .map(|path: PathBuf| {
            let relative = path.strip_prefix(package_dir).unwrap_or(&path);
            // `/` on every platform, so the hash does not depend on where it was computed.
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            Ok((name, std::fs::read(&path)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn the_same_files_anywhere_hash_the_same() {
        let files = [("kata.toml", "slug = \"x\""), ("wrong/a.rs", "fn a() {}")];
        let a = package(&files);
        let b = package(&files);
        assert_eq!(
            content_hash(a.path()).unwrap(),
            content_hash(b.path()).unwrap()
        );
    }

    #[test]
    fn any_change_is_a_new_hash() {
        let base = content_hash(package(&[("README.md", "Sum.")]).path()).unwrap();
        for changed in [
            package(&[("README.md", "Sum!")]),
            package(&[("README.md", "Sum."), ("wrong/b.rs", "")]),
            package(&[("README.zh.md", "Sum.")]),
        ] {
            assert_ne!(content_hash(changed.path()).unwrap(), base);
        }
    }

    #[test]
    fn statements_do_not_change_the_grading_hash() {
        let base = package(&[("README.md", "Sum."), ("kata.rs", "fn k() {}")]);
        let fixed = package(&[("README.md", "Sum!"), ("kata.rs", "fn k() {}")]);
        let recoded = package(&[("README.md", "Sum."), ("kata.rs", "fn k() { }")]);
        let g = |d: &tempfile::TempDir| grading_hash(d.path()).unwrap();
        assert_eq!(g(&base), g(&fixed));
        assert_ne!(g(&base), g(&recoded));
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_refused() {
        let dir = package(&[("kata.toml", "")]);
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("link")).unwrap();
        assert!(content_hash(dir.path()).is_err());
    }
}
