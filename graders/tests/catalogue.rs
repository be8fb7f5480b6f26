//! One grading path: every kata's reference, starter and known-wrong solutions go through the
//! real sandboxed pipeline (`Grader::grade`, as `infrakata grade` and the server use it) and
//! must keep the same package rules (`katas::rules`) the package tests check in-process.
//!
//! Needs root and the sandbox's kernel features; skips with the reason otherwise, and fails
//! instead under `INFRAKATA_CI=1`.

mod common;

use common::grader;
use graders::{Grader, GraderConfig};
use katas::rules::{self, Checked, Observed, Part};
use katas::{Kata, Verdict};
use libtest_mimic::{Failed, Trial};

fn main() {
    common::run_suite("catalogue grading", || grader().map(drop), trials);
}

fn trials() -> Vec<Trial> {
    let mut out = vec![
        Trial::test(
            "toolchain::a_start_reuses_the_prepared_library_until_it_changes",
            reuses_the_prepared_library,
        ),
        Trial::test(
            "compile::a_cache_hit_reports_the_warnings_of_its_compile",
            a_cache_hit_reports_the_warnings,
        ),
        Trial::test(
            "compile::a_missing_entry_point_is_named_in_the_learner_s_terms",
            a_missing_entry_point_is_named,
        ),
        Trial::test(
            "measure::a_banked_reference_count_serves_one_figure",
            a_banked_reference_count_serves_one_figure,
        ),
        Trial::test(
            "measure::a_gpu_kata_is_never_counted",
            a_gpu_kata_is_never_counted,
        ),
        Trial::test(
            "package::every_kata_of_the_build_prepares_its_library_and_judge",
            || {
                // What `serve` and `worker` do as they start; a failure names the kata.
                let failed = grader()?.prepare_builtin();
                if failed.is_empty() {
                    Ok(())
                } else {
                    Err(format!("{failed:?}").into())
                }
            },
        ),
    ];
    out.extend(custom_trials());
    for &kata in katas::catalogue::all() {
        let slug = kata.meta().slug.clone();
        for rule in rules::rules(kata).into_iter().map(rules::Rule::in_sandbox) {
            out.push(Trial::test(
                format!("{slug}::{}", rule.test_name()),
                move || {
                    let mut reports = Vec::new();
                    for &mode in rule.modes {
                        let graded =
                            grader()?.grade(&kata.meta().slug, rule.source(kata), mode, &|_| {});
                        match rule.check(mode, &observed(&graded)?) {
                            Checked::Held => reports.extend(graded.ok()),
                            Checked::Broken { why, .. } => return Err(why.into()),
                            Checked::Skipped(missing) => {
                                println!("{}", missing.skip_note());
                                return Ok(());
                            }
                        }
                    }
                    // Beyond the package rule, the grader's own figure for the reference.
                    match (rule.part, reports.last()) {
                        (Part::Reference, Some(report)) => reference_figures(kata, report),
                        _ => Ok(()),
                    }
                },
            ));
        }
    }
    out
}

/// A sandboxed grading as the package rules see it: a GPU kata whose sandbox found no device
/// (or no NVRTC) comes back as `GradeError::Unavailable`; any other error is ours and fails.
fn observed(
    graded: &Result<graders::GradeReport, graders::GradeError>,
) -> Result<Observed, Failed> {
    match graded {
        Ok(report) => Ok(Observed {
            verdict: report.verdict,
            unavailable: None,
            details: details(report),
        }),
        Err(graders::GradeError::Unavailable(why)) => Ok(Observed {
            verdict: Verdict::InternalError,
            unavailable: katas::gpu::Unavailable::from_message(why),
            details: why.clone(),
        }),
        Err(e) => Err(format!("the grader failed: {e}").into()),
    }
}

