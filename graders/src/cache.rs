//! Compiled submissions by (source, kata, katas library, toolchain): an identical resubmission
//! skips the compiler. Entries are written by the trusted side only and published atomically
//! (a hard link of a complete file), so grader processes may share one folder.
//!
//! The folder is bounded: binaries over `max_entry_bytes` are not kept, and the least recently
//! used entries (a hit sets the modification time) are removed until the total is within
//! `max_bytes`. Listing a full folder costs milliseconds on every grading's path, so a process
//! looks again only once what it added since its last look reaches 1/16 of the cap: each
//! process sharing the folder overshoots it by at most that much.
//!
//! Another process may remove an entry at any moment, so a grading never runs the entry
//! itself: it runs a private link to the same file ([`Binary`]), which outlives the entry's
//! eviction and is removed when dropped.
//!
//! Beside an entry, a small note (`<key>.notes`, at most [`MAX_NOTE_BYTES`]) keeps what the
//! compile said (its warnings), so a hit reports what a fresh compile would. The note is
//! written before the entry is published and removed with it; a note lost to a race between
//! processes only costs a hit its warnings.

use crate::toolchain::{Toolchain, hex};
use sha2::{Digest, Sha256};
use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

/// Bounds of the compile cache folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLimits {
    /// Total bytes of cached binaries kept; least recently used ones go first. Default 512 MiB.
    pub max_bytes: u64,
    /// Binaries larger than this are run but not kept. Default 32 MiB (the catalogue's are a
    /// few MiB; a submission can make rustc emit hundreds).
    pub max_entry_bytes: u64,
}

impl Default for CacheLimits {
    fn default() -> Self {
        Self {
            max_bytes: 512 << 20,
            max_entry_bytes: 32 << 20,
        }
    }
}

#[derive(Debug)]
pub struct CompileCache {
    dir: PathBuf,
    limits: CacheLimits,
    /// Bytes this process published since it last listed the folder to evict.
    unlisted: AtomicU64,
}

/// A compiled binary for one grading: a private, root-owned, read-only file in the cache
/// folder, removed on drop.
#[derive(Debug)]
pub struct Binary {
    path: PathBuf,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The largest note kept beside an entry; a bigger one is not kept.
pub const MAX_NOTE_BYTES: usize = 64 << 10;
const NOTE_SUFFIX: &str = ".notes";

impl CompileCache {
    /// Opens (creating) the folder and removes what processes that died left there.
    pub fn new(dir: PathBuf, limits: CacheLimits) -> io::Result<Self> {
        fs::create_dir_all(&dir)?;
        let cache = Self {
            dir,
            limits,
            unlisted: AtomicU64::new(0),
        };
        cache.remove_leftovers();
        cache.evict();
        Ok(cache)
    }

    /// What a binary depends on: the compiler, the runner library it linked (by hash), the
    /// kata, the compiler's command line (how it was linked) and the learner's source.
    pub fn key(
        toolchain: &Toolchain,
        library_hash: &str,
        slug: &str,
        argv: &[String],
        source: &str,
    ) -> String {
        let command = argv.join("\0");
        Self::key_of_parts(&[
            toolchain.version.as_bytes(),
            library_hash.as_bytes(),
            slug.as_bytes(),
            command.as_bytes(),
            source.as_bytes(),
        ])
    }

