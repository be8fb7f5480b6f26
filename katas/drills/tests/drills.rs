//! Concept drills: every shipped item valid, every answer kind graded right and wrong, drawn
//! parameters varying while the expected value follows the item's formula, and nothing of the
//! answer inside what the learner is shown.

use katas_drills::formula::Formula;
use katas_drills::{
    AnswerSpec, Body, DrillSet, Drills, KeyBody, Response, grade, instantiate, validate,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn drills() -> &'static Drills {
    Drills::builtin()
}

fn slugs() -> Vec<String> {
    katas::catalogue::all()
        .iter()
        .map(|k| k.meta().slug.clone())
        .collect()
}

fn respond(parts: &[&str]) -> Response {
    Response {
        parts: parts.iter().map(|p| p.to_string()).collect(),
    }
}

/// The first item of `kind` in the shipped sets.
fn first_of(kind: &str) -> (&'static DrillSet, &'static katas_drills::Item) {
    for set in drills().sets() {
        for item in &set.items {
            let k = match &item.answer {
                AnswerSpec::Numeric { .. } => "numeric",
                AnswerSpec::Choice {
                    multiple: false, ..
                } => "single",
                AnswerSpec::Choice { multiple: true, .. } => "multiple",
                AnswerSpec::Ordering { .. } => "ordering",
                AnswerSpec::Matching { .. } => "matching",
                AnswerSpec::Predict { .. } => "predict",
            };
            if k == kind {
                return (set, item);
            }
        }
    }
    panic!("no {kind} item shipped");
}

/// The five concept questions of the bank, each drilled by at least 15 items.
const CONCEPT_SETS: [&str; 5] = [
    "python-gil",
    "python-ipc",
    "allreduce-cost",
    "view-contiguous",
    "tensor-parallel",
];

#[test]
fn five_concept_sets_with_at_least_fifteen_items_each_then_the_katas_own() {
    let sets = drills().sets();
    let names: Vec<&str> = sets.iter().map(|s| s.slug.as_str()).collect();
    assert_eq!(
        names,
        [
            "python-gil",
            "python-ipc",
            "allreduce-cost",
            "view-contiguous",
            "tensor-parallel",
            "fast-exponentiation",
            "operator-fusion",
            "kv-cache",
            "online-softmax",
            "moe-routing",
            "pipeline-1f1b",
            "layer-norm",
        ]
    );
    for set in sets {
        let least = if CONCEPT_SETS.contains(&set.slug.as_str()) {
            15
        } else {
            5
        };
        assert!(
            set.items.len() >= least,
            "{} has {} items",
            set.slug,
            set.items.len()
        );
    }
    assert!(drills().item_count() >= 75);
}

/// An interview draws its items from those linked to its kata first: every kata in the
/// catalogue has enough of them for one interview.
#[test]
fn every_kata_has_an_interviews_worth_of_linked_drills() {
    for kata in katas::catalogue::all() {
        let slug = &kata.meta().slug;
        let linked = drills()
            .sets()
            .iter()
            .flat_map(|s| &s.items)
            .filter(|i| i.katas.contains(slug))
            .count();
        assert!(linked >= 5, "{slug} has {linked} linked drill items");
    }
}

#[test]
fn shipped_folder_validates_as_the_build_does() {
    let loaded = Drills::load_dir(&katas_drills::default_dir(), &slugs()).expect("valid");
    assert_eq!(loaded.item_count(), drills().item_count());
}

#[test]
fn every_answer_kind_is_shipped() {
    for kind in [
        "numeric", "single", "multiple", "ordering", "matching", "predict",
    ] {
        first_of(kind);
    }
}

