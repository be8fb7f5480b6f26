use super::*;

const META: &str = r#"
slug = "sum-io"
title = "Sum"
summary = "Add numbers."
summary_zh = "求和。"
difficulty = "easy"
topics = ["imported"]
kind = "io"
order = 1000
entry_points = ["main"]

[topic_names]
imported = { en = "imported", zh = "导入" }

[io]
validator_flags = ["float_tolerance", "1e-6"]

[[io.groups]]
path = "secret/exact"
validator_flags = ["case_sensitive"]
"#;

fn package(extra: &[(&str, &str)]) -> Result<IoPackage, IoError> {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = vec![
        ("kata.toml", META),
        ("data/sample/2.in", "1 2\n"),
        ("data/sample/2.ans", "3\n"),
        ("data/sample/1.in", "0 0\n"),
        ("data/sample/1.ans", "0\n"),
        ("data/secret/b.in", "5 5\n"),
        ("data/secret/b.ans", "10\n"),
        ("data/secret/exact/a.in", "x\n"),
        ("data/secret/exact/a.ans", "X\n"),
        ("data/secret/a.in", "1 1\n"),
        ("data/secret/a.ans", "2\n"),
        ("data/secret/notes.txt", "ignored"),
    ];
    files.extend_from_slice(extra);
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    IoPackage::read_dir(dir.path())
}

#[test]
fn cases_come_samples_first_then_each_folder_before_its_subfolders() {
    let package = package(&[]).expect("package");
    let names: Vec<_> = package.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sample/1",
            "sample/2",
            "secret/a",
            "secret/b",
            "secret/exact/a"
        ]
    );
    assert_eq!(package.cases[0].group, Group::Sample);
    assert_eq!(package.cases[2].group, Group::Secret);
    assert_eq!(package.cases[2].flags, ["float_tolerance", "1e-6"]);
    assert_eq!(package.cases[4].flags, ["case_sensitive"]);
}

#[test]
fn a_group_s_flags_decide_its_cases_verdicts() {
    let package = package(&[]).expect("package");
    let judged = |i: usize, out: &str| {
        judge_output(&package.cases[i], out.as_bytes(), 1.0, None)
            .expect("judged")
            .outcome
    };
    assert_eq!(judged(2, "2.0000001\n"), Outcome::Passed);
    assert_eq!(
        judged(4, "x\n"),
        Outcome::WrongAnswer,
        "case-sensitive group"
    );
    assert_eq!(judged(4, "X"), Outcome::Passed);
}

#[test]
fn refusals_name_the_file() {
    let unpaired = package(&[("data/secret/c.in", "1\n")]).expect_err("unpaired");
    assert_eq!(
        unpaired.to_string(),
        "data/secret/c: an input without its `.ans`, or an answer without its `.in`"
    );
    let stray = package(&[("data/extra/c.in", "1\n")]).expect_err("stray");
    assert!(stray.to_string().starts_with("data/extra/c.in"), "{stray}");
}

#[test]
fn a_custom_validator_must_name_its_files() {
    let custom = META.replace(
        "validator_flags = [\"float_tolerance\", \"1e-6\"]",
        "validator = \"custom\"\nvalidator_language = \"python3\"\nvalidator_files = [\"output_validator/v.py\"]",
    );
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("kata.toml"), &custom).expect("write");
    std::fs::create_dir_all(dir.path().join("data/sample")).expect("mkdir");
    std::fs::write(dir.path().join("data/sample/1.in"), "").expect("write");
    std::fs::write(dir.path().join("data/sample/1.ans"), "").expect("write");
    assert!(matches!(
        IoPackage::read_dir(dir.path()),
        Err(IoError::Validator)
    ));
    std::fs::create_dir_all(dir.path().join("output_validator")).expect("mkdir");
    std::fs::write(dir.path().join("output_validator/v.py"), "").expect("write");
    let package = IoPackage::read_dir(dir.path()).expect("package");
    assert_eq!(package.decl.validator_language, Some(Language::Python3));
}

#[test]
fn only_samples_show_their_input_in_a_failure() {
    let package = package(&[]).expect("package");
    let sample = judge_output(&package.cases[0], b"1", 0.0, None).expect("judged");
    assert_eq!(sample.input.as_deref(), Some("0 0\n"));
    assert_eq!(sample.name_zh.as_deref(), Some("样例/1"));
    // A sample's answer is public: expected and got side by side.
    let mismatch = sample.mismatch.expect("a sample shows both answers");
    assert_eq!(
        (mismatch.expected.as_str(), mismatch.got.as_str()),
        ("0", "1")
    );
    let secret = judge_output(&package.cases[3], b"1", 0.0, None).expect("judged");
    assert_eq!((secret.input, secret.mismatch), (None, None));
    assert!(
        secret.message.is_some(),
        "a secret case says where, not what"
    );
}

struct Says(Result<Judgement, String>);

impl OutputValidator for Says {
    fn validate(&self, _: &IoCase, _: &[u8]) -> Result<Judgement, String> {
        self.0.clone()
    }
}

#[test]
fn a_custom_validator_s_failure_is_ours_not_the_learner_s() {
    let package = package(&[]).expect("package");
    let case = &package.cases[0];
    let crashed = Says(Err("exit status 1".into()));
    assert!(judge_output(case, b"", 0.0, Some(&crashed)).is_err());
    let rejected = Says(Ok(Judgement::Rejected(None)));
    let report = judge_output(case, b"", 0.0, Some(&rejected)).expect("judged");
    assert_eq!(report.outcome, Outcome::WrongAnswer);
}
