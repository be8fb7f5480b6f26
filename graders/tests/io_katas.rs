//! Stdin/stdout katas through the real sandbox: the package rules (reference accepted, starter
//! fails, every `wrong/` program its marked verdict), and instructors' output validators —
//! Python, C++ and Rust ones that judge, and hostile ones (a crash, a loop, a fork bomb, endless
//! printing, a huge allocation, a read of host files) that are contained and reported as the
//! kata's fault, never as the learner's verdict.
//!
//! Needs root and the sandbox's kernel features; skips with the reason otherwise, and fails
//! instead under `INFRAKATA_CI=1`.

mod common;

use common::grader;
use graders::GradeReport;
use katas::io::IoPackage;
use katas::{Mode, Outcome, Verdict};
use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};

fn main() {
    common::run_suite("io katas", || grader().map(drop), trials);
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/io/pair-sums")
}

fn grade(package: &IoPackage, source: &str, mode: Mode) -> Result<GradeReport, Failed> {
    grader()?
        .grade_io(package, source, mode, &|_| {})
        .map_err(|e| Failed::from(e.to_string()))
}

fn trials() -> Vec<Trial> {
    let mut out = vec![
        Trial::test("io::package_rules_hold_in_the_sandbox", package_rules),
        Trial::test("io::a_run_judges_the_samples_only", run_is_samples_only),
        Trial::test(
            "io::a_compile_error_is_reported_on_the_learner_s_lines",
            compile_error,
        ),
        Trial::test("io::each_limit_is_its_own_verdict", limits_are_verdicts),
        Trial::test(
            "io::the_kata_new_io_template_grades_in_the_sandbox",
            io_template_grades,
        ),
        Trial::test(
            "io::kattis_packages_import_and_pass_verification",
            kattis_packages_verify,
        ),
        Trial::test(
            "io::verification_runs_every_program_and_input_validator",
            verification,
        ),
    ];
    for (name, language, file, source) in judging_validators() {
        out.push(Trial::test(
            format!("io::validator::{name}_judges"),
            move || validator_judges(language, file, source),
        ));
    }
    for (name, language, file, source, said) in hostile_validators() {
        out.push(Trial::test(
            format!("io::hostile_validator::{name}_is_the_kata_s_fault"),
            move || hostile_validator_is_contained(language, file, source, said),
        ));
    }
    out
}

fn package_rules() -> Result<(), Failed> {
    let package = IoPackage::read_dir(&fixture()).map_err(|e| e.to_string())?;
    let reference = grade(
        &package,
        package.reference().ok_or("no reference")?,
        Mode::Submit,
    )?;
    if reference.verdict != Verdict::Accepted {
        return Err(format!("reference: {reference:#?}").into());
    }
    if reference.score.total != package.cases.len() || reference.performance_missing.is_none() {
        return Err(format!(
            "reference ran {} cases: {reference:#?}",
            reference.score.total
        )
        .into());
    }
    let starter = grade(
        &package,
        package.starter().ok_or("no starter")?,
        Mode::Submit,
    )?;
    if starter.verdict == Verdict::Accepted {
        return Err("the starter was accepted".into());
    }
    let wrong = package.wrong().map_err(|e| e.to_string())?;
    if wrong.len() != 3 {
        return Err(format!("{} wrong programs", wrong.len()).into());
    }
    for known in wrong {
        let report = grade(&package, &known.source, Mode::Submit)?;
        if report.verdict != known.expected {
            return Err(format!(
                "wrong/{}: {:?}, marked {:?}: {report:#?}",
                known.name, report.verdict, known.expected
            )
            .into());
        }
        let first = report
            .cases
            .iter()
            .position(|c| c.outcome != Outcome::Passed)
            .ok_or("no failing case")?;
        if report.cases[first + 1..]
            .iter()
            .any(|c| c.outcome != Outcome::NotRun)
        {
            return Err(format!("wrong/{}: cases ran after the first failure", known.name).into());
        }
    }
    Ok(())
}

