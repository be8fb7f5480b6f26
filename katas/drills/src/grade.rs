//! Grading one attempt: the learner's [`Response`] against the attempt's [`Key`]. The same code
//! grades in the terminal (`infrakata drill`) and on the server.

use super::formula::show;
use super::instantiate::{Key, KeyBody, KeyOption, KeyPart, PartForm};
use super::item::Text;
use super::quantity::parse_quantity;
use serde::{Deserialize, Serialize};

/// Most entries a response may hold, and most bytes in one (every byte a learner sends is
/// bounded).
pub const MAX_PARTS: usize = 32;
pub const MAX_PART_BYTES: usize = 200;

/// What the learner answered: one text per thing asked — the number; the picked labels; the
/// labels in order; the right-hand label for each left entry; or one text per predicted part.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Response {
    pub parts: Vec<String>,
}

/// A response that cannot be graded as given; the attempt stays open so the learner can fix it.
/// Said in English (`Display`, the API) and in 中文 (`zh`, for the pages and the terminal).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{en}")]
pub struct BadResponse {
    pub en: String,
    pub zh: String,
}

impl BadResponse {
    /// The reason in `lang` (`"zh"` or anything else for English), as [`Text::get`] reads.
    pub fn get(&self, lang: &str) -> &str {
        if lang == "zh" { &self.zh } else { &self.en }
    }
}

/// The result of one attempt: data, whether right or wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Graded {
    /// Share of the credit earned, `0.0..=1.0`.
    pub score: f64,
    /// Whether everything was right.
    pub correct: bool,
    pub parts: Vec<PartResult>,
    pub explanation: Text,
}

/// Feedback on one part of the answer (one option, one position, one match, one prediction).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartResult {
    /// What this part is about: an option's label, a position, a left entry's number, a part.
    pub about: String,
    pub ok: bool,
    pub given: String,
    pub expected: String,
    pub feedback: Option<Text>,
}

fn bad(en: impl Into<String>, zh: impl Into<String>) -> BadResponse {
    BadResponse {
        en: en.into(),
        zh: zh.into(),
    }
}

/// The integers in `text`, in order (`"(4, 1, 12)"`, `"torch.Size([3, 4])"`, `"3 4"`).
pub fn parse_ints(text: &str) -> Result<Vec<i64>, BadResponse> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_digit() || (c == '-' && current.is_empty()) {
            current.push(c);
        } else if !current.is_empty() {
            if current != "-" {
                out.push(current.parse().map_err(|_| {
                    bad(
                        format!("`{current}` is too large"),
                        format!("`{current}` 太大了"),
                    )
                })?);
            }
            current.clear();
        }
    }
    Ok(out)
}

fn norm_label(text: &str) -> String {
    text.trim().to_ascii_lowercase()
}

fn show_ints(form: PartForm, ints: &[i64]) -> String {
    let list: Vec<String> = ints.iter().map(i64::to_string).collect();
    match form {
        PartForm::Tuple => format!("({})", list.join(", ")),
        _ => list.join(", "),
    }
}