    /// A key over `parts`, each length-prefixed so no two lists share one.
    pub fn key_of_parts(parts: &[&[u8]]) -> String {
        let mut h = Sha256::new();
        for part in parts {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        hex(&h.finalize())
    }

    /// The cached binary for `key`, marked as just used, and its note (empty when none).
    pub fn get(&self, key: &str) -> Option<(Binary, Vec<u8>)> {
        let private = self.private_path("run");
        fs::hard_link(self.dir.join(key), &private).ok()?;
        let binary = Binary { path: private };
        // A failed touch only makes the entry look older than it is.
        let _ = fs::File::open(&binary.path).and_then(|f| f.set_modified(SystemTime::now()));
        let note = read_bounded(&self.note_path(key), MAX_NOTE_BYTES).unwrap_or_default();
        Some((binary, note))
    }

    /// Writes `bytes` as an executable for this grading, keeps it under `key` (with `note`,
    /// when it is within [`MAX_NOTE_BYTES`]) unless it is over the size limits, and evicts
    /// least recently used entries beyond the cap (when it is time to look: see the module).
    pub fn put(&self, key: &str, bytes: &[u8], note: &[u8]) -> io::Result<Binary> {
        let binary = Binary {
            path: self.private_path("run"),
        };
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o555)
            .open(&binary.path)?;
        file.write_all(bytes)?;
        file.set_modified(SystemTime::now())?;
        drop(file);
        let size = bytes.len() as u64;
        if size <= self.limits.max_entry_bytes && size <= self.limits.max_bytes {
            // The note first: an entry is never published before its note.
            if !note.is_empty() && note.len() <= MAX_NOTE_BYTES {
                let partial = self.private_path("note");
                fs::write(&partial, note)?;
                fs::rename(&partial, self.note_path(key))?;
            }
            match fs::hard_link(&binary.path, self.dir.join(key)) {
                // Another grading of the same source published it first.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                linked => linked?,
            }
            let unlisted = self.unlisted.fetch_add(size, Ordering::Relaxed) + size;
            if unlisted > self.limits.max_bytes / 16 {
                self.unlisted.store(0, Ordering::Relaxed);
                self.evict();
            }
        }
        Ok(binary)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The bounds this cache keeps to (also those of the package libraries beside it).
    pub fn limits(&self) -> CacheLimits {
        self.limits
    }

    /// Bytes held by cache entries now.
    pub fn size(&self) -> u64 {
        self.entries().iter().map(|e| e.bytes).sum()
    }

    /// Removes least recently used entries until the total fits the cap. Entries may vanish
    /// meanwhile (another process evicting too): that counts as removed.
    fn evict(&self) {
        let mut entries = self.entries();
        let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
        if total <= self.limits.max_bytes {
            return;
        }
        entries.sort_by_key(|e| e.used);
        for entry in entries {
            if total <= self.limits.max_bytes {
                break;
            }
            match fs::remove_file(&entry.path) {
                Ok(()) => total -= entry.bytes,
                Err(e) if e.kind() == io::ErrorKind::NotFound => total -= entry.bytes,
                Err(_) => continue,
            }
            let _ = fs::remove_file(entry.path.with_extension(&NOTE_SUFFIX[1..]));
        }
    }

    fn entries(&self) -> Vec<Entry> {
        let Ok(read) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        read.filter_map(Result::ok)
            .filter(|e| e.file_name().to_str().is_some_and(is_key))
            .filter_map(|e| {
                let meta = e.metadata().ok().filter(|m| m.is_file())?;
                Some(Entry {
                    path: e.path(),
                    bytes: meta.len(),
                    used: meta.modified().ok()?,
                })
            })
            .collect()
    }

    /// A name of this process's own: `.<pid>-<n>.<kind>`.
    fn private_path(&self, kind: &str) -> PathBuf {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        self.dir.join(format!(".{}-{n}.{kind}", std::process::id()))
    }

    fn note_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}{NOTE_SUFFIX}"))
    }

