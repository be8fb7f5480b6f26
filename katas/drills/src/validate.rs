//! The rules every drill set obeys, checked by `build.rs` (a bad set fails the build), by
//! `infrakata drill check DIR` and when the server reloads drills from disk: both languages
//! present, formulas that evaluate over their whole ranges, choice items whose marked answers
//! are exactly right, and every attempt gradable with full credit by its own key.

use super::formula::{Formula, param_values};
use super::grade::grade;
use super::instantiate::{
    ANSWER_PLACEHOLDER, formula_spans, instantiate, instantiate_with, tolerance_of,
};
use super::item::{AnswerSpec, DrillSet, Item, Mistake, Text};
use std::collections::{BTreeMap, BTreeSet};

/// Values tried per parameter when sweeping a range; the sweep is a full grid of these, capped.
const SWEEP_PER_PARAM: usize = 6;
const SWEEP_MAX_POINTS: usize = 4096;
/// Seeds instantiated per item on top of the sweep (shuffles and draws).
const SEEDS: u64 = 24;

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// The `{name}` placeholders in a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if after[..close]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && close > 0 =>
            {
                out.insert(after[..close].to_string());
                rest = &after[close + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

/// Both languages present. Prose (prompts, explanations, feedback) must be written in Chinese
/// characters; a short label may read the same in both (`PEP 703`, `asyncio`).
fn check_text(what: &str, text: &Text, problems: &mut Vec<String>) {
    check(what, text, true, problems);
}

fn check_label(what: &str, text: &Text, problems: &mut Vec<String>) {
    check(what, text, false, problems);
}

fn check(what: &str, text: &Text, prose: bool, problems: &mut Vec<String>) {
    if text.en.trim().is_empty() {
        problems.push(format!("{what}: English text is empty"));
    }
    if text.zh.trim().is_empty() || (prose && !has_cjk(&text.zh)) {
        problems.push(format!(
            "{what}: the 中文 text is missing (no Chinese characters)"
        ));
    }
}

/// Every problem with `set`, read from the folder `folder` (empty when it is valid).
/// `known_katas` are the catalogue's slugs, which an item's `katas` must name.
pub fn validate_set(set: &DrillSet, folder: &str, known_katas: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    if set.slug != folder {
        problems.push(format!(
            "slug `{}` differs from its folder `{folder}`",
            set.slug
        ));
    }
    if !is_kebab(&set.slug) {
        problems.push(format!("slug `{}` is not kebab-case", set.slug));
    }
    check_text("title", &set.title, &mut problems);
    check_text("question", &set.question, &mut problems);
    if set.items.is_empty() {
        problems.push("a set needs items".into());
    }
    let mut ids = BTreeSet::new();
    for item in &set.items {
        if !ids.insert(item.id.as_str()) {
            problems.push(format!("item id `{}` appears twice", item.id));
        }
        for p in validate_item(set, item, known_katas) {
            problems.push(format!("item `{}`: {p}", item.id));
        }
    }
    problems
}

fn validate_item(set: &DrillSet, item: &Item, known_katas: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    if !is_kebab(&item.id) {
        problems.push("id is not kebab-case".into());
    }
    if let Some(title) = &item.title {
        check_text("title", title, &mut problems);
    }
    check_text("prompt", &item.prompt, &mut problems);
    check_text("explanation", &item.explanation, &mut problems);
    for kata in &item.katas {
        if !known_katas.contains(kata) {
            problems.push(format!("kata `{kata}` is not in the catalogue"));
        }
    }
    if item.tags.is_empty() && item.katas.is_empty() {
        problems.push("give `tags` or `katas`, so reviews and interviews can find it".into());
    }
    // Parameters: well-formed ranges, named in both prompts alike.
    let mut ranges = BTreeMap::new();
    for (name, param) in &item.params {
        match param_values(param, SWEEP_PER_PARAM) {
            Ok(v) => {
                ranges.insert(name.clone(), v);
            }
            Err(e) => problems.push(format!("parameter `{name}`: {e}")),
        }
    }
    let names: BTreeSet<String> = item.params.keys().cloned().collect();
    for (lang, text) in [("en", &item.prompt.en), ("zh", &item.prompt.zh)] {
        let used = placeholders(text);
        for u in used.difference(&names) {
            problems.push(format!(
                "prompt.{lang} names `{{{u}}}`, which is no parameter"
            ));
        }
        for n in names.difference(&used) {
            problems.push(format!("prompt.{lang} does not show parameter `{n}`"));
        }
    }
    // Explanations may show the draw too (and a numeric item's answer).
    let mut explainable = names.clone();
    if matches!(item.answer, AnswerSpec::Numeric { .. }) {
        if names.contains(ANSWER_PLACEHOLDER) {
            problems.push(format!(
                "`{ANSWER_PLACEHOLDER}` is reserved, not a parameter name"
            ));
        }
        explainable.insert(ANSWER_PLACEHOLDER.to_string());
    }
    for (lang, text) in [("en", &item.explanation.en), ("zh", &item.explanation.zh)] {
        for u in placeholders(text).difference(&explainable) {
            problems.push(format!(
                "explanation.{lang} names `{{{u}}}`, which is no parameter"
            ));
        }
        for span in formula_spans(text) {
            match Formula::parse(span) {
                Ok(f) => {
                    for v in f.vars() {
                        if !names.contains(v) {
                            problems.push(format!(
                                "explanation.{lang} works out `{span}` with `{v}`, which is no parameter"
                            ));
                        }
                    }
                }
                Err(e) => problems.push(format!("explanation.{lang}: {e}")),
            }
        }
    }
    match &item.answer {
        AnswerSpec::Numeric {
            formula,
            unit,
            rel_tol,
            abs_tol,
            mistakes,
        } => {
            for (i, m) in mistakes.iter().enumerate() {
                check_text(&format!("mistake {} why", i + 1), &m.why, &mut problems);
                match Formula::parse(&m.formula) {
                    Ok(f) => {
                        for v in f.vars() {
                            if !names.contains(v) {
                                problems.push(format!(
                                    "mistake {} uses `{v}`, which is no parameter",
                                    i + 1
                                ));
                            }
                        }
                    }
                    Err(e) => problems.push(e.to_string()),
                }
            }
            if unit.trim().is_empty() {
                problems.push("a numeric answer needs a `unit`".into());
            }
            if rel_tol.is_some_and(|t| !(t > 0.0 && t < 0.5)) {
                problems.push("`rel_tol` must be in (0, 0.5)".into());
            }
            if abs_tol.is_some_and(|t| !(t >= 0.0 && t.is_finite())) {
                problems.push("`abs_tol` must be a finite number ≥ 0".into());
            }
            match Formula::parse(formula) {
                Ok(f) => {
                    for v in f.vars() {
                        if !names.contains(v) {
                            problems.push(format!("formula uses `{v}`, which is no parameter"));
                        }
                    }
                }
                Err(e) => problems.push(e.to_string()),
            }
        }
        AnswerSpec::Choice { multiple, options } => {
            let marked = options.iter().filter(|o| o.correct).count();
            if options.len() < 2 {
                problems.push("a choice item needs at least two options".into());
            }
            if !multiple && marked != 1 {
                problems.push(format!(
                    "a single-choice item marks exactly one option correct, not {marked}"
                ));
            }
            if *multiple && (marked == 0 || marked == options.len()) {
                problems
                    .push("a multiple-choice item marks some, but not all, options correct".into());
            }
            for (i, o) in options.iter().enumerate() {
                check_label(&format!("option {}", i + 1), &o.text, &mut problems);
                check_text(
                    &format!("option {} feedback", i + 1),
                    &o.feedback,
                    &mut problems,
                );
            }
            let distinct: BTreeSet<&str> = options.iter().map(|o| o.text.en.as_str()).collect();
            if distinct.len() != options.len() {
                problems.push("two options read the same".into());
            }
        }
        AnswerSpec::Ordering { steps } => {
            if steps.len() < 3 {
                problems.push("an ordering item needs at least three steps".into());
            }
            for (i, s) in steps.iter().enumerate() {
                check_label(&format!("step {}", i + 1), s, &mut problems);
            }
            let distinct: BTreeSet<&str> = steps.iter().map(|s| s.en.as_str()).collect();
            if distinct.len() != steps.len() {
                problems.push("two steps read the same".into());
            }
        }
        AnswerSpec::Matching { left, right } => {
            if left.len() < 2 || right.len() < 2 {
                problems.push("a matching item needs at least two entries on each side".into());
            }
            let right_ids: BTreeSet<&str> = right.iter().map(|r| r.id.as_str()).collect();
            if right_ids.len() != right.len() {
                problems.push("right-hand ids repeat".into());
            }
            for (i, l) in left.iter().enumerate() {
                check_label(&format!("left {}", i + 1), &l.text, &mut problems);
                if let Some(f) = &l.feedback {
                    check_text(&format!("left {} feedback", i + 1), f, &mut problems);
                }
                if !right_ids.contains(l.answer.as_str()) {
                    problems.push(format!(
                        "left {} answers `{}`, which is no right-hand id",
                        i + 1,
                        l.answer
                    ));
                }
            }
            for r in right {
                check_label(&format!("right `{}`", r.id), &r.text, &mut problems);
            }
        }
        AnswerSpec::Predict { parts } => {
            if parts.is_empty() {
                problems.push("a predict item needs parts".into());
            }
            for (i, p) in parts.iter().enumerate() {
                check_label(&format!("part {}", i + 1), &p.label, &mut problems);
                for u in placeholders(&p.label.en).union(&placeholders(&p.label.zh)) {
                    if !names.contains(u) {
                        problems.push(format!(
                            "part {} names `{{{u}}}`, which is no parameter",
                            i + 1
                        ));
                    }
                }
                for text in p.tuple.iter().chain(&p.number) {
                    match Formula::parse(text) {
                        Ok(f) => {
                            for v in f.vars() {
                                if !names.contains(v) {
                                    problems.push(format!(
                                        "part {} uses `{v}`, which is no parameter",
                                        i + 1
                                    ));
                                }
                            }
                        }
                        Err(e) => problems.push(e.to_string()),
                    }
                }
            }
        }
    }
    if !problems.is_empty() || ranges.len() != item.params.len() {
        return problems;
    }
    if let AnswerSpec::Numeric {
        formula,
        rel_tol,
        abs_tol,
        mistakes,
        ..
    } = &item.answer
        && !mistakes.is_empty()
    {
        problems.extend(prove_mistakes_miss(
            item, formula, *rel_tol, *abs_tol, mistakes,
        ));
    }
    // Every point of the sweep and a few seeds: the attempt builds (formulas finite, integers
    // where integers are asked) and its own key's model answer earns full credit.
    let mut points = vec![BTreeMap::new()];
    for (name, values) in &ranges {
        let mut next = Vec::new();
        for p in &points {
            for v in values {
                let mut q: BTreeMap<String, f64> = p.clone();
                q.insert(name.clone(), *v);
                next.push(q);
            }
        }
        next.truncate(SWEEP_MAX_POINTS);
        points = next;
    }
    let mut rng = fastrand::Rng::with_seed(0);
    let attempts = points
        .iter()
        .map(|p| instantiate_with(set, item, p, &mut rng))
        .chain((0..SEEDS).map(|s| instantiate(set, item, s)));
    for attempt in attempts {
        match attempt {
            Err(e) => {
                problems.push(e.to_string());
                break;
            }
            Ok((_, key)) => match grade(&key, &key.model_response()) {
                Ok(g) if g.correct => {}
                Ok(_) => {
                    problems.push("the key's own answer is graded wrong".into());
                    break;
                }
                Err(e) => {
                    problems.push(format!("the key's own answer is refused: {e}"));
                    break;
                }
            },
        }
    }
    problems
}

/// Most draws a mistake proof enumerates; an item with more must narrow its ranges.
const MISTAKE_PROOF_MAX_DRAWS: usize = 200_000;

/// Every declared mistake lands more than twice the tolerance away from the answer on every
/// draw the item can make (the whole grid, not a sample), so a learner who makes it, even
/// rounding towards the answer, never gets credit.
fn prove_mistakes_miss(
    item: &Item,
    formula: &str,
    rel_tol: Option<f64>,
    abs_tol: Option<f64>,
    mistakes: &[Mistake],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut axes = Vec::new();
    let mut draws = 1usize;
    for (name, param) in &item.params {
        match param_values(param, MISTAKE_PROOF_MAX_DRAWS) {
            Ok(values) => {
                draws = draws.saturating_mul(values.len());
                axes.push((name.clone(), values));
            }
            Err(e) => problems.push(format!("parameter `{name}`: {e}")),
        }
    }
    if draws > MISTAKE_PROOF_MAX_DRAWS {
        problems.push(format!(
            "{draws} possible draws, too many to prove the mistakes wrong on each (at most {MISTAKE_PROOF_MAX_DRAWS})"
        ));
    }
    let parsed = Formula::parse(formula).and_then(|f| {
        let ms = mistakes
            .iter()
            .map(|m| Formula::parse(&m.formula))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((f, ms))
    });
    let (answer, wrong) = match parsed {
        Ok(p) => p,
        Err(e) => {
            problems.push(e.to_string());
            return problems;
        }
    };
    if !problems.is_empty() {
        return problems;
    }
    let mut index = vec![0usize; axes.len()];
    loop {
        let values: BTreeMap<String, f64> = axes
            .iter()
            .zip(&index)
            .map(|((name, vs), &i)| (name.clone(), vs[i]))
            .collect();
        let expected = answer.eval(&values);
        for (k, m) in wrong.iter().enumerate() {
            let (Ok(e), Ok(v)) = (&expected, m.eval(&values)) else {
                problems.push(format!(
                    "mistake {} cannot be evaluated on {values:?}",
                    k + 1
                ));
                return problems;
            };
            let tolerance = tolerance_of(*e, rel_tol, abs_tol);
            if (v - e).abs() <= 2.0 * tolerance {
                problems.push(format!(
                    "mistake {} (`{}`) gives {v} on {values:?}, within twice the tolerance of the answer {e}",
                    k + 1,
                    mistakes[k].formula
                ));
                return problems;
            }
        }
        // The next draw of the grid, last axis fastest.
        let mut axis = axes.len();
        loop {
            if axis == 0 {
                return problems;
            }
            axis -= 1;
            index[axis] += 1;
            if index[axis] < axes[axis].1.len() {
                break;
            }
            index[axis] = 0;
        }
    }
}