fn run_is_samples_only() -> Result<(), Failed> {
    let package = IoPackage::read_dir(&fixture()).map_err(|e| e.to_string())?;
    let overflow = package
        .wrong()
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|w| w.name == "overflow")
        .ok_or("no overflow")?;
    let report = grade(&package, &overflow.source, Mode::Run)?;
    // The overflow shows only on the secret `large` case, which a run does not reach.
    if report.verdict != Verdict::Accepted || report.cases.len() != 1 {
        return Err(format!("{report:#?}").into());
    }
    let panics = package
        .wrong()
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|w| w.name == "panics")
        .ok_or("no panics")?;
    let report = grade(&package, &panics.source, Mode::Run)?;
    let message = report.cases[0].message.as_ref().ok_or("no message")?;
    // A sample's failure shows what the program said on stderr, its panic message included.
    if !message.en.contains("more than one pair") {
        return Err(format!("{message:?}").into());
    }
    Ok(())
}

/// `kata new --io`'s template: its reference is accepted and its starter refused, so an
/// instructor starts from a package whose only gaps are the placeholders and `wrong/`.
fn io_template_grades() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = katas::scaffold::create(tmp.path(), "sum-io", katas::scaffold::Template::Io)
        .map_err(|e| e.to_string())?;
    let package = IoPackage::read_dir(&dir).map_err(|e| e.to_string())?;
    let checks = grader()?.verify_io(&package).map_err(|e| e.to_string())?;
    if checks.len() != 2 || checks.iter().any(|c| !c.ok) {
        return Err(format!("{checks:#?}").into());
    }
    Ok(())
}

/// Every Kattis package under `katas/tests/kattis` (one per format; groups, default and custom
/// validators in Python and C++, input validators, a package with no Rust solution) imports and
/// passes verification in the sandbox: each Rust program gets its marked verdict.
fn kattis_packages_verify() -> Result<(), Failed> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../katas/tests/kattis");
    let mut seen = 0;
    for entry in std::fs::read_dir(&fixtures).map_err(|e| e.to_string())? {
        let dir = entry.map_err(|e| e.to_string())?.path();
        let out = tempfile::tempdir().map_err(|e| e.to_string())?;
        let imported = katas::kattis::import(&dir, out.path())
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let package = IoPackage::read_dir(&imported.package_dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let findings = katas::io::lint::lint(&imported.package_dir);
        if !findings.is_empty() {
            return Err(format!("{}: {findings:?}", dir.display()).into());
        }
        let checks = grader()?.verify_io(&package).map_err(|e| e.to_string())?;
        if let Some(failed) = checks.iter().find(|c| !c.ok) {
            return Err(format!("{}: {failed:#?}", dir.display()).into());
        }
        seen += 1;
    }
    if seen < 4 {
        return Err(format!("{seen} Kattis fixtures").into());
    }
    Ok(())
}

/// Programs that hit each limit, and the verdict each gets on the first sample.
fn limits_are_verdicts() -> Result<(), Failed> {
    let package = IoPackage::read_dir(&fixture()).map_err(|e| e.to_string())?;
    let cases = [
        (
            "fn main() { let mut v: Vec<Vec<u8>> = Vec::new(); loop { v.push(vec![1; 1 << 20]); } }",
            Verdict::MemoryLimitExceeded,
        ),
        (
            "fn main() { let line = \"x\".repeat(4096); loop { println!(\"{line}\"); } }",
            Verdict::OutputLimitExceeded,
        ),
        (
            "fn main() { std::process::exit(3); }",
            Verdict::RuntimeError,
        ),
        (
            "fn main() { let t: Vec<_> = (0..64).map(|_| std::thread::spawn(|| std::thread::sleep(std::time::Duration::from_millis(200)))).collect(); for t in t { let _ = t.join(); } }",
            Verdict::RuntimeError,
        ),
        (
            "fn main() { std::thread::sleep(std::time::Duration::from_secs(60)); }",
            Verdict::TimeLimitExceeded,
        ),
    ];
    for (source, expected) in cases {
        let report = grade(&package, source, Mode::Run)?;
        if report.verdict != expected {
            return Err(format!(
                "{source}: {:?}, expected {expected:?}: {report:#?}",
                report.verdict
            )
            .into());
        }
    }
    Ok(())
}

