//! The catalogue checks itself, one test per package part (the rules are `katas::rules`, shared
//! with the grader's catalogue test and `infrakata kata check`):
//! - `<slug>::package`   the folder is complete (statement sections, hints, markers, ≥3 wrong)
//!   and every case is named in 中文;
//! - `<slug>::reference` the reference passes every case, in `run` and `submit`;
//! - `<slug>::starter`   the starter compiles warning-free (workspace lints) and fails;
//! - `<slug>::wrong::*`  every known-wrong solution gets exactly the verdict it is marked with;
//! - `<slug>::learner`   the learner's own `katas/workspace/<slug>.rs`, when it exists, passes.
//!
//! `cargo test -p katas fast-power` (or `fast_power`) selects one kata; several filters select
//! the tests matching any of them.
//!
//! GPU katas need NVRTC to compile their kernels and a GPU to run them. Without a GPU, every
//! kernel is still compiled and its signature checked (so `compile_error` solutions are fully
//! checked) and the run is skipped with the reason printed; `INFRAKATA_REQUIRE_GPU=1` makes that
//! a failure. Without NVRTC the GPU tests skip too, except under `INFRAKATA_CI=1`, whose test
//! script installs NVRTC (`scripts/install-nvrtc.sh`).

use katas::catalogue::{self, Which};
use katas::rules::{self, Checked};
use katas::{Kata, Mode, Report, Verdict};
use libtest_mimic::{Arguments, Failed, Trial};

/// A solution file from `katas/workspace/`, compiled into this test binary by `build.rs`.
struct LearnerSolution {
    slug: &'static str,
    path: &'static str,
    run: fn(Mode) -> Report,
}

include!(concat!(env!("OUT_DIR"), "/learner.rs"));

fn main() {
    let (raw, filters) = split_filters(std::env::args().collect());
    let mut args = Arguments::from_iter(raw);
    let mut trials = Vec::new();
    for &kata in catalogue::all() {
        let slug = kata.meta().slug.clone();
        trials.push(Trial::test(format!("{slug}::package"), move || {
            package_is_complete(kata)
        }));
        for rule in rules::rules(kata) {
            trials.push(Trial::test(
                format!("{slug}::{}", rule.test_name()),
                move || match (rule.part, kata.meta().kind) {
                    (rules::Part::Reference, katas::KataKind::Gpu) => gpu_reference(kata, &rule),
                    _ => outcome(rules::check_in_process(kata, &rule)),
                },
            ));
        }
    }
    for learner in learner_solutions() {
        trials.push(Trial::test(
            format!("{}::learner", learner.slug),
            move || learner_passes(&learner),
        ));
    }
    trials.push(Trial::test(
        "new-kata::scaffold-is-reported-incomplete",
        scaffold_is_incomplete,
    ));
    if filters.len() > 1 {
        // libtest takes one filter; with several (`-- ring-allreduce tp-split`), a test runs
        // when its name matches any of them.
        let exact = args.exact;
        trials.retain(|t| {
            filters.iter().any(|f| {
                if exact {
                    t.name() == f
                } else {
                    t.name().contains(f.as_str())
                }
            })
        });
    } else {
        args.filter = filters.into_iter().next();
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Separates the positional filters (with `_` read as `-`, so a module name selects its kata)
/// from libtest's options, which are returned as they came.
fn split_filters(args: Vec<String>) -> (Vec<String>, Vec<String>) {
    const TAKES_VALUE: [&str; 6] = [
        "--test-threads",
        "--logfile",
        "--skip",
        "--color",
        "--format",
        "-Z",
    ];
    let mut options = Vec::new();
    let mut filters = Vec::new();
    let mut args = args.into_iter();
    options.extend(args.next());
    while let Some(arg) = args.next() {
        if TAKES_VALUE.contains(&arg.as_str()) {
            options.push(arg);
            options.extend(args.next());
        } else if arg.starts_with('-') {
            options.push(arg);
        } else {
            filters.push(arg.replace('_', "-"));
        }
    }
    (options, filters)
}

fn package_is_complete(kata: &dyn Kata) -> Result<(), Failed> {
    let mut findings = katas::lint::lint(kata.dir());
    findings.extend(katas::lint::untranslated_cases(kata));
    if findings.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = findings
        .iter()
        .map(|f| format!("  {}: {}", f.file, f.problem))
        .collect();
    Err(format!(
        "{} is incomplete:\n{}",
        kata.dir().display(),
        lines.join("\n")
    )
    .into())
}

/// A GPU kata's reference by its rule, then its device timings printed: on a lent GPU machine
/// without a Rust toolchain (`scripts/gpu-check.sh --packed`) these are the only kernel figures.
fn gpu_reference(kata: &dyn Kata, rule: &rules::Rule) -> Result<(), Failed> {
    for &mode in rule.modes {
        let report = kata
            .evaluate_own(rule.which(), mode)
            .ok_or("the package has no reference")?;
        match rule.check(mode, &rules::Observed::from_report(&report)) {
            Checked::Held => {}
            other => return outcome(other),
        }
        if mode == Mode::Submit {
            for case in &report.cases {
                if let Some(t) = &case.device {
                    println!(
                        "in-process {}: {}: {} (median {:.3} ms of {} runs)",
                        kata.meta().slug,
                        case.name,
                        t.rate_text(),
                        t.median_ms,
                        t.runs
                    );
                }
            }
        }
    }
    Ok(())
}

/// A rule's answer as a test result: a run this machine cannot do prints why and passes.
fn outcome(checked: Checked) -> Result<(), Failed> {
    match checked {
        Checked::Held => Ok(()),
        Checked::Broken { why, .. } => Err(why.into()),
        Checked::Skipped(missing) => {
            println!("{}", missing.skip_note());
            Ok(())
        }
    }
}

fn learner_passes(learner: &LearnerSolution) -> Result<(), Failed> {
    let report = (learner.run)(Mode::Submit);
    if report.verdict == Verdict::Accepted {
        return Ok(());
    }
    Err(format!(
        "your solution in {} is not accepted yet.\n{}",
        learner.path,
        report.explain()
    )
    .into())
}

fn scaffold_is_incomplete() -> Result<(), Failed> {
    template_is_incomplete(catalogue::scaffold(), &[])?;
    template_is_incomplete(
        catalogue::data_scaffold(),
        &[katas::layout::DATA_CASES_FILE, katas::layout::META_FILE],
    )
}

fn template_is_incomplete(scaffold: &dyn Kata, also: &[&str]) -> Result<(), Failed> {
    let findings = katas::lint::lint(scaffold.dir());
    let mentions = |file: &str| findings.iter().any(|f| f.file == file);
    if !(mentions("README.md")
        && mentions("README.zh.md")
        && mentions("reference.rs")
        && mentions("wrong")
        && also.iter().all(|f| mentions(f)))
    {
        return Err(format!("the template should be reported incomplete, got {findings:?}").into());
    }
    let report = scaffold
        .evaluate_own(Which::Reference, Mode::Run)
        .expect("reference exists");
    if report.verdict != Verdict::InternalError {
        return Err(format!(
            "the template's reference is todo!(), yet: {}",
            report.explain()
        )
        .into());
    }
    Ok(())
}
