//! One import, start to end: reads the Kattis package through a bounded [`Tree`] and writes
//! every file of the io package into the staging folder `mod.rs` renames once all succeeded.

use super::data_tree::DataTree;
use super::manifest::{
    IoLimits, IoManifest, IoSection, Language, NotRun, TopicName, ValidatorKind,
};
use super::problem_yaml::{self, SourceFormat};
use super::programs::{self, RustSubmission};
use super::readme::{self, Parts, Source};
use super::tree::{Tree, write_file};
use super::{Imported, KattisError};
use crate::layout;
use std::collections::BTreeMap;
use std::path::Path;

/// Samples shown in the statement, and the most bytes of each file shown.
const SHOWN_SAMPLES: usize = 10;
const SHOWN_SAMPLE_BYTES: u64 = 4096;
const DEFAULT_CASE_MS: u64 = 2_000;
const MAX_CASE_MS: u64 = 600_000;
const MAX_TOTAL_MS: u64 = 600_000;
const MAX_MEMORY_MB: u64 = 1_024;
const DEFAULT_OUTPUT_KB: u64 = 8_192;
const MAX_OUTPUT_KB: u64 = 65_536;

pub fn build(
    dir: &Path,
    slug: &str,
    to: &Path,
    bounds: &super::Bounds,
) -> Result<Imported, KattisError> {
    let tree = Tree::new(dir, bounds)?;
    // Lists the top level, which refuses a link anywhere in it.
    tree.list("")?;
    if tree.kind("problem.yaml")? != Some(false) {
        return Err(KattisError::invalid("problem.yaml", "missing"));
    }
    let problem = problem_yaml::parse(&tree.read_text("problem.yaml")?)?;
    let format = problem.format();
    std::fs::create_dir_all(to).map_err(|e| KattisError::io(to.display().to_string(), e))?;
    let mut notes = Vec::new();

    let data = DataTree::copy(&tree, problem.validator_flags.clone(), to)?;
    if data.dropped_files > 0 {
        notes.push(format!(
            "{} file(s) in data/ other than .in/.ans were not copied",
            data.dropped_files
        ));
    }
    let validator_rel = match format {
        SourceFormat::Legacy if problem.legacy_custom => {
            Some(programs::single_legacy_validator(&tree)?)
        }
        SourceFormat::Legacy => {
            if tree.kind("output_validators")?.is_some() {
                notes.push("output_validators/ ignored: `validation` is not `custom`".into());
            }
            None
        }
        _ if tree.kind("output_validator")?.is_some() => Some("output_validator".to_string()),
        _ if tree.kind("output_validators")?.is_some() => {
            Some(programs::single_legacy_validator(&tree)?)
        }
        _ => None,
    };
    let validator = validator_rel
        .map(|rel| programs::output_validator(&tree, &rel, to))
        .transpose()?;
    let (input_validators, skipped_validators) =
        programs::input_validators(&tree, &data.input_args, to)?;
    let submissions = programs::submissions(&tree)?;
    let dirs = match format {
        SourceFormat::Legacy => ["problem_statement", "statement"],
        _ => ["statement", "problem_statement"],
    };
    let source = readme::read_source(&tree, dirs, &problem.constants)?;
    let title = problem
        .name
        .clone()
        .or_else(|| source.title.clone().filter(|t| !t.is_empty()))
        .unwrap_or_else(|| slug.to_string());
    if problem.scoring {
        notes.push("a scoring problem, imported as pass-fail: every case must pass".into());
    }

    let cases = data.total_cases() as u64;
    let case_time_ms = problem
        .time_limit_s
        .map_or(DEFAULT_CASE_MS, |s| (s * 1000.0).round() as u64)
        .clamp(1, MAX_CASE_MS);
    let limits = IoLimits {
        case_time_ms,
        total_time_ms: case_time_ms
            .saturating_mul(cases)
            .min(MAX_TOTAL_MS)
            .max(case_time_ms),
        memory_mb: problem
            .memory_mib
            .map_or(MAX_MEMORY_MB, |m| m.min(MAX_MEMORY_MB)),
        output_kb: problem.output_mib.map_or(DEFAULT_OUTPUT_KB, |m| {
            m.saturating_mul(1024).min(MAX_OUTPUT_KB)
        }),
        max_threads: 1,
    };

    let (rust_imported, mut not_run) = write_solutions(&submissions.rust, to)?;
    substitute_constants(to, &problem.constants)?;
    not_run.extend(submissions.not_run);
    not_run.sort_by(|a, b| a.path.cmp(&b.path));
    write_file(&to.join(layout::STARTER_FILE), readme::STARTER.as_bytes())?;

    let groups = data.groups();
    let io = IoSection {
        source_format: Some(format.as_str().to_string()),
        validator: if validator.is_some() {
            ValidatorKind::Custom
        } else {
            ValidatorKind::Default
        },
        validator_flags: data.root_flags.clone(),
        // The output validator's language was found supported, or the import refused it.
        validator_language: validator
            .as_ref()
            .and_then(|v| Language::parse(&v.language)),
        validator_files: validator
            .as_ref()
            .map(|v| v.files.clone())
            .unwrap_or_default(),
        input_validators,
        groups,
        not_run,
        skipped_validators,
    };
    let samples = shown_samples(to)?;
    let parts = Parts {
        title: &title,
        source: &source,
        scoring: problem.scoring,
        case_time_ms: limits.case_time_ms,
        total_time_ms: limits.total_time_ms,
        memory_mb: limits.memory_mb,
        output_kb: limits.output_kb,
        cases: cases as usize,
        samples: &samples,
        checking: checking(&io),
        origin: format!(
            "Imported from the Kattis problem package `{slug}` ({} format).",
            format.as_str()
        ),
    };
    let (en, zh) = readme::render(&parts);
    write_file(&to.join(layout::STATEMENT_FILE), en.as_bytes())?;
    write_file(&to.join(layout::STATEMENT_ZH_FILE), zh.as_bytes())?;

    let manifest = manifest(slug, &title, &source, limits, io);
    write_file(
        &to.join(layout::META_FILE),
        super::manifest::to_toml(&manifest).as_bytes(),
    )?;
    let io = super::manifest::io(&manifest);
    Ok(Imported {
        format,
        slug: slug.to_string(),
        package_dir: to.to_path_buf(),
        cases: data.case_counts(),
        validator: match io.validator {
            ValidatorKind::Default => "default",
            ValidatorKind::Custom => "custom",
        }
        .to_string(),
        validator_language: io.validator_language.map(|l| l.as_str().to_string()),
        rust_imported,
        not_run: io.not_run.clone(),
        skipped_validators: io.skipped_validators.clone(),
        notes,
    })
}

