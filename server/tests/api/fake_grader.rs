//! A scripted grader: a test seam for the service's own tests (queue, leases, events, pages,
//! withdrawal, replicas), so they run without root, the sandbox or rustc, and never skip.
//!
//! It compiles and runs nothing. The verdict comes from the submitted source:
//!
//! - a comment `// fake: VERDICT` (alone or ending a line) (`accepted`, `wrong_answer`, `compile_error`, `runtime_error`,
//!   `time_limit_exceeded`, …, the API's names) decides it;
//! - without one, the kata's reference is `accepted` and anything else `wrong_answer`;
//! - `// fake: slow 300ms` waits that long while "running" (combine it with a verdict line);
//! - `// fake: unavailable` fails as a host that cannot grade now (retryable), `// fake:
//!   broken` as our own deterministic failure.
//!
//! The reports are real [`GradeReport`]s built through graders' constructors from the kata's
//! real case list (names, groups, the mode's selection), `progress` hears the real stages in
//! order, an accepted CPU `submit` owes its instruction count exactly as the real grader's does
//! (so the measure-job path runs; [`FakeGrader::measure_submission`] gives
//! [`FakeGrader::INSTRUCTIONS`]), and a custom run answers with the reference's real answer
//! (the trusted side, no sandbox). Tests of grading itself — real verdicts of real solutions,
//! limits, hostile code, real instruction counts — keep the real grader (`helpers::grader`).

use graders::report::{Performance, Resources};
use graders::{CustomOutputs, Grade, GradeError, GradeReport, Judged, Measured, Stage};
use katas::judge::CaseInfo;
use katas::{CaseReport, KataKind, Message, Mismatch, Mode, Outcome, Report, Verdict};
use std::time::Duration;

#[derive(Debug, Default)]
pub struct FakeGrader;

impl FakeGrader {
    /// The instruction count every fake measurement gives (the reference's is the same).
    pub const INSTRUCTIONS: u64 = 1_000_000;
}

/// What the source's `// fake:` lines ask for.
#[derive(Debug, Default)]
struct Script {
    verdict: Option<Verdict>,
    slow: Duration,
    fail: Option<fn(String) -> GradeError>,
    /// The 1-based line of the verdict marker (a compile error points at it).
    line: u32,
}

fn script(source: &str) -> Script {
    let mut script = Script::default();
    for (i, line) in source.lines().enumerate() {
        let Some(word) = line.split_once("// fake:").map(|(_, w)| w.trim()) else {
            continue;
        };
        if let Some(ms) = word
            .strip_prefix("slow")
            .and_then(|w| w.trim().strip_suffix("ms"))
        {
            script.slow = Duration::from_millis(ms.trim().parse().expect("`slow Nms`"));
        } else if word == "unavailable" {
            script.fail = Some(GradeError::Unavailable);
        } else if word == "broken" {
            script.fail = Some(GradeError::Internal);
        } else {
            let verdict = Verdict::parse(word)
                .unwrap_or_else(|| panic!("unknown fake marker `// fake: {word}`"));
            script.verdict = Some(verdict);
            script.line = i as u32 + 1;
        }
    }
    script
}

fn kata(slug: &str, source: &str) -> Result<&'static dyn katas::catalogue::Kata, GradeError> {
    let kata =
        katas::catalogue::find(slug).ok_or_else(|| GradeError::UnknownKata(slug.to_string()))?;
    if source.len() > graders::MAX_SOURCE_BYTES {
        return Err(GradeError::SourceTooLarge {
            bytes: source.len(),
            limit: graders::MAX_SOURCE_BYTES,
        });
    }
    Ok(kata)
}

fn case_report(info: CaseInfo, outcome: Outcome) -> CaseReport {
    CaseReport {
        name: info.name,
        name_zh: info.name_zh,
        group: info.group,
        outcome,
        time_ms: 1.0,
        input: None,
        input_zh: None,
        mismatch: None,
        message: None,
        notes: Vec::new(),
        notes_zh: Vec::new(),
        device: None,
    }
}

