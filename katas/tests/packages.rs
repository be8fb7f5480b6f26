//! The catalogue checks itself, one test per package part:
//! - `<slug>::package`   the folder is complete (statement sections, hints, markers, ≥3 wrong);
//! - `<slug>::reference` the reference passes every case;
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
use katas::{Kata, KataKind, Mode, Report, Verdict};
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
        trials.push(Trial::test(format!("{slug}::reference"), move || {
            reference_passes(kata)
        }));
        trials.push(Trial::test(format!("{slug}::starter"), move || {
            starter_fails(kata)
        }));
        for wrong in kata.package().wrong {
            trials.push(Trial::test(
                format!("{slug}::wrong::{}", wrong.name),
                move || wrong_gets_its_verdict(kata, wrong.name, wrong.expected),
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
    let findings = katas::lint::lint(kata.dir());
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

fn reference_passes(kata: &dyn Kata) -> Result<(), Failed> {
    for mode in [Mode::Run, Mode::Submit] {
        let report = kata
            .evaluate_own(Which::Reference, mode)
            .expect("reference exists");
        if let Some(skip) = cannot_run_here(kata, &report) {
            return skip;
        }
        if report.verdict != Verdict::Accepted {
            return Err(format!("the reference fails ({mode:?}):\n{}", report.explain()).into());
        }
    }
    Ok(())
}

fn starter_fails(kata: &dyn Kata) -> Result<(), Failed> {
    let report = kata
        .evaluate_own(Which::Starter, Mode::Run)
        .expect("starter exists");
    if let Some(skip) = cannot_run_here(kata, &report) {
        return skip;
    }
    match report.verdict {
        Verdict::RuntimeError => Ok(()),
        other => Err(format!(
            "the starter should fail with runtime_error (todo!), got {other}\n{}",
            report.explain()
        )
        .into()),
    }
}

fn wrong_gets_its_verdict(kata: &dyn Kata, name: &str, expected: Verdict) -> Result<(), Failed> {
    let report = kata
        .evaluate_own(Which::Wrong(name), Mode::Submit)
        .expect("listed by the package");
    if report.verdict != expected
        && let Some(skip) = cannot_run_here(kata, &report)
    {
        return skip;
    }
    if report.verdict == expected {
        Ok(())
    } else {
        Err(format!(
            "wrong/{name} is marked {expected} but got {}\n{}",
            report.verdict,
            report.explain()
        )
        .into())
    }
}

/// A GPU kata's report from a machine that cannot run it: `Some(Ok)` after printing why (the
/// kernel compiled, when NVRTC is here), or `Some(Err)` where the run is required.
fn cannot_run_here(kata: &dyn Kata, report: &Report) -> Option<Result<(), Failed>> {
    if kata.meta().kind != KataKind::Gpu || report.verdict != Verdict::InternalError {
        return None;
    }
    let missing = report
        .cases
        .iter()
        .find_map(|c| katas::gpu::Unavailable::from_message(c.message.as_deref()?))?;
    if missing.is_required() {
        return Some(Err(format!(
            "this run is required here, but: {}",
            missing.why
        )
        .into()));
    }
    println!("{}", missing.skip_note());
    Some(Ok(()))
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
    let scaffold = catalogue::scaffold();
    let findings = katas::lint::lint(scaffold.dir());
    let mentions = |file: &str| findings.iter().any(|f| f.file == file);
    if !(mentions("README.md") && mentions("reference.rs") && mentions("wrong")) {
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
