//! Function katas from a package folder this binary was not built with (a copy elsewhere, a
//! new kata, a changed one): `infrakata grade DIR FILE` and `infrakata kata check DIR` build
//! the package's own judge and programs in the sandbox (`Grader::grade_package`,
//! `Grader::verify_package`), as the service does when such a version is published.

use super::grade::{read_source, show, with_grader};
use super::kata::Row;
use anyhow::Context as _;
use graders::package::FunctionPackage;
use katas::{KataKind, KataMeta, Mode};
use std::path::Path;
use std::process::ExitCode;

/// `Some(dir)` when `arg` names a function package's folder (CPU or GPU) rather than a
/// catalogue slug.
pub fn package_dir(arg: &str) -> Option<&Path> {
    let dir = Path::new(arg);
    (katas::builtin::find(arg).is_none()
        && KataMeta::load(dir).is_ok_and(|meta| meta.kind != KataKind::Io))
    .then_some(dir)
}

fn read(dir: &Path) -> anyhow::Result<FunctionPackage> {
    FunctionPackage::read_dir(dir)
        .with_context(|| format!("reading the package at {}", dir.display()))
}

pub fn grade(dir: &Path, file: &Path, mode: Mode, json: bool) -> anyhow::Result<ExitCode> {
    let package = read(dir)?;
    let source = read_source(file)?;
    // Inline, as `infrakata grade` measures a catalogue kata's accepted submit.
    let report = with_grader(|grader, progress| {
        let mut report = grader.grade_package(&package, &source, mode, progress)?;
        if report.awaits_figure() {
            grader
                .measure_package(&package, &source, progress)?
                .apply_to(&mut report);
        }
        Ok(report)
    })?;
    show(&report, json)
}

/// `grade DIR FILE --custom INPUT`: the package's judge admits and answers the input in the
/// sandbox ([`graders::Grader::custom_package`]), as on the service.
pub fn run_custom(dir: &Path, file: &Path, input: &str, json: bool) -> anyhow::Result<ExitCode> {
    let package = read(dir)?;
    let source = read_source(file)?;
    let input = super::grade::read_input(input)?;
    let report =
        with_grader(|grader, progress| grader.custom_package(&package, &source, &input, progress))?;
    show(&report, json)
}

/// The rows `kata check` prints for a package graded from its own files: every solution in
/// the sandbox, or why none could run.
pub(super) fn solution_rows(dir: &Path) -> anyhow::Result<Vec<Row>> {
    let package = match FunctionPackage::read_dir(dir) {
        Ok(package) => package,
        Err(e) => {
            return Ok(vec![Row {
                part: "solutions".into(),
                expected: "built from the package".into(),
                got: e.to_string(),
                ok: false,
            }]);
        }
    };
    let gpu = package.meta.kind == KataKind::Gpu;
    let verified = with_grader(|grader, _| match grader.verify_package(&package) {
        Ok(rows) => Ok(Ok(rows)),
        // The package's own judge failed: a row of the table, not our failure.
        Err(graders::GradeError::Kata { source, .. }) => Ok(Err(source.to_string())),
        // A GPU kata on a machine without one: the lint is all that can run here (the service
        // runs its solutions on a worker with a GPU).
        Err(graders::GradeError::Unavailable(why)) if gpu => Ok(Ok(vec![graders::PackageCheck {
            part: "solutions".into(),
            expected: "run on a GPU".into(),
            got: format!("not run: {why}"),
            ok: true,
        }])),
        Err(e) => Err(e),
    });
    // Without the sandbox here (no root, an old kernel) the table still says what it could.
    let verified = match verified {
        Ok(verified) => verified,
        Err(e) => {
            return Ok(vec![Row {
                part: "solutions".into(),
                expected: "run in the sandbox".into(),
                got: katas::report::trim(&format!("{e:#}")),
                ok: false,
            }]);
        }
    };
    Ok(match verified {
        Ok(rows) => rows
            .into_iter()
            .map(|check| Row {
                part: check.part,
                expected: check.expected,
                got: katas::report::trim(&check.got),
                ok: check.ok,
            })
            .collect(),
        Err(why) => vec![Row {
            part: "judge".into(),
            expected: "builds and answers".into(),
            got: katas::report::trim(&why),
            ok: false,
        }],
    })
}