#[test]
fn numeric_right_within_tolerance_wrong_outside() {
    let (set, item) = first_of("numeric");
    let (_, key) = instantiate(set, item, 7).unwrap();
    let KeyBody::Numeric {
        expected,
        tolerance,
        unit,
        ..
    } = key.body.clone()
    else {
        panic!("numeric key");
    };
    let near = format!("{} {unit}", expected + tolerance * 0.5);
    assert!(grade(&key, &respond(&[&near])).unwrap().correct);
    let far = format!("{}", expected + tolerance * 3.0 + 1.0);
    let g = grade(&key, &respond(&[&far])).unwrap();
    assert!(!g.correct);
    assert_eq!(g.score, 0.0);
    assert!(g.parts[0].expected.ends_with(&unit));
    assert!(
        grade(&key, &respond(&["many"])).is_err(),
        "not a number is refused"
    );
    assert!(grade(&key, &respond(&["1", "2"])).is_err());
}

#[test]
fn single_choice_right_and_wrong_with_feedback() {
    let (set, item) = first_of("single");
    let (shown, key) = instantiate(set, item, 3).unwrap();
    let KeyBody::Choice { options, .. } = &key.body else {
        panic!("choice key")
    };
    let right = options.iter().find(|o| o.correct).unwrap().label.clone();
    let wrong = options.iter().find(|o| !o.correct).unwrap().label.clone();
    let g = grade(&key, &respond(&[&right.to_lowercase()])).unwrap();
    assert!(g.correct && g.score == 1.0);
    let g = grade(&key, &respond(&[&wrong])).unwrap();
    assert!(!g.correct);
    assert_eq!(g.score, 0.0, "a single choice earns all or nothing");
    let picked = g.parts.iter().find(|p| p.about == wrong).unwrap();
    assert!(!picked.ok && picked.feedback.is_some());
    assert!(
        grade(&key, &respond(&[&right, &wrong])).is_err(),
        "one pick only"
    );
    assert!(grade(&key, &respond(&["Q"])).is_err());
    let Body::Choice { options: shown, .. } = shown.body else {
        panic!()
    };
    assert_eq!(shown.len(), options.len());
}

#[test]
fn multiple_choice_partial_credit() {
    let (set, item) = first_of("multiple");
    let (_, key) = instantiate(set, item, 11).unwrap();
    let KeyBody::Choice { options, .. } = &key.body else {
        panic!()
    };
    let all_right: Vec<&str> = options
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.label.as_str())
        .collect();
    assert!(grade(&key, &respond(&all_right)).unwrap().correct);
    let one_wrong = options.iter().find(|o| !o.correct).unwrap().label.as_str();
    let mut too_many = all_right.clone();
    too_many.push(one_wrong);
    let g = grade(&key, &respond(&too_many)).unwrap();
    assert!(!g.correct);
    // Every right option, less one wrong option's share of the wrong ones.
    let wrong = options.iter().filter(|o| !o.correct).count();
    let expected = 1.0 - 1.0 / wrong as f64;
    assert!(
        (g.score - expected).abs() < 1e-9,
        "{} vs {expected}",
        g.score
    );
}

#[test]
fn picking_every_option_of_a_multiple_choice_earns_nothing() {
    for set in drills().sets() {
        for item in &set.items {
            let AnswerSpec::Choice { multiple: true, .. } = item.answer else {
                continue;
            };
            let (_, key) = instantiate(set, item, 13).unwrap();
            let KeyBody::Choice { options, .. } = &key.body else {
                panic!()
            };
            let every: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
            let g = grade(&key, &respond(&every)).unwrap();
            let all_right = options.iter().all(|o| o.correct);
            assert!(
                all_right || g.score == 0.0,
                "{}/{}: {}",
                set.slug,
                item.id,
                g.score
            );
            // Half the right options and nothing wrong: half the credit.
            let right: Vec<&str> = options
                .iter()
                .filter(|o| o.correct)
                .map(|o| o.label.as_str())
                .collect();
            if right.len() == 2 {
                let g = grade(&key, &respond(&right[..1])).unwrap();
                assert_eq!(g.score, 0.5);
            }
        }
    }
}

