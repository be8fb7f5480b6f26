//! A package's logic compiled once, in the compile sandbox, as the `katas` library its learners'
//! programs link ([`super::programs::library_files`]): a verdict then compiles the learner's
//! file alone, as a catalogue kata's does. Kept under the compile cache's folder in
//! `packages/<key>/`, the key being everything it is made from; a folder appears whole (built
//! aside, then renamed) and is never changed.
//!
//! The shelf is bounded like the cache's binaries (`CacheLimits::max_bytes`, least recently
//! used first, a lookup counting as a use), with one difference: a learner's compile links the
//! library in place, so a library used in the last [`IN_USE_FOR`] is never removed.

use super::FunctionPackage;
use super::programs::{LIBRARY_FILE, library_files, named_modules, rustc_args};
use crate::GradeError;
use crate::cache::CompileCache;
use crate::compile::DEPS;
use crate::sandbox::{BUILD_INSIDE, BuildDir, Job, Profile, Sandbox};
use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The biggest library accepted back from the compiler.
const MAX_LIBRARY_BYTES: u64 = 64 << 20;

/// The folder holding the package's `libkatas.rlib`, built now or earlier; `Ok(Err(what the
/// compiler said))` when the package's logic does not compile (its fault).
pub(crate) fn library(
    sandbox: &Sandbox,
    toolchain: &Toolchain,
    cache: &CompileCache,
    package: &FunctionPackage,
) -> Result<Result<PathBuf, String>, GradeError> {
    let meta = &package.meta;
    // Every name its files give their own module: the learner's program links this library.
    let texts = [&package.logic, &package.reference, &package.starter]
        .into_iter()
        .map(String::as_str)
        .chain(package.wrong.iter().map(|w| w.source.as_str()));
    let aliases = named_modules(texts, &meta.module_name());
    let files = library_files(meta, &package.logic, &aliases);
    let mut argv = vec![sandbox.toolchain()?.rustc_inside()];
    argv.extend(sandbox.toolchain()?.rustc_flags());
    let sources: String = files.iter().map(|(_, text)| text.as_str()).collect();
    // The disambiguator only has to differ from the prebuilt library's.
    let metadata = &CompileCache::key_of_parts(&[sources.as_bytes()])[..16];
    argv.extend(rustc_args(
        toolchain,
        meta,
        DEPS,
        Some(metadata),
        &format!("{BUILD_INSIDE}/{LIBRARY_FILE}"),
    ));
    let key = CompileCache::key(
        toolchain,
        &toolchain.runtime_for(meta.kind).hash,
        "package library",
        &argv,
        &sources,
    );
    let shelf = cache.dir().join("packages");
    let dir = shelf.join(&key);
    if dir.join(LIBRARY_FILE).is_file() {
        // A failed touch only makes the library look older than it is.
        let _ = std::fs::File::open(dir.join(LIBRARY_FILE))
            .and_then(|f| f.set_modified(SystemTime::now()));
        return Ok(Ok(dir));
    }
    let mut slot = sandbox.slot()?;
    let build = BuildDir::for_slot(cache.dir(), &slot)?;
    for (name, text) in &files {
        build.write(name, text.as_bytes())?;
    }
    let job = Job {
        profile: Profile::Compile {
            build_dir: build.path().to_path_buf(),
            read_only: vec![(toolchain.deps_dir.clone(), PathBuf::from(DEPS))],
        },
        argv,
        env: Vec::new(),
        cwd: PathBuf::from(BUILD_INSIDE),
        stdin: Vec::new(),
        limits: crate::compile::limits(),
    };
    let outcome = sandbox.run_in(&mut slot, &job, &mut crate::sandbox::NoWatch)?;
    if !outcome.status.success() || outcome.limit.is_some() {
        let said: Vec<String> =
            crate::diagnostics::parse(&String::from_utf8_lossy(&outcome.stderr))
                .into_iter()
                .filter(|d| d.level == "error")
                .take(3)
                .map(|d| d.rendered.trim().to_string())
                .collect();
        let limit = outcome
            .limit
            .map(|l| format!("stopped by the sandbox's {l:?} limit; "))
            .unwrap_or_default();
        return Ok(Err(format!("{limit}{}", said.join("\n"))));
    }
    let bytes = build.read(LIBRARY_FILE, MAX_LIBRARY_BYTES)?;
    let io = |e| GradeError::io("keeping a package's library", e);
    let aside = shelf.join(format!(".{key}.{}", std::process::id()));
    std::fs::create_dir_all(&aside).map_err(io)?;
    std::fs::write(aside.join(LIBRARY_FILE), &bytes).map_err(io)?;
    // Another grading may have put the same folder there meanwhile: the same bytes' worth.
    if std::fs::rename(&aside, &dir).is_err() {
        let _ = std::fs::remove_dir_all(&aside);
    }
    evict(&shelf, cache.limits().max_bytes, SystemTime::now());
    Ok(Ok(dir))
}

