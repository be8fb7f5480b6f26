//! The statement of an imported kata: the Kattis statement (Markdown as written, LaTeX through
//! [`super::latex`]) placed in the sections the package lint requires ([`REQUIRED_SECTIONS`]):
//! the text before the first heading is "The question", the rest "Task" with its headings one
//! level down; constraints, samples, complexity, hints and concept are written from the
//! package. `README.zh.md` has the same sections under their Chinese headings, a note in
//! Chinese first, then the English text, so `translation::compare` finds them in step.

use super::KattisError;
use super::latex;
use super::tree::Tree;
use crate::lang::Lang;
use crate::statement::{REQUIRED_SECTIONS, heading};

/// The original statement, split.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source {
    pub title: Option<String>,
    /// Text before the first heading.
    pub intro: String,
    /// The rest, headings already one level down (`## Input` → `### Input`).
    pub body: String,
}

/// Finds and reads the English statement under `dir` (`statement/` or `problem_statement/`).
pub fn read_source(
    tree: &Tree<'_>,
    dirs: [&str; 2],
    constants: &[(String, String)],
) -> Result<Source, KattisError> {
    let Some(dir) = dirs
        .into_iter()
        .find(|d| tree.kind(d).ok().flatten() == Some(true))
    else {
        return Err(KattisError::invalid(
            dirs[0],
            "missing: no statement folder",
        ));
    };
    for name in [
        "problem.en.md",
        "problem.md",
        "problem.en.tex",
        "problem.tex",
    ] {
        let rel = format!("{dir}/{name}");
        if tree.kind(&rel)? != Some(false) {
            continue;
        }
        let mut text = tree.read_text(&rel)?;
        for (key, value) in constants {
            text = text.replace(&format!("{{{{{key}}}}}"), value);
        }
        return Ok(if name.ends_with(".md") {
            split_markdown(&text)
        } else {
            let converted = latex::to_markdown(&text);
            Source {
                title: converted.title.clone(),
                ..split_markdown(&converted.markdown)
            }
        });
    }
    Err(KattisError::unsupported(
        dir,
        "no English statement: problem.en.md or problem.en.tex (a PDF cannot be converted)",
    ))
}

/// Splits Markdown into title (a leading `# …`), intro and body, moving the body's headings
/// one level down. Fenced code is left alone.
pub fn split_markdown(markdown: &str) -> Source {
    let mut source = Source::default();
    let (mut fence, mut seen_heading, mut seen_text) = (None::<String>, false, false);
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if let Some(open) = &fence {
            if trimmed.starts_with(open.as_str()) {
                fence = None;
            }
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            let marks: String = trimmed
                .chars()
                .take_while(|&c| c == '`' || c == '~')
                .collect();
            fence = Some(marks);
        } else if let Some(level) = heading_level(trimmed) {
            if level == 1 && !seen_heading && !seen_text && source.title.is_none() {
                source.title = Some(trimmed[1..].trim().to_string());
                continue;
            }
            seen_heading = true;
            let deeper = if level < 6 { "#" } else { "" };
            source.body.push_str(&format!("{deeper}{trimmed}\n"));
            continue;
        }
        seen_text |= !line.trim().is_empty();
        let part = if seen_heading {
            &mut source.body
        } else {
            &mut source.intro
        };
        part.push_str(line);
        part.push('\n');
    }
    source.intro = source.intro.trim().to_string();
    source.body = source.body.trim().to_string();
    source
}

/// The level of an ATX heading line.
fn heading_level(line: &str) -> Option<usize> {
    let level = line.chars().take_while(|&c| c == '#').count();
    let after = line[level..].chars().next();
    ((1..=6).contains(&level) && after.is_none_or(|c| c == ' ' || c == '\t')).then_some(level)
}

/// A code fence longer than any run of backticks in `text`.
pub fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// Everything the generated sections say.
#[derive(Debug, Clone)]
pub struct Parts<'a> {
    pub title: &'a str,
    pub source: &'a Source,
    pub scoring: bool,
    pub case_time_ms: u64,
    pub total_time_ms: u64,
    pub memory_mb: u64,
    pub output_kb: u64,
    pub cases: usize,
    /// `(name, input, answer)` for the samples shown.
    pub samples: &'a [(String, String, String)],
    /// How answers are compared, in words.
    pub checking: String,
    pub origin: String,
}