fn manifest(
    slug: &str,
    title: &str,
    source: &Source,
    limits: IoLimits,
    io: IoSection,
) -> IoManifest {
    let topic = TopicName {
        en: "imported".into(),
        zh: "导入".into(),
    };
    IoManifest {
        slug: slug.to_string(),
        title: title.to_string(),
        summary: readme::summary(source),
        summary_zh: format!("从 Kattis 题目包导入的标准输入输出题：{title}"),
        difficulty: crate::meta::Difficulty::Medium,
        topics: vec!["imported".into()],
        kind: crate::KataKind::Io,
        order: 1000,
        entry_points: vec!["main".into()],
        topic_names: BTreeMap::from([("imported".to_string(), topic)]),
        limits,
        data: None,
        io: Some(io),
    }
}

/// Puts each of `problem.yaml`'s constants for its `{{name}}` (or `{{name.value}}`) in the
/// validators and example submissions written under `to`, as the 2025-09 format asks (the
/// statement gets them where it is read; test data never does).
fn substitute_constants(to: &Path, constants: &[(String, String)]) -> Result<(), KattisError> {
    if constants.is_empty() {
        return Ok(());
    }
    let mut pending: Vec<std::path::PathBuf> =
        ["output_validator", "input_validators", layout::WRONG_DIR]
            .iter()
            .map(|d| to.join(d))
            .chain([to.join(layout::REFERENCE_FILE)])
            .collect();
    while let Some(path) = pending.pop() {
        let name = path.display().to_string();
        // Only what this import wrote: plain files and folders, never links.
        let Ok(kind) = std::fs::symlink_metadata(&path).map(|m| m.file_type()) else {
            continue;
        };
        if kind.is_dir() {
            for entry in std::fs::read_dir(&path).map_err(|e| KattisError::io(&name, e))? {
                pending.push(entry.map_err(|e| KattisError::io(&name, e))?.path());
            }
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut replaced = text.clone();
        for (key, value) in constants {
            replaced = replaced
                .replace(&format!("{{{{{key}}}}}"), value)
                .replace(&format!("{{{{{key}.value}}}}"), value);
        }
        if replaced != text {
            std::fs::write(&path, replaced).map_err(|e| KattisError::io(&name, e))?;
        }
    }
    Ok(())
}

/// Writes `reference.rs` (the first accepted Rust submission) and `wrong/*.rs`; returns the
/// Kattis paths written and the Rust submissions left out.
fn write_solutions(
    rust: &[RustSubmission],
    to: &Path,
) -> Result<(Vec<String>, Vec<NotRun>), KattisError> {
    let (mut written, mut left) = (Vec::new(), Vec::new());
    let mut names: Vec<String> = Vec::new();
    for sub in rust {
        if sub.verdict == "accepted" {
            if to.join(layout::REFERENCE_FILE).exists() {
                left.push(NotRun {
                    path: sub.rel.clone(),
                    expected: sub.verdict.clone(),
                });
                continue;
            }
            write_file(&to.join(layout::REFERENCE_FILE), sub.source.as_bytes())?;
        } else {
            let name = unique_name(&rust_name(&sub.stem), &names);
            let text = format!(
                "{} {}\n//! Imported from the Kattis package: {}\n{}",
                layout::VERDICT_MARKER,
                sub.verdict,
                sub.rel,
                sub.source
            );
            write_file(
                &to.join(layout::WRONG_DIR).join(format!("{name}.rs")),
                text.as_bytes(),
            )?;
            names.push(name);
        }
        written.push(sub.rel.clone());
    }
    Ok((written, left))
}

/// A file stem as a snake_case file name that starts with a letter.
fn rust_name(stem: &str) -> String {
    let mut name: String = stem
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        name.insert_str(0, "s_");
    }
    name
}