fn compile_error() -> Result<(), Failed> {
    let package = IoPackage::read_dir(&fixture()).map_err(|e| e.to_string())?;
    let report = grade(
        &package,
        "fn main() {\n    let x: u32 = \"no\";\n}\n",
        Mode::Submit,
    )?;
    let first = report.diagnostics.first().ok_or("no diagnostic")?;
    if report.verdict != Verdict::CompileError || first.line != Some(2) {
        return Err(format!("{report:#?}").into());
    }
    Ok(())
}

fn verification() -> Result<(), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    copy_tree(&fixture(), dir.path()).map_err(|e| e.to_string())?;
    let checker = "import sys\nlines = sys.stdin.read().split('\\n')\nn = int(lines[0])\nsys.exit(42 if n <= LIMIT else 43)\n";
    std::fs::create_dir_all(dir.path().join("input_validators")).map_err(|e| e.to_string())?;
    let meta_path = dir.path().join("kata.toml");
    let meta = std::fs::read_to_string(&meta_path).map_err(|e| e.to_string())?;
    std::fs::write(
        &meta_path,
        format!("{meta}\n[[io.input_validators]]\nlanguage = \"python3\"\nfiles = [\"input_validators/small.py\"]\n"),
    )
    .map_err(|e| e.to_string())?;
    let verify = |limit: &str| -> Result<Vec<graders::PackageCheck>, Failed> {
        std::fs::write(
            dir.path().join("input_validators/small.py"),
            checker.replace("LIMIT", limit),
        )
        .map_err(|e| e.to_string())?;
        let package = IoPackage::read_dir(dir.path()).map_err(|e| e.to_string())?;
        grader()?
            .verify_io(&package)
            .map_err(|e| Failed::from(e.to_string()))
    };
    let checks = verify("3")?;
    if checks.len() != 6 || checks.iter().any(|c| !c.ok) {
        return Err(format!("{checks:#?}").into());
    }
    // A validator that refuses an input fails the package, naming the input.
    let checks = verify("2")?;
    let refused = checks.iter().find(|c| !c.ok).ok_or("nothing failed")?;
    if !refused.got.contains("secret/large/1.in refused") {
        return Err(format!("{refused:#?}").into());
    }
    Ok(())
}

/// The fixture with a custom validator in `dir/output_validator/<file>`.
fn with_validator(
    language: &str,
    file: &str,
    source: &str,
) -> Result<(tempfile::TempDir, IoPackage), Failed> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    copy_tree(&fixture(), dir.path()).map_err(|e| e.to_string())?;
    let meta = std::fs::read_to_string(dir.path().join("kata.toml")).map_err(|e| e.to_string())?;
    let meta = meta.replace(
        "validator = \"default\"",
        &format!("validator = \"custom\"\nvalidator_language = \"{language}\"\nvalidator_files = [\"output_validator/{file}\"]"),
    );
    std::fs::write(dir.path().join("kata.toml"), meta).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.path().join("output_validator")).map_err(|e| e.to_string())?;
    std::fs::write(dir.path().join("output_validator").join(file), source)
        .map_err(|e| e.to_string())?;
    let package = IoPackage::read_dir(dir.path()).map_err(|e| e.to_string())?;
    Ok((dir, package))
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// Validators that accept the sums in any order (the default validator would not), and say why
/// they reject.
fn judging_validators() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    vec![
        ("python", "python3", "validator.py", PY_ANY_ORDER),
        ("cpp", "cpp", "validator.cpp", CPP_ANY_ORDER),
        ("rust", "rust", "validator.rs", RS_ANY_ORDER),
    ]
}