/// Grades `response` against `key`.
pub fn grade(key: &Key, response: &Response) -> Result<Graded, BadResponse> {
    if response.parts.len() > MAX_PARTS {
        return Err(bad(
            format!("at most {MAX_PARTS} answers"),
            format!("最多 {MAX_PARTS} 个答案"),
        ));
    }
    if response.parts.iter().any(|p| p.len() > MAX_PART_BYTES) {
        return Err(bad(
            format!("each answer is at most {MAX_PART_BYTES} bytes"),
            format!("每个答案最多 {MAX_PART_BYTES} 字节"),
        ));
    }
    let parts = match &key.body {
        KeyBody::Numeric {
            expected,
            tolerance,
            unit,
            mistakes,
        } => {
            let [given] = response.parts.as_slice() else {
                return Err(bad("give one number", "请填写一个数"));
            };
            let value = parse_quantity(given, unit)?;
            let ok = (value - expected).abs() <= *tolerance;
            // Validation keeps every mistake more than twice the tolerance from the answer,
            // so a right answer is never near one.
            let feedback = mistakes
                .iter()
                .find(|m| !ok && (value - m.value).abs() <= *tolerance)
                .map(|m| m.why.clone());
            vec![PartResult {
                about: unit.clone(),
                ok,
                given: given.trim().to_string(),
                expected: format!("{} {unit}", show(*expected, 4)),
                feedback,
            }]
        }
        KeyBody::Choice { multiple, options } => {
            let picked: Vec<String> = response.parts.iter().map(|p| norm_label(p)).collect();
            for p in &picked {
                if !options.iter().any(|o| norm_label(&o.label) == *p) {
                    return Err(bad(
                        format!("`{p}` is not one of the options"),
                        format!("`{p}` 不是选项之一"),
                    ));
                }
            }
            if let Some(twice) = picked
                .iter()
                .enumerate()
                .find_map(|(i, p)| picked[..i].contains(p).then_some(p))
            {
                let twice = twice.to_ascii_uppercase();
                return Err(bad(
                    format!("{twice} is picked twice"),
                    format!("{twice} 被选了两次"),
                ));
            }
            if !multiple && picked.len() != 1 {
                return Err(bad("pick exactly one option", "请恰好选择一项"));
            }
            if picked.is_empty() {
                return Err(bad("pick at least one option", "请至少选择一项"));
            }
            options
                .iter()
                .map(|o| {
                    let chose = picked.contains(&norm_label(&o.label));
                    let word = |b: bool| if b { "picked" } else { "not picked" };
                    PartResult {
                        about: o.label.clone(),
                        ok: chose == o.correct,
                        given: word(chose).into(),
                        expected: word(o.correct).into(),
                        feedback: Some(o.feedback.clone()),
                    }
                })
                .collect()
        }
        KeyBody::Ordering { order } => {
            let given: Vec<String> = response.parts.iter().map(|p| norm_label(p)).collect();
            let want: Vec<String> = order.iter().map(|l| norm_label(l)).collect();
            let mut sorted_given = given.clone();
            sorted_given.sort();
            let mut sorted_want = want.clone();
            sorted_want.sort();
            if sorted_given != sorted_want {
                return Err(ordering_problem(&given, &sorted_want));
            }
            let results: Vec<PartResult> = given
                .iter()
                .zip(&want)
                .enumerate()
                .map(|(i, (g, w))| PartResult {
                    about: format!("{}", i + 1),
                    ok: g == w,
                    given: g.to_ascii_uppercase(),
                    expected: w.to_ascii_uppercase(),
                    feedback: None,
                })
                .collect();
            // Credit is the share of pairs kept in their right relative order, so one step
            // out of place costs little and a reversed list earns nothing.
            let rank = |l: &String| want.iter().position(|w| w == l).unwrap_or(0);
            let n = given.len();
            let mut kept = 0usize;
            for i in 0..n {
                for j in i + 1..n {
                    if rank(&given[i]) < rank(&given[j]) {
                        kept += 1;
                    }
                }
            }
            let pairs = n * (n - 1) / 2;
            let score = if pairs == 0 {
                1.0
            } else {
                kept as f64 / pairs as f64
            };
            let correct = results.iter().all(|r| r.ok);
            return Ok(Graded {
                score,
                correct,
                parts: results,
                explanation: key.explanation.clone(),
            });
        }
        KeyBody::Matching {
            answers,
            right,
            feedback,
        } => {
            if response.parts.len() != answers.len() {
                return Err(bad(
                    format!("give one letter for each of the {} entries", answers.len()),
                    format!("请为 {} 个条目各选一个字母", answers.len()),
                ));
            }
            let mut results = Vec::new();
            for (i, (given, want)) in response.parts.iter().zip(answers).enumerate() {
                let g = norm_label(given);
                if !right.iter().any(|r| norm_label(&r.label) == g) {
                    return Err(bad(
                        format!("`{g}` is not one of the letters"),
                        format!("`{g}` 不是可选的字母"),
                    ));
                }
                results.push(PartResult {
                    about: format!("{}", i + 1),
                    ok: g == norm_label(want),
                    given: g,
                    expected: want.clone(),
                    feedback: feedback.get(i).cloned().flatten(),
                });
            }
            results
        }
        KeyBody::Predict { parts } => {
            if response.parts.len() != parts.len() {
                return Err(bad(
                    format!("give {} answers, one per part", parts.len()),
                    format!("请给出 {} 个答案，每部分一个", parts.len()),
                ));
            }
            let mut results = Vec::new();
            for (i, (given, want)) in response.parts.iter().zip(parts).enumerate() {
                results.push(predict_part(i, given, want)?);
            }
            results
        }
    };
    let right = parts.iter().filter(|p| p.ok).count();
    let all_or_nothing = matches!(
        key.body,
        KeyBody::Numeric { .. }
            | KeyBody::Choice {
                multiple: false,
                ..
            }
    );
    let score = if parts.is_empty() || (all_or_nothing && right != parts.len()) {
        0.0
    } else if let KeyBody::Choice { options, .. } = &key.body {
        several_choice_score(options, &parts)
    } else {
        right as f64 / parts.len() as f64
    };
    Ok(Graded {
        score,
        correct: right == parts.len(),
        parts,
        explanation: key.explanation.clone(),
    })
}

