//! Instructors' programs: a stdin/stdout kata's custom output validator and its input
//! validators, in C, C++, Python 3 or Rust. They are the instructor's native code, as hostile
//! as a submission, so they are built and run only in the sandbox ([`Profile::Tool`]: the
//! host's `/usr` to find `python3` and the C compilers, one work folder, no `/proc`, no
//! network, the compile profile's system calls and these limits).
//!
//! Kattis's protocol: `validator input_file answer_file feedback_dir [args] < output`; exit 42
//! accepts, 43 rejects, anything else is the validator's failure — a judge error reported to
//! the instructor, never a learner's verdict. An input validator reads an input on stdin and
//! exits 42 when it is valid.

use crate::GradeError;
use crate::cache::{Binary, CompileCache};
use crate::compile::Compiled;
use crate::sandbox::{self, BUILD_INSIDE, BuildDir, Job, Profile, Sandbox, TOOL_PROGRAM_INSIDE};
use crate::toolchain::Toolchain;
use katas::Message;
use katas::io::{IoCase, Judgement, Language, OutputValidator};
use std::path::PathBuf;
use std::time::Duration;

/// Accepted, in Kattis's protocol.
pub const ACCEPT: i32 = 42;
/// Rejected.
pub const REJECT: i32 = 43;
/// The most of a feedback file shown.
const FEEDBACK_BYTES: u64 = 4 << 10;
const BUILT: &str = "validator";

/// Limits for building an instructor program (as a submission's compile).
fn build_limits() -> sandbox::Limits {
    crate::compile::limits()
}

/// Limits for one run of a validator: it reads one case's files and one output. Writing
/// twice the output it was given is room enough for any feedback.
fn run_limits(output_bytes: usize) -> sandbox::Limits {
    sandbox::Limits {
        wall: Duration::from_secs(10),
        cpu: Duration::from_secs(5),
        memory_bytes: 1 << 30,
        address_space_bytes: None,
        pids: 16,
        stdout_bytes: 64 << 10,
        stderr_bytes: 64 << 10,
        file_bytes: (16 << 20).max(2 * output_bytes as u64),
        open_files: 64,
    }
}

/// An instructor program ready to run: a binary built in the sandbox, or a Python script.
#[derive(Debug)]
pub enum Program {
    Binary(Binary),
    Python {
        files: Vec<(String, Vec<u8>)>,
        main: String,
    },
}

/// Why an instructor program could not be built: its compiler's words, for the instructor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BuildFailed(pub String);

/// Builds `files` (name inside the package, bytes) in `language`. A C or C++ build is cached
/// by its sources, like a submission's; a Rust one is compiled as a submission's program is
/// (one file, the same compile sandbox and cache).
pub fn build(
    sandbox: &Sandbox,
    toolchain: &Toolchain,
    cache: &CompileCache,
    language: Language,
    files: &[(String, Vec<u8>)],
) -> Result<Result<Program, BuildFailed>, GradeError> {
    let flat = flatten(files)?;
    let (compiler, flags): (&str, &[&str]) = match language {
        Language::Python3 => {
            return Ok(python_main(&flat)
                .map(|main| Program::Python { files: flat, main })
                .map_err(BuildFailed));
        }
        Language::Rust => return build_rust(sandbox, toolchain, cache, &flat),
        Language::Cpp => ("/usr/bin/g++", &["-O2", "-std=gnu++17", "-pipe"]),
        Language::C => ("/usr/bin/gcc", &["-O2", "-std=gnu11", "-pipe"]),
    };
    let sources: Vec<&str> = flat
        .iter()
        .map(|(name, _)| name.as_str())
        // A C++ validator may keep C parts beside it; g++ builds them as C++.
        .filter(|name| {
            let of = Language::of_file(name);
            of == Some(language) || (language == Language::Cpp && of == Some(Language::C))
        })
        .collect();
    let mut argv: Vec<String> = vec![compiler.into()];
    argv.extend(flags.iter().map(|f| f.to_string()));
    argv.extend(["-o".to_string(), format!("{BUILD_INSIDE}/{BUILT}")]);
    argv.extend(sources.iter().map(|n| format!("{BUILD_INSIDE}/{n}")));
    if language == Language::C {
        argv.push("-lm".into());
    }
    let key = CompileCache::key_of_parts(&[
        b"instructor-program",
        argv.join("\0").as_bytes(),
        &bundle(&flat),
    ]);
    if let Some((binary, _)) = cache.get(&key) {
        return Ok(Ok(Program::Binary(binary)));
    }
    let mut slot = sandbox.slot()?;
    let work = BuildDir::for_slot(cache.dir(), &slot)?;
    for (name, bytes) in &flat {
        work.write(name, bytes)?;
    }
    let job = Job {
        profile: Profile::Tool {
            work_dir: work.path().to_path_buf(),
            program: None,
        },
        argv,
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        cwd: PathBuf::from(BUILD_INSIDE),
        stdin: Vec::new(),
        limits: build_limits(),
    };
    let outcome = sandbox.run_in(&mut slot, &job, &mut sandbox::NoWatch)?;
    if !outcome.status.success() || outcome.limit.is_some() {
        let said = String::from_utf8_lossy(&outcome.stderr);
        return Ok(Err(BuildFailed(format!(
            "{compiler} failed ({:?}{}): {}",
            outcome.status,
            outcome
                .limit
                .map(|l| format!(", stopped by the {l:?} limit"))
                .unwrap_or_default(),
            katas::report::trim(&said)
        ))));
    }
    let bytes = work.read(BUILT, crate::grade::MAX_PROGRAM_BYTES)?;
    let binary = cache
        .put(&key, &bytes, &[])
        .map_err(|e| GradeError::io("caching a validator", e))?;
    Ok(Ok(Program::Binary(binary)))
}

