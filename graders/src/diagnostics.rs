//! rustc's `--error-format=json` messages, reduced to what a learner needs: where in *their*
//! file, what, and the rendered text.

use crate::source::LEARNER_FILE;
use katas::Message;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// `error`, `warning`, ...
    pub level: String,
    /// e.g. `E0308`.
    pub code: Option<String>,
    /// rustc's or NVRTC's words (not translated); where we say an error again in the learner's
    /// terms (an entry point missing from their file), ours in English and 中文.
    #[serde(flatten)]
    pub message: Message,
    /// Position in the learner's file; `None` when the problem is not in it (e.g. a missing
    /// entry point, reported against the generated runner).
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub end_line: Option<u32>,
    pub end_column: Option<u32>,
    /// rustc's own rendering, with paths inside the sandbox.
    pub rendered: String,
    /// What rustc says at each place in the learner's file, the primary place first: e.g.
    /// "expected `u32`, found `&str`" under "mismatched types".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(rename = "$message_type", default)]
    message_type: String,
    message: String,
    code: Option<RawCode>,
    level: String,
    spans: Vec<RawSpan>,
    rendered: Option<String>,
}

#[derive(Deserialize)]
struct RawCode {
    code: String,
}

#[derive(Deserialize)]
struct RawSpan {
    file_name: String,
    line_start: u32,
    line_end: u32,
    column_start: u32,
    column_end: u32,
    is_primary: bool,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    text: Vec<RawText>,
}

/// A source line of a span, with the 1-based character columns it highlights.
#[derive(Deserialize)]
struct RawText {
    text: String,
    highlight_start: usize,
    highlight_end: usize,
}

impl RawSpan {
    /// The highlighted source of a one-line span (e.g. `solution::power`).
    fn highlighted(&self) -> Option<String> {
        let line = self.text.first()?;
        let chars = line.highlight_end.checked_sub(line.highlight_start)?;
        Some(
            line.text
                .chars()
                .skip(line.highlight_start.checked_sub(1)?)
                .take(chars)
                .collect(),
        )
    }
}

/// Parses rustc's stderr (one JSON object a line); lines that are not diagnostics are skipped.
pub fn parse(stderr: &str) -> Vec<Diagnostic> {
    bounded(parse_all(stderr))
}

/// The most diagnostics a report keeps: a few lines of source can expand (macros) into
/// thousands of them, and the report is stored.
pub const MAX_DIAGNOSTICS: usize = 50;
/// The most bytes of text the kept diagnostics hold together…
pub const MAX_DIAGNOSTIC_BYTES: usize = 64 << 10;
/// …and one rendering at most.
const MAX_RENDERED_BYTES: usize = 4 << 10;

/// The first diagnostics within [`MAX_DIAGNOSTICS`] and [`MAX_DIAGNOSTIC_BYTES`], each
/// rendering cut to [`MAX_RENDERED_BYTES`], and a note saying how many were left out.
fn bounded(all: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let total = all.len();
    let mut kept = Vec::new();
    let mut bytes = 0;
    for mut d in all {
        cut(&mut d.rendered, MAX_RENDERED_BYTES);
        let size = d.rendered.len()
            + d.message.en.len()
            + d.message.zh.as_ref().map_or(0, String::len)
            + d.labels.iter().map(String::len).sum::<usize>();
        if kept.len() == MAX_DIAGNOSTICS || bytes + size > MAX_DIAGNOSTIC_BYTES {
            break;
        }
        bytes += size;
        kept.push(d);
    }
    let left_out = total - kept.len();
    if left_out > 0 {
        kept.push(Diagnostic {
            level: "note".into(),
            code: None,
            message: Message::new(
                format!("{left_out} more compiler messages are not shown (the first are above)"),
                format!("另有 {left_out} 条编译器消息未显示（上面是最先的几条）"),
            ),
            line: None,
            column: None,
            end_line: None,
            end_column: None,
            rendered: String::new(),
            labels: Vec::new(),
        });
    }
    kept
}