#[test]
fn a_word_outside_a_parts_choices_is_asked_again() {
    let (_, key) = drills()
        .start("view-contiguous", "transpose-strides", 1)
        .unwrap();
    let mut parts = key.model_response().parts;
    let last = parts.len() - 1;
    parts[last] = "maybe".into();
    let e = grade(&key, &Response { parts }).unwrap_err();
    assert!(e.en.contains("True / False"), "{e}");
    assert!(e.zh.contains("True / False"), "{}", e.zh);
}

#[test]
fn scores_are_shown_exactly() {
    use katas_drills::{show_percent, show_score};
    assert_eq!(show_score(0.75), "0.75");
    assert_eq!(show_score(2.0 / 3.0), "0.667");
    assert_eq!(show_score(1.0), "1");
    assert_eq!(show_score(3.75), "3.75");
    assert_eq!(show_percent(0.75), "75%");
    assert_eq!(show_percent(0.125), "12.5%");
    assert_eq!(show_percent(2.0 / 3.0), "66.7%");
}

#[test]
fn numeric_answers_take_units_and_sums_and_refuse_ambiguous_separators() {
    let (shown, key) = drills()
        .start("view-contiguous", "contiguous-cost", 2)
        .unwrap();
    let KeyBody::Numeric { expected, .. } = key.body else {
        panic!("numeric")
    };
    let p = |n: &str| shown.params[n].clone();
    let sum = format!("{}*{}*{}*4", p("a"), p("b"), p("c"));
    let in_kib = format!("{} KiB", expected / 1024.0);
    let grouped = format!("{}", expected as u64);
    for right in [sum.as_str(), in_kib.as_str(), grouped.as_str()] {
        assert!(grade(&key, &respond(&[right])).unwrap().correct, "{right}");
    }
    let wrong_unit = format!("{} KB", expected / 1024.0);
    assert!(!grade(&key, &respond(&[&wrong_unit])).unwrap().correct);
    for refused in ["224,0", "4 000 000", "5 ms", "twelve"] {
        assert!(grade(&key, &respond(&[refused])).is_err(), "{refused}");
    }
}

#[test]
fn options_are_shuffled_per_attempt() {
    let (set, item) = first_of("single");
    let orders: BTreeSet<Vec<String>> = (0..20)
        .map(|seed| {
            let (shown, _) = instantiate(set, item, seed).unwrap();
            let Body::Choice { options, .. } = shown.body else {
                panic!()
            };
            options.into_iter().map(|o| o.text.en).collect()
        })
        .collect();
    assert!(orders.len() > 1, "the same order every time");
}

#[test]
fn ordering_partial_credit_by_pairs() {
    let (set, item) = first_of("ordering");
    let (_, key) = instantiate(set, item, 5).unwrap();
    let KeyBody::Ordering { order } = &key.body else {
        panic!()
    };
    let right: Vec<&str> = order.iter().map(String::as_str).collect();
    assert!(grade(&key, &respond(&right)).unwrap().correct);
    // Swap the last two: one of n(n-1)/2 pairs out of order.
    let mut swapped = right.clone();
    let n = swapped.len();
    swapped.swap(n - 2, n - 1);
    let g = grade(&key, &respond(&swapped)).unwrap();
    let pairs = (n * (n - 1) / 2) as f64;
    assert!(!g.correct);
    assert!((g.score - (pairs - 1.0) / pairs).abs() < 1e-9);
    let reversed: Vec<&str> = right.iter().rev().copied().collect();
    assert_eq!(grade(&key, &respond(&reversed)).unwrap().score, 0.0);
    assert!(
        grade(&key, &respond(&right[1..])).is_err(),
        "every label once"
    );
}