/// The reference graded as a submission: its performance figure against itself is 1.
fn reference_figures(kata: &dyn Kata, report: &graders::GradeReport) -> Result<(), Failed> {
    if kata.meta().kind == katas::KataKind::Gpu {
        return gpu_reference_figures(report);
    }
    let perf = report
        .performance
        .as_ref()
        .ok_or("an accepted submit has a performance figure")?;
    // A single-threaded program counts the same on the same inputs, to the instruction; ranks
    // on threads wait on condition variables, so their count varies by a little (measured
    // ≤ 0.12%).
    if kata.meta().limits.max_threads <= 1 {
        if perf.instructions != perf.reference_instructions {
            return Err(
                format!("the reference against itself should count the same: {perf:?}").into(),
            );
        }
    } else if (perf.ratio - 1.0).abs() > 0.005 {
        return Err(
            format!("the reference against itself should be 1.0 ± 0.5%, got {perf:?}").into(),
        );
    }
    Ok(())
}

/// The reference timed against itself: every performance case has a device timing, nothing
/// is suspect, and the speedup over itself is near 1.
fn gpu_reference_figures(report: &graders::GradeReport) -> Result<(), Failed> {
    let perf = report
        .gpu_performance
        .as_ref()
        .ok_or("an accepted GPU submit has device timings")?;
    if perf.cases.is_empty() {
        return Err("no timed performance case".into());
    }
    for case in &perf.cases {
        println!(
            "{}: {} ({:.1}% of peak), {:.2}× the reference",
            case.case,
            case.speed.rate_text,
            case.speed.percent_of_peak.unwrap_or(f64::NAN),
            case.speed.speedup_over_reference.unwrap_or(f64::NAN)
        );
        let speedup = case.speed.speedup_over_reference.unwrap_or(0.0);
        if case.speed.suspect || !(0.5..=2.0).contains(&speedup) {
            return Err(format!("the reference against itself: {case:?}").into());
        }
    }
    Ok(())
}

/// What a person needs when a rule breaks: the message, the first failing case, diagnostics.
fn details(report: &graders::GradeReport) -> String {
    let first = report
        .cases
        .iter()
        .find(|c| c.outcome != katas::Outcome::Passed);
    format!(
        "message {:?}, first failing case {:?}, diagnostics {:?}",
        report.message,
        first.map(|c| (&c.name, c.outcome, &c.message, &c.mismatch)),
        report
            .diagnostics
            .iter()
            .map(|d| &d.rendered)
            .collect::<Vec<_>>()
    )
}

/// A reference count banked ahead serves exactly one figure, and that figure is the one an
/// unbanked measurement gives. The reference measured as a submission counts exactly what the
/// reference counted on the same inputs, every time: the counter is repeatable to the
/// instruction (fast-power is single-threaded, so nothing but the inputs could move it).
fn a_banked_reference_count_serves_one_figure() -> Result<(), Failed> {
    grader()?;
    // A grader of its own: the other trials' figures would take a shared grader's entry.
    let grader = &Grader::new(GraderConfig::for_checkout()).map_err(|e| e.to_string())?;
    let slug = "fast-power";
    let reference = katas::catalogue::find(slug)
        .ok_or("fast-power")?
        .package()
        .reference;
    let banked = || format!("{grader:?}").contains("reference_bank: {\"fast-power@");
    for round in ["banked", "unbanked"].repeat(3) {
        if round == "banked" {
            grader
                .bank_reference_count(slug)
                .map_err(|e| e.to_string())?;
            if !banked() {
                return Err(format!("nothing banked: {grader:?}").into());
            }
        }
        let measured = grader
            .measure_submission(slug, reference, &|_| {})
            .map_err(|e| e.to_string())?;
        let graders::report::Measured::Figure(figure) = measured else {
            return Err(format!("{round}: no figure: {measured:?}").into());
        };
        if figure.instructions != figure.reference_instructions {
            return Err(format!("{round}: the reference against itself: {figure:?}").into());
        }
        if banked() {
            return Err(format!("{round}: the banked count was not taken: {grader:?}").into());
        }
    }
    Ok(())
}