/// `text` cut to at most `max` bytes, on a character boundary.
fn cut(text: &mut String, max: usize) {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
}

fn parse_all(stderr: &str) -> Vec<Diagnostic> {
    stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<Raw>(l).ok())
        .filter(|r| r.message_type.is_empty() || r.message_type == "diagnostic")
        .filter(|r| r.level != "failure-note")
        .map(|r| {
            let span = r
                .spans
                .iter()
                .find(|s| s.is_primary && s.file_name.ends_with(LEARNER_FILE));
            let mut message = Message::verbatim(r.message.clone());
            if span.is_none() {
                let snippet = r
                    .spans
                    .iter()
                    .find(|s| s.is_primary)
                    .and_then(RawSpan::highlighted);
                message = explain_runner_error(&r.message, snippet.as_deref());
            }
            let mut labels: Vec<String> = Vec::new();
            let mine = r
                .spans
                .iter()
                .filter(|s| s.file_name.ends_with(LEARNER_FILE));
            for s in mine
                .clone()
                .filter(|s| s.is_primary)
                .chain(mine.filter(|s| !s.is_primary))
            {
                if let Some(l) = s
                    .label
                    .as_ref()
                    .filter(|l| !l.is_empty() && !labels.contains(l))
                {
                    labels.push(l.clone());
                }
            }
            Diagnostic {
                level: r.level,
                code: r.code.map(|c| c.code),
                message,
                line: span.map(|s| s.line_start),
                column: span.map(|s| s.column_start),
                end_line: span.map(|s| s.line_end),
                end_column: span.map(|s| s.column_end),
                rendered: r.rendered.unwrap_or_default(),
                labels,
            }
        })
        .collect()
}

/// Errors in the generated runner mean the learner's file lacks what the kata asks for:
/// rustc words them about the runner (`cannot find value `power` in module `solution``), so
/// they are said again about the learner's file. `snippet` is what the runner's span covers.
fn explain_runner_error(message: &str, snippet: Option<&str>) -> Message {
    let quoted = |prefix: &str| {
        message
            .strip_prefix(prefix)
            .and_then(|rest| rest.split('`').next())
            .filter(|name| !name.is_empty())
    };
    if let Some(name) = quoted("cannot find function `").or_else(|| quoted("cannot find value `")) {
        return Message::new(
            format!(
                "your file must define `pub fn {name}(...)` with the signature the statement \
                 gives (it has no `{name}`: {message})"
            ),
            format!(
                "你的文件必须按题面给出的签名定义 `pub fn {name}(...)`（文件里没有 `{name}`：\
                 {message}）"
            ),
        );
    }
    if let Some(name) = quoted("function `").filter(|_| message.ends_with("is private")) {
        return Message::new(
            format!("`{name}` must be public: write `pub fn {name}(...)` in your file ({message})"),
            format!("`{name}` 必须是公开的：在你的文件里写 `pub fn {name}(...)`（{message}）"),
        );
    }
    if message == "mismatched types"
        && let Some(name) = snippet.and_then(|s| s.strip_prefix("solution::"))
    {
        return Message::new(
            format!(
                "`{name}` in your file must be a `pub fn` with exactly the signature the \
                 statement gives: same parameter and return types, no generics ({message})"
            ),
            format!(
                "你文件里的 `{name}` 必须是签名与题面完全一致的 `pub fn`：参数和返回类型相同，\
                 不带泛型（{message}）"
            ),
        );
    }
    Message::verbatim(message)
}

