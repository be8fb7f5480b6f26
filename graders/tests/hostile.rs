//! The hostile-submission suite: every file in `tests/hostile/` is graded through the real
//! pipeline (sandboxed compile, sandboxed run, trusted judging) and must get the verdict its
//! header names — and afterwards the host must be unchanged and nothing may have leaked:
//! no process left in the sandbox's uid range, the canary file intact, and neither the
//! grader's secret environment variable nor a line of /etc/shadow anywhere in the report.
//!
//! Needs root and the kernel's sandbox features (namespaces, Landlock, seccomp, cgroups). Where
//! they are missing the suite says why and skips — unless `INFRAKATA_CI=1`, where it fails.

mod common;

use graders::{Grader, GraderConfig};
use katas::{Mode, Verdict};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const SECRET_VAR: &str = "INFRAKATA_HOSTILE_SECRET";
const CANARY: &str = "/tmp/infrakata-hostile-canary";

struct Submission {
    name: String,
    path: PathBuf,
    expected: Verdict,
    mode: Mode,
    /// `//! kata:`, optional: the kata the file solves (`fast-power` when absent).
    kata: String,
    /// `//! expected-message:`, optional: text the report's message or a diagnostic must hold,
    /// so that a verdict reached for another reason does not pass.
    message: Option<String>,
    /// `//! performance:`, optional: `at-least R` (the figure must exist and be at least R,
    /// so work hidden from the counter shows) or `absent` (no figure, with a reason).
    performance: Option<String>,
}

/// The trusted side's peak memory (this process) while grading one submission.
const TRUSTED_PEAK_BYTES: u64 = 512 << 20;

fn main() {
    graders::sandbox::run_stage_if_requested();
    let mut args = Arguments::from_args();
    // One at a time: the host checks after each grading must see only its own leftovers.
    args.test_threads = Some(1);

    let secret = format!("hostile-secret-{}", fastrand::u64(..));
    // The grader's environment must never reach a submission. `set_var` is unsafe in edition
    // 2024 (and unsafe code is forbidden here), so the suite re-runs itself with the secret set.
    if std::env::var_os(SECRET_VAR).is_none() {
        let status = std::process::Command::new(std::env::current_exe().expect("test binary"))
            .args(std::env::args_os().skip(1))
            .env(SECRET_VAR, &secret)
            .status()
            .expect("re-running the suite with the secret set");
        std::process::exit(status.code().unwrap_or(1));
    }

    common::run_suite_with("hostile suite", args, grader().map(drop), || {
        submissions()
            .into_iter()
            .map(|s| Trial::test(format!("hostile::{}", s.name), move || grade_one(&s)))
            .collect()
    });
}

