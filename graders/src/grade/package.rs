//! `Grader::grade_package` and `Grader::verify_package`: a function kata graded from its
//! package's own files ([`crate::package`]), its trusted side a sandboxed judge process. The
//! session, the run sandbox and the report are the catalogue's; only where the learner's
//! program and the judge come from differs.

use super::{Grader, PackageCheck, Stage, fresh_seed, ms};
use crate::compile::{self, Compiled, Target};
use crate::package::{FunctionPackage, ProcessJudging};
use crate::run::{self, Purpose, Subject};
use crate::{GradeError, GradeReport};
use katas::judge::{CaseInfo, KataError};
use katas::{KataKind, KataMeta, Mode, Report, Verdict};
use std::path::{Path, PathBuf};
use std::sync::PoisonError;
use std::thread::Scope;

/// The learner's program as [`Grader::built`] gives it: binary, resources and warnings, or the
/// report that ends the grading (a compile error).
pub(super) type Built = Result<
    (
        crate::cache::Binary,
        crate::report::Resources,
        Vec<crate::diagnostics::Diagnostic>,
    ),
    GradeReport,
>;

impl Grader {
    /// Grades `source` against `package`. As [`Grader::judge`], `Err` only for bad requests and
    /// for failures that are not the learner's: the package's own (its judge did not compile,
    /// or failed) come back as [`GradeError::Kata`]. An accepted `submit` owes its figure
    /// ([`GradeReport::awaits_figure`]), which [`Grader::measure_package`] counts.
    pub fn grade_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let meta = &package.meta;
        let slug = meta.slug.as_str();
        super::check_source_size(source)?;
        progress(Stage::Queued);
        let _slot = self.slots.acquire();
        progress(Stage::Compiling);
        let (judge, library) = self.package_programs(package)?;
        let seed = super::gpu::seed_for(meta.kind, mode);
        std::thread::scope(|s| {
            // The judge makes the cases while rustc builds the learner's program.
            let (judging, built) =
                self.build_beside_judge(s, meta, &library, source, mode, || {
                    ProcessJudging::start(s, &self.sandbox, &judge, meta, seed)
                })?;
            let (binary, mut resources, diagnostics) = match built? {
                Ok(built) => built,
                Err(report) => {
                    progress(Stage::Done);
                    return Ok(report);
                }
            };
            progress(Stage::Running);
            let cases = judging.case_list();
            self.keep_cases(package, &cases);
            let selected: Vec<_> = cases
                .into_iter()
                .filter(|c| mode.includes(c.group))
                .collect();
            let ran =
                self.run_beside_judge(meta, &judging, &binary, &selected, seed, Purpose::Judge)?;
            resources.run_wall_ms = ms(ran.wall);
            resources.run_cpu_ms = ms(ran.cpu);
            resources.peak_memory_bytes = ran.peak_memory_bytes;
            let mut report = GradeReport::judged(
                Report::from_cases(slug, ran.cases),
                mode,
                diagnostics,
                resources,
                ran.message,
                ran.output,
            );
            report.case_time_ms = Some(meta.limits.case_time_ms);
            if meta.kind == KataKind::Gpu {
                report = self.gpu_report(package, &library, &judge, source, report, &selected)?;
            }
            progress(Stage::Done);
            Ok(report)
        })
    }

    /// The learner's `source` built against the package's `library` while `start` starts the
    /// package's judge on another thread of `scope`. The judge's failure comes first: a
    /// grading whose judge cannot start is the kata's, whatever the program.
    pub(super) fn build_beside_judge<'scope, T: Send + 'scope>(
        &'scope self,
        scope: &'scope Scope<'scope, '_>,
        meta: &KataMeta,
        library: &Path,
        source: &str,
        mode: Mode,
        start: impl FnOnce() -> Result<T, GradeError> + Send + 'scope,
    ) -> Result<(T, Result<Built, GradeError>), GradeError> {
        let judging = scope.spawn(start);
        let target = Target::Linked { meta, library };
        let built = compile::compile(&self.sandbox, &self.toolchain, &self.cache, target, source)
            .and_then(|compiled| self.built(&meta.slug, compiled, mode));
        let judging = judging
            .join()
            .map_err(|_| GradeError::Internal("starting the package's judge panicked".into()))??;
        Ok((judging, built))
    }

    /// The learner's `binary` run on the `selected` cases in the run sandbox, judged by the
    /// package's judge; a rank kata's ranks run as processes of their own, its networks held
    /// by the judge. Whatever the learner's program did, a run whose judge failed is the
    /// kata's fault.
    pub(super) fn run_beside_judge(
        &self,
        meta: &KataMeta,
        judging: &ProcessJudging,
        binary: &Path,
        selected: &[CaseInfo],
        seed: u64,
        purpose: Purpose<'_>,
    ) -> Result<run::RunResult, GradeError> {
        let ranked = judging.ranked();
        let failed = || judging.failure().map(GradeError::kata(&meta.slug));
        let ran = run::run(
            &self.sandbox,
            Subject {
                meta,
                ranked: ranked
                    .as_ref()
                    .map(|r| r as &dyn katas::rank_net::RankedKata),
            },
            judging,
            binary,
            selected,
            seed,
            &self.gpu_host,
            purpose,
        )
        .map_err(|e| failed().unwrap_or(e))?;
        match failed() {
            Some(failure) => Err(failure),
            None => Ok(ran),
        }
    }

    /// The package's judge and the folder of its learners' library, built in the compile
    /// sandbox or taken from the compile cache; either failing to compile is the kata's fault.
    pub(super) fn package_programs(
        &self,
        package: &FunctionPackage,
    ) -> Result<(crate::cache::Binary, PathBuf), GradeError> {
        // Neither build needs the other: on a new version they run side by side.
        let (judge, library) = std::thread::scope(|s| {
            let judge = s.spawn(|| self.package_judge(package));
            let library =
                crate::package::library(&self.sandbox, &self.toolchain, &self.cache, package);
            let judge = judge
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (judge, library)
        });
        let judge = judge?;
        let library = library?.map_err(|said| {
            GradeError::kata(&package.meta.slug)(KataError::Judge(format!(
                "could not be built: its logic as the learners' library did not compile: {}",
                katas::report::trim(&said)
            )))
        })?;
        Ok((judge, library))
    }

    /// Builds the library and judge of every kata of the build (or finds them in the
    /// compile cache), so that no learner's first verdict on a kata waits for them; for a
    /// service to call in the background as it starts. What failed is returned by slug, and is
    /// reported again, as the kata's fault, when the kata is graded.
    pub fn prepare_builtin(&self) -> Vec<(String, GradeError)> {
        katas::builtin::all()
            .iter()
            .filter_map(|kata| crate::package::builtin(&kata.meta().slug))
            .filter_map(|package| {
                self.package_programs(package)
                    .err()
                    .map(|e| (package.meta.slug.clone(), e))
            })
            .collect()
    }

    /// The cases of `package`'s version, as a grading selects from them: known from an earlier
    /// grading or figure of the version, else listed by its judge (started for that alone).
    pub(super) fn package_cases(
        &self,
        package: &FunctionPackage,
        judge: &Path,
    ) -> Result<Vec<CaseInfo>, GradeError> {
        let known = self
            .case_lists
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&package.key())
            .cloned();
        if let Some(known) = known {
            return Ok(known);
        }
        let meta = &package.meta;
        let cases = std::thread::scope(|s| {
            let judging = ProcessJudging::start(s, &self.sandbox, judge, meta, fresh_seed())?;
            Ok::<_, GradeError>(judging.case_list())
        })?;
        self.keep_cases(package, &cases);
        Ok(cases)
    }

    /// Keeps the cases a judge of `package`'s version listed, for [`Grader::package_cases`].
    fn keep_cases(&self, package: &FunctionPackage, cases: &[CaseInfo]) {
        self.case_lists
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(package.key())
            .or_insert_with(|| cases.to_vec());
    }

    /// The package's judge program, built in the compile sandbox (cached by its files).
    pub(super) fn package_judge(
        &self,
        package: &FunctionPackage,
    ) -> Result<crate::cache::Binary, GradeError> {
        let target = Target::Judge {
            meta: &package.meta,
            logic: &package.logic,
        };
        self.package_reference(package, target, "did not compile")
    }

    /// `package`'s reference built as `target` (its judge, or a program against the version's
    /// library) in the compile sandbox, cached; a compile failure is the kata's, said after
    /// `failed`.
    pub(super) fn package_reference(
        &self,
        package: &FunctionPackage,
        target: Target<'_>,
        failed: &str,
    ) -> Result<crate::cache::Binary, GradeError> {
        let compiled = compile::compile(
            &self.sandbox,
            &self.toolchain,
            &self.cache,
            target,
            &package.reference,
        )?;
        match compiled {
            Compiled::Binary { path, .. } => Ok(path),
            Compiled::Failed {
                diagnostics,
                message,
                ..
            } => {
                let said: Vec<String> = message
                    .map(|m| m.en)
                    .into_iter()
                    .chain(
                        diagnostics
                            .iter()
                            .filter(|d| d.level == "error")
                            .take(3)
                            .map(|d| d.rendered.trim().to_string()),
                    )
                    .collect();
                Err(GradeError::kata(&package.meta.slug)(KataError::Judge(
                    format!("{failed}: {}", katas::report::trim(&said.join("\n"))),
                )))
            }
        }
    }

    /// Every rule of `package` checked in the sandbox, as `kata check` checks a catalogue
    /// kata's: the reference accepted, the starter refused, each `wrong/` solution its marked
    /// verdict. `Err(GradeError::Kata)` when the package's judge cannot run at all.
    pub fn verify_package(
        &self,
        package: &FunctionPackage,
    ) -> Result<Vec<PackageCheck>, GradeError> {
        let grade = |source: &str| self.grade_package(package, source, Mode::Submit, &|_| {});
        // The reference first: its grading builds the version's library and judge, which every
        // other solution's grading then finds built.
        let reference = grade(&package.reference)?;
        let mut checks = vec![PackageCheck::new(
            "reference.rs",
            "accepted",
            super::io_verify::describe(&reference),
            reference.verdict == Verdict::Accepted,
        )];
        // The rest do not depend on one another: graded side by side, as many at once as this
        // grader grades jobs, and reported in the package's order.
        let others: Vec<(String, Option<Verdict>, &str)> =
            std::iter::once(("starter.rs".to_string(), None, package.starter.as_str()))
                .chain(package.wrong.iter().map(|wrong| {
                    let part = format!("wrong/{}.rs", wrong.name);
                    (part, Some(wrong.expected), wrong.source.as_str())
                }))
                .collect();
        let reports = super::side_by_side(&others, self.slots.capacity(), |(_, _, source)| {
            grade(source)
        });
        for ((part, expected, _), report) in others.iter().zip(reports) {
            checks.push(PackageCheck::of_solution(part, *expected, &report?));
        }
        checks.push(self.case_names(package)?);
        Ok(checks)
    }

    /// The row that says whether every case is named in both languages, as the statements are:
    /// a learner reading in 中文 sees the failing case's name in it. Read from the judge's case
    /// list (known from the reference's grading).
    fn case_names(&self, package: &FunctionPackage) -> Result<PackageCheck, GradeError> {
        let (judge, _) = self.package_programs(package)?;
        let cases = self.package_cases(package, &judge)?;
        let unnamed: Vec<&str> = cases
            .iter()
            .filter(|c| c.name_zh.is_none())
            .map(|c| c.name.as_str())
            .collect();
        let got = match unnamed.as_slice() {
            [] => format!("all {} cases", cases.len()),
            some => format!("no 中文 name (`.zh(...)`): {}", some.join(", ")),
        };
        Ok(PackageCheck::new(
            "case names",
            "in English and 中文",
            got,
            unnamed.is_empty(),
        ))
    }
}