fn unique_name(name: &str, taken: &[String]) -> String {
    let mut candidate = name.to_string();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    candidate
}

/// The sample cases as written into the package, at most [`SHOWN_SAMPLES`] of them.
fn shown_samples(package: &Path) -> Result<Vec<(String, String, String)>, KattisError> {
    let dir = package.join("data/sample");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut stems: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".in")
                .map(str::to_string)
        })
        .collect();
    stems.sort();
    stems.truncate(SHOWN_SAMPLES);
    let shown = |name: &str| -> Result<String, KattisError> {
        let path = dir.join(name);
        let bytes =
            std::fs::read(&path).map_err(|e| KattisError::io(format!("data/sample/{name}"), e))?;
        Ok(match String::from_utf8(bytes) {
            Ok(text) if text.len() as u64 <= SHOWN_SAMPLE_BYTES => text,
            Ok(text) => format!("({} bytes: see data/sample/{name})", text.len()),
            Err(e) => format!("({} bytes: see data/sample/{name})", e.as_bytes().len()),
        })
    };
    stems
        .into_iter()
        .map(|stem| {
            Ok((
                stem.clone(),
                shown(&format!("{stem}.in"))?,
                shown(&format!("{stem}.ans"))?,
            ))
        })
        .collect()
}

/// How answers are checked, in a sentence for the hints.
fn checking(io: &IoSection) -> String {
    if io.validator == ValidatorKind::Custom {
        return "Answers are judged by the problem's own output validator, so more than one \
                answer may be accepted."
            .into();
    }
    let mut text =
        "Answers are compared token by token; spacing and line breaks do not matter".to_string();
    if !io.validator_flags.is_empty() {
        text.push_str(&format!(
            " (judge flags: `{}`)",
            io.validator_flags.join(" ")
        ));
    }
    if !io.groups.is_empty() {
        text.push_str("; some test groups use other flags");
    }
    text.push('.');
    text
}
