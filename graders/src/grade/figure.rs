//! The performance figure of an accepted CPU submit: the learner's and the reference's
//! instruction counts on the same fresh, single-use inputs, counted against the version's own
//! reference on inputs its own judge makes ([`Counted`]), whether an instructor published the
//! version or it is one of the build's katas.

use super::bank::measured_cases;
use super::{Grader, Stage, fresh_seed};
use crate::GradeError;
use crate::cache::Binary;
use crate::compile::{self, Compiled, Target};
use crate::package::{FunctionPackage, ProcessJudging};
use crate::report::{Measured, Performance};
use crate::run::Purpose;
use katas::judge::CaseInfo;
use katas::{KataMeta, Mode};
use std::path::Path;
use std::sync::PoisonError;

/// What a figure is counted against: a version built from its package (published, or one of
/// the build's own katas), its judge a sandboxed process and its library its own.
#[derive(Clone, Copy)]
pub(super) struct Counted<'a> {
    pub(super) package: &'a FunctionPackage,
    pub(super) judge: &'a Path,
    pub(super) library: &'a Path,
}

impl Counted<'_> {
    fn meta(&self) -> &KataMeta {
        &self.package.meta
    }

    /// What per-version figures (the empty harness's count, a banked reference count) are kept
    /// under: the version's own, since its reference and harness are its own.
    pub(super) fn key(&self) -> String {
        self.package.key()
    }

    fn reference(&self) -> &str {
        &self.package.reference
    }

    fn target(&self) -> Target<'_> {
        Target::Linked {
            meta: &self.package.meta,
            library: self.library,
        }
    }
}

impl Grader {
    /// Measures an accepted CPU `submit` whose verdict was published by an earlier job
    /// (possibly on another worker): takes the verdict's program for `source` from the compile
    /// cache (compiling it again only on another worker), and counts instructions on fresh
    /// single-use inputs against the reference's. It never judges: the verdict stays the one
    /// published. It takes no grading slot, so a worker's measuring loop never
    /// holds one a verdict is waiting for.
    pub fn measure_submission(
        &self,
        slug: &str,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        let (kata, package) = super::builtin_for(slug, source)?;
        if kata.meta().kind != katas::KataKind::Cpu {
            return Err(GradeError::Internal(format!(
                "`{slug}` is a GPU kata: its device timings come with its verdict, not from a \
                 measurement job"
            )));
        }
        self.measure_package(package, source, progress)
    }