    /// Private binaries and half-written notes (`.<pid>-<n>.run`, `.note`) of processes that
    /// no longer exist, and notes whose entry is gone.
    fn remove_leftovers(&self) {
        let Ok(read) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in read.filter_map(Result::ok) {
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            if let Some(key) = name.strip_suffix(NOTE_SUFFIX).filter(|k| is_key(k)) {
                if !self.dir.join(key).exists() {
                    let _ = fs::remove_file(entry.path());
                }
                continue;
            }
            let Some(pid) = name
                .strip_prefix('.')
                .and_then(|n| n.strip_suffix(".run").or_else(|| n.strip_suffix(".note")))
                .and_then(|n| n.split_once('-'))
                .and_then(|(pid, _)| pid.parse::<u32>().ok())
            else {
                continue;
            };
            if !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

struct Entry {
    path: PathBuf,
    bytes: u64,
    used: SystemTime,
}

/// At most `max` bytes of `path`; `None` when it is missing or longer.
fn read_bounded(path: &Path, max: usize) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    fs::File::open(path)
        .ok()?
        .take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() <= max).then_some(bytes)
}

/// Cache entries are named by a SHA-256 in hex; everything else in the folder (build
/// folders, private binaries) is not an entry.
fn is_key(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Binary {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for Binary {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Binary {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> String {
        format!("{n:064x}")
    }

    fn cache(dir: &Path, max_bytes: u64, max_entry_bytes: u64) -> CompileCache {
        CompileCache::new(
            dir.to_path_buf(),
            CacheLimits {
                max_bytes,
                max_entry_bytes,
            },
        )
        .expect("cache")
    }

    fn cached(c: &CompileCache, n: u8) -> bool {
        c.dir().join(key(n)).is_file()
    }

    #[test]
    fn least_recently_used_goes_first_and_a_hit_counts_as_use() {
        let dir = tempfile::tempdir().expect("tempdir");
        let c = cache(dir.path(), 3000, 1000);
        for n in 1..=3 {
            drop(c.put(&key(n), &[n; 1000], b"").expect("put"));
        }
        assert_eq!(c.size(), 3000, "three fit the cap");
        drop(c.get(&key(1)).expect("hit"));
        drop(c.put(&key(4), &[4; 1000], b"").expect("put"));
        assert!(!cached(&c, 2), "2 was the least recently used");
        assert!(cached(&c, 1) && cached(&c, 3) && cached(&c, 4));
        drop(c.put(&key(5), &[5; 1000], b"").expect("put"));
        assert!(!cached(&c, 3), "then 3");
        assert!(cached(&c, 1) && cached(&c, 4) && cached(&c, 5));
        assert_eq!(c.size(), 3000);
    }

    #[test]
    fn big_binaries_run_but_are_not_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let c = cache(dir.path(), 10_000, 1000);
        let binary = c.put(&key(1), &[7; 1001], b"").expect("put");
        assert_eq!(fs::read(&*binary).expect("runnable"), [7; 1001]);
        assert!(!cached(&c, 1));
        assert!(c.get(&key(1)).is_none());
        let path = binary.path().to_path_buf();
        drop(binary);
        assert!(!path.exists(), "the private copy goes with the grading");
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 0);
    }

    #[test]
    fn a_binary_in_use_survives_the_eviction_of_its_entry() {
        let dir = tempfile::tempdir().expect("tempdir");
        let c = cache(dir.path(), 1000, 1000);
        let first = c.put(&key(1), &[1; 1000], b"").expect("put");
        drop(c.put(&key(2), &[2; 1000], b"").expect("put"));
        assert!(!cached(&c, 1), "evicted");
        assert_eq!(fs::read(&*first).expect("still there"), [1; 1000]);
        let (hit, _) = c.get(&key(2)).expect("hit");
        assert_eq!(fs::read(&*hit).expect("hit runs"), [2; 1000]);
    }

    #[test]
    fn processes_sharing_the_folder_stay_within_the_cap() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::thread::scope(|scope| {
            for t in 0..4u8 {
                let dir = dir.path();
                scope.spawn(move || {
                    // One cache each, like separate processes.
                    let c = cache(dir, 5000, 1000);
                    for i in 0..40u8 {
                        let n = t * 40 + i;
                        drop(c.put(&key(n), &[n; 700], b"").expect("put"));
                        drop(c.get(&key(n / 2)));
                    }
                });
            }
        });
        let c = cache(dir.path(), 5000, 1000);
        assert!(c.size() <= 5000, "{} bytes", c.size());
        assert!(c.size() >= 700, "something is kept");
    }

    #[test]
    fn a_note_travels_with_its_entry_and_goes_with_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let c = cache(dir.path(), 1000, 1000);
        drop(c.put(&key(1), &[1; 600], b"warning: unused").expect("put"));
        let (_, note) = c.get(&key(1)).expect("hit");
        assert_eq!(note, b"warning: unused");
        let too_big = vec![b'x'; MAX_NOTE_BYTES + 1];
        drop(c.put(&key(2), &[2; 600], &too_big).expect("put"));
        assert!(!cached(&c, 1), "evicted");
        assert!(
            !c.dir().join(format!("{}.notes", key(1))).exists(),
            "with its note"
        );
        let (_, note) = c.get(&key(2)).expect("hit");
        assert!(note.is_empty(), "an oversized note is not kept");
        // A note whose entry vanished is a leftover.
        fs::write(c.dir().join(format!("{}.notes", key(3))), "x").expect("write");
        let c = cache(dir.path(), 1000, 1000);
        assert!(!c.dir().join(format!("{}.notes", key(3))).exists());
        assert!(cached(&c, 2));
    }

    #[test]
    fn leftovers_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        // No pid is that large (pid_max is at most 2^22).
        let dead = dir.path().join(".999999999-0.run");
        let dead_note = dir.path().join(".999999999-1.note");
        fs::write(&dead_note, "x").expect("write");
        let alive = dir.path().join(format!(".{}-999.run", std::process::id()));
        fs::write(&dead, "x").expect("write");
        fs::write(&alive, "x").expect("write");
        let _c = cache(dir.path(), 1000, 1000);
        assert!(!dead.exists());
        assert!(!dead_note.exists());
        assert!(alive.exists());
    }
}
