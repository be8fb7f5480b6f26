//! Static checks of a stdin/stdout package (what `kata check` reports before anything runs).
//! Its statement is free-form — an imported Kattis statement keeps its own sections — so
//! only a title in each language is required; the rest of a function kata's rules (the
//! sections, hints, `todo!()` bodies) do not apply.

use super::{IoError, IoPackage};
use crate::layout;
use crate::lint::{Finding, MIN_WRONG, PLACEHOLDER};
use crate::statement::Statement;
use crate::verdict::Verdict;
use std::path::Path;

/// Verdicts a stdin/stdout package's `wrong/` program may be marked with.
pub const MARKABLE: [Verdict; 5] = [
    Verdict::WrongAnswer,
    Verdict::TimeLimitExceeded,
    Verdict::RuntimeError,
    Verdict::MemoryLimitExceeded,
    Verdict::OutputLimitExceeded,
];

/// Everything missing or malformed in the io package at `dir`; empty when complete.
pub fn lint(dir: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut add = |file: &str, problem: String| {
        findings.push(Finding {
            file: file.to_string(),
            problem,
        })
    };
    let package = match IoPackage::read_dir(dir) {
        Ok(package) => package,
        Err(e) => {
            let file = match &e {
                IoError::Meta(_) | IoError::NotIo | IoError::Flags(_) | IoError::Validator => {
                    layout::META_FILE
                }
                _ => super::DATA_DIR,
            };
            add(file, e.to_string());
            return findings;
        }
    };
    for file in [
        layout::META_FILE,
        layout::STATEMENT_FILE,
        layout::STATEMENT_ZH_FILE,
        layout::STARTER_FILE,
        layout::REFERENCE_FILE,
    ] {
        if package
            .files
            .text(file)
            .is_some_and(|t| t.contains(PLACEHOLDER))
        {
            add(file, format!("still has {PLACEHOLDER} placeholders"));
        }
    }
    if package.meta.summary_zh.trim().is_empty() {
        add(
            layout::META_FILE,
            "no `summary_zh`: the catalogue sentence in Chinese".into(),
        );
    }
    for file in [layout::STATEMENT_FILE, layout::STATEMENT_ZH_FILE] {
        match package.files.text(file) {
            None => add(file, "missing".into()),
            Some(text) if Statement::parse(text).title.is_empty() => {
                add(file, "no `# Title` line".into());
            }
            Some(_) => {}
        }
    }
    match package.starter() {
        None => add(layout::STARTER_FILE, "missing".into()),
        Some(text) if !text.contains("fn main(") => {
            add(
                layout::STARTER_FILE,
                "a program: it defines `fn main()`".into(),
            );
        }
        Some(_) => {}
    }
    match package.wrong() {
        Err(e) => add(layout::WRONG_DIR, e.to_string()),
        Ok(wrong) => {
            // A package written here proves its cases as any kata does; an imported one
            // (`source_format`) brings the Rust solutions its Kattis package had, maybe none.
            if package.decl.source_format.is_none() && wrong.len() < MIN_WRONG {
                add(
                    layout::WRONG_DIR,
                    format!(
                        "{} known-wrong programs; at least {MIN_WRONG} are needed",
                        wrong.len()
                    ),
                );
            }
            for known in wrong.iter().filter(|w| !MARKABLE.contains(&w.expected)) {
                add(
                    &format!("{}/{}.rs", layout::WRONG_DIR, known.name),
                    format!(
                        "marker must name one of {}",
                        MARKABLE.map(Verdict::as_str).join(", ")
                    ),
                );
            }
        }
    }
    findings
}