/// A GPU kata's figure comes with its verdict (device timings): a measurement job for one is
/// our mistake, said before anything is built or run.
fn a_gpu_kata_is_never_counted() -> Result<(), Failed> {
    let grader = grader()?;
    let slug = "gpu-pow-mod";
    let reference = katas::catalogue::find(slug)
        .ok_or(slug)?
        .package()
        .reference;
    match grader.measure_submission(slug, reference, &|_| {}) {
        Err(graders::GradeError::Internal(why)) if why.contains("come with its verdict") => Ok(()),
        other => Err(format!("{slug} measured: {other:?}").into()),
    }
}

/// `infrakata grade` starts without running cargo or rustc when the recorded preparation
/// still matches; a changed library file is noticed and prepared again.
fn reuses_the_prepared_library() -> Result<(), Failed> {
    use graders::sandbox::{Sandbox, SandboxConfig};
    use graders::toolchain::Toolchain;
    grader()?;
    let config = GraderConfig::for_checkout();
    let target = config.cache_dir.join("katas-target");
    let prepare = || {
        let sandbox = Sandbox::new(SandboxConfig::default()).map_err(|e| e.to_string())?;
        Toolchain::prepare(&sandbox, &config.workspace_root, &target).map_err(|e| e.to_string())
    };
    let first = prepare()?;
    let again = prepare()?;
    if !again.reused || again.runtime.hash != first.runtime.hash || again.version != first.version {
        return Err(format!("not reused as it was: {first:?} then {again:?}").into());
    }
    let rlib = std::fs::File::options()
        .append(true)
        .open(&first.runtime.rlib)
        .map_err(|e| e.to_string())?;
    rlib.set_modified(std::time::SystemTime::now())
        .map_err(|e| e.to_string())?;
    let changed = prepare()?;
    if changed.reused || changed.runtime.hash != first.runtime.hash {
        return Err(format!("a touched library was trusted: {changed:?}").into());
    }
    if !prepare()?.reused {
        return Err("the new preparation was not recorded".into());
    }
    Ok(())
}

