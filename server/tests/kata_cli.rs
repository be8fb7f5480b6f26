//! The `infrakata kata` commands, run as the real binary.

use std::path::Path;
use std::process::{Command, Output};

fn infrakata(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(args)
        .env_remove("INFRAKATA_WORKSPACE")
        .env_remove("INFRAKATA_PROBLEMS")
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn last_line(out: &Output) -> String {
    stdout(out).lines().last().unwrap_or_default().to_string()
}

#[test]
fn list_shows_every_kata_in_catalogue_order() {
    let out = infrakata(&["kata", "list"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let positions: Vec<usize> = katas::catalogue::all()
        .iter()
        .map(|k| {
            text.find(&format!("\n{} ", k.meta().slug))
                .unwrap_or_else(|| panic!("{} missing:\n{text}", k.meta().slug))
        })
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "not in catalogue order:\n{text}"
    );
    assert!(
        !text.contains("new-kata"),
        "the template must not be listed"
    );
}

#[test]
fn show_prints_the_statement_and_keeps_hints_and_concept_until_asked() {
    let out = infrakata(&["kata", "show", "fast-power"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("pub fn power(base: f64, exponent: i32) -> f64;"),
        "{text}"
    );
    assert!(
        !text.contains("## Concept") && !text.contains("## Hints\n"),
        "{text}"
    );
    assert!(
        text.contains("--hints"),
        "tells how to see the hints: {text}"
    );

    let text = stdout(&infrakata(&[
        "kata",
        "show",
        "fast-power",
        "--hints",
        "--concept",
    ]));
    assert!(
        text.contains("## Hints") && text.contains("## Concept"),
        "{text}"
    );
}

#[test]
fn show_lang_zh_prints_the_chinese_statement_with_the_same_code() {
    let text = stdout(&infrakata(&["kata", "show", "fast-power", "--lang", "zh"]));
    assert!(
        text.starts_with("# 快速幂") && text.contains("## 任务"),
        "{text}"
    );
    assert!(
        text.contains("pub fn power(base: f64, exponent: i32) -> f64;"),
        "the code is the same in both languages: {text}"
    );
    assert!(
        !text.contains("## 提示") && !text.contains("## 原理"),
        "{text}"
    );
    assert!(text.contains("--lang zh --hints"), "{text}");

    let text = stdout(&infrakata(&[
        "kata",
        "show",
        "fast-power",
        "--lang",
        "zh-CN",
        "--hints",
        "--concept",
    ]));
    assert!(
        text.contains("## 提示") && text.contains("## 原理") && text.contains("4. "),
        "{text}"
    );
    assert!(!text.contains("## Hints"), "{text}");

    let out = infrakata(&["kata", "show", "fast-power", "--lang", "fr"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown language `fr`"), "{err}");
}

#[test]
fn an_unknown_kata_is_a_usage_error_that_names_it() {
    let out = infrakata(&["kata", "show", "no-such-kata"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown kata `no-such-kata`") && err.contains("kata list"),
        "{err}"
    );
}

#[test]
fn start_copies_the_starter_prints_its_path_last_and_never_overwrites_silently() {
    let ws = tempfile::tempdir().unwrap();
    let dir = ws.path().to_str().unwrap();
    let out = infrakata(&["kata", "start", "fast-power", "--workspace", dir]);
    assert!(out.status.success(), "{out:?}");
    let path = last_line(&out);
    assert_eq!(Path::new(&path), ws.path().join("fast-power.rs"));
    let kata = katas::catalogue::find("fast-power").unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        kata.package().starter
    );

    std::fs::write(&path, "// my work").unwrap();
    let again = infrakata(&["kata", "start", "fast-power", "--workspace", dir]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "// my work");

    let forced = infrakata(&["kata", "start", "fast-power", "--force", "--workspace", dir]);
    assert!(forced.status.success());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        kata.package().starter
    );
}

#[test]
fn check_runs_every_part_of_a_seed_package() {
    let out = infrakata(&["kata", "check", "fast-power"]);
    let text = stdout(&out);
    if text.contains("run in the sandbox") && std::env::var_os("INFRAKATA_CI").is_none() {
        println!("skipped: no sandbox here: {text}");
        return;
    }
    assert!(out.status.success(), "{text}");
    // Built from the package's files and run in the sandbox (this binary holds no kata's code),
    // so each wrong solution gets its verdict in the sandbox.
    let kata = katas::catalogue::find("fast-power").unwrap();
    for w in kata.package().wrong {
        let row = text.lines().find(|l| l.starts_with(w.file)).expect(w.file);
        assert!(
            row.contains(w.sandboxed.as_str()) && row.ends_with("ok"),
            "{row}"
        );
    }
    let names = text
        .lines()
        .find(|l| l.starts_with("case names"))
        .expect("case names");
    assert!(names.ends_with("ok"), "{names}");
    assert!(
        text.trim_end().ends_with("fast-power: package complete"),
        "{text}"
    );
}

#[test]
fn a_new_scaffold_is_reported_incomplete() {
    let problems = tempfile::tempdir().unwrap();
    let dir = problems.path().to_str().unwrap();
    let out = infrakata(&["kata", "new", "kv-cache", "--problems-dir", dir]);
    assert!(out.status.success(), "{out:?}");
    let created = problems.path().join("kv-cache");
    assert_eq!(Path::new(&last_line(&out)), created);
    let toml = std::fs::read_to_string(created.join("kata.toml")).unwrap();
    assert!(toml.contains("slug = \"kv-cache\""), "{toml}");
    assert!(created.join("wrong").is_dir());

    let check = infrakata(&["kata", "check", "kv-cache", "--problems-dir", dir]);
    assert_eq!(check.status.code(), Some(1));
    let text = stdout(&check);
    assert!(
        text.contains("TODO(instructor)") && text.contains("at least 3"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("kv-cache: package incomplete"),
        "{text}"
    );

    let again = infrakata(&["kata", "new", "kv-cache", "--problems-dir", dir]);
    assert_eq!(again.status.code(), Some(2), "refuses to overwrite");
    let bad = infrakata(&["kata", "new", "Bad_Slug", "--problems-dir", dir]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a valid slug"));
}

#[test]
fn a_new_data_only_scaffold_has_no_kata_rs_and_is_reported_incomplete() {
    let problems = tempfile::tempdir().unwrap();
    let dir = problems.path().to_str().unwrap();
    let out = infrakata(&["kata", "new", "sum-of", "--data", "--problems-dir", dir]);
    assert!(out.status.success(), "{out:?}");
    let created = problems.path().join("sum-of");
    assert!(created.join("data/cases.toml").is_file());
    assert!(!created.join("kata.rs").exists());
    let toml = std::fs::read_to_string(created.join("kata.toml")).unwrap();
    assert!(
        toml.contains("[data]") && toml.contains("slug = \"sum-of\""),
        "{toml}"
    );

    let check = infrakata(&["kata", "check", "sum-of", "--problems-dir", dir]);
    assert_eq!(check.status.code(), Some(1));
    let text = stdout(&check);
    assert!(
        text.contains("data/cases.toml") && text.contains("TODO(instructor)"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("sum-of: package incomplete"),
        "{text}"
    );
}

#[test]
fn a_new_io_scaffold_is_a_program_with_cases() {
    let problems = tempfile::tempdir().unwrap();
    let dir = problems.path().to_str().unwrap();
    let out = infrakata(&["kata", "new", "sum-io", "--io", "--problems-dir", dir]);
    assert!(out.status.success(), "{out:?}");
    let created = problems.path().join("sum-io");
    for file in [
        "data/sample/1.in",
        "data/secret/1.ans",
        "reference.rs",
        "starter.rs",
    ] {
        assert!(created.join(file).is_file(), "{file}");
    }
    let toml = std::fs::read_to_string(created.join("kata.toml")).unwrap();
    assert!(
        toml.contains("kind = \"io\"") && toml.contains("slug = \"sum-io\""),
        "{toml}"
    );
    assert!(
        stdout(&out).contains("kata check"),
        "it says what to run next"
    );
    let both = infrakata(&[
        "kata",
        "new",
        "x-y",
        "--io",
        "--data",
        "--problems-dir",
        dir,
    ]);
    assert_eq!(
        both.status.code(),
        Some(2),
        "--io and --data exclude each other"
    );
}

#[test]
fn import_writes_an_io_package_and_says_what_came_across() {
    let out = tempfile::tempdir().unwrap();
    let fixture = Path::new(katas::CRATE_DIR).join("tests/kattis/modern-pair-sum");
    let out_dir = out.path().to_str().unwrap();
    let run = infrakata(&[
        "kata",
        "import",
        fixture.to_str().unwrap(),
        "--out",
        out_dir,
    ]);
    let text = stdout(&run);
    assert!(run.status.success(), "{text}");
    for expected in [
        "Imported `modern-pair-sum` (2025-09 format)",
        "  data/secret: 3",
        "output validator: custom (cpp)",
        "  submissions/wrong_answer/same_spot.rs",
        "  submissions/rejected/prints_nothing.rs (expected rejected)",
        "validators skipped: none",
    ] {
        assert!(text.contains(expected), "`{expected}` not in:\n{text}");
    }
    assert!(out.path().join("modern-pair-sum/kata.toml").is_file());

    // The same package again is refused: an import never overwrites.
    let again = infrakata(&[
        "kata",
        "import",
        fixture.to_str().unwrap(),
        "--out",
        out_dir,
    ]);
    assert_eq!(again.status.code(), Some(1));
}

#[test]
fn import_refuses_an_interactive_problem_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("guessing");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("problem.yaml"),
        "problem_format_version: 2025-09\ntype: interactive\nname: Guess\n",
    )
    .unwrap();
    let out_dir = tmp.path().join("out");
    let run = infrakata(&[
        "kata",
        "import",
        dir.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("refused: problem.yaml: `type`: interactive problems are not supported"),
        "{err}"
    );
    assert!(!out_dir.join("guessing").exists());
}

#[test]
fn check_builds_a_package_the_binary_lacks_from_its_files() {
    // fast-power copied under a new slug, outside the checkout, named as a folder.
    let root = tempfile::tempdir().unwrap();
    let copy = root.path().join("power-copy");
    let from = Path::new(katas::catalogue::find("fast-power").unwrap().package().dir);
    for entry in walk(from) {
        let target = copy.join(entry.strip_prefix(from).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let text = std::fs::read_to_string(&entry).unwrap();
        std::fs::write(
            target,
            text.replace("slug = \"fast-power\"", "slug = \"power-copy\""),
        )
        .unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(["kata", "check", "./power-copy"])
        .current_dir(root.path())
        .env_remove("INFRAKATA_WORKSPACE")
        .env_remove("INFRAKATA_PROBLEMS")
        .output()
        .unwrap();
    let text = stdout(&out);
    if text.contains("run in the sandbox") && std::env::var_os("INFRAKATA_CI").is_none() {
        println!("skipped: no sandbox here: {text}");
        return;
    }
    assert!(out.status.success(), "{text}");
    for row in ["reference.rs", "starter.rs", "wrong/linear_loop.rs"] {
        let line = text.lines().find(|l| l.starts_with(row)).expect(row);
        assert!(line.ends_with("ok"), "{line}");
    }
    assert!(
        text.trim_end().ends_with("./power-copy: package complete"),
        "{text}"
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