fn build_rust(
    sandbox: &Sandbox,
    toolchain: &Toolchain,
    cache: &CompileCache,
    flat: &[(String, Vec<u8>)],
) -> Result<Result<Program, BuildFailed>, GradeError> {
    let [(_, source)] = flat else {
        return Ok(Err(BuildFailed(
            "a Rust validator is one file (its modules inlined)".into(),
        )));
    };
    let source = String::from_utf8_lossy(source);
    let target = crate::compile::Target::Program { slug: "validator" };
    Ok(
        match crate::compile::compile(sandbox, toolchain, cache, target, &source)? {
            Compiled::Binary { path, .. } => Ok(Program::Binary(path)),
            Compiled::Failed {
                diagnostics,
                message,
                ..
            } => Err(BuildFailed(
                message
                    .map(|m| m.en)
                    .into_iter()
                    .chain(diagnostics.into_iter().map(|d| d.rendered))
                    .collect::<Vec<_>>()
                    .join("\n"),
            )),
        },
    )
}

/// Files by their name alone: the sandbox's work folder is flat.
fn flatten(files: &[(String, Vec<u8>)]) -> Result<Vec<(String, Vec<u8>)>, GradeError> {
    let mut flat: Vec<(String, Vec<u8>)> = Vec::new();
    for (path, bytes) in files {
        let name = path.rsplit('/').next().unwrap_or(path).to_string();
        if flat.iter().any(|(n, _)| *n == name) {
            return Err(GradeError::Internal(format!(
                "two validator files are named `{name}`"
            )));
        }
        flat.push((name, bytes.clone()));
    }
    Ok(flat)
}

/// The script Python starts: the only one, else the one named like a validator's entry.
fn python_main(files: &[(String, Vec<u8>)]) -> Result<String, String> {
    let scripts: Vec<&str> = files
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.ends_with(".py"))
        .collect();
    match scripts.as_slice() {
        [only] => Ok((*only).to_string()),
        many => ["validator.py", "main.py", "__main__.py"]
            .into_iter()
            .find(|n| many.contains(n))
            .map(String::from)
            .ok_or_else(|| {
                format!("several Python files and none is validator.py or main.py: {many:?}")
            }),
    }
}

