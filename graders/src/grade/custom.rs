//! A custom-input run: the learner's program on one input of their own, through the same
//! compile (and compile cache), sandboxed run and session judging as every grading; the
//! reference's answer comes from the trusted side ([`katas::custom`]).

use super::{Grader, Stage, ms};
use crate::GradeError;
use crate::report::{CustomOutputs, GradeReport};
use crate::run::{self, Purpose};
use katas::{Mode, Report};

impl Grader {
    /// Runs `source` for the kata `slug` on the custom input `input` (JSON). The report has
    /// one case (passed, or the mismatch / limit that stopped it) and [`GradeReport::custom`]
    /// with both answers. `Err(GradeError::CustomInput)` when the kata refuses the input.
    pub fn custom(
        &self,
        slug: &str,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let kata = super::kata_for(slug, source)?;
        if let Some(package) = crate::package::builtin(slug) {
            return self.custom_package(package, source, input, progress);
        }
        let case = kata.custom(input).map_err(|e| {
            if e.is_input() {
                GradeError::CustomInput(e)
            } else {
                GradeError::Internal(format!("kata `{slug}`: {e}"))
            }
        })?;
        progress(Stage::Queued);
        let _slot = self.slots.acquire();
        progress(Stage::Compiling);
        let (binary, mut resources, diagnostics) = match self.build(kata, source, Mode::Run)? {
            Ok(built) => built,
            Err(report) => {
                progress(Stage::Done);
                // Still a custom run (the pages and the API tell it apart by `custom`): the
                // reference's answer is known, the program gave none.
                return Ok(GradeReport {
                    custom: Some(CustomOutputs {
                        input: input.to_string(),
                        reference: case.reference_output.clone(),
                        learner: None,
                    }),
                    ..report
                });
            }
        };
        progress(Stage::Running);
        let ran = run::run(
            &self.sandbox,
            run::Subject::of(kata),
            &*case.judging,
            &binary,
            std::slice::from_ref(&case.info),
            katas::DEFAULT_SEED,
            &self.gpu_host,
            Purpose::Custom { input: &case.input },
        )?;
        resources.run_wall_ms = ms(ran.wall);
        resources.run_cpu_ms = ms(ran.cpu);
        resources.peak_memory_bytes = ran.peak_memory_bytes;
        let judged = Report::from_cases(slug, ran.cases);
        progress(Stage::Done);
        Ok(GradeReport {
            custom: Some(CustomOutputs {
                input: input.to_string(),
                reference: case.reference_output.clone(),
                learner: case.learner_output(),
            }),
            ..GradeReport::judged(
                judged,
                Mode::Run,
                diagnostics,
                resources,
                ran.message,
                ran.output,
            )
        })
    }
}
