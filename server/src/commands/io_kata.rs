//! Stdin/stdout katas from their package folder: `infrakata grade DIR FILE` and
//! `infrakata kata check DIR`. They are not compiled into the binary (see `katas::io`), so
//! both read the folder, then take the grader's one path (`Grader::grade_io`,
//! `Grader::verify_io`) in the sandbox.

use super::grade::{read_source, show, with_grader};
use super::kata::{Row, print_check};
use anyhow::Context as _;
use katas::io::IoPackage;
use katas::{KataKind, KataMeta, Mode};
use std::path::Path;
use std::process::ExitCode;

/// `Some(dir)` when `arg` names a stdin/stdout package's folder rather than a catalogue slug.
pub fn package_dir(arg: &str) -> Option<&Path> {
    let dir = Path::new(arg);
    KataMeta::load(dir)
        .is_ok_and(|meta| meta.kind == KataKind::Io)
        .then_some(dir)
}

fn read(dir: &Path) -> anyhow::Result<IoPackage> {
    IoPackage::read_dir(dir).with_context(|| format!("reading the package at {}", dir.display()))
}

pub fn grade(dir: &Path, file: &Path, mode: Mode, json: bool) -> anyhow::Result<ExitCode> {
    let package = read(dir)?;
    let source = read_source(file)?;
    let report =
        with_grader(|grader, progress| grader.grade_io(&package, &source, mode, progress))?;
    show(&report, json)
}

pub fn check(dir: &Path) -> anyhow::Result<ExitCode> {
    let findings = katas::io::lint::lint(dir);
    let mut rows = vec![Row {
        part: "package files".into(),
        expected: "complete".into(),
        got: if findings.is_empty() {
            "complete".into()
        } else {
            format!("{} problems", findings.len())
        },
        ok: findings.is_empty(),
    }];
    // A package that does not read has nothing to run.
    if let Ok(package) = IoPackage::read_dir(dir) {
        for check in with_grader(|grader, _| grader.verify_io(&package))? {
            rows.push(Row {
                part: check.part,
                expected: check.expected,
                got: katas::report::trim(&check.got),
                ok: check.ok,
            });
        }
    }
    let complete = print_check(&rows, &findings, &dir.display().to_string());
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