fn bundle(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, bytes) in files {
        out.extend_from_slice(&(name.len() as u64).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// What one run of an instructor program gave.
#[derive(Debug)]
pub struct Ran {
    pub status: sandbox::ExitStatus,
    pub limit: Option<sandbox::LimitHit>,
    pub stderr: String,
    /// Feedback files it wrote, by name.
    pub feedback: Vec<(&'static str, String)>,
}

impl Ran {
    pub fn exit_code(&self) -> Option<i32> {
        match (self.status, self.limit) {
            (sandbox::ExitStatus::Exited(code), None) => Some(code),
            _ => None,
        }
    }

    /// How it failed, for the instructor: status, limit, and the end of what it said.
    pub fn failure(&self) -> String {
        let mut text = format!("{:?}", self.status);
        if let Some(limit) = self.limit {
            text.push_str(&format!(", stopped by the {limit:?} limit"));
        }
        if !self.stderr.trim().is_empty() {
            text.push_str(&format!(
                "; stderr: {}",
                katas::report::trim(self.stderr.trim())
            ));
        }
        if let Some((_, judge)) = self.feedback.iter().find(|(n, _)| *n == "judgemessage.txt") {
            text.push_str(&format!(
                "; judgemessage.txt: {}",
                katas::report::trim(judge.trim())
            ));
        }
        text
    }
}

/// Runs `program` in the sandbox with `files` in its work folder (`/build`), `args` after it
/// and `stdin`.
pub fn run(
    sandbox: &Sandbox,
    cache: &CompileCache,
    program: &Program,
    files: &[(&str, &[u8])],
    args: &[String],
    stdin: &[u8],
) -> Result<Ran, GradeError> {
    let mut slot = sandbox.slot()?;
    let work = BuildDir::for_slot(cache.dir(), &slot)?;
    let (binary, mut argv) = match program {
        Program::Binary(binary) => (
            Some(binary.to_path_buf()),
            vec![TOOL_PROGRAM_INSIDE.to_string()],
        ),
        Program::Python { files, main } => {
            for (name, bytes) in files {
                work.write(name, bytes)?;
            }
            (
                None,
                vec![
                    "/usr/bin/python3".to_string(),
                    // No user site folder, no bytecode written beside the script.
                    "-s".to_string(),
                    "-B".to_string(),
                    format!("{BUILD_INSIDE}/{main}"),
                ],
            )
        }
    };
    for (name, bytes) in files {
        work.write(name, bytes)?;
    }
    argv.extend(args.iter().cloned());
    let job = Job {
        profile: Profile::Tool {
            work_dir: work.path().to_path_buf(),
            program: binary,
        },
        argv,
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        cwd: PathBuf::from(BUILD_INSIDE),
        stdin: stdin.to_vec(),
        limits: run_limits(stdin.len()),
    };
    let outcome = sandbox.run_in(&mut slot, &job, &mut sandbox::NoWatch)?;
    let feedback = ["teammessage.txt", "judgemessage.txt"]
        .into_iter()
        .filter_map(|name| {
            work.read(name, FEEDBACK_BYTES)
                .ok()
                .map(|bytes| (name, String::from_utf8_lossy(&bytes).into_owned()))
        })
        .collect();
    Ok(Ran {
        status: outcome.status,
        limit: outcome.limit,
        stderr: String::from_utf8_lossy(&outcome.stderr).into_owned(),
        feedback,
    })
}

/// A kata's custom output validator, run in the sandbox once per judged output.
#[derive(Debug)]
pub struct Sandboxed<'g> {
    pub sandbox: &'g Sandbox,
    pub cache: &'g CompileCache,
    pub program: Program,
}

impl OutputValidator for Sandboxed<'_> {
    fn validate(&self, case: &IoCase, output: &[u8]) -> Result<Judgement, String> {
        let args: Vec<String> = [
            format!("{BUILD_INSIDE}/input.in"),
            format!("{BUILD_INSIDE}/answer.ans"),
            format!("{BUILD_INSIDE}/"),
        ]
        .into_iter()
        .chain(case.flags.iter().cloned())
        .collect();
        let ran = run(
            self.sandbox,
            self.cache,
            &self.program,
            &[("input.in", &case.input), ("answer.ans", &case.answer)],
            &args,
            output,
        )
        .map_err(|e| e.to_string())?;
        match ran.exit_code() {
            Some(ACCEPT) => Ok(Judgement::Accepted),
            Some(REJECT) => Ok(Judgement::Rejected(
                ran.feedback
                    .iter()
                    .find(|(n, _)| *n == "teammessage.txt")
                    .filter(|(_, text)| !text.trim().is_empty())
                    .map(|(_, text)| {
                        let text = katas::report::trim(text.trim());
                        Message::new(
                            format!("the output validator says: {text}"),
                            format!("输出校验程序说：{text}"),
                        )
                    }),
            )),
            _ => Err(format!("the output validator failed: {}", ran.failure())),
        }
    }
}
