//! The Kattis importer on the packages in `tests/kattis/` (one per format, written for these
//! tests): the files it writes, the `kata.toml` it writes, the statement lint, and the round
//! trip through `export`.

use katas::KataMeta;
use katas::io::decl::{IoDecl, Language, ValidatorKind};
use katas::kattis::{self, GroupFlags, NotRun, SourceFormat};
use katas::statement::Statement;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/kattis")
        .join(name)
}

/// An imported `kata.toml`: the meta, with its `[io]` table at hand as `io`.
#[derive(Debug, PartialEq)]
struct Manifest {
    meta: KataMeta,
    io: IoDecl,
}

impl std::ops::Deref for Manifest {
    type Target = KataMeta;
    fn deref(&self) -> &KataMeta {
        &self.meta
    }
}

/// Parses a `kata.toml` the importer wrote, as the io loader does.
fn manifest(text: &str) -> Manifest {
    let meta = KataMeta::parse(text, Path::new("kata.toml")).unwrap();
    let io = meta.io.clone().expect("an [io] table");
    Manifest { meta, io }
}

/// Imports a fixture into a fresh folder; returns the folder (kept alive) and the manifest.
fn import(name: &str) -> (tempfile::TempDir, kattis::Imported, Manifest) {
    let out = tempfile::tempdir().unwrap();
    let imported = kattis::import(&fixture(name), out.path()).unwrap();
    let text = std::fs::read_to_string(imported.package_dir.join("kata.toml")).unwrap();
    (out, imported, manifest(&text))
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// What the io package lint finds (it reads the package as the grader's loader does); empty
/// for every import.
fn statement_findings(dir: &Path) -> Vec<String> {
    katas::io::lint::lint(dir)
        .into_iter()
        .map(|f| format!("{}: {}", f.file, f.problem))
        .collect()
}

#[test]
fn legacy_package_with_rust_submissions_and_input_validators() {
    let (_out, imported, m) = import("legacy-sum-tokens");
    let pkg = &imported.package_dir;
    assert_eq!(imported.format, SourceFormat::Legacy);
    assert_eq!(m.slug, "legacy-sum-tokens");
    assert_eq!(m.title, "Sum of Tokens");
    assert_eq!(m.summary, "You are handed a row of whole numbers.");
    assert_eq!(
        m.summary_zh,
        "从 Kattis 题目包导入的标准输入输出题：Sum of Tokens"
    );
    assert_eq!((m.kind.as_str(), m.order), ("io", 1000));
    assert_eq!(m.entry_points, ["main"]);
    assert_eq!(m.limits.case_time_ms, 2000);
    assert_eq!(m.limits.total_time_ms, 8000);
    assert_eq!((m.limits.memory_mb, m.limits.output_kb), (256, 1024));
    assert_eq!(m.io.source_format.as_deref(), Some("legacy"));
    assert_eq!(m.io.validator, ValidatorKind::Default);
    assert!(m.io.validator_flags.is_empty() && m.io.groups.is_empty());
    assert_eq!(m.io.input_validators.len(), 1);
    assert_eq!(m.io.input_validators[0].language, Language::Cpp);
    assert_eq!(
        m.io.input_validators[0].files,
        ["input_validators/bounds/bounds.cpp"]
    );
    assert_eq!(m.io.skipped_validators.len(), 1);
    assert_eq!(
        m.io.skipped_validators[0].path,
        "input_validators/shape.ctd"
    );
    assert_eq!(
        m.io.skipped_validators[0].reason,
        "checktestdata (.ctd) is not supported"
    );
    assert_eq!(
        m.io.not_run,
        [NotRun {
            path: "submissions/accepted/sum.py".into(),
            expected: "accepted".into()
        }]
    );

    assert!(read(pkg, "reference.rs").contains("let total: i64"));
    let wrong = katas::layout::wrong_files(pkg).unwrap();
    let marked: Vec<(String, Option<String>)> =
        wrong.into_iter().map(|w| (w.name, w.marker)).collect();
    assert_eq!(
        marked,
        [
            (
                "count-up".to_string(),
                Some("time_limit_exceeded".to_string())
            ),
            ("narrow-sum".to_string(), Some("wrong_answer".to_string())),
            (
                "unsigned-parse".to_string(),
                Some("runtime_error".to_string())
            ),
        ]
    );
    assert_eq!(
        imported.cases,
        [("sample".to_string(), 2), ("secret".to_string(), 2)]
    );
    assert!(
        !pkg.join("data/secret/README.txt").exists(),
        "only .in/.ans are copied"
    );
    assert_eq!(read(pkg, "data/secret/large.ans"), "8000000000\n");

    let readme = read(pkg, "README.md");
    for expected in [
        "# Sum of Tokens\n",
        "## The question\n\nYou are handed a row of whole numbers.",
        "### Input\n\nThe first line holds $n$ ($1 \\le n \\le 10^5$)",
        "### Output\n\nPrint the total as one integer. Beware: it may not fit in 32 bits.",
        "### Sample 1\n\nInput:\n\n```\n3\n1 2 3\n```\n\nAnswer:\n\n```\n6\n```",
    ] {
        assert!(readme.contains(expected), "`{expected}` not in:\n{readme}");
    }
    let zh = read(pkg, "README.zh.md");
    assert!(zh.contains("## 面试题\n\n本题从 Kattis 题目包导入"), "{zh}");
    assert_eq!(statement_findings(pkg), Vec::<String>::new());
}

#[test]
fn draft_package_with_float_flags_per_group_and_only_python() {
    let (_out, imported, m) = import("draft-mean-value");
    let pkg = &imported.package_dir;
    assert_eq!(imported.format, SourceFormat::Draft2023);
    assert_eq!(m.title, "Mean Value", "the English name of a map");
    assert_eq!(m.limits.case_time_ms, 1000);
    assert_eq!(m.limits.total_time_ms, 3000);
    assert_eq!((m.limits.memory_mb, m.limits.output_kb), (1024, 8192));
    assert_eq!(m.io.validator_flags, ["float_tolerance", "1e-6"]);
    assert_eq!(
        m.io.groups,
        [GroupFlags {
            path: "secret/exact".into(),
            validator_flags: vec!["float_absolute_tolerance".into(), "1e-9".into()],
        }]
    );
    assert!(!pkg.join("reference.rs").exists());
    assert!(!pkg.join("wrong").exists());
    assert_eq!(m.io.not_run.len(), 2);
    assert_eq!(m.io.not_run[1].expected, "wrong_answer");
    assert_eq!(
        imported.cases,
        [
            ("sample".to_string(), 1),
            ("secret/exact".to_string(), 1),
            ("secret/plain".to_string(), 1)
        ]
    );
    let readme = read(pkg, "README.md");
    assert!(readme.contains("## The question\n\nA lab logs some readings; report their average."));
    assert!(
        readme.contains("### Output\n\nPrint the arithmetic mean"),
        "{readme}"
    );
    assert_eq!(statement_findings(pkg), Vec::<String>::new());
}

#[test]
fn modern_package_with_a_cpp_validator() {
    let (_out, imported, m) = import("modern-pair-sum");
    let pkg = &imported.package_dir;
    assert_eq!(imported.format, SourceFormat::V2025);
    assert_eq!(m.limits.case_time_ms, 250);
    assert_eq!(m.limits.memory_mb, 512);
    assert_eq!(m.io.validator, ValidatorKind::Custom);
    assert_eq!(m.io.validator_language, Some(Language::Cpp));
    assert_eq!(m.io.validator_files, ["output_validator/validator.cpp"]);
    assert!(pkg.join("output_validator/validator.cpp").is_file());
    assert_eq!(m.io.input_validators[0].language, Language::Python3);
    assert_eq!(
        m.io.input_validators[0].files,
        ["input_validators/validate.py"]
    );
    let expected = |path: &str, verdict: &str| NotRun {
        path: path.into(),
        expected: verdict.into(),
    };
    assert_eq!(
        m.io.not_run,
        [
            expected("submissions/accepted/quadratic.py", "accepted"),
            expected("submissions/rejected/prints_nothing.rs", "rejected"),
        ]
    );
    assert!(read(pkg, "reference.rs").contains("HashMap"));
    assert!(read(pkg, "wrong/same_spot.rs").starts_with(
        "//! expected-verdict: wrong_answer\n//! Imported from the Kattis package: \
         submissions/wrong_answer/same_spot.rs\n"
    ));
    let readme = read(pkg, "README.md");
    assert!(
        readme.contains("- The first line holds $n$ and $t$"),
        "{readme}"
    );
    assert!(readme.contains("e.g. `1 2`"), "{readme}");
    assert_eq!(statement_findings(pkg), Vec::<String>::new());
}

#[test]
fn legacy_custom_python_validator_keeps_its_flags() {
    let (_out, imported, m) = import("legacy-any-divisor");
    assert_eq!(m.io.validator, ValidatorKind::Custom);
    assert_eq!(m.io.validator_language, Some(Language::Python3));
    assert_eq!(m.io.validator_files, ["output_validator/validator.py"]);
    assert_eq!(m.io.validator_flags, ["proper"]);
    assert!(
        imported
            .package_dir
            .join("output_validator/validator.py")
            .is_file()
    );
    assert_eq!(
        imported.rust_imported,
        ["submissions/accepted/trial_division.rs"]
    );
}

#[test]
fn import_export_import_keeps_the_kata_toml() {
    for name in [
        "legacy-sum-tokens",
        "draft-mean-value",
        "modern-pair-sum",
        "legacy-any-divisor",
    ] {
        let (_out, first, mut before) = import(name);
        let exported = tempfile::tempdir().unwrap();
        let kattis_dir = exported.path().join(name);
        kattis::export(&first.package_dir, &kattis_dir).unwrap();
        let again = tempfile::tempdir().unwrap();
        let second = kattis::import(&kattis_dir, again.path()).unwrap();
        assert_eq!(second.format, SourceFormat::V2025);
        let mut after = manifest(&read(&second.package_dir, "kata.toml"));
        // What the io package never held cannot come back.
        for m in [&mut before, &mut after] {
            m.io.source_format = None;
            m.io.not_run.clear();
            m.io.skipped_validators.clear();
            m.meta.io = Some(m.io.clone());
        }
        assert_eq!(before, after, "{name}");
        // The statement comes back as it was; only the note on its origin names another format.
        let statement = |dir: &Path| Statement::parse(&read(dir, "README.md"));
        let (a, b) = (
            statement(&first.package_dir),
            statement(&second.package_dir),
        );
        for section in ["The question", "Task", "Examples", "Hints"] {
            assert_eq!(a.section(section), b.section(section), "{name}: {section}");
        }
        let mut files = vec!["reference.rs".to_string()];
        for wrong in katas::layout::wrong_files(&first.package_dir).unwrap() {
            let file = wrong.path.file_name().unwrap().to_string_lossy();
            files.push(format!("wrong/{file}"));
        }
        for file in files.iter().filter(|f| first.package_dir.join(f).exists()) {
            assert_eq!(
                read(&first.package_dir, file),
                read(&second.package_dir, file),
                "{name}: {file}"
            );
        }
    }
}

/// The starter is a whole program that compiles; checked with the toolchain running the tests.
#[test]
fn the_starter_compiles() {
    let (out, imported, _) = import("legacy-any-divisor");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let status = std::process::Command::new(rustc)
        .args(["--edition", "2024", "-D", "warnings", "-o"])
        .arg(out.path().join("starter"))
        .arg(imported.package_dir.join("starter.rs"))
        .status()
        .expect("rustc runs");
    assert!(status.success());
}

#[test]
fn a_free_form_io_package_exports_its_whole_statement() {
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../graders/tests/io/pair-sums");
    let out = tempfile::tempdir().unwrap();
    let kattis_dir = out.path().join("pair-sums");
    kattis::export(&package, &kattis_dir).unwrap();
    let statement = read(&kattis_dir, "statement/problem.en.md");
    assert!(
        statement.contains("Print `a + b` for each pair"),
        "{statement}"
    );
    assert!(
        !statement.starts_with('#'),
        "the title is problem.yaml's: {statement}"
    );
    let again = tempfile::tempdir().unwrap();
    let imported = kattis::import(&kattis_dir, again.path()).unwrap();
    let m = manifest(&read(&imported.package_dir, "kata.toml"));
    assert_eq!(
        (m.title.as_str(), m.io.validator),
        ("Pair sums", ValidatorKind::Default)
    );
}

#[test]
fn constants_reach_validators_and_submissions_but_not_data() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("add-k");
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Add K\nconstants:\n  k: 7\n",
    );
    write(
        "statement/problem.en.md",
        "# Add K\n\nRead n and print n + {{k}}.\n",
    );
    write("data/sample/1.in", "1\n");
    write("data/sample/1.ans", "{{k}}\n");
    write(
        "output_validator/validator.py",
        "import sys\nK = {{k}}\nsys.exit(42 if int(sys.stdin.read()) == int(open(sys.argv[1]).read()) + {{k.value}} else 43)\n",
    );
    write(
        "submissions/accepted/add.rs",
        "fn main() { let mut s = String::new(); std::io::stdin().read_line(&mut s).unwrap(); println!(\"{}\", s.trim().parse::<i64>().unwrap() + {{k}}); }\n",
    );
    let out = tempfile::tempdir().unwrap();
    let imported = kattis::import(&dir, out.path()).unwrap();
    let pkg = &imported.package_dir;
    let validator = read(pkg, "output_validator/validator.py");
    assert!(
        validator.contains("K = 7") && validator.contains("+ 7 else"),
        "{validator}"
    );
    assert!(read(pkg, "reference.rs").contains("+ 7);"));
    assert!(read(pkg, "README.md").contains("n + 7"));
    assert_eq!(
        read(pkg, "data/sample/1.ans"),
        "{{k}}\n",
        "test data keeps its text"
    );
}
