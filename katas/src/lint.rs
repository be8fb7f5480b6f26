//! Static checks of a package folder read from disk: what `kata check` reports before anything
//! runs, and what tells an instructor a freshly scaffolded kata is still incomplete.

use crate::layout::{self, WrongFile};
use crate::meta::KataMeta;
use crate::statement::{REQUIRED_SECTIONS, Statement};
use crate::translation;
use crate::verdict::Verdict;
use std::path::Path;

/// Verdicts a `wrong/` solution may be marked with: the ones an in-process run can tell apart.
pub const MARKABLE: [Verdict; 4] = [
    Verdict::WrongAnswer,
    Verdict::TimeLimitExceeded,
    Verdict::RuntimeError,
    // GPU katas: a `KERNEL` that NVRTC refuses (the Rust around it must still compile).
    Verdict::CompileError,
];

pub const MIN_WRONG: usize = 3;

/// Text the scaffold leaves where an instructor must write something.
pub const PLACEHOLDER: &str = "TODO(instructor)";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub file: String,
    pub problem: String,
}

/// Everything missing or malformed in the package at `dir`; empty when complete.
pub fn lint(dir: &Path) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut add = |file: &str, problem: String| {
        findings.push(Finding {
            file: file.to_string(),
            problem,
        })
    };
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();

    if read(layout::META_FILE).is_some_and(|t| t.contains(PLACEHOLDER)) {
        add(
            layout::META_FILE,
            format!("still has {PLACEHOLDER} placeholders"),
        );
    }
    let meta = match KataMeta::load(dir) {
        Ok(meta) if meta.summary_zh.trim().is_empty() => {
            add(
                layout::META_FILE,
                "no `summary_zh`: the catalogue sentence in Chinese".into(),
            );
            Some(meta)
        }
        Ok(meta) => Some(meta),
        Err(e) => {
            add(layout::META_FILE, e.to_string());
            None
        }
    };

    match read(layout::STATEMENT_FILE) {
        None => add(layout::STATEMENT_FILE, "missing".into()),
        Some(text) => {
            let st = Statement::parse(&text);
            if st.title.is_empty() {
                add(layout::STATEMENT_FILE, "no `# Title` line".into());
            }
            for heading in REQUIRED_SECTIONS {
                match st.section(heading) {
                    None => add(layout::STATEMENT_FILE, format!("no `## {heading}` section")),
                    Some("") => add(layout::STATEMENT_FILE, format!("`## {heading}` is empty")),
                    Some(_) => {}
                }
            }
            let hints = st.hints().len();
            if !(2..=4).contains(&hints) {
                add(
                    layout::STATEMENT_FILE,
                    format!("{hints} hints; write 2 to 4 `- ` items under `## Hints`"),
                );
            }
            if text.contains(PLACEHOLDER) {
                add(
                    layout::STATEMENT_FILE,
                    format!("still has {PLACEHOLDER} placeholders"),
                );
            }
        }
    }

    // Every statement comes in both languages, and the Chinese one may not drift.
    match (
        read(layout::STATEMENT_FILE),
        read(layout::STATEMENT_ZH_FILE),
    ) {
        (_, None) => add(layout::STATEMENT_ZH_FILE, "missing".into()),
        (None, Some(_)) => {}
        (Some(en), Some(zh)) => {
            for problem in translation::compare(&en, &zh) {
                add(layout::STATEMENT_ZH_FILE, problem);
            }
            if zh.contains(PLACEHOLDER) {
                add(
                    layout::STATEMENT_ZH_FILE,
                    format!("still has {PLACEHOLDER} placeholders"),
                );
            }
        }
    }

    // A data-only package's logic is generated; what would make it fail is reported against
    // the file and field it comes from.
    let data_only = meta.as_ref().filter(|m| m.data.is_some());
    let logic = match data_only {
        None => read(layout::LOGIC_FILE),
        Some(meta) => {
            if dir.join(layout::LOGIC_FILE).exists() {
                add(
                    layout::LOGIC_FILE,
                    "a data-only package ([data] in kata.toml) has no kata.rs: remove one of them"
                        .into(),
                );
            }
            match read(layout::DATA_CASES_FILE) {
                None => {
                    add(layout::DATA_CASES_FILE, "missing".into());
                    None
                }
                Some(cases) => match crate::data::codegen::generate(meta, &cases) {
                    Ok(source) => Some(source),
                    Err(e) => {
                        add(&e.file, format!("{}: {}", e.at, e.message));
                        None
                    }
                },
            }
        }
    };
    for file in [
        layout::STARTER_FILE,
        layout::REFERENCE_FILE,
        layout::LOGIC_FILE,
    ] {
        let text = if file == layout::LOGIC_FILE {
            logic.clone()
        } else {
            read(file)
        };
        match text {
            None if file == layout::LOGIC_FILE && data_only.is_some() => {}
            None => add(file, "missing".into()),
            Some(text) => {
                if text.contains(PLACEHOLDER) {
                    // A generated logic's placeholders come from the cases it was written from.
                    let from = if file == layout::LOGIC_FILE && data_only.is_some() {
                        layout::DATA_CASES_FILE
                    } else {
                        file
                    };
                    add(from, format!("still has {PLACEHOLDER} placeholders"));
                }
                if file != layout::LOGIC_FILE {
                    for entry in meta.iter().flat_map(|m| &m.entry_points) {
                        // `KERNEL`-style entry points are constants (a GPU kata's CUDA source).
                        let constant = entry.chars().all(|c| c.is_ascii_uppercase() || c == '_');
                        let defined = if constant {
                            format!("pub const {entry}:")
                        } else {
                            format!("pub fn {entry}(")
                        };
                        if !text.contains(&defined) {
                            add(file, format!("does not define `{defined} ...`"));
                        }
                    }
                }
                // Custom input is offered on every CPU kata: its checker admits learner inputs.
                if file == layout::LOGIC_FILE
                    && meta
                        .as_ref()
                        .is_some_and(|m| m.kind == crate::KataKind::Cpu)
                    && !text.contains("fn admit(")
                {
                    add(
                        file,
                        "a CPU kata's `KataSpec` impl defines `fn admit(input)`: the \
                         statement's constraints for custom input"
                            .into(),
                    );
                }
                // Versions are compared by this API; a package whose API cannot be read could
                // not tell learners when it breaks their code.
                if file == layout::LOGIC_FILE
                    && let Err(e) = crate::learner_api::LearnerApi::of_logic(&text)
                {
                    add(file, e.to_string());
                }
                if file == layout::STARTER_FILE && !text.contains("todo!(") {
                    add(file, "the starter's bodies should be `todo!(...)`".into());
                }
            }
        }
    }

    match layout::wrong_files(dir) {
        Err(e) => add(layout::WRONG_DIR, e.to_string()),
        Ok(files) => {
            if files.len() < MIN_WRONG {
                add(
                    layout::WRONG_DIR,
                    format!(
                        "{} known-wrong solutions; at least {MIN_WRONG} are needed",
                        files.len()
                    ),
                );
            }
            for WrongFile { name, marker, .. } in &files {
                let file = format!("{}/{}.rs", layout::WRONG_DIR, name.replace('-', "_"));
                match marker.as_deref().map(Verdict::parse) {
                    None => add(
                        &file,
                        format!("no `{} <verdict>` line", layout::VERDICT_MARKER),
                    ),
                    Some(Some(v)) if MARKABLE.contains(&v) => {}
                    Some(_) => add(
                        &file,
                        format!(
                            "marker must name one of {}",
                            MARKABLE.map(Verdict::as_str).join(", ")
                        ),
                    ),
                }
            }
        }
    }
    findings
}

