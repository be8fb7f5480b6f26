//! Verifying a stdin/stdout package before it is used: the reference accepted, the starter
//! refused, every `wrong/` program its marked verdict, and every input accepted by the
//! package's input validators — each of them run in the sandbox, as in grading. What cannot
//! run here (solutions in other languages, validators in languages we do not run) is listed,
//! not hidden. `infrakata kata check DIR` prints these rows.

use super::Grader;
use crate::GradeError;
use crate::validator::{self, ACCEPT, BuildFailed};
use katas::io::IoPackage;
use katas::{Mode, Verdict};

/// One step of verifying a package in the sandbox (stdin/stdout or function) and what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageCheck {
    pub part: String,
    pub expected: String,
    pub got: String,
    pub ok: bool,
}

impl PackageCheck {
    /// A solution's row: `expected` its marked verdict, or `None` for the starter, which only
    /// must not be accepted.
    pub(super) fn of_solution(
        part: &str,
        expected: Option<Verdict>,
        report: &crate::GradeReport,
    ) -> Self {
        match expected {
            None => Self::new(
                part,
                "not accepted",
                describe(report),
                report.verdict != Verdict::Accepted,
            ),
            Some(verdict) => Self::new(
                part,
                verdict.as_str(),
                describe(report),
                report.verdict == verdict,
            ),
        }
    }

    pub(super) fn new(
        part: impl Into<String>,
        expected: impl Into<String>,
        got: String,
        ok: bool,
    ) -> Self {
        Self {
            part: part.into(),
            expected: expected.into(),
            got,
            ok,
        }
    }
}

impl Grader {
    /// Every check of `package`. `Err` only when our side fails.
    pub fn verify_io(&self, package: &IoPackage) -> Result<Vec<PackageCheck>, GradeError> {
        let mut checks = Vec::new();
        let grade = |source: &str| self.grade_io(package, source, Mode::Submit, &|_| {});
        match package.reference() {
            Some(source) => {
                let report = grade(source)?;
                checks.push(PackageCheck::new(
                    "reference.rs",
                    "accepted",
                    describe(&report),
                    report.verdict == Verdict::Accepted,
                ));
            }
            None => checks.push(PackageCheck::new(
                "reference.rs",
                "accepted",
                "none: the answer files are the reference".into(),
                true,
            )),
        }
        // After the reference (which builds what the others share, such as an output
        // validator), the starter and each `wrong/` solution are graded side by side, as many at
        // once as this grader grades jobs, and reported in the package's order.
        let wrong = package
            .wrong()
            .map_err(|e| GradeError::Internal(e.to_string()))?;
        let others: Vec<(String, Option<Verdict>, &str)> = package
            .starter()
            .map(|source| ("starter.rs".to_string(), None, source))
            .into_iter()
            .chain(wrong.iter().map(|known| {
                let part = format!("wrong/{}.rs", known.name);
                (part, Some(known.expected), known.source.as_str())
            }))
            .collect();
        if package.starter().is_none() {
            checks.push(PackageCheck::new(
                "starter.rs",
                "present",
                "missing".into(),
                false,
            ));
        }
        let reports = super::side_by_side(&others, self.slots.capacity(), |(_, _, source)| {
            grade(source)
        });
        for ((part, expected, _), report) in others.iter().zip(reports) {
            checks.push(PackageCheck::of_solution(part, *expected, &report?));
        }
        for (i, declared) in package.decl.input_validators.iter().enumerate() {
            checks.push(self.check_inputs(package, i, declared)?);
        }
        for not_run in &package.decl.not_run {
            let why = if not_run.path.ends_with(".rs") {
                format!(
                    "not run: `{}` is not one verdict a program can be checked against",
                    not_run.expected
                )
            } else {
                "not run: only single-file Rust solutions are graded".into()
            };
            checks.push(PackageCheck::new(
                not_run.path.clone(),
                not_run.expected.clone(),
                why,
                true,
            ));
        }
        for skipped in &package.decl.skipped_validators {
            checks.push(PackageCheck::new(
                skipped.path.clone(),
                "every input valid",
                format!("not run: {}", skipped.reason),
                true,
            ));
        }
        Ok(checks)
    }

    /// Input validator `index` on every case's input: each must exit 42.
    fn check_inputs(
        &self,
        package: &IoPackage,
        index: usize,
        declared: &katas::io::decl::InputValidator,
    ) -> Result<PackageCheck, GradeError> {
        let part = declared
            .files
            .first()
            .cloned()
            .unwrap_or_else(|| format!("input validator #{index}"));
        let files: Vec<(String, Vec<u8>)> = declared
            .files
            .iter()
            .filter_map(|name| package.files.get(name).map(|b| (name.clone(), b.to_vec())))
            .collect();
        let program = match validator::build(
            &self.sandbox,
            &self.toolchain,
            &self.cache,
            declared.language,
            &files,
        )? {
            Ok(program) => program,
            Err(BuildFailed(why)) => {
                return Ok(PackageCheck::new(
                    part,
                    "every input valid",
                    format!("does not build: {why}"),
                    false,
                ));
            }
        };
        for case in &package.cases {
            let ran = validator::run(
                &self.sandbox,
                &self.cache,
                &program,
                &[],
                &declared.flags,
                &case.input,
            )?;
            if ran.exit_code() != Some(ACCEPT) {
                return Ok(PackageCheck::new(
                    part,
                    "every input valid",
                    format!("{}.in refused: {}", case.name, ran.failure()),
                    false,
                ));
            }
        }
        Ok(PackageCheck::new(
            part,
            "every input valid",
            format!("{} inputs valid", package.cases.len()),
            true,
        ))
    }
}

pub(super) fn describe(report: &crate::GradeReport) -> String {
    let mut text = format!(
        "{} ({}/{} cases)",
        report.verdict.as_str(),
        report.score.passed,
        report.score.total
    );
    if let Some(message) = &report.message {
        text.push_str(&format!(": {}", katas::report::trim(&message.en)));
    }
    text
}
