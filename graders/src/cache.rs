//! Compiled submissions by (source, kata, katas library, toolchain): an identical resubmission
//! skips the compiler. Entries are written by the trusted side only, atomically (rename).

use crate::toolchain::{Toolchain, hex};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: PathBuf,
}

impl CompileCache {
    pub fn new(dir: PathBuf) -> std::io::Result<Self> {
        std::fs::create_dir_all(&dir)?;
        Ok(Self { dir })
    }

    pub fn key(toolchain: &Toolchain, slug: &str, source: &str) -> String {
        let mut h = Sha256::new();
        for part in [
            toolchain.version.as_str(),
            &toolchain.katas_hash,
            slug,
            source,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        hex(&h.finalize())
    }

    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(key)
    }

    pub fn get(&self, key: &str) -> Option<PathBuf> {
        let path = self.path(key);
        path.is_file().then_some(path)
    }

    /// Stores `bytes` as an executable under `key` and returns its path.
    pub fn put(&self, key: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        use std::os::unix::fs::PermissionsExt as _;
        let tmp = self.dir.join(format!(".{key}.{}", std::process::id()));
        std::fs::write(&tmp, bytes)?;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o555))?;
        let path = self.path(key);
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}
