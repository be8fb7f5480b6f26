//! Step 1: the learner's file plus the generated runner, compiled by `rustc` (not cargo) inside
//! the sandbox against the prebuilt `katas` library.

use crate::GradeError;
use crate::cache::{Binary, CompileCache};
use crate::diagnostics::{self, Diagnostic};
use crate::package;
use crate::sandbox::{self, BUILD_INSIDE, BuildDir, Job, Profile, Sandbox};
use crate::source::{LEARNER_FILE, MAIN_FILE, runner_main};
use crate::source_policy;
use crate::toolchain::Toolchain;
use katas::{KataMeta, Message};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the prebuilt library appears inside the compile sandbox.
pub(crate) const DEPS: &str = "/deps";
/// Where a package's own library appears inside the compile sandbox.
const PACKAGE: &str = "/pkg";
const BINARY: &str = "submission";
/// Biggest binary we accept back from the compiler.
const MAX_BINARY_BYTES: u64 = 256 << 20;

#[derive(Debug)]
pub enum Compiled {
    Binary {
        /// Valid until dropped, even if the cache evicts the entry meanwhile.
        path: Binary,
        cached: bool,
        wall: Duration,
        diagnostics: Vec<Diagnostic>,
    },
    /// The learner's code did not compile (or made the compiler exceed its limits).
    Failed {
        diagnostics: Vec<Diagnostic>,
        message: Option<Message>,
        wall: Duration,
    },
}

/// Limits for one compilation: generous for rustc, tight enough that a const-eval loop or a
/// gigantic static is stopped.
pub fn limits() -> sandbox::Limits {
    sandbox::Limits {
        wall: Duration::from_secs(30),
        cpu: Duration::from_secs(20),
        memory_bytes: 1536 << 20,
        address_space_bytes: None,
        pids: 64,
        stdout_bytes: 64 << 10,
        stderr_bytes: 2 << 20,
        file_bytes: MAX_BINARY_BYTES,
        open_files: 512,
    }
}

/// What the learner's file becomes.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// A stdin/stdout kata's program: the file is the crate root, and links against std only.
    Program { slug: &'a str },
    /// A function package's solution ([`crate::package`]): the file under the generated
    /// runner, against the package's own library (the folder holding its `libkatas.rlib`,
    /// built once per version) instead of the catalogue's.
    Linked {
        meta: &'a KataMeta,
        library: &'a Path,
    },
    /// A function package's judge: its `logic` beside the file, which is its reference.
    Judge { meta: &'a KataMeta, logic: &'a str },
}

impl Target<'_> {
    fn slug(&self) -> &str {
        match self {
            Self::Linked { meta, .. } | Self::Judge { meta, .. } => &meta.slug,
            Self::Program { slug } => slug,
        }
    }
}

pub fn compile(
    sandbox: &Sandbox,
    toolchain: &Toolchain,
    cache: &CompileCache,
    target: Target<'_>,
    source: &str,
) -> Result<Compiled, GradeError> {
    let started = Instant::now();
    // Before the cache too: a binary cached before a word was reserved is not served.
    let refused = source_policy::check(source);
    if !refused.is_empty() {
        let first = refused[0].message();
        let more = refused.len() - 1;
        let message = Message::new(
            format!(
                "the grader refused your file before compiling it: {}{}",
                first.en,
                if more == 0 {
                    String::new()
                } else {
                    format!(" (and {more} more)")
                }
            ),
            format!(
                "评测器在编译之前拒绝了你的文件：{}{}",
                first.in_lang(katas::Lang::Zh),
                if more == 0 {
                    String::new()
                } else {
                    format!("（另有 {more} 处）")
                }
            ),
        );
        return Ok(Compiled::Failed {
            diagnostics: refused.iter().map(|r| r.diagnostic(source)).collect(),
            message: Some(message),
            wall: started.elapsed(),
        });
    }
    // The whole command line is part of the key: a binary linked another way (static, before
    // the run sandbox held the loader) is never served for the current flags. One program
    // serves the verdict and the figure: glibc dynamic, as a bare `rustc -O` program links.
    let mut argv = vec![sandbox.toolchain()?.rustc_inside()];
    argv.extend(sandbox.toolchain()?.rustc_flags());
    let (root, library_hash) = match target {
        Target::Program { .. } => {
            argv.extend(program_args());
            (LEARNER_FILE, String::new())
        }
        Target::Linked { library, .. } => {
            argv.extend(rustc_args(&format!(
                "{PACKAGE}/{}",
                package::programs::LIBRARY_FILE
            )));
            // The library's folder is named by the key it was built under.
            let built = library
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (MAIN_FILE, built)
        }
        Target::Judge { meta, .. } => {
            argv.extend(package::programs::rustc_args(
                toolchain,
                meta,
                DEPS,
                None,
                &format!("{BUILD_INSIDE}/{BINARY}"),
            ));
            (MAIN_FILE, toolchain.judge.hash.clone())
        }
    };
    // A judge is its logic as much as its file.
    let keyed = match target {
        Target::Judge { logic, .. } => format!("{}\0judge\0{logic}", target.slug()),
        _ => target.slug().to_string(),
    };
    let key = CompileCache::key(toolchain, &library_hash, &keyed, &argv, source);
    if let Some((path, note)) = cache.get(&key) {
        return Ok(Compiled::Binary {
            path,
            cached: true,
            wall: started.elapsed(),
            // What the compile that made the entry said (its warnings).
            diagnostics: serde_json::from_slice(&note).unwrap_or_default(),
        });
    }
    // The slot before its build folder, so the folder goes first.
    let mut slot = sandbox.slot()?;
    let build = BuildDir::for_slot(cache.dir(), &slot)?;
    let read_only = match target {
        Target::Program { .. } => {
            build.write(LEARNER_FILE, source.as_bytes())?;
            Vec::new()
        }
        Target::Linked { meta, library } => {
            build.write(LEARNER_FILE, source.as_bytes())?;
            build.write(MAIN_FILE, runner_main(meta).as_bytes())?;
            vec![
                (toolchain.deps_dir.clone(), PathBuf::from(DEPS)),
                (library.to_path_buf(), PathBuf::from(PACKAGE)),
            ]
        }
        Target::Judge { meta, logic } => {
            for (name, text) in package::programs::judge_files(meta, logic, source) {
                build.write(name, text.as_bytes())?;
            }
            vec![(toolchain.deps_dir.clone(), PathBuf::from(DEPS))]
        }
    };
    debug_assert!(argv.last().is_some_and(|a| a.ends_with(root)));
    let job = Job {
        profile: Profile::Compile {
            build_dir: build.path().to_path_buf(),
            read_only,
        },
        argv,
        env: Vec::new(),
        cwd: PathBuf::from(BUILD_INSIDE),
        stdin: Vec::new(),
        limits: limits(),
    };
    let outcome = sandbox.run_in(&mut slot, &job, &mut sandbox::NoWatch)?;
    let wall = started.elapsed();
    let diagnostics = diagnostics::parse(&String::from_utf8_lossy(&outcome.stderr));
    if let Some(limit) = outcome.limit {
        let message = Message::new(
            format!(
                "the compiler was stopped by the sandbox's {limit:?} limit (a const-eval loop or a huge static?)"
            ),
            format!(
                "编译器被沙箱的 {limit:?} 限制叫停了（是不是常量求值里的循环，或一个巨大的 static？）"
            ),
        );
        return Ok(Compiled::Failed {
            diagnostics,
            message: Some(message),
            wall,
        });
    }
    if !outcome.status.success() {
        let message = diagnostics.is_empty().then(|| {
            Message::new(
                format!("rustc failed without a diagnostic ({:?})", outcome.status),
                format!("rustc 失败了，但没有给出诊断信息（{:?}）", outcome.status),
            )
        });
        return Ok(Compiled::Failed {
            diagnostics,
            message,
            wall,
        });
    }
    let bytes = build.read(BINARY, MAX_BINARY_BYTES)?;
    let path = cache
        .put(&key, &bytes, &note(&diagnostics))
        .map_err(|e| GradeError::io("caching the binary", e))?;
    Ok(Compiled::Binary {
        path,
        cached: false,
        wall,
        diagnostics,
    })
}

