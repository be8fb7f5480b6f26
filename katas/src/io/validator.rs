//! Kattis's default output validator, ours: the program's output and the answer file compared
//! token by token, case-insensitively unless `case_sensitive`, whitespace ignored unless
//! `space_change_sensitive`, and answer tokens that parse as decimals compared within
//! `float_*_tolerance` when one is set. Trusted code of ours, so it runs in the grader; an
//! instructor's custom validator never does (it runs in the sandbox).
//!
//! A failure says where the output differs and what it printed there, never what the answer
//! file holds: secret cases' answers stay secret.

use crate::spec::Message;

/// The default validator's flags, parsed from Kattis's words.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Flags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub relative: Option<f64>,
    pub absolute: Option<f64>,
}

/// A flag the default validator does not take, or a tolerance that is not a number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    #[error("unknown default-validator flag `{0}`")]
    Unknown(String),
    #[error("`{0}` needs a non-negative number after it")]
    Value(String),
    #[error("`{0}` is given twice, or together with `float_tolerance`")]
    Repeated(String),
}

impl Flags {
    pub fn parse(words: &[String]) -> Result<Self, FlagError> {
        let mut flags = Flags::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            match word.as_str() {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_relative_tolerance" | "float_absolute_tolerance" | "float_tolerance" => {
                    let value = words
                        .next()
                        .and_then(|v| v.parse::<f64>().ok())
                        .filter(|v| v.is_finite() && *v >= 0.0)
                        .ok_or_else(|| FlagError::Value(word.clone()))?;
                    let relative = word != "float_absolute_tolerance";
                    let absolute = word != "float_relative_tolerance";
                    if (relative && flags.relative.is_some())
                        || (absolute && flags.absolute.is_some())
                    {
                        return Err(FlagError::Repeated(word.clone()));
                    }
                    if relative {
                        flags.relative = Some(value);
                    }
                    if absolute {
                        flags.absolute = Some(value);
                    }
                }
                _ => return Err(FlagError::Unknown(word.clone())),
            }
        }
        Ok(flags)
    }

    fn has_tolerance(&self) -> bool {
        self.relative.is_some() || self.absolute.is_some()
    }
}

/// Kattis's whitespace: space, form feed, line feed, carriage return, tab, vertical tab.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | 0x0c | b'\n' | b'\r' | b'\t' | 0x0b)
}

/// A token and the whitespace before it.
type Token<'a> = (&'a [u8], &'a [u8]);

/// The file split into alternating runs: `(whitespace before, token)`, then the trailing
/// whitespace.
fn tokens(text: &[u8]) -> (Vec<Token<'_>>, &[u8]) {
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        let space_end = text[at..]
            .iter()
            .position(|&b| !is_space(b))
            .map_or(text.len(), |p| at + p);
        if space_end == text.len() {
            return (out, &text[at..]);
        }
        let token_end = text[space_end..]
            .iter()
            .position(|&b| is_space(b))
            .map_or(text.len(), |p| space_end + p);
        out.push((&text[at..space_end], &text[space_end..token_end]));
        at = token_end;
    }
}

/// A decimal as Kattis's grammar writes it: sign, digits with at most one point, an exponent;
/// `inf`, `nan` and hex are not numbers here.
fn decimal(token: &[u8]) -> Option<f64> {
    let text = std::str::from_utf8(token).ok()?;
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (significand, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let digits = significand.replacen('.', "", 1);
    let ok_significand = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let ok_exponent = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    (ok_significand && ok_exponent).then(|| text.parse().ok())?
}

fn shown(token: &[u8]) -> String {
    crate::report::trim(&String::from_utf8_lossy(token))
}

/// Where the `index`th token (counted from 1) stands in the output.
fn place(output: &[u8], token: &[u8]) -> usize {
    let offset = token.as_ptr() as usize - output.as_ptr() as usize;
    output[..offset].iter().filter(|&&b| b == b'\n').count() + 1
}

/// `Ok` when `output` is accepted against `answer`, else why not, in both languages.
pub fn compare(answer: &[u8], output: &[u8], flags: &Flags) -> Result<(), Message> {
    let (want, want_tail) = tokens(answer);
    let (got, got_tail) = tokens(output);
    for (i, ((want_space, want_token), (got_space, got_token))) in
        want.iter().zip(got.iter()).enumerate()
    {
        let n = i + 1;
        let line = place(output, got_token);
        if flags.space_change_sensitive && want_space != got_space {
            return Err(Message::new(
                format!("the whitespace before token {n} (line {line}) differs from the answer's"),
                format!("第 {n} 个词（第 {line} 行）之前的空白与答案不同"),
            ));
        }
        if let (true, Some(a)) = (flags.has_tolerance(), decimal(want_token)) {
            let Some(s) = decimal(got_token) else {
                return Err(Message::new(
                    format!(
                        "token {n} (line {line}) should be a number; the output has `{}`",
                        shown(got_token)
                    ),
                    format!(
                        "第 {n} 个词（第 {line} 行）应当是数；输出的是 `{}`",
                        shown(got_token)
                    ),
                ));
            };
            let error = (s - a).abs();
            let within = flags.absolute.is_some_and(|e| error <= e)
                || flags.relative.is_some_and(|e| error <= e * a.abs());
            if !within {
                return Err(Message::new(
                    format!(
                        "token {n} (line {line}), `{}`, is not within the tolerance of the answer",
                        shown(got_token)
                    ),
                    format!(
                        "第 {n} 个词（第 {line} 行）`{}` 与答案的差超出了允许的误差",
                        shown(got_token)
                    ),
                ));
            }
            continue;
        }
        let same = if flags.case_sensitive {
            want_token == got_token
        } else {
            want_token.eq_ignore_ascii_case(got_token)
        };
        if !same {
            return Err(Message::new(
                format!(
                    "token {n} (line {line}) differs from the answer: the output has `{}`",
                    shown(got_token)
                ),
                format!(
                    "第 {n} 个词（第 {line} 行）与答案不同：输出的是 `{}`",
                    shown(got_token)
                ),
            ));
        }
    }
    match want.len().cmp(&got.len()) {
        std::cmp::Ordering::Greater => Err(Message::new(
            format!(
                "the output ends after {} tokens; the answer has {}",
                got.len(),
                want.len()
            ),
            format!("输出只有 {} 个词，答案有 {} 个", got.len(), want.len()),
        )),
        std::cmp::Ordering::Less => Err(Message::new(
            format!(
                "the output goes on after the answer's {} tokens: `{}`",
                want.len(),
                shown(got[want.len()].1)
            ),
            format!(
                "答案只有 {} 个词，输出还多出了 `{}`",
                want.len(),
                shown(got[want.len()].1)
            ),
        )),
        std::cmp::Ordering::Equal if flags.space_change_sensitive && want_tail != got_tail => {
            Err(Message::new(
                "the whitespace at the end of the output differs from the answer's",
                "输出末尾的空白与答案不同",
            ))
        }
        std::cmp::Ordering::Equal => Ok(()),
    }
}

#[cfg(test)]
#[path = "validator_tests.rs"]
mod tests;
