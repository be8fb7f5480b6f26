//! A package's logic compiled once, in the compile sandbox, as the `katas` library its learners'
//! programs link ([`super::programs::library_files`]): a verdict then compiles the learner's
//! file alone, as a catalogue kata's does. Kept under the compile cache's folder in
//! `packages/<key>/`, the key being everything it is made from; a folder appears whole (built
//! aside, then renamed) and is never changed.

use super::FunctionPackage;
use super::programs::{LIBRARY_FILE, library_files, named_modules, rustc_args};
use crate::GradeError;
use crate::cache::CompileCache;
use crate::compile::DEPS;
use crate::sandbox::{BUILD_INSIDE, BuildDir, Job, Profile, Sandbox};
use crate::toolchain::Toolchain;
use std::path::PathBuf;

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
        DEPS,
        Some(metadata),
        &format!("{BUILD_INSIDE}/{LIBRARY_FILE}"),
    ));
    let key = CompileCache::key(
        toolchain,
        &toolchain.katas_hash,
        "package library",
        &argv,
        &sources,
    );
    let shelf = cache.dir().join("packages");
    let dir = shelf.join(&key);
    if dir.join(LIBRARY_FILE).is_file() {
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
    Ok(Ok(dir))
}
