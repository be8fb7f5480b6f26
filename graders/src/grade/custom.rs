//! A custom-input run: the learner's program on one input of their own, through the same
//! compile (and compile cache), sandboxed run and session judging as every grading; the
//! reference's answer comes from the trusted side ([`katas::custom`]).

use super::{Grader, Stage};
use crate::GradeError;
use crate::report::GradeReport;

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
        let (_, package) = super::builtin_for(slug, source)?;
        if package.meta.kind == katas::KataKind::Gpu {
            // Known before any kata code runs: the form is never offered for one.
            return Err(GradeError::CustomInput(
                katas::custom::CustomError::Refused(katas::Refusal::not_offered()),
            ));
        }
        self.custom_package(package, source, input, progress)
    }
}