/// How long after its last lookup a library may still be linked by a grading: its compile is
/// bounded to seconds; this leaves room for the wait before it.
pub(crate) const IN_USE_FOR: Duration = Duration::from_secs(15 * 60);

/// Removes the least recently used libraries on `shelf` until it holds at most `max_bytes`,
/// sparing any used within [`IN_USE_FOR`] of `now`; and the half-built folders of processes
/// that no longer exist.
fn evict(shelf: &Path, max_bytes: u64, now: SystemTime) {
    let Ok(read) = std::fs::read_dir(shelf) else {
        return;
    };
    let mut kept = Vec::new();
    for entry in read.filter_map(Result::ok) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(aside) = name.strip_prefix('.') {
            let pid = aside.rsplit_once('.').map(|(_, pid)| pid);
            if pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists()) {
                let _ = std::fs::remove_dir_all(&path);
            }
            continue;
        }
        let Ok(meta) = std::fs::metadata(path.join(LIBRARY_FILE)) else {
            continue;
        };
        let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        kept.push((used, meta.len(), path));
    }
    let mut total: u64 = kept.iter().map(|(_, bytes, _)| bytes).sum();
    kept.sort_by_key(|(used, _, _)| *used);
    for (used, bytes, path) in kept {
        if total <= max_bytes {
            break;
        }
        let recent = now
            .duration_since(used)
            .map_or(true, |age| age < IN_USE_FOR);
        if !recent && std::fs::remove_dir_all(&path).is_ok() {
            total -= bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(shelf: &Path, name: &str, bytes: usize, used: SystemTime) {
        let dir = shelf.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(LIBRARY_FILE), vec![0u8; bytes]).unwrap();
        let file = std::fs::File::options()
            .write(true)
            .open(dir.join(LIBRARY_FILE))
            .unwrap();
        file.set_modified(used).unwrap();
    }

    #[test]
    fn the_least_recently_used_go_first_and_a_library_in_use_stays() {
        let shelf = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let hours = |h: u64| now - Duration::from_secs(h * 3600);
        library(shelf.path(), "oldest", 100, hours(3));
        library(shelf.path(), "older", 100, hours(2));
        library(shelf.path(), "old", 100, hours(1));
        library(shelf.path(), "in-use", 100, now - IN_USE_FOR / 2);
        library(shelf.path(), "fresh", 100, now);
        // A half-built folder of a process that is gone, and one of this process.
        std::fs::create_dir_all(shelf.path().join(".abc.4194305")).unwrap();
        let ours = format!(".abc.{}", std::process::id());
        std::fs::create_dir_all(shelf.path().join(&ours)).unwrap();
        evict(shelf.path(), 300, now);
        let left = |name: &str| shelf.path().join(name).exists();
        assert!(
            !left("oldest") && !left("older"),
            "the two least recently used"
        );
        assert!(left("old") && left("in-use") && left("fresh"));
        assert!(!left(".abc.4194305") && left(&ours));
        // Over the bound with only libraries in use: none is removed.
        evict(shelf.path(), 0, now);
        assert!(!left("old") && left("in-use") && left("fresh"));
    }
}