/// NVRTC's log for a GPU kata's `KERNEL`, as diagnostics on the learner's own lines:
/// `kernel.cu(N)` is line N of the string, whose first line is the one holding `KERNEL`'s
/// opening quote.
pub fn from_nvrtc(log: &str, source: &str) -> Vec<Diagnostic> {
    let first = kernel_first_line(source);
    let mut found: Vec<Diagnostic> = Vec::new();
    for text in log.lines() {
        let Some((line, level, message)) = nvrtc_line(text) else {
            // Context lines (the source line, the caret) belong to the message above.
            if let Some(last) = found.last_mut()
                && !text.trim().is_empty()
            {
                last.rendered.push('\n');
                last.rendered.push_str(text);
            }
            continue;
        };
        let line = first.map(|f| f + line - 1);
        found.push(Diagnostic {
            level,
            code: None,
            message: Message::verbatim(message),
            line,
            column: None,
            end_line: line,
            end_column: None,
            rendered: text.to_string(),
            labels: Vec::new(),
        });
    }
    found
}

/// `kernel.cu(12): error: identifier "x" is undefined` → (12, "error", message).
fn nvrtc_line(text: &str) -> Option<(u32, String, String)> {
    let rest = text
        .strip_prefix(katas::gpu::nvrtc::SOURCE_NAME)?
        .strip_prefix('(')?;
    let (line, rest) = rest.split_once("): ")?;
    let (level, message) = rest.split_once(": ")?;
    let level = if level.contains("error") {
        "error"
    } else {
        "warning"
    };
    Some((line.parse().ok()?, level.to_string(), message.to_string()))
}

