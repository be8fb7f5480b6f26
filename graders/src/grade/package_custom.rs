//! `Grader::custom_package` and `Grader::package_examples`: custom input on a version built
//! from its package. Only the package's code can read a learner's JSON as its input, so its
//! judge admits the input and answers it with the reference, in the sandbox beside the
//! learner's program; a refused input is the run's verdict ([`Verdict::InputRefused`]), not an
//! error. The compile, run and report are [`Grader::grade_package`]'s.
//!
//! [`Verdict::InputRefused`]: katas::Verdict::InputRefused

use super::{Grader, Stage, ms};
use crate::GradeError;
use crate::package::{FunctionPackage, ProcessJudging};
use crate::report::{CustomOutputs, GradeReport};
use crate::run::Purpose;
use katas::custom::InputExamples;
use katas::judge::Judging;
use katas::{Mode, Report};

impl Grader {
    /// Runs `source` on the custom `input` (JSON) of `package`'s kata: one case, both answers
    /// in [`GradeReport::custom`]. `Err(GradeError::CustomInput)` only for what needs no kata
    /// code to see (too large, not JSON); the kata's own refusal is a report.
    pub fn custom_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let meta = &package.meta;
        let slug = meta.slug.as_str();
        super::check_source_size(source)?;
        katas::custom::check_json(input).map_err(GradeError::CustomInput)?;
        progress(Stage::Queued);
        let _slot = self.slots.acquire();
        progress(Stage::Compiling);
        let (judge, library) = self.package_programs(package)?;
        std::thread::scope(|s| {
            // The judge admits and answers the input while rustc builds the learner's program.
            let (admitted, built) =
                self.build_beside_judge(s, meta, &library, source, Mode::Run, || {
                    ProcessJudging::start_custom(
                        s,
                        &self.sandbox,
                        &judge,
                        slug,
                        &meta.limits,
                        input,
                    )
                })?;
            let (judging, reference) = match admitted {
                Ok(admitted) => admitted,
                Err(refusal) => {
                    progress(Stage::Done);
                    return Ok(GradeReport::input_refused(slug, input, refusal));
                }
            };
            let outputs = |learner| {
                Some(CustomOutputs {
                    input: input.to_string(),
                    reference: reference.clone(),
                    learner,
                })
            };
            let (binary, mut resources, diagnostics) = match built? {
                Ok(built) => built,
                Err(report) => {
                    progress(Stage::Done);
                    return Ok(GradeReport {
                        custom: outputs(None),
                        ..report
                    });
                }
            };
            progress(Stage::Running);
            let case_input = judging
                .input_bytes(0)
                .map_err(|e| GradeError::kata(slug)(judging.failure().unwrap_or(e)))?;
            let ran = self.run_beside_judge(
                meta,
                &judging,
                &binary,
                &judging.case_list(),
                katas::DEFAULT_SEED,
                Purpose::Custom { input: &case_input },
            )?;
            resources.run_wall_ms = ms(ran.wall);
            resources.run_cpu_ms = ms(ran.cpu);
            resources.peak_memory_bytes = ran.peak_memory_bytes;
            let learner = judging.learner_output();
            progress(Stage::Done);
            Ok(GradeReport {
                custom: outputs(learner),
                ..GradeReport::judged(
                    Report::from_cases(slug, ran.cases),
                    Mode::Run,
                    diagnostics,
                    resources,
                    ran.message,
                    ran.output,
                )
            })
        })
    }

    /// What the custom-input form of `package`'s kata starts from, made by its judge (built or
    /// taken from the cache): asked once when a version is published.
    pub fn package_examples(&self, package: &FunctionPackage) -> Result<InputExamples, GradeError> {
        let judge = self.package_judge(package)?;
        let meta = &package.meta;
        ProcessJudging::examples(&self.sandbox, &judge, &meta.slug, &meta.limits)
    }
}
