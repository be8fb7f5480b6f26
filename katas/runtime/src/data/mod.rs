//! What a data-only kata's generated code calls: the stock checkers and how a value of the
//! vocabulary is compared and shown ([`Answer`], [`Shown`]), the statement's constraints as
//! refusals, case names and the seeded generator. In the crate learners' programs link, since
//! the generated logic is compiled into every submission; the declaration and the code
//! generator (authoring) stay in `katas::data`.

mod answer;

pub use crate::checker::{CheckerKind, Tolerance};
pub use answer::{Answer, Diff, Shown, floats_match};

use crate::spec::{Check, Message, Refusal};

/// The seeded generator the declared random groups draw from.
pub fn rng(seed: u64) -> fastrand::Rng {
    fastrand::Rng::with_seed(seed)
}

/// A case name from its template: `{i}` becomes the case's number within its group.
pub fn numbered(template: &str, i: u32) -> String {
    template.replace("{i}", &(i + 1).to_string())
}

/// Compares the learner's answer with the reference's under `checker`.
pub fn check<T: Answer>(
    checker: CheckerKind,
    tolerance: Option<Tolerance>,
    expected: &T,
    got: &T,
) -> Check {
    let tol = tolerance.unwrap_or(Tolerance { rel: 0.0, abs: 0.0 });
    let (diff, how) = match checker {
        CheckerKind::Exact => (expected.diff(got, tol), Sorted::No),
        CheckerKind::Multiset => (
            match (expected.sorted_items(), got.sorted_items()) {
                (Some(want), Some(have)) => want.diff(&have, tol),
                _ => expected.diff(got, tol),
            },
            Sorted::Elements,
        ),
        CheckerKind::Partition => (
            match (expected.sorted_groups(), got.sorted_groups()) {
                (Some(want), Some(have)) => want.diff(&have, tol),
                _ => expected.diff(got, tol),
            },
            Sorted::Groups,
        ),
    };
    match diff {
        None => Check::pass(),
        Some(d) => Check::fail(mismatch(&d.at, how), d.want, d.got),
    }
}

#[derive(Clone, Copy)]
enum Sorted {
    No,
    Elements,
    Groups,
}

fn mismatch(at: &str, how: Sorted) -> Message {
    let (en, zh) = match how {
        Sorted::No => ("", ""),
        Sorted::Elements => (
            " (both sorted: order does not matter)",
            "（两边均已排序：顺序无关）",
        ),
        Sorted::Groups => (
            " (each group sorted, then the groups: order does not matter)",
            "（各组内排序后再对组排序：顺序无关）",
        ),
    };
    if at.is_empty() {
        Message::new(format!("the answer is wrong{en}"), format!("答案不对{zh}"))
    } else {
        Message::new(
            format!("the answer differs at `answer{at}`{en}"),
            format!("答案在 `answer{at}` 处不同{zh}"),
        )
    }
}

/// A one-line summary of a case's arguments, in English and 中文 (long values cut short).
pub fn describe(args: &[(&str, &dyn Shown)]) -> Message {
    let mut en = Vec::new();
    let mut zh = Vec::new();
    for (name, value) in args {
        let head = value.head(4);
        match value.count() {
            Some(n) => {
                en.push(format!("{name}: {n} items {head}"));
                zh.push(format!("{name}：{n} 项 {head}"));
            }
            None => {
                en.push(format!("{name} = {head}"));
                zh.push(format!("{name} 为 {head}"));
            }
        }
    }
    Message::new(en.join(", "), zh.join("，"))
}

/// The same, for a kata with several entry points: which one the case calls, then its arguments.
pub fn describe_call(entry: &str, args: &[(&str, &dyn Shown)]) -> Message {
    let args = describe(args);
    let zh = args.zh.as_deref().unwrap_or(&args.en);
    Message::new(
        format!("`{entry}`: {}", args.en),
        format!("`{entry}`：{zh}"),
    )
}

/// An answer from another entry point than the one the case called: only a program that wrote
/// its own frames sends one, and it is simply wrong.
pub fn another_entry(expected: &str, got: &str) -> Check {
    Check::fail(
        Message::new(
            format!("the answer is `{got}`'s; the case called `{expected}`"),
            format!("答案来自 `{got}`；本用例调用的是 `{expected}`"),
        ),
        format!("an answer of `{expected}`"),
        format!("an answer of `{got}`"),
    )
}

/// An integer argument within the statement's `lo..=hi`.
pub fn int_within(
    at: impl FnOnce() -> String,
    value: i128,
    lo: i128,
    hi: i128,
) -> Result<(), Refusal> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    let at = at();
    Err(Refusal::new(
        format!("`{at}` is {value}; the statement allows {lo} to {hi}"),
        format!("`{at}` 为 {value}；题目允许的范围是 {lo} 到 {hi}"),
    ))
}

/// A float argument: finite and within the statement's `lo..=hi`.
pub fn float_within(
    at: impl FnOnce() -> String,
    value: f64,
    lo: f64,
    hi: f64,
) -> Result<(), Refusal> {
    if value.is_finite() && (lo..=hi).contains(&value) {
        return Ok(());
    }
    let at = at();
    Err(Refusal::new(
        format!("`{at}` is {value:?}; the statement allows {lo:?} to {hi:?}"),
        format!("`{at}` 为 {value:?}；题目允许的范围是 {lo:?} 到 {hi:?}"),
    ))
}

/// A float argument with no declared range: any finite number.
pub fn float_finite(at: impl FnOnce() -> String, value: f64) -> Result<(), Refusal> {
    if value.is_finite() {
        return Ok(());
    }
    let at = at();
    Err(Refusal::new(
        format!("`{at}` is {value:?}; custom input takes finite numbers only"),
        format!("`{at}` 为 {value:?}；自定义输入只接受有限数"),
    ))
}

/// A `Vec`'s or a `String`'s length within the statement's `lo..=hi`.
pub fn len_within(
    at: impl FnOnce() -> String,
    len: usize,
    lo: u64,
    hi: u64,
) -> Result<(), Refusal> {
    if (lo..=hi).contains(&(len as u64)) {
        return Ok(());
    }
    let at = at();
    Err(Refusal::new(
        format!("`{at}` has {len} items; the statement allows {lo} to {hi}"),
        format!("`{at}` 有 {len} 项；题目允许 {lo} 到 {hi} 项"),
    ))
}

/// A string made only of the statement's characters.
pub fn chars_within(
    at: impl FnOnce() -> String,
    value: &str,
    allowed: &str,
) -> Result<(), Refusal> {
    match value.chars().find(|c| !allowed.contains(*c)) {
        None => Ok(()),
        Some(c) => {
            let at = at();
            Err(Refusal::new(
                format!("`{at}` holds {c:?}; the statement allows only {allowed:?}"),
                format!("`{at}` 含有 {c:?}；题目只允许 {allowed:?} 中的字符"),
            ))
        }
    }
}
