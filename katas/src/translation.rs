//! Keeps a translated statement (`README.zh.md`) from drifting from the English one: the prose
//! is free, but everything a learner could act on must match exactly — the sections and their
//! order, the number of hints, every code block, every backticked value or identifier, and the
//! rows of every table.

use crate::lang::Lang;
use crate::statement::{SECTIONS, Statement, heading, section_name};
use std::collections::BTreeSet;

/// What differs between the English statement `en` and its translation `zh`; empty when the
/// translation says the same things.
pub fn compare(en: &str, zh: &str) -> Vec<String> {
    let (en_st, zh_st) = (Statement::parse(en), Statement::parse(zh));
    let mut problems = Vec::new();
    if zh_st.title.is_empty() {
        problems.push("no `# Title` line".to_string());
    }
    for (h, _) in &zh_st.sections {
        match section_name(h) {
            Some(name) if heading(name, Lang::Zh) == h => {}
            Some(name) => problems.push(format!(
                "heading `## {h}` should be `## {}`",
                heading(name, Lang::Zh)
            )),
            None => problems.push(format!(
                "heading `## {h}` is none of {}",
                SECTIONS.map(|(_, zh)| zh).join(", ")
            )),
        }
    }
    let names = |st: &Statement| -> Vec<String> {
        st.sections
            .iter()
            .map(|(h, _)| section_name(h).unwrap_or(h).to_string())
            .collect()
    };
    if names(&en_st) != names(&zh_st) {
        problems.push(format!(
            "sections {:?} differ from the English {:?}",
            names(&zh_st),
            names(&en_st)
        ));
        return problems;
    }
    let (en_hints, zh_hints) = (en_st.hints().len(), zh_st.hints().len());
    if en_hints != zh_hints {
        problems.push(format!("{zh_hints} hints where the English has {en_hints}"));
    }
    for ((name, en_body), (_, zh_body)) in en_st.sections.iter().zip(&zh_st.sections) {
        let at = heading(name, Lang::Zh);
        let (en_blocks, zh_blocks) = (code_blocks(en_body), code_blocks(zh_body));
        if en_blocks != zh_blocks {
            problems.push(format!(
                "`## {at}`: its code blocks differ from the English ones ({} vs {})",
                zh_blocks.len(),
                en_blocks.len()
            ));
        }
        let (en_spans, zh_spans) = (inline_code(en_body), inline_code(zh_body));
        let missing: Vec<&String> = en_spans.difference(&zh_spans).collect();
        let extra: Vec<&String> = zh_spans.difference(&en_spans).collect();
        if !missing.is_empty() {
            problems.push(format!("`## {at}`: lacks the English {missing:?}"));
        }
        if !extra.is_empty() {
            problems.push(format!("`## {at}`: has {extra:?}, not in the English"));
        }
        let (en_rows, zh_rows) = (table_rows(en_body), table_rows(zh_body));
        if en_rows != zh_rows {
            problems.push(format!(
                "`## {at}`: {zh_rows} table rows where the English has {en_rows}"
            ));
        }
    }
    problems
}

/// Fenced code blocks, fences included, in order.
fn code_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut current, fence) {
            (None, true) => current = Some(format!("{}\n", line.trim())),
            (Some(block), true) => {
                block.push_str(line.trim());
                blocks.extend(current.take());
            }
            (Some(block), false) => {
                block.push_str(line.trim_end());
                block.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks.extend(current);
    blocks
}

/// The contents of inline code spans outside fenced blocks (`` `n` `` → `n`).
fn inline_code(markdown: &str) -> BTreeSet<String> {
    let mut spans = BTreeSet::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find('`') {
            let ticks = rest[start..].len() - rest[start..].trim_start_matches('`').len();
            let after = &rest[start + ticks..];
            let fence = "`".repeat(ticks);
            let Some(end) = after.find(&fence) else {
                break;
            };
            spans.insert(after[..end].trim().to_string());
            rest = &after[end + ticks..];
        }
    }
    spans
}

/// Lines that open and close with `|` (prose may start a line with `|n|`).
fn table_rows(markdown: &str) -> usize {
    markdown
        .lines()
        .map(str::trim)
        .filter(|l| l.len() > 1 && l.starts_with('|') && l.ends_with('|'))
        .count()
}

#[cfg(test)]
mod tests {
    use super::compare;

    const EN: &str = "# Power\n\n## Task\n\nCall `power(x, n)`.\n\n```rust\nfn power();\n```\n\n## Examples\n\n| call | result |\n|---|---|\n| `power(2.0, 10)` | `1024.0` |\n\n## Hints\n\n- Halve `n`.\n- Square.\n";
    const ZH: &str = "# 快速幂\n\n## 任务\n\n调用 `power(x, n)`。\n\n```rust\nfn power();\n```\n\n## 示例\n\n| 调用 | 结果 |\n|---|---|\n| `power(2.0, 10)` | `1024.0` |\n\n## 提示\n\n- 把 `n` 减半。\n- 平方。\n";

    #[test]
    fn a_faithful_translation_passes() {
        assert_eq!(compare(EN, ZH), Vec::<String>::new());
    }

    #[test]
    fn drift_is_reported() {
        let changed_value = ZH.replace("`1024.0`", "`1024`");
        assert!(
            compare(EN, &changed_value)
                .iter()
                .any(|p| p.contains("1024"))
        );
        let lost_hint = ZH.replace("- 平方。\n", "");
        assert!(compare(EN, &lost_hint).iter().any(|p| p.contains("hints")));
        let changed_code = ZH.replace("fn power();", "fn power(x: f64);");
        assert!(
            compare(EN, &changed_code)
                .iter()
                .any(|p| p.contains("code blocks"))
        );
        let english_heading = ZH.replace("## 任务", "## Task");
        assert!(
            compare(EN, &english_heading)
                .iter()
                .any(|p| p.contains("任务"))
        );
        let missing_section = ZH.replace("## 示例", "示例");
        assert!(
            compare(EN, &missing_section)
                .iter()
                .any(|p| p.contains("sections"))
        );
        let lost_row = ZH.replace("| `power(2.0, 10)` | `1024.0` |\n", "");
        assert!(!compare(EN, &lost_row).is_empty());
    }
}