/// The diagnostics of a successful compile as the cache keeps them: as many as fit in the
/// cache's note bound, in rustc's order.
fn note(diagnostics: &[Diagnostic]) -> Vec<u8> {
    let mut kept = diagnostics;
    loop {
        let bytes = serde_json::to_vec(kept).unwrap_or_default();
        if bytes.len() <= crate::cache::MAX_NOTE_BYTES || kept.is_empty() {
            return if kept.is_empty() { Vec::new() } else { bytes };
        }
        kept = &kept[..kept.len() / 2];
    }
}

/// Everything after the sandbox's own toolchain flags (sysroot, linker), with `katas` the rlib
/// at `katas` inside the sandbox.
fn rustc_args(katas: &str) -> Vec<String> {
    [
        "--edition=2024",
        "--crate-type=bin",
        "--crate-name=submission",
        "-Copt-level=3",
        "-Ccodegen-units=1",
        // As in `cargo test -p katas` (the dev profile keeps them at opt-level 3): an overflow
        // panics in both places, so a learner's local run and the grader agree.
        "-Coverflow-checks=on",
        "-Cstrip=debuginfo",
        "--error-format=json",
        // The root's `forbid` again, should the generated root ever lose it (see `source_policy`).
        "-Funsafe_code",
        &format!("-Ldependency={DEPS}"),
        &format!("--extern=katas={katas}"),
        &format!("-o{BUILD_INSIDE}/{BINARY}"),
        &format!("{BUILD_INSIDE}/{MAIN_FILE}"),
    ]
    .map(String::from)
    .to_vec()
}

/// A stdin/stdout program as a judge like Kattis builds one: edition 2021 (what imported
/// packages' Rust solutions are written in) and overflow checks off, as `rustc -O` leaves them.
fn program_args() -> Vec<String> {
    [
        "--edition=2021",
        "--crate-type=bin",
        "--crate-name=program",
        "-Copt-level=3",
        "-Ccodegen-units=1",
        "-Cstrip=debuginfo",
        "--error-format=json",
        "-Funsafe_code",
        &format!("-o{BUILD_INSIDE}/{BINARY}"),
        &format!("{BUILD_INSIDE}/{LEARNER_FILE}"),
    ]
    .map(String::from)
    .to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(text: &str) -> Diagnostic {
        Diagnostic {
            level: "warning".into(),
            code: None,
            message: Message::verbatim(text),
            line: Some(1),
            column: Some(1),
            end_line: Some(1),
            end_column: Some(2),
            rendered: text.into(),
            labels: Vec::new(),
        }
    }

    #[test]
    fn a_note_holds_the_warnings_within_the_cache_bound() {
        assert!(note(&[]).is_empty());
        let few = vec![warning("unused variable: `x`")];
        let back: Vec<Diagnostic> = serde_json::from_slice(&note(&few)).expect("json");
        assert_eq!(back, few);
        let many = vec![warning(&"w".repeat(1000)); 500];
        let kept: Vec<Diagnostic> = serde_json::from_slice(&note(&many)).expect("json");
        assert!(!kept.is_empty() && kept.len() < many.len());
        assert_eq!(kept[0], many[0], "the first ones are kept");
    }
}