    /// [`Grader::measure_submission`] for a version built from its package: the learner's
    /// count against that version's own reference, on inputs its own judge makes. Its judge
    /// and library come from the compile cache (built by the verdict, or now on another
    /// worker); a package whose judge fails is the kata's fault ([`GradeError::Kata`]).
    pub fn measure_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        super::check_source_size(source)?;
        progress(Stage::Measuring);
        let (judge, library) = self.package_programs(package)?;
        let counted = Counted {
            package,
            judge: &judge,
            library: &library,
        };
        let selected: Vec<CaseInfo> = self
            .package_cases(package, &judge)?
            .into_iter()
            .filter(|c| Mode::Submit.includes(c.group))
            .collect();
        self.measured(counted, source, &selected, progress)
    }

    /// A measurement job's outcome: the figure on `selected`'s performance cases, or why there
    /// is none.
    fn measured(
        &self,
        counted: Counted<'_>,
        source: &str,
        selected: &[CaseInfo],
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        let measured = match self.performance(counted, source, selected)? {
            Ok(figure) => Measured::Figure(figure),
            Err(why) => Measured::Missing(why),
        };
        progress(Stage::Done);
        Ok(measured)
    }

    /// The solution's and the reference's instruction counts on the same fresh, single-use
    /// inputs, each less the empty harness's; or why there is no figure. `Err` only for our
    /// own failures (and `Unavailable` when the host was too busy to finish it in time).
    ///
    /// The measured program is sent its inputs, never a seed, and no input set is measured
    /// for another submission: a count can tell a learner nothing they could use later.
    pub(super) fn performance(
        &self,
        counted: Counted<'_>,
        source: &str,
        selected: &[CaseInfo],
    ) -> Result<Result<Performance, String>, GradeError> {
        let cases = measured_cases(selected);
        if cases.is_empty() {
            return Ok(Err("this kata has no performance cases".into()));
        }
        let Some(tool) = &self.measure_tool else {
            return Ok(Err(format!(
                "this grader has no instruction counter ({} is missing)",
                super::MEASURE_TOOL
            )));
        };
        // An input set banked with its reference count (by the measuring loop, for the build's
        // own katas), or a fresh one counted below.
        let banked = self.reference_bank.take(&counted.key(), &cases);
        let seed = banked.map_or_else(fresh_seed, |(seed, _)| seed);
        let program = self.measured_program(counted, source, "an accepted submission")?;
        let (learner, processes) = match self.count(counted, &program, &cases, seed, tool)? {
            Ok(counted) => counted,
            Err(why) => return Ok(Err(why)),
        };
        let reference_program =
            self.measured_program(counted, counted.reference(), "the reference")?;
        let harness = match self.harness(counted, &reference_program, tool)? {
            Ok(n) => n,
            Err(why) => return Ok(Err(why)),
        };
        let reference = match banked {
            Some((_, reference)) => reference,
            None => match self.count(counted, &reference_program, &cases, seed, tool)? {
                Ok((n, _)) => n,
                Err(why) => {
                    return Ok(Err(format!("the reference could not be measured: {why}")));
                }
            },
        };
        // Each process of a rank kata starts up like the empty harness; the same cases make the
        // same processes for the reference.
        let instructions = learner.saturating_sub(harness * processes);
        let reference_instructions = reference.saturating_sub(harness * processes);
        if reference_instructions == 0 {
            return Ok(Err(
                "the reference's count was no more than the empty harness's".into(),
            ));
        }
        Ok(Ok(Performance {
            instructions,
            reference_instructions,
            harness_instructions: harness,
            ratio: instructions as f64 / reference_instructions as f64,
            cases: cases.len(),
        }))
    }

    /// `source`'s program for measuring: the verdict's own, from the compile cache (one compile
    /// serves both; valgrind's extra start-up on the dynamic loader, about 60 ms, is less than
    /// a second compile linked statically). `whose` names it in our error when it does not
    /// compile.
    pub(super) fn measured_program(
        &self,
        counted: Counted<'_>,
        source: &str,
        whose: &str,
    ) -> Result<Binary, GradeError> {
        let compiled = compile::compile(
            &self.sandbox,
            &self.toolchain,
            &self.cache,
            counted.target(),
            source,
        )?;
        match compiled {
            Compiled::Binary { path, .. } => Ok(path),
            Compiled::Failed { diagnostics, .. } => Err(GradeError::Internal(format!(
                "{whose} of `{}` does not compile for measuring: {diagnostics:?}",
                counted.meta().slug
            ))),
        }
    }

    /// The empty harness's count: the reference's program run on no case (start-up, reading
    /// the request), measured once per kata (per version, for a package) and grader.
    fn harness(
        &self,
        counted: Counted<'_>,
        reference_program: &Path,
        tool: &Path,
    ) -> Result<Result<u64, String>, GradeError> {
        let key = counted.key();
        let known = self
            .harness_cost
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .cloned();
        if let Some(known) = known {
            return Ok(known);
        }
        let measured = self
            .count(counted, reference_program, &[], fresh_seed(), tool)?
            .map(|(n, _)| n)
            .map_err(|why| format!("the empty harness could not be measured: {why}"));
        self.harness_cost
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, measured.clone());
        Ok(measured)
    }

    /// The instruction count of `binary` on `cases` made from `seed` on the trusted side (the
    /// program is sent the inputs), measured in the sandbox, and how many processes it ran as
    /// (one per rank for a rank kata).
    pub(super) fn count(
        &self,
        counted: Counted<'_>,
        binary: &Path,
        cases: &[CaseInfo],
        seed: u64,
        tool: &Path,
    ) -> Result<Result<(u64, u64), String>, GradeError> {
        let purpose = Purpose::Measure { tool };
        let meta = counted.meta();
        let ran = std::thread::scope(|s| {
            let judging = ProcessJudging::start(s, &self.sandbox, counted.judge, meta, seed)?;
            self.run_beside_judge(meta, &judging, binary, cases, seed, purpose)
        })?;
        let processes = ran.processes;
        Ok(ran
            .instructions
            .unwrap_or_else(|| Err("the run was not measured".into()))
            .map(|n| (n, processes)))
    }
}