/// Custom input through the sandboxed path: every CPU kata's reference on its pre-filled
/// sample gives the reference's own answer; a known-wrong solution shows its wrong answer
/// beside the reference's; a GPU kata refuses custom input as the learner's bad request.
fn custom_trials() -> Vec<Trial> {
    let mut out = Vec::new();
    for &kata in katas::catalogue::all() {
        let slug = kata.meta().slug.clone();
        let Some(sample) = kata.sample_input() else {
            continue;
        };
        out.push(Trial::test(
            format!("custom::{slug}::the_reference_answers_like_the_reference"),
            move || {
                let report = grader()?.custom(
                    &kata.meta().slug,
                    kata.package().reference,
                    &sample,
                    &|_| {},
                )?;
                let shown = report.custom.as_ref().ok_or("no custom outputs")?;
                if report.verdict != Verdict::Accepted || report.cases.len() != 1 {
                    return Err(details(&report).into());
                }
                if shown.learner.as_deref() != Some(shown.reference.as_str()) {
                    return Err(format!("outputs differ: {shown:?}").into());
                }
                Ok(())
            },
        ));
    }
    out.push(Trial::test(
        "custom::fast-power::a_wrong_answer_is_shown_beside_the_reference",
        || {
            let kata = katas::catalogue::find("fast-power").ok_or("no fast-power")?;
            let wrong = kata
                .package()
                .wrong
                .iter()
                .find(|w| w.name == "forgets-modulus-one")
                .ok_or("no such wrong solution")?;
            let report = grader()?.custom(
                "fast-power",
                wrong.source,
                r#"{"PowMod":[[5,0,1]]}"#,
                &|_| {},
            )?;
            let shown = report.custom.as_ref().ok_or("no custom outputs")?;
            if report.verdict != Verdict::WrongAnswer
                || shown.reference != r#"{"PowMod":[0]}"#
                || shown.learner.as_deref() != Some(r#"{"PowMod":[1]}"#)
                || report.cases[0].mismatch.is_none()
            {
                return Err(format!("{}\n{shown:?}", details(&report)).into());
            }
            Ok(())
        },
    ));
    out.push(Trial::test(
        "custom::a_refused_input_is_a_bad_request",
        || {
            let kata = katas::catalogue::find("fast-power").ok_or("no fast-power")?;
            for (slug, input) in [("fast-power", "not json"), ("gpu-pow-mod", "{}")] {
                match grader()?.custom(slug, kata.package().reference, input, &|_| {}) {
                    Err(e) if e.is_bad_request() => {}
                    other => return Err(format!("{slug} {input}: {other:?}").into()),
                }
            }
            Ok(())
        },
    ));
    out.push(Trial::test(
        "custom::input_outside_the_statement_is_the_run_s_verdict",
        || {
            // The kata's own code reads the input, in its judge process: what it refuses comes
            // back as the run's `input_refused`, in both languages, with nothing run.
            let kata = katas::catalogue::find("fast-power").ok_or("no fast-power")?;
            let input = r#"{"PowMod":[[5,0,0]]}"#;
            let report = grader()?
                .custom("fast-power", kata.package().reference, input, &|_| {})
                .map_err(|e| e.to_string())?;
            let said = report.message.as_ref().ok_or("no message")?;
            if report.verdict != katas::Verdict::InputRefused
                || !said.en.contains("modulus 0")
                || said.zh.is_none()
                || !report.cases.is_empty()
            {
                return Err(format!("{report:?}").into());
            }
            Ok(())
        },
    ));
    out
}

/// An identical resubmission is served from the compile cache with the warnings the first
/// compile gave, not silently without them.
fn a_cache_hit_reports_the_warnings() -> Result<(), Failed> {
    let reference = katas::catalogue::find("fast-power")
        .ok_or("no fast-power")?
        .package()
        .reference;
    // Unique per process, so the first grading really compiles.
    let source = format!(
        "{reference}\nfn never_called_{}() {{ let unused = 1; }}\n",
        std::process::id()
    );
    let warnings = |report: &graders::GradeReport| {
        report
            .diagnostics
            .iter()
            .filter(|d| d.level == "warning")
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    };
    let first = grader()?
        .grade("fast-power", &source, katas::Mode::Run, &|_| {})
        .map_err(|e| e.to_string())?;
    let hit = grader()?
        .grade("fast-power", &source, katas::Mode::Run, &|_| {})
        .map_err(|e| e.to_string())?;
    let cached = hit.resources.compile_cached;
    if !cached {
        return Err("the resubmission was compiled again".into());
    }
    if warnings(&first).is_empty() || warnings(&hit) != warnings(&first) {
        return Err(format!(
            "warnings {:?} first, {:?} on the hit",
            warnings(&first),
            warnings(&hit)
        )
        .into());
    }
    Ok(())
}

/// A file without one of the kata's functions gets a compile error that names the function
/// and says what to write, not rustc's words about the generated runner.
fn a_missing_entry_point_is_named() -> Result<(), Failed> {
    let source = "pub fn power(base: f64, exponent: i32) -> f64 { base.powi(exponent) }\n";
    let report = grader()?
        .grade("fast-power", source, katas::Mode::Run, &|_| {})
        .map_err(|e| e.to_string())?;
    if report.verdict != Verdict::CompileError {
        return Err(format!("verdict {:?}", report.verdict).into());
    }
    let named = report
        .diagnostics
        .iter()
        .any(|d| d.level == "error" && d.message.en.contains("must define `pub fn pow_mod(...)`"));
    if !named {
        return Err(format!("{:?}", report.diagnostics).into());
    }
    Ok(())
}
