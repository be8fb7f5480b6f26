//! [`Grade`]: the operations a grading worker (and the service's publishing, which verifies a
//! stdin/stdout package before it goes live) calls, as a trait.
//!
//! It exists as a test seam. The service's workers take an `Arc<dyn Grade>`, so the service's
//! own tests (queue, leases, events, pages, withdrawal, replicas) can run them with a scripted
//! grader that needs no sandbox, no root and no rustc, while every test of grading itself keeps
//! the real [`Grader`], the only implementation the binary uses. `infrakata grade` (the CLI)
//! calls [`Grader`] directly.

use super::{Grader, Judged, Stage};
use crate::GradeError;
use crate::grade::PackageCheck;
use crate::package::FunctionPackage;
use crate::report::{GradeReport, Measured};
use katas::Mode;
use katas::custom::InputExamples;
use katas::io::IoPackage;

/// What a grading worker needs from a grader; see [`Grader`] for what each operation means.
pub trait Grade: Send + Sync + std::fmt::Debug {
    /// The verdict ([`Grader::judge`]); an accepted `submit` may still owe its figure.
    fn judge(
        &self,
        slug: &str,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<Judged, GradeError>;

    /// Adds the figure a [`Judged`] owes ([`Grader::measure`]); one owing nothing comes back
    /// as it is.
    fn measure(&self, judged: Judged, progress: &dyn Fn(Stage)) -> Result<GradeReport, GradeError>;

    /// The instruction count of an accepted CPU `submit` whose verdict is already published
    /// ([`Grader::measure_submission`]).
    fn measure_submission(
        &self,
        slug: &str,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError>;

    /// The instruction count of an accepted `submit` of the function package `package` whose
    /// verdict is already published ([`Grader::measure_package`]).
    fn measure_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError>;

    /// A custom-input run ([`Grader::custom`]).
    fn custom(
        &self,
        slug: &str,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError>;

    /// Work the next figure of `slug` would otherwise do while a learner waits, done now that
    /// one is out ([`Grader::bank_reference_count`]). A grader with nothing to prepare does
    /// nothing.
    fn prepare_next_figure(&self, _slug: &str) -> Result<(), GradeError> {
        Ok(())
    }

    /// The verdict of a program for the stdin/stdout kata `package` ([`Grader::grade_io`]):
    /// final, it owes no figure.
    fn judge_io(
        &self,
        package: &IoPackage,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError>;

    /// Every check of the stdin/stdout package `package` ([`Grader::verify_io`]).
    fn verify_io(&self, package: &IoPackage) -> Result<Vec<PackageCheck>, GradeError>;

    /// The verdict of a solution for the function package `package`, graded from its own files
    /// ([`Grader::grade_package`]): final; an accepted `submit` owes its figure
    /// ([`GradeReport::awaits_figure`]).
    fn judge_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError>;

    /// Every rule of the function package `package`, in the sandbox
    /// ([`Grader::verify_package`]).
    fn verify_package(&self, package: &FunctionPackage) -> Result<Vec<PackageCheck>, GradeError>;

    /// A custom-input run on the function package `package` ([`Grader::custom_package`]).
    fn custom_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError>;

    /// What the custom-input form of `package`'s kata starts from
    /// ([`Grader::package_examples`]).
    fn package_examples(&self, package: &FunctionPackage) -> Result<InputExamples, GradeError>;
}

impl Grade for Grader {
    fn judge(
        &self,
        slug: &str,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<Judged, GradeError> {
        Grader::judge(self, slug, source, mode, progress)
    }

    fn measure(&self, judged: Judged, progress: &dyn Fn(Stage)) -> Result<GradeReport, GradeError> {
        Grader::measure(self, judged, progress)
    }

    fn measure_submission(
        &self,
        slug: &str,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        Grader::measure_submission(self, slug, source, progress)
    }

    fn measure_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        Grader::measure_package(self, package, source, progress)
    }

    fn custom(
        &self,
        slug: &str,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Grader::custom(self, slug, source, input, progress)
    }

    fn prepare_next_figure(&self, slug: &str) -> Result<(), GradeError> {
        self.bank_reference_count(slug)
    }

    fn judge_io(
        &self,
        package: &IoPackage,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Grader::grade_io(self, package, source, mode, progress)
    }

    fn verify_io(&self, package: &IoPackage) -> Result<Vec<PackageCheck>, GradeError> {
        Grader::verify_io(self, package)
    }

    fn judge_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Grader::grade_package(self, package, source, mode, progress)
    }

    fn verify_package(&self, package: &FunctionPackage) -> Result<Vec<PackageCheck>, GradeError> {
        Grader::verify_package(self, package)
    }

    fn custom_package(
        &self,
        package: &FunctionPackage,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Grader::custom_package(self, package, source, input, progress)
    }

    fn package_examples(&self, package: &FunctionPackage) -> Result<InputExamples, GradeError> {
        Grader::package_examples(self, package)
    }
}