#[test]
fn matching_per_entry_credit() {
    let (set, item) = first_of("matching");
    let (shown, key) = instantiate(set, item, 9).unwrap();
    let KeyBody::Matching { answers, right, .. } = &key.body else {
        panic!()
    };
    let given: Vec<&str> = answers.iter().map(String::as_str).collect();
    assert!(grade(&key, &respond(&given)).unwrap().correct);
    let other = right
        .iter()
        .find(|r| r.label != answers[0])
        .unwrap()
        .label
        .clone();
    let mut one_off = given.clone();
    one_off[0] = &other;
    let g = grade(&key, &respond(&one_off)).unwrap();
    assert!(!g.correct);
    assert!(!g.parts[0].ok && g.parts[1..].iter().all(|p| p.ok));
    assert!((g.score - (answers.len() - 1) as f64 / answers.len() as f64).abs() < 1e-9);
    assert!(grade(&key, &respond(&given[1..])).is_err());
    let Body::Matching { left, .. } = shown.body else {
        panic!()
    };
    assert_eq!(left.len(), answers.len());
}

#[test]
fn predict_accepts_any_tuple_spelling_and_grades_each_part() {
    let drills = drills();
    let (shown, key) = drills
        .start("view-contiguous", "transpose-strides", 1)
        .unwrap();
    let a: i64 = shown.params["a"].parse().unwrap();
    let b: i64 = shown.params["b"].parse().unwrap();
    let shape = format!("torch.Size([{b}, {a}])");
    let stride = format!("({}, {b})", 1);
    let g = grade(&key, &respond(&[&shape, &stride, "false"])).unwrap();
    assert!(g.correct, "{g:?}");
    let g = grade(&key, &respond(&[&shape, &format!("({b}, 1)"), "True"])).unwrap();
    assert!(!g.correct);
    assert!(g.parts[0].ok && !g.parts[1].ok && !g.parts[2].ok);
    assert!((g.score - 1.0 / 3.0).abs() < 1e-9);
    assert!(grade(&key, &respond(&[&shape, "", "False"])).is_err());
    // `view` after a transpose raises; the drill knows it.
    let (_, key) = drills
        .start("view-contiguous", "view-after-transpose", 4)
        .unwrap();
    let KeyBody::Predict { parts } = &key.body else {
        panic!()
    };
    assert_eq!(parts[0].word, "raises");
}

#[test]
fn nothing_of_the_answer_is_in_what_the_learner_sees() {
    for set in drills().sets() {
        for item in &set.items {
            let (shown, _) = instantiate(set, item, 42).unwrap();
            let json = serde_json::to_value(&shown).unwrap();
            let mut keys = BTreeSet::new();
            collect_keys(&json, &mut keys);
            for leak in [
                "correct",
                "feedback",
                "expected",
                "explanation",
                "answer",
                "answers",
                "order",
                "formula",
                "tolerance",
                "word",
                "ints",
            ] {
                assert!(
                    !keys.contains(leak),
                    "{}/{}: `{leak}` in {json}",
                    set.slug,
                    item.id
                );
            }
            let text = json.to_string();
            assert!(
                !text.contains(&item.explanation.en),
                "{}/{}",
                set.slug,
                item.id
            );
        }
    }
}

fn collect_keys(value: &serde_json::Value, keys: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                keys.insert(k.clone());
                collect_keys(v, keys);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_keys(v, keys)),
        _ => {}
    }
}

#[test]
fn the_issue_worked_example_is_32_mib() {
    let (set, item) = drills()
        .item("tensor-parallel", "allreduce-volume")
        .unwrap();
    let AnswerSpec::Numeric { formula, .. } = &item.answer else {
        panic!()
    };
    let values = BTreeMap::from([
        ("h".to_string(), 8192.0),
        ("s".to_string(), 2048.0),
        ("b".to_string(), 1.0),
        ("d".to_string(), 2.0),
    ]);
    assert_eq!(
        Formula::parse(formula).unwrap().eval(&values).unwrap(),
        32.0
    );
    assert_eq!(set.slug, "tensor-parallel");
}

const BROKEN: &str = r#"
slug = "broken"
order = 1
title = { en = "Broken", zh = "坏的" }
question = { en = "Q?", zh = "问题？" }