/// Cases without a name in 中文 in a compiled kata whose statement has one: a learner reading
/// in 中文 would meet an English case name in every report. Needs the kata's code, so it runs
/// where the package is compiled (the package test); `kata check` and publishing check the same
/// on the case list of the package's judge, in the sandbox (`graders`' `verify_package`).
pub fn untranslated_cases(kata: &dyn crate::Kata) -> Vec<Finding> {
    if !kata.dir().join("README.zh.md").is_file() {
        return Vec::new();
    }
    match kata.case_list() {
        Ok(cases) => cases
            .into_iter()
            .filter(|c| c.name_zh.is_none())
            .map(|c| Finding {
                file: "kata.rs".into(),
                problem: format!("case `{}` has no name in 中文 (`.zh(...)`)", c.name),
            })
            .collect(),
        Err(e) => vec![Finding {
            file: "kata.rs".into(),
            problem: format!("the cases could not be made: {e}"),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::lint;
    use std::path::Path;

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            if path.is_dir() {
                copy_dir(&path, &target);
            } else {
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }

    #[test]
    fn a_drifted_or_missing_translation_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("fast-power");
        copy_dir(
            &Path::new(crate::CRATE_DIR).join("problems/fast-power"),
            &dir,
        );
        assert_eq!(lint(&dir), vec![], "the real package is complete");

        let zh_path = dir.join("README.zh.md");
        let zh = std::fs::read_to_string(&zh_path).unwrap();
        let zh_only = |findings: Vec<super::Finding>| {
            assert!(!findings.is_empty());
            assert!(
                findings.iter().all(|f| f.file == "README.zh.md"),
                "{findings:?}"
            );
            findings
        };

        // A changed value in an example table.
        std::fs::write(&zh_path, zh.replace("`1024.0`", "`1024`")).unwrap();
        let found = zh_only(lint(&dir));
        assert!(
            found.iter().any(|f| f.problem.contains("1024")),
            "{found:?}"
        );

        // A hint dropped.
        let last_hint = zh.find("\n- `pow_mod` 里").expect("the last hint");
        let end = zh[last_hint + 1..].find("\n\n").unwrap() + last_hint + 1;
        std::fs::write(&zh_path, format!("{}{}", &zh[..last_hint], &zh[end..])).unwrap();
        let found = zh_only(lint(&dir));
        assert!(
            found.iter().any(|f| f.problem.contains("hints")),
            "{found:?}"
        );

        std::fs::remove_file(&zh_path).unwrap();
        let found = zh_only(lint(&dir));
        assert!(found.iter().any(|f| f.problem == "missing"), "{found:?}");
    }
}
