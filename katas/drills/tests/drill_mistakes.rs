//! Declared mistakes on numeric items: the build's proof refuses a mistake that can land near
//! the answer on any draw, an answer that makes a declared mistake is told which, and
//! explanations show the attempt's own numbers.

use katas_drills::{DrillSet, Drills, KeyBody, Response, grade, instantiate, validate};

fn slugs() -> Vec<String> {
    katas::catalogue::all()
        .iter()
        .map(|k| k.meta().slug.clone())
        .collect()
}

/// The old ring-time ranges, under which leaving out α is often within tolerance.
const WIDE_RING: &str = r#"
slug = "wide"
order = 1
title = { en = "T", zh = "标题" }
question = { en = "Q?", zh = "问题？" }

[[item]]
id = "ring-time"
tags = ["x"]
prompt = { en = "{alpha} {beta} {m} {n}", zh = "参数 {alpha} {beta} {m} {n}" }
explanation = { en = "About {answer} ms", zh = "约 {answer} 毫秒" }
params.n = { min = 2, max = 64 }
params.m = { values = [1, 8, 32, 128, 512] }
params.alpha = { values = [2, 5, 10, 20] }
params.beta = { values = [12.5, 25, 50, 100] }
answer.kind = "numeric"
answer.formula = "2*(n-1)*alpha/1000 + 2*(n-1)/n*m/beta"
answer.unit = "ms"
answer.rel_tol = 0.02
[[item.answer.mistakes]]
formula = "2*(n-1)/n*m/beta"
why = { en = "No latency term.", zh = "漏掉了延迟项。" }
"#;

#[test]
fn a_mistake_that_can_land_within_tolerance_fails_validation() {
    let set: DrillSet = toml::from_str(WIDE_RING).unwrap();
    let problems = validate::validate_set(&set, "wide", &slugs()).join("\n");
    assert!(
        problems.contains("within twice the tolerance"),
        "{problems}"
    );
    let narrow = WIDE_RING
        .replace("min = 2, max = 64", "min = 4, max = 16")
        .replace("[1, 8, 32, 128, 512]", "[1, 2, 4, 8]")
        .replace("[2, 5, 10, 20]", "[10, 20]")
        .replace("[12.5, 25, 50, 100]", "[25, 50]");
    let set: DrillSet = toml::from_str(&narrow).unwrap();
    assert_eq!(
        validate::validate_set(&set, "wide", &slugs()),
        Vec::<String>::new()
    );
}

#[test]
fn an_unknown_placeholder_in_an_explanation_fails_validation() {
    let text = WIDE_RING.replace("About {answer} ms", "About {answr} ms");
    let set: DrillSet = toml::from_str(&text).unwrap();
    let problems = validate::validate_set(&set, "wide", &slugs()).join("\n");
    assert!(problems.contains("`{answr}`"), "{problems}");
}

#[test]
fn the_shipped_timing_items_declare_their_mistakes_and_name_them_in_feedback() {
    let drills = Drills::builtin();
    for item in ["ring-time", "halving-doubling-time"] {
        for seed in 0..20 {
            let (shown, key) = drills.start("allreduce-cost", item, seed).unwrap();
            let KeyBody::Numeric { mistakes, .. } = &key.body else {
                panic!("numeric")
            };
            assert!(mistakes.len() >= 3, "{item}");
            for m in mistakes {
                let g = grade(
                    &key,
                    &Response {
                        parts: vec![format!("{}", m.value)],
                    },
                )
                .unwrap();
                assert!(!g.correct, "{item}: a mistake earned credit");
                assert_eq!(g.parts[0].feedback.as_ref(), Some(&m.why));
            }
            // The explanation carries this draw's numbers and result, not only symbols.
            let n = &shown.params["n"];
            assert!(
                key.explanation.en.contains(&format!("/{n}·")),
                "{}",
                key.explanation.en
            );
            assert!(!key.explanation.en.contains("{answer}"));
            assert!(!key.explanation.zh.contains('{'));
        }
    }
}

#[test]
fn every_explanation_is_filled_in_with_the_draw() {
    for set in Drills::builtin().sets() {
        for item in &set.items {
            let (_, key) = instantiate(set, item, 5).unwrap();
            for text in [&key.explanation.en, &key.explanation.zh] {
                assert!(
                    !text.contains("{answer}")
                        && !text.contains("{=")
                        && !item
                            .params
                            .keys()
                            .any(|p| text.contains(&format!("{{{p}}}"))),
                    "{}/{}: {text}",
                    set.slug,
                    item.id
                );
            }
        }
    }
}

#[test]
fn a_worked_out_span_in_an_explanation_shows_its_value() {
    let drills = Drills::builtin();
    let (shown, key) = drills.start("view-contiguous", "fresh-strides", 3).unwrap();
    let b: i64 = shown.params["b"].parse().unwrap();
    let c: i64 = shown.params["c"].parse().unwrap();
    let want = format!("({}, {c}, 1)", b * c);
    assert!(key.explanation.en.contains(&want), "{}", key.explanation.en);
    assert!(key.explanation.zh.contains(&want), "{}", key.explanation.zh);
}

#[test]
fn an_unknown_name_in_a_worked_out_span_fails_validation() {
    let text = WIDE_RING
        .replace("About {answer} ms", "About {=2*q} ms")
        .replace("min = 2, max = 64", "min = 4, max = 16")
        .replace("[1, 8, 32, 128, 512]", "[1, 2, 4, 8]")
        .replace("[2, 5, 10, 20]", "[10, 20]")
        .replace("[12.5, 25, 50, 100]", "[25, 50]");
    let set: DrillSet = toml::from_str(&text).unwrap();
    let problems = validate::validate_set(&set, "wide", &slugs()).join("\n");
    assert!(problems.contains("`q`"), "{problems}");
}
