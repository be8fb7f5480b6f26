//! The content hash that identifies one version of a kata package: SHA-256 over every file of
//! the folder, by relative path. Shared with `build.rs` (which stamps it on each built-in
//! package), so it uses only `std` and `sha2`.
//!
//! Two folders with the same files hash the same wherever they sit, so a package copied under
//! another path (or uploaded) is recognised as the version it is; any change to any file — a
//! statement typo, a new case, a new `wrong/` solution — is a new version.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The hash, as lowercase hex. Symbolic links and other non-regular files are refused: a
/// package is plain files, and hashing a link's target would let it name files outside.
pub fn content_hash(package_dir: &Path) -> std::io::Result<String> {
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
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(package_dir).unwrap_or(&path);
            // `/` on every platform, so the hash does not depend on where it was computed.
            let name = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            (name, path)
        })
        .collect();
    named.sort();
    let mut hasher = Sha256::new();
    for (name, path) in named {
        let bytes = std::fs::read(&path)?;
        // Length-prefixed, so no two different file sets feed the same bytes.
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
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

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_refused() {
        let dir = package(&[("kata.toml", "")]);
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("link")).unwrap();
        assert!(content_hash(dir.path()).is_err());
    }
}