[[item]]
id = "two-right"
tags = ["x"]
prompt.en = "Pick {n}"
prompt.zh = "选"
explanation = { en = "E", zh = "解释" }
params.n = { min = 1, max = 3 }
[item.answer]
kind = "choice"
[[item.answer.options]]
text = { en = "a", zh = "甲" }
correct = true
feedback = { en = "f", zh = "反馈" }
[[item.answer.options]]
text = { en = "b", zh = "乙" }
correct = true
feedback = { en = "f", zh = "反馈" }

[[item]]
id = "bad-formula"
katas = ["no-such-kata"]
prompt = { en = "Compute {x}", zh = "计算 {x}" }
explanation = { en = "E", zh = "" }
params.x = { min = 0, max = 2 }
answer = { kind = "numeric", formula = "1/x + y", unit = "s" }
"#;

#[test]
fn validation_names_every_problem() {
    let set: DrillSet = toml::from_str(BROKEN).unwrap();
    let problems = validate::validate_set(&set, "broken", &slugs()).join("\n");
    // Structural problems are all reported; the sweep runs once they are fixed.
    for expected in [
        "single-choice item marks exactly one option correct, not 2",
        "prompt.zh does not show parameter `n`",
        "kata `no-such-kata` is not in the catalogue",
        "explanation: the 中文 text is missing",
        "formula uses `y`, which is no parameter",
    ] {
        assert!(
            problems.contains(expected),
            "missing `{expected}` in:\n{problems}"
        );
    }
}

#[test]
fn a_formula_that_blows_up_on_its_range_is_refused() {
    let text = r#"
slug = "blows-up"
order = 1
title = { en = "T", zh = "标题" }
question = { en = "Q?", zh = "问题？" }

[[item]]
id = "divide"
tags = ["x"]
prompt = { en = "Compute 1/{x}", zh = "计算 1/{x}" }
explanation = { en = "E", zh = "解释" }
params.x = { min = 0, max = 2 }
answer = { kind = "numeric", formula = "1/x", unit = "s" }
"#;
    let set: DrillSet = toml::from_str(text).unwrap();
    let problems = validate::validate_set(&set, "blows-up", &slugs()).join("\n");
    assert!(problems.contains("not finite"), "{problems}");
    let fixed: DrillSet = toml::from_str(&text.replace("min = 0", "min = 1")).unwrap();
    assert_eq!(
        validate::validate_set(&fixed, "blows-up", &slugs()),
        Vec::<String>::new()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the seed, the key's expected value is the item's formula on the drawn (and
    /// shown) parameters, and the key's own answer earns full credit.
    #[test]
    fn numeric_expected_follows_the_formula(seed in any::<u64>()) {
        for set in drills().sets() {
            for item in &set.items {
                let AnswerSpec::Numeric { formula, .. } = &item.answer else { continue };
                let (shown, key) = instantiate(set, item, seed).unwrap();
                let values: BTreeMap<String, f64> = shown
                    .params
                    .iter()
                    .map(|(k, v)| (k.clone(), v.parse::<f64>().unwrap()))
                    .collect();
                let want = Formula::parse(formula).unwrap().eval(&values).unwrap();
                let KeyBody::Numeric { expected, .. } = key.body else { panic!() };
                prop_assert!((expected - want).abs() <= 1e-9 * want.abs().max(1.0), "{}: {expected} vs {want}", item.id);
                prop_assert!(grade(&key, &key.model_response()).unwrap().correct);
            }
        }
    }
}

#[test]
fn parameters_vary_across_attempts() {
    for set in drills().sets() {
        for item in set.items.iter().filter(|i| !i.params.is_empty()) {
            let drawn: BTreeSet<BTreeMap<String, String>> = (0..40)
                .map(|seed| instantiate(set, item, seed).unwrap().0.params)
                .collect();
            assert!(drawn.len() > 1, "{}/{} never varies", set.slug, item.id);
        }
    }
}