/// The kata's cases for `mode`, the first one failing with `verdict`'s outcome: the rest pass
/// after a wrong answer, and are not run after a stop (as the session reports them).
fn cases(kata: &dyn katas::catalogue::Kata, mode: Mode, verdict: Verdict) -> Vec<CaseReport> {
    let infos = kata.case_list().expect("the kata's cases");
    let mut cases: Vec<CaseReport> = infos
        .into_iter()
        .filter(|c| mode.includes(c.group))
        .map(|c| case_report(c, Outcome::Passed))
        .collect();
    let (first, rest) = match verdict {
        Verdict::Accepted => return cases,
        Verdict::WrongAnswer => (Outcome::WrongAnswer, Outcome::Passed),
        Verdict::RuntimeError => (Outcome::RuntimeError, Outcome::NotRun),
        Verdict::TimeLimitExceeded => (Outcome::TimeLimitExceeded, Outcome::NotRun),
        Verdict::MemoryLimitExceeded => (Outcome::MemoryLimitExceeded, Outcome::NotRun),
        Verdict::OutputLimitExceeded => (Outcome::OutputLimitExceeded, Outcome::NotRun),
        Verdict::InternalError => (Outcome::InternalError, Outcome::NotRun),
        Verdict::CompileError | Verdict::InputRefused => {
            unreachable!("a compile error or a refused input has no cases")
        }
    };
    for c in cases.iter_mut().skip(1) {
        c.outcome = rest;
    }
    let failing = &mut cases[0];
    failing.outcome = first;
    failing.input = Some("(the fake grader's input)".into());
    failing.input_zh = Some("（假评测器的输入）".into());
    match first {
        Outcome::WrongAnswer => {
            failing.mismatch = Some(Mismatch {
                message: Message::new("expected 1, got 0", "期望 1，得到 0"),
                expected: "1".into(),
                got: "0".into(),
            })
        }
        _ => {
            failing.message = Some(Message::new(
                format!("the fake grader's {verdict}"),
                format!("假评测器的 {verdict}"),
            ))
        }
    }
    cases
}

fn compile_error(slug: &str, mode: Mode, line: u32) -> GradeReport {
    let words = "expected `f64`, found `i32` (the fake grader)";
    let diagnostic = graders::diagnostics::Diagnostic {
        level: "error".into(),
        code: Some("E0308".into()),
        message: Message::new(words, words),
        line: Some(line.max(1)),
        column: Some(1),
        end_line: Some(line.max(1)),
        end_column: Some(2),
        rendered: format!("error[E0308]: {words}"),
        labels: Vec::new(),
    };
    GradeReport::compile_error(slug, mode, vec![diagnostic], None, Resources::default())
}

/// The verdict `script` asks for; the reference passes and anything else fails by default.
fn verdict_of(kata: &dyn katas::catalogue::Kata, source: &str, script: &Script) -> Verdict {
    script.verdict.unwrap_or_else(|| {
        if source.trim() == kata.package().reference.trim() {
            Verdict::Accepted
        } else {
            Verdict::WrongAnswer
        }
    })
}

fn figure() -> Performance {
    Performance {
        instructions: FakeGrader::INSTRUCTIONS,
        reference_instructions: FakeGrader::INSTRUCTIONS,
        ratio: 1.0,
        cases: 1,
        harness_instructions: 0,
    }
}

/// Compiling, then running (as long as the script says), or the script's failure.
fn compile_and_run(
    slug: &str,
    script: &Script,
    progress: &dyn Fn(Stage),
) -> Result<(), GradeError> {
    progress(Stage::Queued);
    progress(Stage::Compiling);
    if let Some(fail) = script.fail {
        return Err(fail(format!("the fake grader was told to fail `{slug}`")));
    }
    if script.verdict != Some(Verdict::CompileError) {
        progress(Stage::Running);
        std::thread::sleep(script.slow);
    }
    Ok(())
}

impl Grade for FakeGrader {
    fn judge(
        &self,
        slug: &str,
        source: &str,
        mode: Mode,
        progress: &dyn Fn(Stage),
    ) -> Result<Judged, GradeError> {
        let kata = kata(slug, source)?;
        let script = script(source);
        compile_and_run(slug, &script, progress)?;
        let verdict = verdict_of(kata, source, &script);
        if verdict == Verdict::CompileError {
            progress(Stage::Done);
            return Ok(Judged::settled(compile_error(slug, mode, script.line)));
        }
        let report = GradeReport::judged(
            Report::from_cases(slug, cases(kata, mode, verdict)),
            mode,
            Vec::new(),
            Resources::default(),
            None,
            None,
        );
        if verdict == Verdict::Accepted && mode == Mode::Submit && kata.meta().kind == KataKind::Cpu
        {
            // Owed like the real grader's: the worker hands it over to a measurement job.
            return Judged::owing_instruction_count(report, slug, source);
        }
        progress(Stage::Done);
        Ok(Judged::settled(report))
    }

    fn measure(&self, judged: Judged, progress: &dyn Fn(Stage)) -> Result<GradeReport, GradeError> {
        let owed = judged.owes_instruction_count();
        let mut report = judged.report;
        if owed {
            progress(Stage::Measuring);
            report.performance = Some(figure());
            progress(Stage::Done);
        }
        Ok(report)
    }

