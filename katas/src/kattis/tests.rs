//! Hostile and refused packages, built in temporary folders: each refusal names its file.

use super::{Bounds, KattisError, import, import_bounded};
use std::path::Path;

/// A minimal valid 2025-09 package `<root>/<name>` with one sample and one secret case.
fn package(root: &Path, name: &str, problem_yaml: &str) -> std::path::PathBuf {
    let dir = root.join(name);
    let files = [
        ("problem.yaml", problem_yaml),
        (
            "statement/problem.en.md",
            "Print the sum of two numbers.\n\n## Input\n\nTwo numbers.\n",
        ),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/1.in", "5 5\n"),
        ("data/secret/1.ans", "10\n"),
    ];
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const V2025: &str = "problem_format_version: 2025-09\nname: Two numbers\n";

fn refused(dir: &Path) -> String {
    let out = dir.parent().unwrap().join("out");
    let e = import(dir, &out).expect_err("must be refused");
    assert!(
        !out.join("add-two").exists(),
        "nothing is left behind on refusal"
    );
    e.to_string()
}

#[test]
fn a_minimal_package_imports() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "Add_Two", V2025);
    let imported = import(&dir, &tmp.path().join("out")).unwrap();
    assert_eq!(imported.slug, "add-two");
    assert_eq!(
        imported.cases,
        vec![("sample".to_string(), 1), ("secret".to_string(), 1)]
    );
    let pkg = tmp.path().join("out/add-two");
    for file in [
        "kata.toml",
        "README.md",
        "README.zh.md",
        "starter.rs",
        "data/secret/1.ans",
    ] {
        assert!(pkg.join(file).is_file(), "{file}");
    }
    assert!(!pkg.join("reference.rs").exists());
    let again = import(&dir, &tmp.path().join("out"))
        .unwrap_err()
        .to_string();
    assert!(again.contains("already exists"), "{again}");
}

#[cfg(unix)]
#[test]
fn links_are_refused_wherever_they_are() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "add-two", V2025);
    std::os::unix::fs::symlink("/etc/passwd", dir.join("data/secret/2.in")).unwrap();
    let e = refused(&dir);
    assert!(e.starts_with("data/secret/2.in: is a symbolic link"), "{e}");

    let dir = package(&tmp.path().join("b"), "add-two", V2025);
    std::fs::remove_file(dir.join("problem.yaml")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", dir.join("problem.yaml")).unwrap();
    assert!(refused(&dir).starts_with("problem.yaml: is a symbolic link"));
}

#[test]
fn interactive_and_multi_pass_problems_are_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(
        tmp.path(),
        "add-two",
        "problem_format_version: 2025-09\ntype: pass-fail interactive\n",
    );
    assert_eq!(
        refused(&dir),
        "problem.yaml: `type`: interactive problems are not supported"
    );
    let dir = package(
        &tmp.path().join("b"),
        "add-two",
        "problem_format_version: 2023-07-draft\ntype: [multi-pass]\n",
    );
    assert!(refused(&dir).contains("multi-pass problems are not supported"));
}

#[test]
fn a_java_validator_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "add-two", "name: Two\nvalidation: custom\n");
    std::fs::rename(dir.join("statement"), dir.join("problem_statement")).unwrap();
    let validator = dir.join("output_validators/x");
    std::fs::create_dir_all(&validator).unwrap();
    std::fs::write(validator.join("validator.java"), "class V {}").unwrap();
    assert_eq!(
        refused(&dir),
        "output validator `output_validators/x/validator.java`: language java is not \
         supported; supported: C, C++, Python 3, Rust"
    );
}

#[test]
fn a_validator_mixing_languages_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "add-two", "name: Two\nvalidation: custom\n");
    std::fs::rename(dir.join("statement"), dir.join("problem_statement")).unwrap();
    let validator = dir.join("output_validators/x");
    std::fs::create_dir_all(&validator).unwrap();
    std::fs::write(validator.join("check.cpp"), "int main() { return 42; }").unwrap();
    std::fs::write(validator.join("helper.c"), "int helper(void) { return 0; }").unwrap();
    std::fs::write(validator.join("z_extra.py"), "print(1)").unwrap();
    assert_eq!(
        refused(&dir),
        "output validator `output_validators/x/z_extra.py`: language a mixture of cpp and \
         python3 is not supported; supported: C, C++, Python 3, Rust"
    );
}

#[test]
fn oversized_files_deep_folders_and_many_entries_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "add-two", V2025);
    // Sparse: the size is checked before a byte is read.
    let big = std::fs::File::create(dir.join("data/secret/1.in")).unwrap();
    big.set_len(Bounds::default().max_data_file + 1).unwrap();
    let e = refused(&dir);
    assert!(
        e.starts_with("data/secret/1.in: 67108865 bytes, over the limit"),
        "{e}"
    );

    let dir = package(&tmp.path().join("b"), "add-two", V2025);
    let mut deep = dir.join("data/secret");
    for level in 0..10 {
        deep = deep.join(format!("g{level}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    assert!(refused(&dir).contains("folders nest deeper than 8 levels"));

    let dir = package(&tmp.path().join("c"), "add-two", V2025);
    let tight = Bounds {
        max_entries: 5,
        ..Bounds::default()
    };
    let e = import_bounded(&dir, &tmp.path().join("c/out"), &tight).unwrap_err();
    assert!(matches!(e, KattisError::OverBound { .. }), "{e}");
}

#[test]
fn broken_packages_name_the_file_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = package(tmp.path(), "add-two", V2025);
    std::fs::remove_file(dir.join("data/secret/1.ans")).unwrap();
    assert_eq!(
        refused(&dir),
        "data/secret/1.in: has no answer file `data/secret/1.ans`"
    );
    let dir = package(
        &tmp.path().join("b"),
        "add-two",
        "problem_format_version: 2025-09\nlimits: {time_limit: fast}\n",
    );
    assert!(refused(&dir).starts_with("problem.yaml: `limits.time_limit`"));
    let dir = package(&tmp.path().join("c"), "add-two", V2025);
    std::fs::write(
        dir.join("data/secret/test_group.yaml"),
        "output_validator_args: {a: [b]}\n",
    )
    .unwrap();
    assert!(refused(&dir).starts_with("data/secret/test_group.yaml: `output_validator_args`"));
    let bad_slug = package(&tmp.path().join("d"), "9lives", V2025);
    assert!(refused(&bad_slug).contains("does not match ^[a-z][a-z0-9-]{1,62}$"));
}
