//! What a GPU kata's grading adds to a function package's ([`Grader::grade_package`]): a
//! kernel NVRTC refused is reported as a compile error on the learner's lines, and an accepted
//! `submit` gets its device timings with the verdict, set against the device's peak and against
//! the same version's reference, timed on this grader the same way (once per version).

use super::{Grader, fresh_seed};
use crate::GradeError;
use crate::compile::Target;
use crate::package::{FunctionPackage, ProcessJudging};
use crate::report::{GpuCaseSpeed, GpuPerformance, GradeReport};
use crate::run::Purpose;
use katas::gpu::DeviceTiming;
use katas::judge::CaseInfo;
use katas::{Group, Mode, Verdict};
use std::collections::HashMap;
use std::path::Path;
use std::sync::PoisonError;

impl Grader {
    /// `report`, a GPU kata's judged grading of `source`, completed: a kernel NVRTC refused
    /// (every case says the same) becomes a compile error marked on the learner's lines; an
    /// accepted `submit` gets its device figures.
    pub(super) fn gpu_report(
        &self,
        package: &FunctionPackage,
        library: &Path,
        judge: &Path,
        source: &str,
        mut report: GradeReport,
        selected: &[CaseInfo],
    ) -> Result<GradeReport, GradeError> {
        if report.verdict == Verdict::CompileError {
            let log = report.cases.iter().find_map(|c| c.message.clone());
            let mut diagnostics = std::mem::take(&mut report.diagnostics);
            if let Some(log) = &log {
                diagnostics.extend(crate::diagnostics::from_nvrtc(&log.en, source));
            }
            return Ok(GradeReport::compile_error(
                &package.meta.slug,
                report.mode,
                diagnostics,
                log,
                report.resources,
            ));
        }
        if report.verdict == Verdict::Accepted && report.mode == Mode::Submit {
            report.gpu_performance =
                Some(self.gpu_performance(package, library, judge, &report, selected)?);
        }
        Ok(report)
    }

    /// Device timings of an accepted solution against the device's peak and the version's
    /// reference.
    fn gpu_performance(
        &self,
        package: &FunctionPackage,
        library: &Path,
        judge: &Path,
        report: &GradeReport,
        selected: &[CaseInfo],
    ) -> Result<GpuPerformance, GradeError> {
        let known = self
            .reference_timing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&package.key())
            .cloned();
        let reference = match known {
            Some(timings) => timings,
            None => {
                let timings = self.reference_timings(package, library, judge, selected)?;
                self.reference_timing
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(package.key(), timings.clone());
                timings
            }
        };
        let peak = self.gpu.as_ref().map(|(_, peak)| *peak);
        Ok(GpuPerformance {
            device: self.gpu.as_ref().map(|(info, _)| info.clone()),
            peak,
            cases: report
                .cases
                .iter()
                .filter_map(|c| {
                    let timing = c.device.clone()?;
                    let speed =
                        katas::gpu::timing::speed(&timing, peak.as_ref(), reference.get(&c.name));
                    Some(GpuCaseSpeed {
                        case: c.name.clone(),
                        timing,
                        speed,
                    })
                })
                .collect(),
        })
    }

    /// The version's reference run on the performance cases in the sandbox, as a learner's
    /// program is, judged by the version's judge on a fresh seed: its device time per case.
    fn reference_timings(
        &self,
        package: &FunctionPackage,
        library: &Path,
        judge: &Path,
        selected: &[CaseInfo],
    ) -> Result<HashMap<String, DeviceTiming>, GradeError> {
        let meta = &package.meta;
        let timed: Vec<CaseInfo> = selected
            .iter()
            .filter(|c| c.group == Group::Performance)
            .cloned()
            .collect();
        let target = Target::Linked { meta, library };
        let binary = self.package_reference(package, target, "its reference did not compile")?;
        let seed = fresh_seed();
        let ran = std::thread::scope(|s| {
            let judging = ProcessJudging::start(s, &self.sandbox, judge, meta, seed)?;
            self.run_beside_judge(meta, &judging, &binary, &timed, seed, Purpose::Judge)
        })?;
        Ok(ran
            .cases
            .into_iter()
            .filter_map(|c| c.device.map(|t| (c.name, t)))
            .collect())
    }
}

/// The seed a grading's cases come from. Every case beyond the samples comes from a fresh seed
/// the submission cannot know when it is written (nor learn by failing on purpose: the next
/// grading differs); a CPU kata's `run` has only samples, the same for every seed. A GPU kata's
/// runs sample their output at positions drawn from the seed, so even its `run` gets a fresh one.
pub(super) fn seed_for(kind: katas::KataKind, mode: Mode) -> u64 {
    if mode == Mode::Run && kind != katas::KataKind::Gpu {
        katas::DEFAULT_SEED
    } else {
        fresh_seed()
    }
}
