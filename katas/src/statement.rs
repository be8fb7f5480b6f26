//! A kata's `README.md`, split into the parts the browser shows separately: the statement, the
//! hints (revealed one at a time) and the concept notes (unlocked once solved).
//!
//! Convention: `# Title`, then `## ` sections. Hints are the top-level list items of
//! `## Hints`; an item continues on following indented lines. A `README.zh.md` uses the same
//! layout with the Chinese headings of [`SECTIONS`]. The structure is read by pulldown-cmark
//! (CommonMark), so a `#` inside any kind of code block is never a heading; the sections keep
//! their Markdown source as written.

use crate::lang::Lang;
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Mutex, OnceLock, PoisonError};

/// Sections every statement must have, in this order.
pub const REQUIRED_SECTIONS: [&str; 7] = [
    "The question",
    "Task",
    "Constraints",
    "Examples",
    "Complexity",
    "Hints",
    "Concept",
];

/// Every section's heading in English and in Chinese, in [`REQUIRED_SECTIONS`] order. The
/// English heading is the section's name in code.
pub const SECTIONS: [(&str, &str); 7] = [
    ("The question", "面试题"),
    ("Task", "任务"),
    ("Constraints", "约束"),
    ("Examples", "示例"),
    ("Complexity", "复杂度"),
    ("Hints", "提示"),
    ("Concept", "原理"),
];

/// The heading of section `name` (its English heading) in `lang`; unknown names come back as given.
pub fn heading(name: &str, lang: Lang) -> &str {
    SECTIONS
        .iter()
        .find(|(en, _)| en.eq_ignore_ascii_case(name))
        .map_or(name, |&(en, zh)| match lang {
            Lang::En => en,
            Lang::Zh => zh,
        })
}

/// The English name of a heading written in either language (`提示` → `Hints`).
pub fn section_name(heading: &str) -> Option<&'static str> {
    SECTIONS
        .iter()
        .find(|(en, zh)| en.eq_ignore_ascii_case(heading) || *zh == heading)
        .map(|&(en, _)| en)
}

/// Whether `heading`, in either language, names the section `name`.
fn is_section(heading: &str, name: &str) -> bool {
    heading.eq_ignore_ascii_case(name) || section_name(heading).is_some_and(|n| n == name)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub title: String,
    /// What stands between the title and the first `##` section: empty in our function katas'
    /// statements, the whole problem in a free-form one (a stdin/stdout kata, an imported
    /// Kattis statement).
    pub preamble: String,
    /// `(heading, markdown body)` in file order, hints and concept included.
    pub sections: Vec<(String, String)>,
}

