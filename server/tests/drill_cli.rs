//! The `infrakata drill` commands, run as the real binary with answers on stdin.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn infrakata(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(args)
        .env_remove("INFRAKATA_LANG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    child.wait_with_output().expect("the binary exits")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn list_shows_each_concept_question_with_its_item_count() {
    let out = infrakata(&["drill", "list"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    for set in katas_drills::Drills::builtin().sets() {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{} ", set.slug)))
            .unwrap_or_else(|| panic!("{} missing:\n{text}", set.slug));
        assert!(line.contains(&format!(" {} ", set.items.len())), "{line}");
        assert!(line.contains(&set.question.en[..30]), "{line}");
    }
    let zh = stdout(&infrakata(&["drill", "list", "--lang", "zh"], ""));
    assert!(zh.contains("什么是 Python 的 GIL"), "{zh}");
}

/// The key's own answer typed at the prompt is right; nonsense is wrong, in either language.
#[test]
fn a_session_graded_from_stdin_right_and_wrong() {
    // A fixed seed picks and instantiates the same items every time; take a seed whose first
    // item is a prediction, so the answers are one line per part.
    let (seed, key) = (0..200)
        .find_map(|seed| {
            let (shown, key) = first_attempt("view-contiguous", seed);
            matches!(shown.body, katas_drills::Body::Predict { .. }).then_some((seed, key))
        })
        .expect("a seed that starts with a prediction");
    let seed = seed.to_string();
    let args = ["drill", "view-contiguous", "--count", "1", "--seed", &seed];
    let right = key.model_response().parts.join("\n");
    let out = infrakata(&args, &format!("{right}\n"));
    let text = stdout(&out);
    assert!(out.status.success());
    assert!(text.contains("✓ Right"), "{text}");
    assert!(
        text.trim_end()
            .ends_with("Drills: 1 of 1 right, score 1 / 1"),
        "{text}"
    );

    // Wrong in every part, yet each part well formed: a word part takes another of its words.
    let katas_drills::KeyBody::Predict { parts } = &key.body else {
        panic!("a prediction")
    };
    let wrong = parts
        .iter()
        .map(|p| match p.choices.iter().find(|c| **c != p.word) {
            Some(other) => other.clone(),
            None => "(999, 999)".to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let zh: Vec<&str> = args.iter().copied().chain(["--lang", "zh"]).collect();
    let out = infrakata(&zh, &format!("{wrong}\n"));
    let text = stdout(&out);
    assert!(text.contains("应为"), "{text}");
    assert!(text.contains("练习：1 题中答对 0 题"), "{text}");
}

/// The attempt `infrakata drill SET --count 1 --seed SEED` makes: picking shuffles the set's
/// items with the seeded generator, then the first item is drawn from the same generator.
fn first_attempt(set: &str, seed: u64) -> (katas_drills::Presented, katas_drills::Key) {
    let drills = katas_drills::Drills::builtin();
    let mut items: Vec<&str> = drills
        .set(set)
        .unwrap()
        .items
        .iter()
        .map(|i| i.id.as_str())
        .collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    rng.shuffle(&mut items);
    drills.start(set, items[0], rng.u64(..)).unwrap()
}

#[test]
fn unusable_answers_are_explained_and_asked_again() {
    let out = infrakata(
        &["drill", "python-gil", "--count", "1", "--seed", "1"],
        "nonsense answer that is no label\n",
    );
    let text = stdout(&out);
    assert!(out.status.success());
    assert!(text.contains("try again"), "{text}");
    assert!(
        text.trim_end()
            .ends_with("Drills: 0 of 0 right, score 0 / 0"),
        "{text}"
    );
}

#[test]
fn unknown_topic_is_a_clear_error() {
    let out = infrakata(&["drill", "no-such-topic"], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no drills for `no-such-topic`"), "{err}");
}

#[test]
fn a_kata_slug_selects_the_items_linked_to_it() {
    let out = infrakata(&["drill", "tp-split", "--count", "3", "--seed", "2"], "");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("[1/3] "), "{text}");
}

#[test]
fn check_accepts_the_shipped_folder_and_names_problems_in_a_broken_one() {
    let out = infrakata(&["drill", "check"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sets = katas_drills::Drills::builtin().sets().len();
    assert!(
        stdout(&out).contains(&format!("{sets} sets, ")),
        "{}",
        stdout(&out)
    );

    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("broken");
    std::fs::create_dir(&set).unwrap();
    std::fs::write(
        set.join("set.toml"),
        r#"slug = "broken"
order = 1
title = { en = "Broken", zh = "坏的" }
question = { en = "Q?", zh = "问题？" }

[[item]]
id = "no-right-option"
tags = ["x"]
prompt = { en = "Pick", zh = "选择" }
explanation = { en = "E", zh = "解释" }
[item.answer]
kind = "choice"
[[item.answer.options]]
text = { en = "a", zh = "甲" }
feedback = { en = "f", zh = "反馈" }
[[item.answer.options]]
text = { en = "b", zh = "乙" }
feedback = { en = "f", zh = "反馈" }
"#,
    )
    .unwrap();
    let out = infrakata(&["drill", "check", dir.path().to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("marks exactly one option correct, not 0"),
        "{err}"
    );
}

/// A malformed ordering (a repeated label, an empty entry) is asked again without the order in
/// the refusal, and the attempt then takes the right answer for full credit.
#[test]
fn a_malformed_ordering_is_asked_again_without_the_key() {
    let (seed, key) = (0..500)
        .find_map(|seed| {
            let (shown, key) = first_attempt("python-gil", seed);
            matches!(shown.body, katas_drills::Body::Ordering { .. }).then_some((seed, key))
        })
        .expect("a seed that starts with an ordering");
    let order = key.model_response().parts;
    let seed = seed.to_string();
    let mut repeated = order.clone();
    repeated[1] = repeated[0].clone();
    let mut blank = order.clone();
    blank[0] = "Q".into();
    let stdin = format!(
        "{}\n{}\n{}\n",
        repeated.join(" "),
        blank.join(" "),
        order.join(" ")
    );
    for lang in ["en", "zh"] {
        let args = [
            "drill",
            "python-gil",
            "--count",
            "1",
            "--seed",
            &seed,
            "--lang",
            lang,
        ];
        let text = stdout(&infrakata(&args, &stdin));
        let again = if lang == "zh" {
            "请重新作答"
        } else {
            "try again"
        };
        let refusals: Vec<&str> = text.lines().filter(|l| l.contains(again)).collect();
        assert_eq!(refusals.len(), 2, "{text}");
        for line in refusals {
            for spelling in [order.join(" "), order.join(""), order.join(", ")] {
                assert!(!line.contains(&spelling), "the key in {line}");
            }
        }
        assert!(
            text.contains("1 of 1 right") || text.contains("1 题中答对 1 题"),
            "{text}"
        );
    }
}