fn grader() -> Result<&'static Grader, String> {
    static GRADER: OnceLock<Result<Grader, String>> = OnceLock::new();
    GRADER
        .get_or_init(|| {
            std::fs::write(CANARY, format!("canary {}", std::process::id()))
                .map_err(|e| e.to_string())?;
            Grader::new(GraderConfig::for_checkout()).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(Clone::clone)
}

fn submissions() -> Vec<Submission> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("hostile");
    let mut out: Vec<Submission> = std::fs::read_dir(&dir)
        .expect("tests/hostile exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable");
            let header = |key: &str| {
                text.lines()
                    .find_map(|l| l.strip_prefix(&format!("//! {key}:")))
                    .map(str::trim)
                    .unwrap_or_else(|| panic!("{} has no `//! {key}:` line", path.display()))
                    .to_string()
            };
            let expected = Verdict::parse(&header("expected-verdict"))
                .unwrap_or_else(|| panic!("{}: unknown verdict", path.display()));
            let message = text
                .lines()
                .find_map(|l| l.strip_prefix("//! expected-message:"))
                .map(|m| m.trim().to_string());
            let performance = text
                .lines()
                .find_map(|l| l.strip_prefix("//! performance:"))
                .map(|m| m.trim().to_string());
            let kata = text
                .lines()
                .find_map(|l| l.strip_prefix("//! kata:"))
                .map_or("fast-power", str::trim)
                .to_string();
            let mode = match header("mode").as_str() {
                "run" => Mode::Run,
                _ => Mode::Submit,
            };
            Submission {
                name: path
                    .file_stem()
                    .unwrap()
                    .to_string_lossy()
                    .replace('_', "-"),
                path,
                expected,
                mode,
                kata,
                message,
                performance,
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn grade_one(s: &Submission) -> Result<(), Failed> {
    let grader = grader()?;
    let source = std::fs::read_to_string(&s.path)?;
    let canary_before = std::fs::read(CANARY)?;
    // "5" resets the peak resident size, so the peak read afterwards is this grading's.
    std::fs::write("/proc/self/clear_refs", "5")?;
    let report = grader
        .grade(&s.kata, &source, s.mode, &|_| {})
        .map_err(|e| format!("the grader failed (must never happen for a submission): {e}"))?;
    let json = serde_json::to_string(&report)?;

    let mut problems = Vec::new();
    if report.verdict != s.expected {
        problems.push(format!(
            "expected {}, got {}: {}",
            s.expected,
            report.verdict,
            summary(&report)
        ));
    }
    if let Some(wanted) = &s.message {
        let mut said = report
            .message
            .iter()
            .chain(report.diagnostics.iter().map(|d| &d.message));
        if !said.any(|m| m.en.contains(wanted.as_str())) {
            problems.push(format!(
                "expected a message containing {wanted:?}: {}",
                summary(&report)
            ));
        }
    }
    if let Ok(secret) = std::env::var(SECRET_VAR)
        && json.contains(&secret)
    {
        problems.push("the report contains the grader's secret environment variable".into());
    }
    let shadow = std::fs::read_to_string("/etc/shadow").unwrap_or_default();
    if let Some(line) = shadow.lines().next()
        && !line.is_empty()
        && json.contains(line)
    {
        problems.push("the report contains a line of /etc/shadow".into());
    }
    let peak = trusted_peak_bytes();
    if peak > TRUSTED_PEAK_BYTES {
        problems.push(format!(
            "the trusted side peaked at {} MiB (bound {} MiB)",
            peak >> 20,
            TRUSTED_PEAK_BYTES >> 20
        ));
    }
    if report.verdict == Verdict::Accepted
        && s.mode == Mode::Submit
        && report.performance.is_none()
        && report.performance_missing.is_none()
    {
        problems.push("an accepted submit with no performance figure and no reason".into());
    }
    match s
        .performance
        .as_deref()
        .map(str::split_whitespace)
        .map(Iterator::collect::<Vec<_>>)
    {
        None => {}
        Some(words) if words == ["absent"] => {
            if let Some(p) = &report.performance {
                problems.push(format!("expected no performance figure, got {p:?}"));
            }
        }
        Some(words) if words.len() == 2 && words[0] == "at-least" => {
            let floor: f64 = words[1].parse()?;
            match &report.performance {
                Some(p) if p.ratio >= floor => {}
                other => problems.push(format!(
                    "expected a performance ratio of at least {floor}, got {other:?} ({:?})",
                    report.performance_missing
                )),
            }
        }
        Some(words) => problems.push(format!("unknown `performance:` header {words:?}")),
    }
    if std::fs::read(CANARY)? != canary_before {
        problems.push(format!("{CANARY} changed"));
    }
    let left = sandbox_processes();
    if !left.is_empty() {
        problems.push(format!("processes left behind: {left:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

fn summary(r: &graders::GradeReport) -> String {
    let first = r.cases.iter().find(|c| c.outcome != katas::Outcome::Passed);
    format!(
        "message {:?}; first non-passing case {:?}; diagnostics {:?}",
        r.message,
        first.map(|c| (&c.name, c.outcome, &c.message)),
        r.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
    )
}

/// `VmHWM` of this process, in bytes.
fn trusted_peak_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb << 10)
}

/// Processes owned by a sandbox uid whose slot no grader holds (the pool starts at
/// `SandboxConfig::default().uid_base`). A slot held by another grader on the host (a concurrent
/// test binary, a server's worker) is that grader's business: its processes are alive by right.
/// A released slot with a live process is a leak, whoever released it.
fn sandbox_processes() -> Vec<String> {
    let config = graders::sandbox::SandboxConfig::default();
    let slots = config.uid_base..config.uid_base + config.slots;
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|u| u.parse::<u32>().ok());
        // Looked at again after the slot: a grader may have ended its job in between.
        if uid.is_some_and(|u| slots.contains(&u) && !slot_held(&config.slot_dir, u))
            && entry.path().join("status").exists()
        {
            found.push(format!(
                "{} {}",
                entry.file_name().to_string_lossy(),
                status.lines().next().unwrap_or_default()
            ));
        }
    }
    found
}

/// Whether some grader holds slot `uid` now: its file's lock is taken. Taking the lock for a
/// moment only makes another grader pick the next slot.
fn slot_held(slot_dir: &Path, uid: u32) -> bool {
    match std::fs::File::open(slot_dir.join(uid.to_string())) {
        Ok(file) => matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock)),
        Err(_) => false,
    }
}