impl Statement {
    /// [`Statement::parse`] of a text kept for the whole process (a package compiled in, or a
    /// published one read once), parsed once: every page and listing reads it again.
    pub fn parse_static(markdown: &'static str) -> Self {
        type Parsed = Mutex<HashMap<(usize, usize), Statement>>;
        static PARSED: OnceLock<Parsed> = OnceLock::new();
        let parsed = || {
            PARSED
                .get_or_init(Default::default)
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        // A `'static` text never moves or changes: where it is names it.
        let key = (markdown.as_ptr() as usize, markdown.len());
        if let Some(statement) = parsed().get(&key) {
            return statement.clone();
        }
        let statement = Self::parse(markdown);
        parsed().insert(key, statement.clone());
        statement
    }

    pub fn parse(markdown: &str) -> Self {
        let mut title = String::new();
        // Each `##` heading's text and where it sits; a section's body runs to the next one.
        let mut headings: Vec<(String, Range<usize>)> = Vec::new();
        // The first `#` heading is the title, cut out of whichever section it falls in.
        let mut title_at = None;
        let mut open: Option<(HeadingLevel, String)> = None;
        for (event, range) in Parser::new(markdown).into_offset_iter() {
            match event {
                Event::Start(Tag::Heading { level, .. }) => open = Some((level, String::new())),
                Event::Text(t) if open.is_some() => {
                    open.as_mut().expect("checked").1.push_str(&t);
                }
                Event::Code(t) if open.is_some() => {
                    open.as_mut()
                        .expect("checked")
                        .1
                        .push_str(&format!("`{t}`"));
                }
                Event::End(TagEnd::Heading(_)) => match open.take() {
                    Some((HeadingLevel::H1, text)) if title_at.is_none() => {
                        title = text.trim().to_string();
                        title_at = Some(range);
                    }
                    Some((HeadingLevel::H2, text)) => {
                        headings.push((text.trim().to_string(), range))
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        let first_section = headings.first().map_or(markdown.len(), |(_, r)| r.start);
        let preamble_from = match &title_at {
            Some(t) if t.end <= first_section => t.end,
            _ => 0,
        };
        let preamble = markdown[preamble_from..first_section].trim().to_string();
        let ends: Vec<usize> = headings
            .iter()
            .skip(1)
            .map(|(_, r)| r.start)
            .chain([markdown.len()])
            .collect();
        let sections = headings
            .into_iter()
            .zip(ends)
            .map(|((heading, at), end)| {
                let body = match &title_at {
                    Some(t) if t.start >= at.end && t.end <= end => {
                        format!("{}{}", &markdown[at.end..t.start], &markdown[t.end..end])
                    }
                    _ => markdown[at.end..end].to_string(),
                };
                (heading, body.trim().to_string())
            })
            .collect();
        Self {
            title,
            preamble,
            sections,
        }
    }

    /// A section by its English name, whichever language the statement is written in.
    pub fn section(&self, name: &str) -> Option<&str> {
        let name = section_name(name).unwrap_or(name);
        self.sections
            .iter()
            .find(|(h, _)| is_section(h, name))
            .map(|(_, b)| b.as_str())
    }

    /// The hints, in order of reveal.
    pub fn hints(&self) -> Vec<String> {
        let Some(body) = self.section("Hints") else {
            return Vec::new();
        };
        let mut hints: Vec<String> = Vec::new();
        let mut depth = 0usize;
        for (event, range) in Parser::new(body).into_offset_iter() {
            match event {
                Event::Start(Tag::List(_)) => depth += 1,
                Event::End(TagEnd::List(_)) => depth -= 1,
                Event::Start(Tag::Item) if depth == 1 => {
                    // The item's source without its marker, its wrapped lines joined.
                    let source = body[range].trim_start();
                    let source = source.trim_start_matches(['-', '*', '+']).trim_start();
                    let mut hint = String::new();
                    for line in source.lines().map(str::trim).filter(|l| !l.is_empty()) {
                        join_wrapped(&mut hint, line);
                    }
                    hints.push(hint);
                }
                _ => {}
            }
        }
        hints
    }

    /// The concept notes, shown after the kata is solved.
    pub fn concept(&self) -> Option<&str> {
        self.section("Concept")
    }

    /// The statement a learner sees before solving: every section except hints and concept.
    pub fn public_markdown(&self) -> String {
        let mut out = format!("# {}\n\n", self.title);
        if !self.preamble.is_empty() {
            out.push_str(&format!("{}\n\n", self.preamble));
        }
        for (heading, body) in &self.sections {
            if is_section(heading, "Hints") || is_section(heading, "Concept") {
                continue;
            }
            out.push_str(&format!("## {heading}\n\n{body}\n\n"));
        }
        out
    }
}

/// Appends `next`, a continuation line of wrapped text, to `text`. English words are split at
/// spaces, so the line break becomes one; Chinese is written without spaces between characters
/// or around its full-width punctuation, so a break there joins without one (else `kata show
/// --lang zh` prints "的 部分和"). Between Chinese and Latin text the statements do write a
/// space, so that break keeps one.
pub fn join_wrapped(text: &mut String, next: &str) {
    let (Some(before), Some(after)) = (text.chars().next_back(), next.chars().next()) else {
        text.push_str(next);
        return;
    };
    let spaced = !(is_wide(before) && is_wide(after)
        || is_wide_punctuation(before)
        || is_wide_punctuation(after));
    if spaced {
        text.push(' ');
    }
    text.push_str(next);
}

/// Characters written without spaces between them: CJK ideographs, kana, Hangul, and the
/// full-width forms and punctuation.
fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}'
        | '\u{20000}'..='\u{3FFFD}')
}

/// Full-width punctuation (，。：；（）「」、…), which takes no space on either side.
fn is_wide_punctuation(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}'
        | '\u{FF3B}'..='\u{FF40}' | '\u{FF5B}'..='\u{FF65}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_text_parses_as_any_text_does_and_each_text_apart() {
        const A: &str = "# One\n\n## Task\nDo it.\n";
        const B: &str = "# Two\n\n## Task\nDo it again.\n";
        for _ in 0..2 {
            assert_eq!(Statement::parse_static(A), Statement::parse(A));
            assert_eq!(Statement::parse_static(B).title, "Two");
        }
    }

