//! Reading an uploaded package folder under bounds. Every listing and read goes through
//! [`Tree`], which counts entries and bytes, refuses links and special files (checked with
//! `symlink_metadata`, so nothing is followed) and names that are not plain, and never goes
//! deeper than [`Bounds::max_depth`]. Paths are kept relative to the package root, which is
//! how errors name them.

use super::KattisError;
use std::cell::Cell;
use std::path::{Path, PathBuf};

/// Limits on what an import reads. The defaults fit real contest packages with room to spare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// Largest test data file (`.in`/`.ans`).
    pub max_data_file: u64,
    /// Largest text file read into memory (YAML, statement, program source).
    pub max_text_file: u64,
    /// All bytes read or copied together.
    pub max_total: u64,
    /// Directory entries listed, all folders together.
    pub max_entries: u64,
    /// Folder levels below the package root.
    pub max_depth: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            max_data_file: 64 << 20,
            max_text_file: 1 << 20,
            max_total: 1 << 30,
            max_entries: 20_000,
            max_depth: 8,
        }
    }
}

/// One entry of a listed folder.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    /// Relative to the package root, `/`-separated.
    pub rel: String,
    pub is_dir: bool,
}

/// A package folder being read; see the module doc.
#[derive(Debug)]
pub struct Tree<'a> {
    root: PathBuf,
    bounds: &'a Bounds,
    entries: Cell<u64>,
    bytes: Cell<u64>,
}

impl<'a> Tree<'a> {
    pub fn new(root: &Path, bounds: &'a Bounds) -> Result<Self, KattisError> {
        let meta = std::fs::symlink_metadata(root)
            .map_err(|e| KattisError::io(root.display().to_string(), e))?;
        if !meta.is_dir() {
            return Err(KattisError::invalid(
                root.display().to_string(),
                "not a folder (a link to one is refused too)",
            ));
        }
        Ok(Self {
            root: root.to_path_buf(),
            bounds,
            entries: Cell::new(0),
            bytes: Cell::new(0),
        })
    }

    pub fn bounds(&self) -> &Bounds {
        self.bounds
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }

    /// What `rel` is: `None` if absent, else whether it is a folder. Links are refused.
    pub fn kind(&self, rel: &str) -> Result<Option<bool>, KattisError> {
        match std::fs::symlink_metadata(self.path(rel)) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(KattisError::io(rel, e)),
            Ok(m) if m.is_dir() => Ok(Some(true)),
            Ok(m) if m.is_file() => Ok(Some(false)),
            Ok(_) => Err(KattisError::NotPlain { path: rel.into() }),
        }
    }

    /// The entries of folder `rel`, sorted by name.
    pub fn list(&self, rel: &str) -> Result<Vec<Entry>, KattisError> {
        let depth = rel.split('/').filter(|p| !p.is_empty()).count();
        if depth >= self.bounds.max_depth {
            return Err(KattisError::OverBound {
                path: rel.into(),
                message: format!("folders nest deeper than {} levels", self.bounds.max_depth),
            });
        }
        let dir = self.path(rel);
        let reader = std::fs::read_dir(&dir).map_err(|e| KattisError::io(rel, e))?;
        let mut out = Vec::new();
        for entry in reader {
            let entry = entry.map_err(|e| KattisError::io(rel, e))?;
            self.entries.set(self.entries.get() + 1);
            if self.entries.get() > self.bounds.max_entries {
                return Err(KattisError::OverBound {
                    path: rel.into(),
                    message: format!(
                        "the package has more than {} files and folders",
                        self.bounds.max_entries
                    ),
                });
            }
            let raw = entry.file_name();
            let child = |name: &str| {
                if rel.is_empty() {
                    name.to_string()
                } else {
                    format!("{rel}/{name}")
                }
            };
            let Some(name) = raw.to_str().filter(|n| is_plain_name(n)) else {
                return Err(KattisError::invalid(
                    child(&raw.to_string_lossy()),
                    "not a plain file name (no `..`, separators or control characters)",
                ));
            };
            let rel_child = child(name);
            let meta = std::fs::symlink_metadata(entry.path())
                .map_err(|e| KattisError::io(&rel_child, e))?;
            if !(meta.is_dir() || meta.is_file()) {
                return Err(KattisError::NotPlain { path: rel_child });
            }
            out.push(Entry {
                name: name.to_string(),
                rel: rel_child,
                is_dir: meta.is_dir(),
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Counts `len` bytes against the total, refusing a file over `limit`.
    fn spend(&self, rel: &str, len: u64, limit: u64) -> Result<(), KattisError> {
        if len > limit {
            return Err(KattisError::TooLarge {
                path: rel.into(),
                size: len,
                limit,
            });
        }
        self.bytes.set(self.bytes.get() + len);
        if self.bytes.get() > self.bounds.max_total {
            return Err(KattisError::OverBound {
                path: rel.into(),
                message: format!(
                    "the package holds more than {} bytes in all",
                    self.bounds.max_total
                ),
            });
        }
        Ok(())
    }

    /// The bytes of the plain file `rel`, at most `limit` of them.
    pub fn read_limited(&self, rel: &str, limit: u64) -> Result<Vec<u8>, KattisError> {
        let path = self.path(rel);
        let meta = std::fs::symlink_metadata(&path).map_err(|e| KattisError::io(rel, e))?;
        if !meta.is_file() {
            return Err(KattisError::NotPlain { path: rel.into() });
        }
        self.spend(rel, meta.len(), limit)?;
        let bytes = std::fs::read(&path).map_err(|e| KattisError::io(rel, e))?;
        // The file may have grown since it was measured.
        if bytes.len() as u64 > limit {
            return Err(KattisError::TooLarge {
                path: rel.into(),
                size: bytes.len() as u64,
                limit,
            });
        }
        Ok(bytes)
    }

    /// A text file (UTF-8) of at most [`Bounds::max_text_file`] bytes.
    pub fn read_text(&self, rel: &str) -> Result<String, KattisError> {
        let bytes = self.read_limited(rel, self.bounds.max_text_file)?;
        String::from_utf8(bytes).map_err(|_| KattisError::invalid(rel, "is not UTF-8 text"))
    }

    /// Copies the plain file `rel` to `to` (its folder created), at most `limit` bytes.
    pub fn copy(&self, rel: &str, to: &Path, limit: u64) -> Result<(), KattisError> {
        let bytes = self.read_limited(rel, limit)?;
        write_file(to, &bytes)
    }

    /// Every plain file below folder `rel` (relative paths), depth-bounded, sorted.
    pub fn files_below(&self, rel: &str) -> Result<Vec<Entry>, KattisError> {
        let mut files = Vec::new();
        let mut pending = vec![rel.to_string()];
        while let Some(dir) = pending.pop() {
            for entry in self.list(&dir)? {
                if entry.is_dir {
                    pending.push(entry.rel);
                } else {
                    files.push(entry);
                }
            }
        }
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        Ok(files)
    }
}

/// A name we accept for a file or folder: no separators, not `.`/`..`, no control characters.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

/// Writes `bytes` to `path`, creating its folder.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), KattisError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| KattisError::io(parent.display().to_string(), e))?;
    }
    std::fs::write(path, bytes).map_err(|e| KattisError::io(path.display().to_string(), e))
}