fn validator_judges(language: &str, file: &str, source: &str) -> Result<(), Failed> {
    let (_dir, package) = with_validator(language, file, source)?;
    let reversed = package.reference().ok_or("no reference")?.replace(
        "    for _ in 0..n {\n        let (a, b) = (numbers.next().expect(\"a\"), numbers.next().expect(\"b\"));\n        out.push_str(&format!(\"{}\\n\", a + b));\n    }",
        "    let mut sums = Vec::new();\n    for _ in 0..n {\n        let (a, b) = (numbers.next().expect(\"a\"), numbers.next().expect(\"b\"));\n        sums.push(a + b);\n    }\n    for s in sums.iter().rev() {\n        out.push_str(&format!(\"{s}\\n\"));\n    }",
    );
    if !reversed.contains(".rev()") {
        return Err("the reference changed shape; update this test".into());
    }
    let report = grade(&package, &reversed, Mode::Submit)?;
    if report.verdict != Verdict::Accepted {
        return Err(format!("sums in reverse order: {report:#?}").into());
    }
    let starter = grade(
        &package,
        package.starter().ok_or("no starter")?,
        Mode::Submit,
    )?;
    let said = starter.cases[0].message.as_ref().ok_or("no message")?;
    if starter.verdict != Verdict::WrongAnswer || !said.en.contains("multiset differs") {
        return Err(format!("starter: {starter:#?}").into());
    }
    Ok(())
}

fn hostile_validators() -> Vec<(
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
)> {
    vec![
        (
            "crash",
            "python3",
            "validator.py",
            "raise SystemExit(1)\n",
            "Exited(1)",
        ),
        (
            "exit_zero",
            "python3",
            "validator.py",
            "import sys\nsys.exit(0)\n",
            "Exited(0)",
        ),
        (
            "loop",
            "python3",
            "validator.py",
            "while True:\n    pass\n",
            "limit",
        ),
        (
            "fork_bomb",
            "python3",
            "validator.py",
            "import os\nwhile True:\n    os.fork()\n",
            "failed",
        ),
        (
            "endless_print",
            "python3",
            "validator.py",
            "while True:\n    print('x' * 4096)\n",
            "limit",
        ),
        (
            "allocate",
            "python3",
            "validator.py",
            "x = bytearray(8 << 30)\n",
            "failed",
        ),
        (
            "read_host_files",
            "python3",
            "validator.py",
            "import sys\nopen('/etc/passwd').read()\nsys.exit(42)\n",
            "No such file",
        ),
        (
            "does_not_build",
            "cpp",
            "validator.cpp",
            "int main( {\n",
            "does not build",
        ),
    ]
}

fn hostile_validator_is_contained(
    language: &str,
    file: &str,
    source: &str,
    said: &str,
) -> Result<(), Failed> {
    let (_dir, package) = with_validator(language, file, source)?;
    let report = grade(
        &package,
        package.reference().ok_or("no reference")?,
        Mode::Submit,
    )?;
    let text = format!(
        "{:?} {:?}",
        report.message,
        report.cases.first().and_then(|c| c.message.clone())
    );
    if report.verdict != Verdict::InternalError || !text.contains(said) {
        return Err(format!("expected internal_error saying {said:?}: {report:#?}").into());
    }
    if !text.contains("kata") {
        return Err(format!("the report must say it is the kata's fault: {text}").into());
    }
    Ok(())
}

const PY_ANY_ORDER: &str = r#"import sys
from collections import Counter

input_file, answer_file, feedback = sys.argv[1], sys.argv[2], sys.argv[3]
want = Counter(open(answer_file).read().split())
got = Counter(sys.stdin.read().split())
if want == got:
    sys.exit(42)
with open(feedback + "teammessage.txt", "w") as f:
    f.write("the multiset differs from the answer's")
sys.exit(43)
"#;

const CPP_ANY_ORDER: &str = r#"#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::ifstream answer(argv[2]);
    std::vector<std::string> want, got;
    for (std::string t; answer >> t;) want.push_back(t);
    for (std::string t; std::cin >> t;) got.push_back(t);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    if (want == got) return 42;
    std::ofstream(std::string(argv[3]) + "teammessage.txt") << "the multiset differs";
    return 43;
}
"#;

const RS_ANY_ORDER: &str = r#"use std::io::Read;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut want: Vec<String> = std::fs::read_to_string(&args[2]).unwrap().split_whitespace().map(String::from).collect();
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut got: Vec<String> = text.split_whitespace().map(String::from).collect();
    want.sort();
    got.sort();
    if want == got {
        std::process::exit(42);
    }
    std::fs::write(format!("{}teammessage.txt", args[3]), "the multiset differs").unwrap();
    std::process::exit(43);
}
"#;
