//! `infrakata grade`, run as the real binary: verdicts as data with exit status 0, usage errors
//! with exit status 2. Needs root for the sandbox; says why it skips otherwise, and fails
//! instead under `INFRAKATA_CI=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn katas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../katas/problems/fast-power")
}

fn grade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .arg("grade")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The sandbox needs root; elsewhere these tests cannot run.
fn sandbox_available() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let root = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .is_some_and(|l| l.split_whitespace().next() == Some("0"));
    if !root {
        assert!(
            std::env::var_os("INFRAKATA_CI").is_none(),
            "grading tests must run under INFRAKATA_CI=1"
        );
        println!("skipping: grading needs root for the sandbox");
    }
    root
}

/// A learner file that does not compile (a type error), written into `dir`.
fn broken_file(dir: &Path) -> PathBuf {
    let broken = dir.join("broken.rs");
    std::fs::write(
        &broken,
        "pub fn power(b: f64, e: i32) -> f64 {\n    b * e\n}\n",
    )
    .unwrap();
    broken
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn verdicts_are_data_with_exit_status_zero() {
    if !sandbox_available() {
        return;
    }
    let reference = katas_dir().join("reference.rs");
    let out = grade(&[
        "fast-power",
        reference.to_str().unwrap(),
        "--mode",
        "run",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    assert_eq!(report["verdict"], "accepted");
    assert_eq!(report["mode"], "run");
    assert_eq!(report["score"]["passed"], report["score"]["total"]);

    let wrong = katas_dir().join("wrong/forgets_modulus_one.rs");
    let out = grade(&["fast-power", wrong.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a wrong answer is still a finished grading"
    );
    let report = json(&out);
    assert_eq!(report["verdict"], "wrong_answer");
    let failing = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["outcome"] == "wrong_answer")
        .unwrap();
    assert_eq!(failing["mismatch"]["expected"], "0");
    assert_eq!(failing["mismatch"]["got"], "1");

    let dir = tempfile::tempdir().unwrap();
    let broken = broken_file(dir.path());
    let out = grade(&[
        "fast-power",
        broken.to_str().unwrap(),
        "--mode",
        "run",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    assert_eq!(report["verdict"], "compile_error");
    let lines: Vec<_> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["line"].clone())
        .collect();
    assert!(
        lines.contains(&serde_json::json!(2)),
        "the type error is on the learner's line 2: {lines:?}"
    );

    let table = grade(&["fast-power", reference.to_str().unwrap(), "--mode", "run"]);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.starts_with("fast-power: Accepted"), "{text}");
}

#[test]
fn bad_input_is_a_usage_error_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let reference = katas_dir().join("reference.rs");
    let out = grade(&["no-such-kata", reference.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown kata `no-such-kata`"));

    let binary = dir.path().join("latin1.rs");
    std::fs::write(&binary, [0x66, 0x6e, 0xff, 0xfe]).unwrap();
    let out = grade(&["fast-power", binary.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid UTF-8"));

    let missing = dir.path().join("missing.rs");
    let out = grade(&["fast-power", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.rs"));

    if sandbox_available() {
        let huge = dir.path().join("huge.rs");
        std::fs::write(&huge, format!("// {}\n", "x".repeat(70 << 10))).unwrap();
        let out = grade(&["fast-power", huge.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("limit is 65536"),
            "{out:?}"
        );
    }
}

/// `grade --custom`: the program on the learner's own input through the grader's custom path,
/// the input, both answers and the verdict printed; a refused input is a usage error with the
/// kata's words and nothing is compiled.
#[test]
fn a_custom_input_prints_both_answers_and_the_verdict() {
    if !sandbox_available() {
        return;
    }
    let reference = katas_dir().join("reference.rs");
    let wrong = katas_dir().join("wrong/forgets_modulus_one.rs");
    let input = r#"{"PowMod":[[7,0,1]]}"#;

    let out = grade(&["fast-power", wrong.to_str().unwrap(), "--custom", input]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("fast-power: Wrong answer — custom input"),
        "{text}"
    );
    for line in [
        r#"input:     {"PowMod":[[7,0,1]]}"#,
        r#"reference: {"PowMod":[0]}"#,
        r#"yours:     {"PowMod":[1]}"#,
        "outcome:   wrong_answer",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }

    // From a file, as JSON: the same report the service stores.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("input.json");
    std::fs::write(&file, input).unwrap();
    let at_file = format!("@{}", file.display());
    let out = grade(&[
        "fast-power",
        reference.to_str().unwrap(),
        "--custom",
        &at_file,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report = json(&out);
    assert_eq!(report["verdict"], "accepted");
    assert_eq!(report["mode"], "run");
    assert_eq!(report["cases"].as_array().unwrap().len(), 1);
    assert_eq!(report["custom"]["input"], input);
    assert_eq!(report["custom"]["reference"], r#"{"PowMod":[0]}"#);
    assert_eq!(report["custom"]["learner"], report["custom"]["reference"]);

    // A program that does not compile: still a custom run, the reference's answer beside none.
    let broken = broken_file(dir.path());
    let out = grade(&[
        "fast-power",
        broken.to_str().unwrap(),
        "--custom",
        input,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report = json(&out);
    assert_eq!(report["verdict"], "compile_error");
    assert_eq!(report["custom"]["reference"], r#"{"PowMod":[0]}"#);
    assert_eq!(report["custom"]["learner"], serde_json::Value::Null);

    let out = grade(&[
        "fast-power",
        reference.to_str().unwrap(),
        "--custom",
        r#"{"PowMod":[[2,10,0]]}"#,
    ]);
    // Admitted or refused by the kata's judge in the sandbox, as on the service: this binary
    // holds no kata's code, so only what is not JSON is refused before the grader starts.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("fast-power: Input refused — custom input"),
        "{text}"
    );
    assert!(text.contains("modulus 0 is outside 1..=2^63"), "{text}");
    let out = grade(&[
        "fast-power",
        reference.to_str().unwrap(),
        "--custom",
        "not json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("sandbox:"),
        "refused before the grader starts: {err}"
    );

    let out = grade(&[
        "fast-power",
        reference.to_str().unwrap(),
        "--custom",
        "{}",
        "--mode",
        "submit",
    ]);
    assert_eq!(out.status.code(), Some(2), "--custom is a run of its own");
}

fn io_package() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../graders/tests/io/pair-sums")
}

#[test]
fn a_stdin_stdout_kata_is_graded_from_its_folder() {
    if !sandbox_available() {
        return;
    }
    let dir = io_package();
    let wrong = dir.join("wrong/overflow.rs");
    let out = grade(&[dir.to_str().unwrap(), wrong.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report = json(&out);
    assert_eq!(report["verdict"], "wrong_answer");
    assert_eq!(report["kata"], "pair-sums");
    assert_eq!(report["cases"][1]["name"], "secret/large/1");
    assert_eq!(report["cases"][2]["outcome"], "not_run");
    // A secret case never shows its input, and the message never shows its answer.
    assert!(report["cases"][1]["input"].is_null());
    let message = report["cases"][1]["message"].as_str().unwrap_or_default();
    assert!(!message.contains("18000000000000000000"), "{message}");

    let out = Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(["kata", "check", dir.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    assert!(
        table.contains("wrong/spins.rs") && table.contains("package complete"),
        "{table}"
    );
}

#[test]
fn kata_check_finds_a_new_io_package_in_the_problems_folder_by_slug() {
    if !sandbox_available() {
        return;
    }
    let problems = tempfile::tempdir().unwrap();
    let dir = problems.path().to_str().unwrap();
    let new = Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(["kata", "new", "sum-io", "--io", "--problems-dir", dir])
        .output()
        .expect("the binary runs");
    assert!(new.status.success(), "{new:?}");
    let check = Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(["kata", "check", "sum-io", "--problems-dir", dir])
        .output()
        .expect("the binary runs");
    let table = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{table}");
    for expected in [
        "TODO(instructor)",
        "known-wrong programs",
        "accepted (2/2 cases)",
        "package incomplete",
    ] {
        assert!(table.contains(expected), "`{expected}` not in {table}");
    }
}

#[test]
fn a_function_package_is_graded_from_its_folder_and_measured_against_its_own_reference() {
    if !sandbox_available() {
        return;
    }
    // fast-power under a slug the build never saw: graded and counted from its own files.
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("power-drill");
    let mut copy = Command::new("cp");
    copy.arg("-r").arg(katas_dir()).arg(&package);
    assert!(copy.status().unwrap().success());
    let toml = package.join("kata.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("slug = \"fast-power\""));
    std::fs::write(
        &toml,
        text.replace("slug = \"fast-power\"", "slug = \"power-drill\""),
    )
    .unwrap();
    let reference = package.join("reference.rs");
    let out = grade(&[
        package.to_str().unwrap(),
        reference.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report = json(&out);
    assert_eq!(report["kata"], "power-drill", "{report}");
    assert_eq!(report["verdict"], "accepted", "{report}");
    let figure = &report["performance"];
    assert!(
        figure["reference_instructions"].as_u64() > Some(0),
        "{report}"
    );
    assert_eq!(
        figure["instructions"], figure["reference_instructions"],
        "{report}"
    );
    // Custom input on the folder: its judge answers an input, and refuses one it does not admit.
    let custom = |input: &str| {
        grade(&[
            package.to_str().unwrap(),
            reference.to_str().unwrap(),
            "--custom",
            input,
        ])
    };
    let out = custom(r#"{"Power": [[2.0, 10]]}"#);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        text.contains("power-drill: Accepted — custom input"),
        "{text}"
    );
    assert!(
        text.contains("reference:") && text.contains("1024"),
        "{text}"
    );
    let out = custom(r#"{"Power": []}"#);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("power-drill: Input refused — custom input"),
        "{text}"
    );
    assert!(text.contains("the number of queries"), "{text}");
}
