//! One attempt at an item: parameters drawn and options shuffled from a seed. What the learner
//! sees ([`Presented`]) holds nothing that gives the answer away; the [`Key`] stays with the
//! trusted side (the server stores it, the terminal keeps it in memory) until grading.
//! Shared with `build.rs`, which instantiates every item to validate it.

use super::formula::{self, Formula, FormulaError};
use super::item::{AnswerSpec, DrillSet, Item, PredictPart, Text};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Relative tolerance of a numeric item that states none: answers rounded to 2–3 significant
/// digits still count.
pub const DEFAULT_REL_TOL: f64 = 0.01;

/// What the learner sees of one attempt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Presented {
    pub set: String,
    pub item: String,
    /// The prompt with this attempt's parameter values filled in.
    pub prompt: Text,
    /// The drawn values, as written in the prompt.
    pub params: BTreeMap<String, String>,
    pub body: Body,
}

/// A shown entry and the label the learner answers with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labeled {
    pub label: String,
    pub text: Text,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Body {
    /// Answer: one number in `unit`.
    Numeric { unit: String },
    /// Answer: the labels picked (exactly one unless `multiple`).
    Choice {
        multiple: bool,
        options: Vec<Labeled>,
    },
    /// Answer: every label once, in the right order.
    Ordering { steps: Vec<Labeled> },
    /// Answer: for each `left` entry in turn, the label of its `right` entry.
    Matching {
        left: Vec<Labeled>,
        right: Vec<Labeled>,
    },
    /// Answer: one text per part.
    Predict { parts: Vec<ShownPart> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownPart {
    pub label: Text,
    /// `tuple` (write `(a, b, c)`), `number`, or `word` (one of `choices`).
    pub form: PartForm,
    pub choices: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartForm {
    Tuple,
    Number,
    Word,
}

impl PartForm {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tuple => "tuple",
            Self::Number => "number",
            Self::Word => "word",
        }
    }
}

/// Everything needed to grade one attempt; never shown before the learner commits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Key {
    pub set: String,
    pub item: String,
    pub explanation: Text,
    pub body: KeyBody,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeyBody {
    Numeric {
        expected: f64,
        /// Largest accepted distance from `expected`.
        tolerance: f64,
        unit: String,
        /// The item's declared mistakes on this draw (absent in keys stored before them).
        #[serde(default)]
        mistakes: Vec<KeyMistake>,
    },
    /// Options in the order shown.
    Choice {
        multiple: bool,
        options: Vec<KeyOption>,
    },
    /// Labels in the right order.
    Ordering {
        order: Vec<String>,
    },
    /// For each left entry in turn, the right label it belongs with, and its feedback.
    Matching {
        answers: Vec<String>,
        right: Vec<Labeled>,
        feedback: Vec<Option<Text>>,
    },
    Predict {
        parts: Vec<KeyPart>,
    },
}

/// What one declared mistake gives on this attempt's draw, and why it is wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyMistake {
    pub value: f64,
    pub why: Text,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyOption {
    pub label: String,
    pub correct: bool,
    pub feedback: Text,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPart {
    pub form: PartForm,
    /// Tuple elements or the one number (integers), or the expected word.
    pub ints: Vec<i64>,
    pub word: String,
    /// The words a `word` part may be answered with (shown to the learner too); a word outside
    /// them is asked again rather than graded. Empty in keys stored before it existed.
    #[serde(default)]
    pub choices: Vec<String>,
}

/// The largest accepted distance from `expected` for a numeric item's tolerances.
pub fn tolerance_of(expected: f64, rel_tol: Option<f64>, abs_tol: Option<f64>) -> f64 {
    (rel_tol.unwrap_or(DEFAULT_REL_TOL) * expected.abs())
        .max(abs_tol.unwrap_or(0.0))
        .max(1e-12)
}

/// Labels `A`, `B`, … for shuffled options and steps; `a`, `b`, … for matching targets.
pub fn label(index: usize, upper: bool) -> String {
    let base = if upper { b'A' } else { b'a' };
    match u8::try_from(index) {
        Ok(i) if i < 26 => char::from(base + i).to_string(),
        _ => format!("{}{}", if upper { "Z" } else { "z" }, index),
    }
}

/// A shuffled order of `0..n`; never the identity when `n > 1`, so an ordering item is never
/// shown already solved.
fn shuffled(n: usize, rng: &mut fastrand::Rng, never_identity: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    if never_identity && n > 1 && order.iter().enumerate().all(|(i, &o)| i == o) {
        order.rotate_left(1);
    }
    order
}

/// `{name}` replaced by each parameter's shown value.
pub fn fill(text: &str, shown: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for (name, value) in shown {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// Draws the parameters of `item` from `seed`.
pub fn draw_params(item: &Item, rng: &mut fastrand::Rng) -> BTreeMap<String, f64> {
    item.params
        .iter()
        .map(|(name, p)| (name.clone(), formula::draw(p, rng)))
        .collect()
}

/// Why an item could not be instantiated: an authoring mistake that validation refuses, never
/// something a learner did.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InstantiateError {
    #[error(transparent)]
    Formula(#[from] FormulaError),
    #[error("formula `{text}` gives {value}, not an integer")]
    NotInteger { text: String, value: f64 },
    #[error("matching answer `{0}` is no right-hand id")]
    UnknownMatch(String),
    #[error("a predict part needs exactly one of `tuple`, `number`, or `choices` + `answer`")]
    PredictForm,
    #[error("predict answer `{0}` is not among its choices")]
    PredictAnswer(String),
}

/// One attempt at `item` of `set`, fully determined by `seed`. Fails only on an item that
/// validation would refuse.
pub fn instantiate(
    set: &DrillSet,
    item: &Item,
    seed: u64,
) -> Result<(Presented, Key), InstantiateError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let values = draw_params(item, &mut rng);
    instantiate_with(set, item, &values, &mut rng)
}

/// [`instantiate`] on given parameter values (validation sweeps the ranges with it).
pub fn instantiate_with(
    set: &DrillSet,
    item: &Item,
    values: &BTreeMap<String, f64>,
    rng: &mut fastrand::Rng,
) -> Result<(Presented, Key), InstantiateError> {
    let shown: BTreeMap<String, String> = values
        .iter()
        .map(|(k, v)| (k.clone(), formula::show(*v, 6)))
        .collect();
    let prompt = Text {
        en: fill(&item.prompt.en, &shown),
        zh: fill(&item.prompt.zh, &shown),
    };
    let (body, key) = match &item.answer {
        AnswerSpec::Numeric {
            formula,
            unit,
            rel_tol,
            abs_tol,
            mistakes,
        } => {
            let expected = Formula::parse(formula)?.eval(values)?;
            let tolerance = tolerance_of(expected, *rel_tol, *abs_tol);
            let mistakes = mistakes
                .iter()
                .map(|m| {
                    Ok(KeyMistake {
                        value: Formula::parse(&m.formula)?.eval(values)?,
                        why: m.why.clone(),
                    })
                })
                .collect::<Result<_, FormulaError>>()?;
            (
                Body::Numeric { unit: unit.clone() },
                KeyBody::Numeric {
                    expected,
                    tolerance,
                    unit: unit.clone(),
                    mistakes,
                },
            )
        }
        AnswerSpec::Choice { multiple, options } => {
            let order = shuffled(options.len(), rng, false);
            let shown_options = order
                .iter()
                .enumerate()
                .map(|(i, &o)| Labeled {
                    label: label(i, true),
                    text: options[o].text.clone(),
                })
                .collect();
            let key_options = order
                .iter()
                .enumerate()
                .map(|(i, &o)| KeyOption {
                    label: label(i, true),
                    correct: options[o].correct,
                    feedback: options[o].feedback.clone(),
                })
                .collect();
            (
                Body::Choice {
                    multiple: *multiple,
                    options: shown_options,
                },
                KeyBody::Choice {
                    multiple: *multiple,
                    options: key_options,
                },
            )
        }
        AnswerSpec::Ordering { steps } => {
            let order = shuffled(steps.len(), rng, true);
            let shown_steps: Vec<Labeled> = order
                .iter()
                .enumerate()
                .map(|(i, &o)| Labeled {
                    label: label(i, true),
                    text: steps[o].clone(),
                })
                .collect();
            // The label under which the step at each right position is shown.
            let mut right = vec![String::new(); steps.len()];
            for (shown_at, &o) in order.iter().enumerate() {
                right[o] = label(shown_at, true);
            }
            (
                Body::Ordering { steps: shown_steps },
                KeyBody::Ordering { order: right },
            )
        }
        AnswerSpec::Matching { left, right } => {
            let left_order = shuffled(left.len(), rng, false);
            let right_order = shuffled(right.len(), rng, false);
            let right_shown: Vec<Labeled> = right_order
                .iter()
                .enumerate()
                .map(|(i, &o)| Labeled {
                    label: label(i, false),
                    text: right[o].text.clone(),
                })
                .collect();
            let label_of = |id: &str| -> Result<String, InstantiateError> {
                right_order
                    .iter()
                    .position(|&o| right[o].id == id)
                    .map(|i| label(i, false))
                    .ok_or_else(|| InstantiateError::UnknownMatch(id.to_string()))
            };
            let mut left_shown = Vec::new();
            let mut answers = Vec::new();
            let mut feedback = Vec::new();
            for (i, &o) in left_order.iter().enumerate() {
                left_shown.push(Labeled {
                    label: (i + 1).to_string(),
                    text: left[o].text.clone(),
                });
                answers.push(label_of(&left[o].answer)?);
                feedback.push(left[o].feedback.clone());
            }
            (
                Body::Matching {
                    left: left_shown,
                    right: right_shown.clone(),
                },
                KeyBody::Matching {
                    answers,
                    right: right_shown,
                    feedback,
                },
            )
        }
        AnswerSpec::Predict { parts } => {
            let mut shown_parts = Vec::new();
            let mut key_parts = Vec::new();
            for part in parts {
                let (shown_part, key_part) = predict_part(part, values, &shown)?;
                shown_parts.push(shown_part);
                key_parts.push(key_part);
            }
            (
                Body::Predict { parts: shown_parts },
                KeyBody::Predict { parts: key_parts },
            )
        }
    };
    let explanation = explain(item, values, &shown, &key)?;
    Ok((
        Presented {
            set: set.slug.clone(),
            item: item.id.clone(),
            prompt,
            params: shown,
            body,
        },
        Key {
            set: set.slug.clone(),
            item: item.id.clone(),
            explanation,
            body: key,
        },
    ))
}

/// The placeholder an explanation may use for a numeric item's answer on this draw.
pub const ANSWER_PLACEHOLDER: &str = "answer";

/// The explanation with this attempt's numbers: the drawn parameters, `{=formula}` worked out
/// on them (`({=b*c}, {c}, 1)`), and, for a numeric item, `{answer}`.
fn explain(
    item: &Item,
    values: &BTreeMap<String, f64>,
    shown: &BTreeMap<String, String>,
    key: &KeyBody,
) -> Result<Text, FormulaError> {
    let mut names = shown.clone();
    if let KeyBody::Numeric { expected, .. } = key {
        names.insert(ANSWER_PLACEHOLDER.into(), formula::show(*expected, 4));
    }
    Ok(Text {
        en: fill(&fill_formulas(&item.explanation.en, values)?, &names),
        zh: fill(&fill_formulas(&item.explanation.zh, values)?, &names),
    })
}

/// The `{=formula}` spans of `text`, in order.
pub fn formula_spans(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{=") {
        let after = &rest[open + 2..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// `text` with each `{=formula}` replaced by its value on `values`.
fn fill_formulas(text: &str, values: &BTreeMap<String, f64>) -> Result<String, FormulaError> {
    let mut out = text.to_string();
    for span in formula_spans(text) {
        let v = Formula::parse(span)?.eval(values)?;
        out = out.replacen(&format!("{{={span}}}"), &formula::show(v, 4), 1);
    }
    Ok(out)
}

fn predict_part(
    part: &PredictPart,
    values: &BTreeMap<String, f64>,
    shown: &BTreeMap<String, String>,
) -> Result<(ShownPart, KeyPart), InstantiateError> {
    let int = |text: &str| -> Result<i64, InstantiateError> {
        let v = Formula::parse(text)?.eval(values)?;
        if v.fract() != 0.0 || v.abs() > 1e15 {
            return Err(InstantiateError::NotInteger {
                text: text.to_string(),
                value: v,
            });
        }
        Ok(v as i64)
    };
    let forms = [
        !part.tuple.is_empty(),
        part.number.is_some(),
        !part.choices.is_empty() || part.answer.is_some(),
    ];
    if forms.iter().filter(|f| **f).count() != 1 {
        return Err(InstantiateError::PredictForm);
    }
    let (form, ints, word) = if !part.tuple.is_empty() {
        let ints = part
            .tuple
            .iter()
            .map(|t| int(t))
            .collect::<Result<_, _>>()?;
        (PartForm::Tuple, ints, String::new())
    } else if let Some(n) = &part.number {
        (PartForm::Number, vec![int(n)?], String::new())
    } else {
        let answer = part.answer.clone().unwrap_or_default();
        if !part.choices.contains(&answer) {
            return Err(InstantiateError::PredictAnswer(answer));
        }
        (PartForm::Word, Vec::new(), answer)
    };
    Ok((
        ShownPart {
            label: Text {
                en: fill(&part.label.en, shown),
                zh: fill(&part.label.zh, shown),
            },
            form,
            choices: part.choices.clone(),
        },
        KeyPart {
            form,
            ints,
            word,
            choices: part.choices.clone(),
        },
    ))
}