/// Credit for a multiple choice: the share of right options picked, less the share of wrong
/// options picked. Picking everything earns nothing, where counting each option as a part
/// would have paid most of the credit for it.
fn several_choice_score(options: &[KeyOption], parts: &[PartResult]) -> f64 {
    let right = options.iter().filter(|o| o.correct).count();
    let wrong = options.len() - right;
    let (mut hits, mut false_picks) = (0usize, 0usize);
    for (o, p) in options.iter().zip(parts) {
        let picked = p.ok == o.correct;
        match (picked, o.correct) {
            (true, true) => hits += 1,
            (true, false) => false_picks += 1,
            _ => {}
        }
    }
    let share = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
    (share(hits, right) - share(false_picks, wrong)).max(0.0)
}

/// A score as a person reads it: exact to three significant digits (`0.75`, `0.667`, `1`), never
/// rounded to one decimal (`0.8` for 0.75).
pub fn show_score(score: f64) -> String {
    show(score, 3)
}

/// A share of the credit as a percentage, exact to three significant digits (`75%`, `66.7%`).
pub fn show_percent(score: f64) -> String {
    format!("{}%", show(score * 100.0, 3))
}

/// Why an ordering response is not a permutation of the labels. Said only in terms of the
/// labels in alphabetical order (which the learner sees anyway), never in the key's order.
fn ordering_problem(given: &[String], sorted_labels: &[String]) -> BadResponse {
    let all = sorted_labels
        .iter()
        .map(|l| l.to_ascii_uppercase())
        .collect::<Vec<_>>()
        .join(" ");
    let mut seen: Vec<&str> = Vec::new();
    for g in given {
        if g.is_empty() {
            return bad(
                format!("an entry is empty; give each of {all} exactly once"),
                format!("有一项是空的；请把 {all} 各用一次"),
            );
        }
        if !sorted_labels.contains(g) {
            let g = g.to_ascii_uppercase();
            return bad(
                format!("{g} is not one of the steps; give each of {all} exactly once"),
                format!("{g} 不是步骤之一；请把 {all} 各用一次"),
            );
        }
        if seen.contains(&g.as_str()) {
            let g = g.to_ascii_uppercase();
            return bad(
                format!("{g} is given twice; give each of {all} exactly once"),
                format!("{g} 出现了两次；请把 {all} 各用一次"),
            );
        }
        seen.push(g);
    }
    bad(
        format!("give each of {all} exactly once"),
        format!("请把 {all} 各用一次"),
    )
}

fn predict_part(i: usize, given: &str, want: &KeyPart) -> Result<PartResult, BadResponse> {
    let (ok, expected) = match want.form {
        PartForm::Word => {
            let g = norm_label(given);
            if g.is_empty() {
                return Err(bad(
                    format!("part {} is empty", i + 1),
                    format!("第 {} 部分是空的", i + 1),
                ));
            }
            if !want.choices.is_empty() && !want.choices.iter().any(|c| norm_label(c) == g) {
                let words = want.choices.join(" / ");
                return Err(bad(
                    format!("part {}: answer with one of {words}", i + 1),
                    format!("第 {} 部分：请从 {words} 中选一个作答", i + 1),
                ));
            }
            (g == norm_label(&want.word), want.word.clone())
        }
        form => {
            let ints = parse_ints(given)?;
            if ints.is_empty() {
                return Err(bad(
                    format!("part {}: write the integers", i + 1),
                    format!("第 {} 部分：请写出整数", i + 1),
                ));
            }
            (ints == want.ints, show_ints(form, &want.ints))
        }
    };
    Ok(PartResult {
        about: format!("{}", i + 1),
        ok,
        given: given.trim().to_string(),
        expected,
        feedback: None,
    })
}

impl Key {
    /// A response that earns full credit (for tests, `drill check` and the instructor's view).
    pub fn model_response(&self) -> Response {
        let parts = match &self.body {
            KeyBody::Numeric { expected, .. } => vec![format!("{expected}")],
            KeyBody::Choice { options, .. } => options
                .iter()
                .filter(|o| o.correct)
                .map(|o| o.label.clone())
                .collect(),
            KeyBody::Ordering { order } => order.clone(),
            KeyBody::Matching { answers, .. } => answers.clone(),
            KeyBody::Predict { parts } => parts
                .iter()
                .map(|p| match p.form {
                    PartForm::Word => p.word.clone(),
                    form => show_ints(form, &p.ints),
                })
                .collect(),
        };
        Response { parts }
    }
}
