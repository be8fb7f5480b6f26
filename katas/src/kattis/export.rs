//! An io package written back as a Kattis package in the 2025-09 format, so a kata made here
//! can go to another judge. The root validator flags go into `data/sample` and `data/secret`'s
//! `test_group.yaml` (2025-09 has no problem-wide flags), each overridden group gets its own, and
//! the statement is "The question" and "Task" of `README.md`: the generated sections (limits,
//! samples, hints) are the judge's business there. Importing the result gives the same
//! `kata.toml` but for `source_format` and the lists of what the io package never held
//! (`not_run`, `skipped_validators`).

use super::KattisError;
use super::manifest::IoManifest;
use super::tree::{Bounds, Tree, write_file};
use crate::layout;
use crate::statement::Statement;
use serde::Serialize;
use serde_norway::{Mapping, Value};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Serialize)]
struct ProblemYaml<'a> {
    problem_format_version: &'static str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    limits: YamlLimits,
}

#[derive(Serialize)]
struct YamlLimits {
    time_limit: f64,
    memory: u64,
    output: u64,
}

/// Writes the io package at `package_dir` as a 2025-09 Kattis package into `out_dir`, which
/// must not exist or be empty.
pub fn export(package_dir: &Path, out_dir: &Path) -> Result<(), KattisError> {
    let bounds = Bounds::default();
    let tree = Tree::new(package_dir, &bounds)?;
    let manifest = super::manifest::parse(&tree.read_text(layout::META_FILE)?)
        .map_err(|e| KattisError::invalid(layout::META_FILE, e.to_string()))?;
    if manifest.kind != crate::KataKind::Io || manifest.io.is_none() {
        return Err(KattisError::unsupported(
            layout::META_FILE,
            format!(
                "`kind`: `{}`; only io packages can be exported",
                manifest.kind.as_str()
            ),
        ));
    }
    let out_name = out_dir.display().to_string();
    if std::fs::read_dir(out_dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(KattisError::invalid(out_name, "exists and is not empty"));
    }
    std::fs::create_dir_all(out_dir).map_err(|e| KattisError::io(&out_name, e))?;

    let problem = ProblemYaml {
        problem_format_version: "2025-09",
        name: &manifest.title,
        kind: "pass-fail",
        limits: YamlLimits {
            time_limit: manifest.limits.case_time_ms as f64 / 1000.0,
            memory: manifest.limits.memory_mb,
            output: manifest.limits.output_kb.div_ceil(1024),
        },
    };
    let yaml = serde_norway::to_string(&problem).expect("strings and numbers always serialize");
    write_file(&out_dir.join("problem.yaml"), yaml.as_bytes())?;

    let readme = tree.read_text(layout::STATEMENT_FILE)?;
    write_file(
        &out_dir.join("statement/problem.en.md"),
        statement(&readme).as_bytes(),
    )?;

    for folder in ["data", "output_validator", "input_validators"] {
        if tree.kind(folder)? == Some(true) {
            for file in tree.files_below(folder)? {
                tree.copy(&file.rel, &out_dir.join(&file.rel), bounds.max_data_file)?;
            }
        }
    }
    for (folder, config) in group_configs(&manifest) {
        let yaml =
            serde_norway::to_string(&Value::Mapping(config)).expect("strings always serialize");
        write_file(
            &out_dir.join(format!("data/{folder}/test_group.yaml")),
            yaml.as_bytes(),
        )?;
    }

    if tree.kind(layout::REFERENCE_FILE)? == Some(false) {
        tree.copy(
            layout::REFERENCE_FILE,
            &out_dir.join("submissions/accepted/reference.rs"),
            bounds.max_text_file,
        )?;
    }
    if tree.kind(layout::WRONG_DIR)? == Some(true) {
        for file in tree.list(layout::WRONG_DIR)? {
            let Some(stem) = file.name.strip_suffix(".rs").filter(|_| !file.is_dir) else {
                continue;
            };
            let source = tree.read_text(&file.rel)?;
            let Some(verdict) = layout::verdict_marker(&source) else {
                return Err(KattisError::invalid(
                    &file.rel,
                    format!("no `{} <verdict>` line", layout::VERDICT_MARKER),
                ));
            };
            let folder = match verdict.as_str() {
                "wrong_answer" | "time_limit_exceeded" => verdict.as_str(),
                "runtime_error" => "run_time_error",
                _ => "rejected",
            };
            write_file(
                &out_dir.join(format!("submissions/{folder}/{stem}.rs")),
                without_marker(&source).as_bytes(),
            )?;
        }
    }
    Ok(())
}

/// The original statement inside `README.md`: "The question", then "Task" with its headings
/// one level up. A statement written free-form (a package not made by the importer) goes as
/// it is, but for its title, which `problem.yaml` carries.
fn statement(readme: &str) -> String {
    let st = Statement::parse(readme);
    if st.section("The question").is_none() && st.section("Task").is_none() {
        let body = readme
            .trim_start()
            .strip_prefix('#')
            .filter(|rest| !rest.starts_with('#'))
            .and_then(|rest| rest.split_once('\n'))
            .map_or(readme, |(_, body)| body);
        return format!("{}\n", body.trim());
    }
    let mut out = String::new();
    let question = st.section("The question").unwrap_or_default();
    if question != "The original statement starts with its input section below." {
        out.push_str(question);
        out.push_str("\n\n");
    }
    let mut fence = false;
    for line in st.section("Task").unwrap_or_default().lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
        }
        let promoted = !fence && trimmed.starts_with("##");
        out.push_str(if promoted { &trimmed[1..] } else { line });
        out.push('\n');
    }
    format!("{}\n", out.trim())
}

/// The source of a `wrong/` file without the two lines the import put on top.
fn without_marker(source: &str) -> String {
    let mut lines = source.split_inclusive('\n').peekable();
    if lines
        .peek()
        .is_some_and(|l| l.trim_start().starts_with(layout::VERDICT_MARKER))
    {
        lines.next();
        if lines
            .peek()
            .is_some_and(|l| l.starts_with("//! Imported from the Kattis package:"))
        {
            lines.next();
        }
    }
    lines.collect()
}

/// `test_group.yaml` contents by folder under `data/`.
fn group_configs(manifest: &IoManifest) -> BTreeMap<String, Mapping> {
    let words = |flags: &[String]| {
        Value::Sequence(flags.iter().map(|f| Value::String(f.clone())).collect())
    };
    let mut configs: BTreeMap<String, Mapping> = BTreeMap::new();
    let io = super::manifest::io(manifest);
    if !io.validator_flags.is_empty() {
        for top in ["sample", "secret"] {
            configs
                .entry(top.to_string())
                .or_default()
                .insert("output_validator_args".into(), words(&io.validator_flags));
        }
    }
    for group in &io.groups {
        configs.entry(group.path.clone()).or_default().insert(
            "output_validator_args".into(),
            words(&group.validator_flags),
        );
    }
    let mut by_name = Mapping::new();
    for validator in io.input_validators.iter().filter(|v| !v.flags.is_empty()) {
        let name = validator
            .files
            .first()
            .and_then(|f| f.split('/').nth(1))
            .unwrap_or_default();
        by_name.insert(Value::String(name.to_string()), words(&validator.flags));
    }
    if !by_name.is_empty() {
        configs
            .entry("secret".into())
            .or_default()
            .insert("input_validator_args".into(), Value::Mapping(by_name));
    }
    configs
}