    #[test]
    fn a_free_form_statement_keeps_the_text_before_its_first_section() {
        let st = Statement::parse("# Sums\n\nRead `n`, then add.\n\n## Input\nTwo numbers.\n");
        assert_eq!(st.title, "Sums");
        assert_eq!(st.preamble, "Read `n`, then add.");
        assert_eq!(
            st.public_markdown(),
            "# Sums\n\nRead `n`, then add.\n\n## Input\n\nTwo numbers.\n\n"
        );
        assert_eq!(Statement::parse("# Only\n").preamble, "");
    }

    #[test]
    fn splits_sections_hints_and_ignores_headings_in_code() {
        let md = "# T\n\n## Task\nDo it.\n```\n## not a heading\n```\n## Hints\n- one\n  more\n- two\n## Concept\nIdea.\n";
        let s = Statement::parse(md);
        assert_eq!(s.title, "T");
        assert_eq!(
            s.section("task").unwrap(),
            "Do it.\n```\n## not a heading\n```"
        );
        assert_eq!(s.hints(), vec!["one more".to_string(), "two".to_string()]);
        assert_eq!(s.concept(), Some("Idea."));
        assert!(!s.public_markdown().contains("Idea."));
    }

    #[test]
    fn wrapped_chinese_hints_join_without_stray_spaces() {
        let md = "# 标题\n\n## 提示\n- 第 s+1 步要转发的\n  部分和，就是收到的缓冲区加上\n  (r − s − 1) mod N 的值。\n- 先相加，\n  (r + 1) mod N 再发出\n  去。\n- one\n  more\n";
        let hints = Statement::parse(md).hints();
        assert_eq!(
            hints,
            [
                "第 s+1 步要转发的部分和，就是收到的缓冲区加上 (r − s − 1) mod N 的值。",
                "先相加，(r + 1) mod N 再发出去。",
                "one more",
            ]
        );
    }

    #[test]
    fn any_code_block_hides_headings_and_a_late_title_is_cut_out() {
        let md = "## Task\n~~~\n## in a tilde fence\n~~~\n\n    ## indented code\n\n# Title\n\nAfter.\n## Hints\n* star item\n  - nested, part of it\n* `code` item\n";
        let s = Statement::parse(md);
        assert_eq!(s.title, "Title");
        assert_eq!(s.sections.len(), 2);
        let task = s.section("Task").unwrap();
        assert!(task.contains("## in a tilde fence") && task.contains("## indented code"));
        assert!(
            task.ends_with("After.") && !task.contains("# Title"),
            "{task}"
        );
        assert_eq!(s.hints(), ["star item - nested, part of it", "`code` item"]);
    }

    #[test]
    fn chinese_headings_name_the_same_sections() {
        let md = "# 标题\n\n## 任务\n做。\n## 提示\n- 一\n- 二\n## 原理\n想法。\n";
        let s = Statement::parse(md);
        assert_eq!(s.section("Task"), Some("做。"));
        assert_eq!(s.hints().len(), 2);
        assert_eq!(s.concept(), Some("想法。"));
        assert!(!s.public_markdown().contains("想法"));
        assert_eq!(heading("Hints", Lang::Zh), "提示");
        assert_eq!(heading("hints", Lang::En), "Hints");
    }
}