/// The 1-based line of the learner's file where the `KERNEL` string begins.
fn kernel_first_line(source: &str) -> Option<u32> {
    let decl = source.find("const KERNEL")?;
    let quote = decl + source[decl..].find('"')?;
    Some(source[..quote].matches('\n').count() as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_of_diagnostics_is_bounded_by_count_and_bytes() {
        let line = |i: usize| {
            serde_json::json!({
                "$message_type": "diagnostic",
                "message": format!("flood {i} {}", "x".repeat(300)),
                "level": "error",
                "spans": [],
                "rendered": format!("error: flood {i}\n{}", "y".repeat(10_000)),
            })
            .to_string()
        };
        let stderr: Vec<String> = (0..1_000).map(line).collect();
        let kept = parse(&stderr.join("\n"));
        assert!(kept.len() <= MAX_DIAGNOSTICS + 1, "{}", kept.len());
        let note = kept.last().unwrap();
        assert_eq!(note.level, "note");
        assert!(
            note.message
                .en
                .contains("more compiler messages are not shown")
        );
        let stored = serde_json::to_string(&kept).unwrap();
        assert!(
            stored.len() < MAX_DIAGNOSTIC_BYTES + (16 << 10),
            "{} bytes",
            stored.len()
        );
        assert!(
            kept[0].message.en.starts_with("flood 0"),
            "the first ones are kept"
        );
        let few = parse(&stderr[..3].join("\n"));
        assert_eq!(few.len(), 3, "nothing is added when nothing was left out");
    }

    #[test]
    fn keeps_learner_positions_and_explains_missing_entry_points() {
        let stderr = concat!(
            r#"{"$message_type":"diagnostic","message":"mismatched types","code":{"code":"E0308","explanation":null},"level":"error","spans":[{"file_name":"/build/solution.rs","byte_start":1,"byte_end":2,"line_start":7,"line_end":7,"column_start":5,"column_end":9,"is_primary":true,"text":[],"label":"expected `u32`, found `&str`","suggested_replacement":null,"suggestion_applicability":null,"expansion":null},{"file_name":"/build/solution.rs","byte_start":1,"byte_end":2,"line_start":6,"line_end":6,"column_start":5,"column_end":9,"is_primary":false,"text":[],"label":"expected `u32` because of return type","suggested_replacement":null,"suggestion_applicability":null,"expansion":null}],"children":[],"rendered":"error[E0308]: mismatched types\n"}"#,
            "\n",
            r#"{"$message_type":"diagnostic","message":"cannot find function `pow_mod` in module `solution`","code":{"code":"E0425","explanation":null},"level":"error","spans":[{"file_name":"/build/main.rs","byte_start":1,"byte_end":2,"line_start":5,"line_end":5,"column_start":5,"column_end":9,"is_primary":true,"text":[],"label":null,"suggested_replacement":null,"suggestion_applicability":null,"expansion":null}],"children":[],"rendered":"error[E0425]"}"#,
            "\nnot json\n"
        );
        let d = parse(stderr);
        assert_eq!(d.len(), 2);
        assert_eq!(
            (d[0].line, d[0].column, d[0].code.as_deref()),
            (Some(7), Some(5), Some("E0308"))
        );
        assert_eq!(
            d[0].labels,
            [
                "expected `u32`, found `&str`",
                "expected `u32` because of return type"
            ]
        );
        assert_eq!(d[1].line, None);
        assert!(
            d[1].message
                .en
                .contains("must define `pub fn pow_mod(...)`"),
            "{}",
            d[1].message
        );
    }

    #[test]
    fn the_runner_s_errors_are_said_about_the_learner_s_file() {
        // As rustc 1.95 words them when `solution.rs` lacks, hides or mistypes an entry point.
        let missing =
            explain_runner_error("cannot find value `pow_mod` in module `solution`", None);
        assert!(
            missing
                .en
                .starts_with("your file must define `pub fn pow_mod(...)`"),
            "{missing}"
        );
        let private = explain_runner_error("function `pow_mod` is private", None);
        assert!(
            private.en.starts_with("`pow_mod` must be public"),
            "{private}"
        );
        assert!(
            private
                .in_lang(katas::Lang::Zh)
                .starts_with("`pow_mod` 必须是公开的"),
            "{private:?}"
        );
        let typed = explain_runner_error("mismatched types", Some("solution::power"));
        assert!(
            typed
                .en
                .starts_with("`power` in your file must be a `pub fn` with exactly"),
            "{typed}"
        );
        assert_eq!(
            explain_runner_error("mismatched types", None),
            Message::verbatim("mismatched types"),
            "rustc's own words stay as rustc wrote them"
        );
        let stderr = r#"{"$message_type":"diagnostic","message":"mismatched types","code":{"code":"E0308","explanation":null},"level":"error","spans":[{"file_name":"/build/main.rs","byte_start":150,"byte_end":165,"line_start":5,"line_end":5,"column_start":66,"column_end":81,"is_primary":true,"text":[{"text":"    katas::problems::fast_power::serve(katas::problems::fast_power::Solution { power: solution::power });","highlight_start":87,"highlight_end":102}],"label":"expected fn pointer, found fn item","suggested_replacement":null,"suggestion_applicability":null,"expansion":null}],"children":[],"rendered":"error[E0308]: mismatched types\n"}"#;
        let d = parse(stderr);
        assert!(
            d[0].message.en.starts_with("`power` in your file"),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn nvrtc_errors_land_on_the_learner_s_lines() {
        let source = "use katas::gpu::Launch;\n\npub const KERNEL: &str = r#\"\nextern \"C\" __global__ void k() {\n    x = 1;\n}\n\"#;\n";
        let log = "kernel.cu(3): error: identifier \"x\" is undefined\n      x = 1;\n      ^\n\n1 error detected in the compilation of \"kernel.cu\".";
        let found = from_nvrtc(log, source);
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert_eq!((d.level.as_str(), d.line), ("error", Some(5)));
        assert_eq!(d.message.en, "identifier \"x\" is undefined");
        assert!(d.rendered.contains('^'), "{}", d.rendered);
        assert_eq!(&source.lines().nth(4).unwrap().trim(), &"x = 1;");
        // Not NVRTC's format, or no KERNEL: nothing positioned.
        assert!(from_nvrtc("KERNEL must define `k`", source).is_empty());
        assert_eq!(from_nvrtc(log, "fn main() {}")[0].line, None);
    }
}
