//! Malformed answers are refused without giving the key away: for every shipped item and many
//! seeds, each malformed response is refused, and the refusal reads the same against the
//! attempt's key and against a key with every answer changed. A message that does not depend
//! on the key cannot carry any part of it.

use katas_drills::{Drills, Key, KeyBody, Response, grade, instantiate};

fn respond(parts: &[String]) -> Response {
    Response {
        parts: parts.to_vec(),
    }
}

/// The same attempt with every answer changed (same labels, same shape of answer).
fn other_key(key: &Key) -> Key {
    let mut other = key.clone();
    other.body = match &key.body {
        KeyBody::Numeric {
            expected,
            tolerance,
            unit,
            mistakes,
        } => KeyBody::Numeric {
            expected: expected * 3.0 + 7.0,
            tolerance: *tolerance,
            unit: unit.clone(),
            mistakes: mistakes.clone(),
        },
        KeyBody::Choice { multiple, options } => {
            let mut options = options.clone();
            for o in &mut options {
                o.correct = !o.correct;
            }
            KeyBody::Choice {
                multiple: *multiple,
                options,
            }
        }
        KeyBody::Ordering { order } => KeyBody::Ordering {
            order: order.iter().rev().cloned().collect(),
        },
        KeyBody::Matching {
            answers,
            right,
            feedback,
        } => {
            let rotate = |a: &String| {
                let at = right.iter().position(|r| &r.label == a).unwrap_or(0);
                right[(at + 1) % right.len()].label.clone()
            };
            KeyBody::Matching {
                answers: answers.iter().map(rotate).collect(),
                right: right.clone(),
                feedback: feedback.clone(),
            }
        }
        KeyBody::Predict { parts } => {
            let mut parts = parts.clone();
            for p in &mut parts {
                p.ints.iter_mut().for_each(|i| *i += 1);
                if let Some(w) = p.choices.iter().find(|c| **c != p.word) {
                    p.word = w.clone();
                }
            }
            KeyBody::Predict { parts }
        }
    };
    other
}

/// Responses no item kind can grade: empty, blank, repeated, unknown, too many, too long, and
/// the model answer with one entry dropped, doubled, blanked or replaced by junk.
fn malformed(key: &Key) -> Vec<Vec<String>> {
    let model = key.model_response().parts;
    let s = |t: &str| t.to_string();
    let mut out = vec![
        vec![],
        vec![s("")],
        vec![s("   ")],
        vec![s("?"); model.len().max(1)],
        vec![s("zz"); model.len().max(1)],
        vec![s("A"); model.len() + 1],
        vec![s("1"); 33],
        vec!["9".repeat(201)],
    ];
    let multiple = matches!(key.body, KeyBody::Choice { multiple: true, .. });
    let ordering = matches!(key.body, KeyBody::Ordering { .. });
    for i in 0..model.len() {
        let mut blank = model.clone();
        blank[i] = String::new();
        out.push(blank);
        let mut junk = model.clone();
        junk[i] = s("¿");
        out.push(junk);
        // Only an ordering forbids a repeat: a matching target may serve several entries
        // and two predictions may well be the same word.
        if ordering && model.len() > 1 {
            let mut doubled = model.clone();
            doubled[i] = model[(i + 1) % model.len()].clone();
            out.push(doubled);
        }
        if !multiple && model.len() > 1 {
            let mut dropped = model.clone();
            dropped.remove(i);
            out.push(dropped);
        }
    }
    let mut extra = model.clone();
    extra.push(model.first().cloned().unwrap_or_default());
    // For a multiple choice this repeats a pick, which is refused too.
    out.push(extra);
    out
}

#[test]
fn malformed_answers_are_refused_and_the_refusal_is_independent_of_the_key() {
    let mut checked = 0;
    for set in Drills::builtin().sets() {
        for item in &set.items {
            for seed in 0..8 {
                let (_, key) = instantiate(set, item, seed).unwrap();
                let other = other_key(&key);
                for parts in malformed(&key) {
                    let here = grade(&key, &respond(&parts));
                    let there = grade(&other, &respond(&parts));
                    let (Err(here), Err(there)) = (here, there) else {
                        panic!("{}/{}: {parts:?} was graded", set.slug, item.id);
                    };
                    assert_eq!(
                        (&here.en, &here.zh),
                        (&there.en, &there.zh),
                        "{}/{}: the refusal of {parts:?} depends on the key",
                        set.slug,
                        item.id
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn an_ordering_refusal_names_the_labels_alphabetically_and_the_problem() {
    let set = Drills::builtin().set("python-gil").unwrap();
    for item in &set.items {
        let (_, key) = instantiate(set, item, 3).unwrap();
        let KeyBody::Ordering { order } = &key.body else {
            continue;
        };
        let mut parts = order.clone();
        parts[1] = parts[0].clone();
        let e = grade(&key, &respond(&parts)).unwrap_err();
        assert!(e.en.contains("given twice"), "{e}");
        let mut sorted = order.clone();
        sorted.sort();
        assert!(e.en.contains(&sorted.join(" ")), "{e}");
        assert!(e.zh.contains("两次"), "{}", e.zh);
        return;
    }
    panic!("python-gil has an ordering item");
}