    fn measure_submission(
        &self,
        slug: &str,
        source: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        let kata = kata(slug, source)?;
        if kata.meta().kind == KataKind::Gpu {
            return Err(GradeError::Internal(format!("`{slug}` is a GPU kata")));
        }
        progress(Stage::Measuring);
        std::thread::sleep(script(source).slow);
        progress(Stage::Done);
        Ok(Measured::Figure(figure()))
    }

    fn custom(
        &self,
        slug: &str,
        source: &str,
        input: &str,
        progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        let kata = kata(slug, source)?;
        // The trusted side for real: the input admitted and the reference's answer to it; a
        // refusal is the run's verdict, as the real grader's judge makes it.
        let case = match kata.custom(input) {
            Ok(case) => case,
            Err(e) if e.is_input() => {
                progress(Stage::Done);
                let message = Message::new(e.message(katas::Lang::En), e.message(katas::Lang::Zh));
                return Ok(GradeReport::input_refused(slug, input, message));
            }
            Err(e) => return Err(GradeError::Internal(format!("kata `{slug}`: {e}"))),
        };
        let script = script(source);
        compile_and_run(slug, &script, progress)?;
        let verdict = verdict_of(kata, source, &script);
        let mut custom = CustomOutputs {
            input: input.to_string(),
            reference: case.reference_output.clone(),
            learner: None,
        };
        let report = if verdict == Verdict::CompileError {
            compile_error(slug, Mode::Run, script.line)
        } else {
            let mut one = case_report(case.info.clone(), Outcome::Passed);
            custom.learner = Some(case.reference_output.clone());
            if verdict != Verdict::Accepted {
                one = cases(kata, Mode::Run, verdict).swap_remove(0);
                one.name = case.info.name.clone();
                one.name_zh = case.info.name_zh.clone();
                one.group = case.info.group;
                custom.learner = (verdict == Verdict::WrongAnswer).then(|| "0".to_string());
            }
            GradeReport::judged(
                Report::from_cases(slug, vec![one]),
                Mode::Run,
                Vec::new(),
                Resources::default(),
                None,
                None,
            )
        };
        progress(Stage::Done);
        Ok(GradeReport {
            custom: Some(custom),
            ..report
        })
    }

    // Stdin/stdout katas run programs and validators in the sandbox; their tests use the real
    // grader (`helpers::grader`), so the script says so rather than pretend.
    fn judge_io(
        &self,
        package: &katas::io::IoPackage,
        _source: &str,
        _mode: Mode,
        _progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Err(GradeError::Internal(format!(
            "the scripted grader grades no stdin/stdout kata (`{}`)",
            package.slug()
        )))
    }

    fn verify_io(
        &self,
        package: &katas::io::IoPackage,
    ) -> Result<Vec<graders::PackageCheck>, GradeError> {
        Err(GradeError::Internal(format!(
            "the scripted grader verifies no stdin/stdout package (`{}`)",
            package.slug()
        )))
    }

    fn judge_package(
        &self,
        package: &graders::package::FunctionPackage,
        _source: &str,
        _mode: Mode,
        _progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Err(GradeError::Internal(format!(
            "the scripted grader builds no package (`{}`)",
            package.meta.slug
        )))
    }

    fn measure_package(
        &self,
        package: &graders::package::FunctionPackage,
        _source: &str,
        _progress: &dyn Fn(Stage),
    ) -> Result<Measured, GradeError> {
        Err(GradeError::Internal(format!(
            "the scripted grader measures no package (`{}`)",
            package.meta.slug
        )))
    }

    fn verify_package(
        &self,
        package: &graders::package::FunctionPackage,
    ) -> Result<Vec<graders::PackageCheck>, GradeError> {
        Err(GradeError::Internal(format!(
            "the scripted grader builds no package (`{}`)",
            package.meta.slug
        )))
    }

    fn custom_package(
        &self,
        package: &graders::package::FunctionPackage,
        _source: &str,
        _input: &str,
        _progress: &dyn Fn(Stage),
    ) -> Result<GradeReport, GradeError> {
        Err(GradeError::Internal(format!(
            "the scripted grader builds no package (`{}`)",
            package.meta.slug
        )))
    }

    /// A build's own package's examples as its compiled reference makes them in this test
    /// process (what its judge makes in the sandbox: `custom_input.rs` holds the two equal),
    /// so the pages under a scripted grader show a filled form.
    fn package_examples(
        &self,
        package: &graders::package::FunctionPackage,
    ) -> Result<katas::custom::InputExamples, GradeError> {
        katas::catalogue::find(&package.meta.slug)
            .filter(|k| k.package().content_hash == package.files.content_hash())
            .map(katas::custom::InputExamples::of)
            .ok_or_else(|| {
                GradeError::Internal(format!(
                    "the scripted grader builds no package (`{}`)",
                    package.meta.slug
                ))
            })
    }
}