/// The sections in [`REQUIRED_SECTIONS`] order: `(English name, body)`.
fn sections(p: &Parts<'_>) -> Vec<(&'static str, String)> {
    let question = if p.source.intro.is_empty() {
        "The original statement starts with its input section below.".to_string()
    } else {
        p.source.intro.clone()
    };
    let mut task = p.source.body.clone();
    if p.scoring {
        task.push_str(
            "\n\n*This problem is scored on the original judge; here every case must pass.*",
        );
    }
    if task.trim().is_empty() {
        task = "Read the input from standard input and write the answer to standard output.".into();
    }
    let constraints = format!(
        "- Time: {} ms per case; {} ms for all {} cases together.\n\
         - Memory: {} MiB. Output: at most {} KiB.\n\
         - A submission is a whole Rust program: `fn main` reads standard input and writes \
         standard output.\n\
         - The bounds on the input are the ones the task states.",
        p.case_time_ms, p.total_time_ms, p.cases, p.memory_mb, p.output_kb
    );
    let examples = if p.samples.is_empty() {
        "The package has no sample cases.".to_string()
    } else {
        p.samples
            .iter()
            .map(|(name, input, answer)| {
                let (fi, fa) = (fence_for(input), fence_for(answer));
                format!(
                    "### Sample {name}\n\nInput:\n\n{fi}\n{}\n{fi}\n\nAnswer:\n\n{fa}\n{}\n{fa}",
                    input.trim_end_matches('\n'),
                    answer.trim_end_matches('\n')
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    let complexity = format!(
        "The original problem names no complexity: any program that answers every case within \
         {} ms passes.",
        p.case_time_ms
    );
    let hints = format!(
        "- Read all of standard input at once (`std::io::read_to_string(std::io::stdin())`) \
         and split it at whitespace.\n\
         - Collect the output in one `String` (or a `std::io::BufWriter`) and write it once: \
         many small writes are slow.\n\
         - {}",
        p.checking
    );
    let concept = format!(
        "{} The statement is the original one; the samples come from `data/sample`.",
        p.origin
    );
    let bodies = [
        question,
        task,
        constraints,
        examples,
        complexity,
        hints,
        concept,
    ];
    REQUIRED_SECTIONS.into_iter().zip(bodies).collect()
}

/// `README.md` and `README.zh.md`.
pub fn render(p: &Parts<'_>) -> (String, String) {
    let sections = sections(p);
    let mut en = format!("# {}\n", p.title);
    let mut zh = en.clone();
    for (i, (name, body)) in sections.iter().enumerate() {
        en.push_str(&format!("\n## {}\n\n{}\n", heading(name, Lang::En), body));
        let note = if i == 0 {
            "本题从 Kattis 题目包导入，题面只有英文原文，以下照录。\n\n"
        } else {
            ""
        };
        zh.push_str(&format!(
            "\n## {}\n\n{note}{}\n",
            heading(name, Lang::Zh),
            body
        ));
    }
    (en, zh)
}

/// The catalogue sentence: the statement's first sentence as plain text, at most 200 characters.
pub fn summary(source: &Source) -> String {
    let text = if source.intro.is_empty() {
        &source.body
    } else {
        &source.intro
    };
    let plain: String = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("*(") && !l.starts_with('#') && !l.starts_with("```"))
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['*', '`', '\\'], "");
    let plain = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = plain.chars().collect();
    let end = chars
        .iter()
        .enumerate()
        .position(|(i, c)| {
            matches!(c, '.' | '?' | '!') && chars.get(i + 1).is_none_or(|n| n.is_whitespace())
        })
        .map_or(chars.len(), |i| i + 1);
    let sentence: String = chars[..end].iter().collect();
    match sentence.chars().count() {
        0 => "Imported from a Kattis problem package.".to_string(),
        n if n > 200 => format!("{}…", sentence.chars().take(199).collect::<String>()),
        _ => sentence,
    }
}

/// The starter: a whole program that reads the input and stops at a `todo!`.
pub const STARTER: &str = r#"//! Read the whole input from standard input and write the answer to standard output.

use std::io::{self, Read as _, Write as _};

pub fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read standard input");
    let answer = solve(&input);
    io::stdout().write_all(answer.as_bytes()).expect("write standard output");
}

fn solve(input: &str) -> String {
    let _tokens: Vec<&str> = input.split_ascii_whitespace().collect();
    todo!("compute the answer from the input's tokens")
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_splits_into_title_intro_and_demoted_body() {
        let md = "# Name\n\nFirst. Second.\n\n## Input\n\n```\n# not a heading\n```\n### Deep\n";
        let s = split_markdown(md);
        assert_eq!(s.title.as_deref(), Some("Name"));
        assert_eq!(s.intro, "First. Second.");
        assert_eq!(s.body, "### Input\n\n```\n# not a heading\n```\n#### Deep");
        assert_eq!(summary(&s), "First.");
    }

    #[test]
    fn summaries_are_plain_and_short() {
        let s = Source {
            intro: "*(illustration: x)*\nCompute $1.5 \\cdot n$ for **each** `n`! More.".into(),
            ..Source::default()
        };
        assert_eq!(summary(&s), "Compute $1.5 cdot n$ for each n!");
        let long = Source {
            intro: "word ".repeat(100),
            ..Source::default()
        };
        assert_eq!(summary(&long).chars().count(), 200);
    }
}
