//! Function katas graded from their packages' own files through the real sandbox: the judge is
//! the package's (built in the compile sandbox, run as a sandboxed process, a rank kata's
//! networks in it), so a package the build never saw, or one whose cases or checker changed,
//! grades by its own rules; and a hostile judge (a loop, an allocation, a fork, endless printing, a read of host files, a
//! forged report) is contained and reported as the kata's fault, never a learner's verdict.
//!
//! Needs root and the sandbox's kernel features; skips with the reason otherwise, and fails
//! instead under `INFRAKATA_CI=1`.

mod common;

use common::grader;
use graders::package::FunctionPackage;
use graders::report::Performance;
use graders::{GradeError, GradeReport, Measured};
use katas::{Mode, Outcome, Verdict};
use libtest_mimic::{Failed, Trial};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() {
    common::run_suite("function packages", || grader().map(drop), trials);
}

fn trials() -> Vec<Trial> {
    let mut out = Vec::new();
    // Rank katas too: every rank its own process, the case's network in the package's judge.
    for slug in [
        "fast-power",
        "graph-fusion",
        "top-k-top-p",
        "ring-allreduce",
        "tp-split",
    ] {
        out.push(Trial::test(
            format!("package::{slug}_verifies_from_its_own_files"),
            move || verifies(&problem(slug), None),
        ));
    }
    out.extend([
        Trial::test(
            "package::a_copy_under_a_new_slug_is_a_kata_of_its_own",
            copy_under_a_new_slug,
        ),
        Trial::test(
            "package::a_changed_checker_is_the_package_s_not_the_build_s",
            changed_checker,
        ),
        Trial::test(
            "package::a_gpu_kata_under_a_new_slug_grades_from_its_own_files",
            gpu_copy_under_a_new_slug,
        ),
        Trial::test(
            "package::a_judge_that_does_not_compile_is_the_kata_s_fault",
            judge_does_not_compile,
        ),
        Trial::test(
            "package::an_accepted_submit_is_measured_against_its_version_s_reference",
            measured_against_its_own_reference,
        ),
        Trial::test(
            "package::given_answers_are_the_judge_s_and_never_in_the_learners_library",
            given_answers_stay_with_the_judge,
        ),
        Trial::test(
            "package::custom_input_is_admitted_and_answered_by_the_version_s_judge",
            custom_input_through_the_judge,
        ),
    ]);
    out.push(Trial::test(
        "package::a_slow_checker_has_its_wait_per_case",
        slow_checker_has_its_wait_per_case,
    ));
    for (name, body, said) in hostile_networks() {
        out.push(Trial::test(
            format!("package::hostile_network::{name}_is_the_kata_s_fault"),
            move || hostile_network(name, body, said),
        ));
    }
    for (name, check, said) in hostile_checkers() {
        out.push(Trial::test(
            format!("package::hostile_checker::{name}_is_the_kata_s_fault"),
            move || hostile_checker(name, check, said),
        ));
    }
    out
}

fn problem(slug: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../katas/problems")
        .join(slug)
}

/// A copy of the package at `from` in a fresh folder, `edit` applied to each file's text.
fn copy(from: &Path, name: &str, edit: &dyn Fn(&str, String) -> String) -> PathBuf {
    let to = std::env::temp_dir().join(format!(
        "infrakata-function-package-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&to);
    copy_tree(from, &to, from, edit);
    to
}

fn copy_tree(from: &Path, to: &Path, root: &Path, edit: &dyn Fn(&str, String) -> String) {
    std::fs::create_dir_all(to).expect("a temporary folder");
    for entry in std::fs::read_dir(from).expect("the package folder") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &target, root, edit);
        } else {
            let relative = path.strip_prefix(root).expect("inside").to_string_lossy();
            let text = std::fs::read_to_string(&path).expect("a text file");
            std::fs::write(&target, edit(&relative, text)).expect("written");
        }
    }
}

fn read(dir: &Path) -> Result<FunctionPackage, Failed> {
    FunctionPackage::read_dir(dir).map_err(|e| Failed::from(e.to_string()))
}

fn grade(package: &FunctionPackage, source: &str) -> Result<GradeReport, GradeError> {
    grader()
        .expect("checked in main")
        .grade_package(package, source, Mode::Submit, &|_| {})
}

/// Every rule of the package holds in the sandbox; `rows` when the count is known.
fn verifies(dir: &Path, rows: Option<usize>) -> Result<(), Failed> {
    let package = read(dir)?;
    let checks = grader()?
        .verify_package(&package)
        .map_err(|e| e.to_string())?;
    let failed: Vec<_> = checks.iter().filter(|c| !c.ok).collect();
    if !failed.is_empty() {
        return Err(format!("{}: {failed:#?}", dir.display()).into());
    }
    // Every solution's row, then the case names in both languages.
    if checks.len() != rows.unwrap_or(3 + package.wrong.len())
        || checks.last().map(|c| c.part.as_str()) != Some("case names")
    {
        return Err(format!("{} rows: {checks:#?}", checks.len()).into());
    }
    // Graded side by side, reported in the package's order.
    let parts: Vec<&str> = checks
        .iter()
        .map(|c| c.part.as_str())
        .take(2 + package.wrong.len())
        .collect();
    let order: Vec<String> = ["reference.rs".to_string(), "starter.rs".to_string()]
        .into_iter()
        .chain(package.wrong.iter().map(|w| format!("wrong/{}.rs", w.name)))
        .collect();
    if parts != order {
        return Err(format!("rows out of order: {parts:?}").into());
    }
    Ok(())
}

fn copy_under_a_new_slug() -> Result<(), Failed> {
    // graph-fusion's reference names `katas::problems::graph_fusion::…`, as a copy keeps it.
    let dir = copy(&problem("graph-fusion"), "copy", &|file, text| {
        if file == "kata.toml" {
            text.replace("slug = \"graph-fusion\"", "slug = \"fusion-copy\"")
        } else {
            text
        }
    });
    let package = read(&dir)?;
    if package.meta.slug != "fusion-copy" {
        return Err(format!("slug {}", package.meta.slug).into());
    }
    let result = verifies(&dir, None);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// gpu-pow-mod copied under a slug the build never saw: its library links the runtime's CUDA
/// calls, its judge is the harness's checker in the CPU sandbox. A kernel whose parameters do
/// not match is refused by NVRTC's signature check as a compile error on the learner's lines
/// (no device needed, only NVRTC); the reference is accepted with its device timings against
/// itself where there is a device, and is our side's `Unavailable` where there is none.
fn gpu_copy_under_a_new_slug() -> Result<(), Failed> {
    let dir = copy(&problem("gpu-pow-mod"), "gpu-copy", &|file, text| {
        if file == "kata.toml" {
            text.replace("slug = \"gpu-pow-mod\"", "slug = \"pow-mod-copy\"")
        } else {
            text
        }
    });
    let package = read(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let package = package?;
    if package.meta.slug != "pow-mod-copy" || package.meta.kind != katas::KataKind::Gpu {
        return Err(format!("{:?}", package.meta).into());
    }
    let unavailable = |why: &str| {
        let missing = katas::gpu::Unavailable::from_message(why)
            .ok_or_else(|| Failed::from(format!("not a missing device: {why}")))?;
        if missing.is_required() {
            return Err(Failed::from(format!("required: {why}")));
        }
        println!("{}", missing.skip_note());
        Ok(())
    };
    let mismatched = package
        .wrong
        .iter()
        .find(|w| w.name == "modulus_as_int")
        .ok_or("no wrong/modulus_as_int.rs")?;
    match grade(&package, &mismatched.source) {
        Ok(report)
            if report.verdict == Verdict::CompileError
                && format!("{:?}", (&report.message, &report.diagnostics)).contains("pow_mod") => {}
        Ok(report) => return Err(format!("a mismatched kernel: {report:#?}").into()),
        Err(GradeError::Unavailable(why)) => return unavailable(&why),
        Err(e) => return Err(e.to_string().into()),
    }
    match grade(&package, &package.reference) {
        Ok(report) => {
            let timed = report
                .gpu_performance
                .as_ref()
                .map_or(0, |perf| perf.cases.len());
            if report.verdict != Verdict::Accepted || timed == 0 {
                return Err(format!("the reference: {report:#?}").into());
            }
            Ok(())
        }
        Err(GradeError::Unavailable(why)) => unavailable(&why),
        Err(e) => Err(e.to_string().into()),
    }
}

/// fast-power with a checker that wants every `power` answer doubled: the build's checker
/// would accept the reference and refuse the doubler; the package's does the opposite.
fn changed_checker() -> Result<(), Failed> {
    let dir = copy(&problem("fast-power"), "changed", &|file, text| {
        if file == "kata.rs" {
            text.replacen(
                "let want = b.powf(f64::from(e));",
                "let want = 2.0 * b.powf(f64::from(e));",
                1,
            )
        } else {
            text
        }
    });
    let package = read(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let package = package?;
    let reference = grade(&package, &package.reference).map_err(|e| e.to_string())?;
    if reference.verdict != Verdict::WrongAnswer {
        return Err(format!("the reference under the new checker: {reference:#?}").into());
    }
    let doubler = package.reference.replace("    acc\n}", "    acc * 2.0\n}");
    if doubler == package.reference {
        return Err("the reference's `power` changed shape; update this test".into());
    }
    let doubled = grade(&package, &doubler).map_err(|e| e.to_string())?;
    let power_cases = doubled
        .cases
        .iter()
        .filter(|c| c.outcome == Outcome::Passed)
        .count();
    if power_cases == 0 {
        return Err(format!("the doubler passed nothing: {doubled:#?}").into());
    }
    Ok(())
}

fn judge_does_not_compile() -> Result<(), Failed> {
    let dir = copy(&problem("fast-power"), "broken", &|file, text| {
        if file == "kata.rs" {
            text.replacen("fn check(", "fn check(not rust", 1)
        } else {
            text
        }
    });
    let package = read(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let package = package?;
    match grade(&package, &package.reference) {
        Err(GradeError::Kata { source, .. }) if source.to_string().contains("did not compile") => {
            Ok(())
        }
        other => Err(format!("{other:#?}").into()),
    }
}

/// The built-in reference submitted to fast-power's package counts exactly as that package's
/// reference; to a version whose reference does extra work per call, it counts well below.
fn measured_against_its_own_reference() -> Result<(), Failed> {
    let unchanged = read(&problem("fast-power"))?;
    let submitted = unchanged.reference.clone();
    let figure = |package: &FunctionPackage| -> Result<Performance, Failed> {
        let report = grade(package, &submitted).map_err(|e| e.to_string())?;
        if !report.awaits_figure() {
            return Err(format!("an accepted submit owes its figure: {report:#?}").into());
        }
        match grader()?.measure_package(package, &submitted, &|_| {}) {
            Ok(Measured::Figure(figure)) => Ok(figure),
            other => Err(format!("{}: {other:?}", package.meta.slug).into()),
        }
    };
    let same = figure(&unchanged)?;
    if same.instructions != same.reference_instructions {
        return Err(format!("the reference against itself should count the same: {same:?}").into());
    }
    let header = "pub fn power(base: f64, exponent: i32) -> f64 {\n";
    if !submitted.contains(header) {
        return Err("the reference's `power` changed shape; update this test".into());
    }
    let dir = copy(&problem("fast-power"), "slower-reference", &|file, text| {
        if file == "reference.rs" {
            let spin = "    let mut spin = 0u64;\n    for i in 0..1024 {\n        spin = \
                        std::hint::black_box(spin ^ i);\n    }\n    std::hint::black_box(spin);\n";
            text.replacen(header, &format!("{header}{spin}"), 1)
        } else {
            text
        }
    });
    let slower = read(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let slower = figure(&slower?)?;
    if slower.reference_instructions <= same.reference_instructions || slower.ratio >= 0.8 {
        return Err(format!(
            "against a slower reference the same program counts less than 0.8 of it: {slower:?} \
             (against its own: {same:?})"
        )
        .into());
    }
    Ok(())
}

/// online-softmax (a data-only package) whose first sample gives its answer by hand. The judge
/// grades against that answer (a wrong one fails the reference); a solution that asks the
/// package's logic for it (`Spec::oracle`, which the learners' library links) finds nothing.
fn given_answers_stay_with_the_judge() -> Result<(), Failed> {
    let first_case = "args = [[[2.0, [1.0, 2.0, 3.0, 4.0]], [2.0, [3.0, 2.0, 1.0, 0.0]], \
                      [2.0, [5.0, 5.0, 5.0, 5.0]]], 2]\n";
    let with_answer = |name: &str, answer: &str| {
        copy(&problem("online-softmax"), name, &|file, text| {
            if file == "data/cases.toml" {
                text.replacen(first_case, &format!("{first_case}answer = {answer}\n"), 1)
            } else {
                text
            }
        })
    };
    let read_and_remove = |dir: PathBuf| {
        let package = read(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        package
    };
    let run = |package: &FunctionPackage, source: &str| {
        grader()?
            .grade_package(package, source, Mode::Run, &|_| {})
            .map_err(|e| Failed::from(e.to_string()))
    };
    // The equal scores' plain average is 3.0 in every column.
    let right = read_and_remove(with_answer("given-right", "[3.0, 3.0, 3.0, 3.0]"))?;
    if !right.logic.contains("fn oracle") {
        return Err("the first case's answer did not reach the logic; update this test".into());
    }
    let reference = run(&right, &right.reference)?;
    if reference.verdict != Verdict::Accepted {
        return Err(format!("the reference against a right answer: {reference:#?}").into());
    }
    let wrong = read_and_remove(with_answer("given-wrong", "[9.0, 9.0, 9.0, 9.0]"))?;
    let reference = run(&wrong, &wrong.reference)?;
    if reference.cases.first().map(|c| c.outcome) != Some(Outcome::WrongAnswer) {
        return Err(format!("the judge ignored the given answer: {reference:#?}").into());
    }
    let asks = "use katas::KataSpec;\nuse katas::problems::online_softmax::{Input, Spec};\n\n\
                pub fn attention_row(keys: Vec<(f32, Vec<f32>)>, tile: usize) -> Vec<f32> {\n    \
                Spec::oracle(&Input { keys, tile }).unwrap_or_default()\n}\n";
    let asked = run(&right, asks)?;
    match asked.cases.first() {
        Some(case) if case.outcome != Outcome::Passed => Ok(()),
        _ => Err(format!("a solution read the given answer: {asked:#?}").into()),
    }
}

/// fast-power built from its files: its judge makes the custom-input form the catalogue's
/// compiled kata makes (one code path, `katas::custom`), answers an admitted input as the
/// compiled reference does, and refuses what the compiled kata refuses, in the same words,
/// as the run's verdict.
fn custom_input_through_the_judge() -> Result<(), Failed> {
    let package = read(&problem("fast-power"))?;
    let compiled = katas::catalogue::find("fast-power").ok_or("fast-power is in the build")?;
    let grader = grader()?;
    let examples = grader
        .package_examples(&package)
        .map_err(|e| e.to_string())?;
    let sample = compiled
        .sample_input()
        .ok_or("fast-power offers custom input")?;
    if examples.sample.as_deref() != Some(sample.as_str())
        || examples.examples != compiled.input_examples()
    {
        return Err(format!("the judge's form {examples:#?} is not the build's").into());
    }
    let custom = |source: &str, input: &str| {
        grader
            .custom_package(&package, source, input, &|_| {})
            .map_err(|e| Failed::from(e.to_string()))
    };
    let expected = compiled
        .custom(&sample)
        .map_err(|e| e.to_string())?
        .reference_output;
    let answered = custom(&package.reference, &sample)?;
    let outputs = answered.custom.as_ref().ok_or("a custom run's report")?;
    if answered.verdict != Verdict::Accepted
        || outputs.reference != expected
        || outputs.learner.as_deref() != Some(expected.as_str())
    {
        return Err(format!("the reference on the sample: {answered:#?}").into());
    }
    let starter = custom(&package.starter, &sample)?;
    if starter.verdict == Verdict::Accepted || starter.custom.is_none() {
        return Err(format!("the starter on the sample: {starter:#?}").into());
    }
    for refused in [r#"{"Power": []}"#, r#"{"Cube": [[2.0, 3]]}"#] {
        let said = compiled
            .check_custom(refused)
            .err()
            .ok_or("the build refuses it")?;
        let report = custom(&package.reference, refused)?;
        let message = report.message.as_ref().map(|m| m.en.as_str());
        if report.verdict != Verdict::InputRefused
            || message != Some(said.message(katas::Lang::En).as_str())
            || !report.cases.is_empty()
        {
            return Err(format!("{refused}: {report:#?}, the build says {said}").into());
        }
    }
    // A package whose admission panics on a learner's input: the kata's fault, never a verdict.
    const ADMIT: &str = "fn admit(input: &Input) -> Result<(), Refusal> {";
    let dir = copy(
        &problem("fast-power"),
        "custom-admit-panics",
        &|file, text| {
            if file == "kata.rs" {
                assert!(text.contains(ADMIT), "fast-power's admit changed shape");
                text.replacen(
                ADMIT,
                &format!("{ADMIT}\n        if matches!(input, Input::Power(q) if q.len() == 3) {{ panic!(\"admit broke\") }}"),
                1,
            )
            } else {
                text
            }
        },
    );
    let broken = read(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    let broken = broken?;
    let three = r#"{"Power": [[1.0, 1], [2.0, 2], [3.0, 3]]}"#;
    match grader.custom_package(&broken, &broken.reference, three, &|_| {}) {
        Err(GradeError::Kata { source, .. }) if source.to_string().contains("judge ended") => {}
        other => return Err(format!("a panicking admission: {other:#?}").into()),
    }
    Ok(())
}

/// `(name, the checker's body, words the failure must hold)`: each replaces the scaffold's
/// checker, whose kata is otherwise fine.
fn hostile_checkers() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        (
            "loop",
            "loop { std::hint::black_box(0u8); }",
            "did not answer",
        ),
        (
            "allocate",
            "let mut v: Vec<Vec<u8>> = Vec::new(); loop { v.push(vec![1u8; 64 << 20]); }",
            "memory",
        ),
        (
            "fork",
            "match std::process::Command::new(\"/prog\").spawn() { Ok(_) => Check::pass(), Err(e) => panic!(\"{e}\") }",
            "checker itself failed",
        ),
        ("print", "loop { println!(\"Accepted\"); }", "said"),
        (
            "read_host_files",
            "let s = std::fs::read_to_string(\"/etc/passwd\").unwrap(); Check::fail(Message::new(s.clone(), s), 0, 1)",
            "checker itself failed",
        ),
        ("exit", "std::process::exit(0)", "ended"),
    ]
}

/// A rank kata's network, in its judge, that misbehaves when a rank posts to it: `(name, body,
/// what the kata's failure says)`. The grader posts without waiting, so a network that never
/// answers must still be caught, and not be taken for ranks that ran out of time.
fn hostile_networks() -> Vec<(&'static str, &'static str, &'static str)> {
    vec![
        (
            "loop",
            "loop { std::hint::black_box(0u8); }",
            "did not answer",
        ),
        ("exit", "std::process::exit(0)", "ended"),
    ]
}

/// `slug` copied under the slug `as_slug` (folder named after `name`), with `insert` written
/// into `kata.rs` right after the line `after`, and read back.
fn injected(
    slug: &str,
    name: &str,
    as_slug: &str,
    after: &str,
    insert: &str,
) -> Result<FunctionPackage, Failed> {
    let dir = copy(&problem(slug), name, &|file, text| match file {
        "kata.toml" => text.replace(
            &format!("slug = \"{slug}\""),
            &format!("slug = \"{as_slug}\""),
        ),
        "kata.rs" => {
            assert!(text.contains(after), "{slug}'s kata.rs changed shape");
            text.replacen(after, &format!("{after}\n        {insert}"), 1)
        }
        _ => text,
    });
    let package = read(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    package
}

fn hostile_network(name: &str, body: &str, said: &str) -> Result<(), Failed> {
    let package = injected(
        "ring-allreduce",
        &format!("hostile-net-{name}"),
        "hostile-net",
        "fn post(&mut self, rank: usize, request: RingRequest) -> Result<Wake, String> {",
        // Only where the grader posts: the reference's own run (on threads of its own while
        // the judge makes the cases) goes through unharmed.
        &format!("if std::thread::current().name() == Some(\"main\") {{ let _ = rank; {body} }}"),
    )?;
    let started = Instant::now();
    let result = grade(&package, &package.reference);
    let took = started.elapsed();
    match &result {
        Err(GradeError::Kata { source, .. }) if source.to_string().contains(said) => {}
        other => return Err(format!("not the kata's fault, saying `{said}`: {other:#?}").into()),
    }
    if took > Duration::from_secs(60) {
        return Err(format!("the grading took {took:?}").into());
    }
    Ok(())
}

/// fast-power copied under a new slug, its checker's body replaced by `body`.
fn with_checker(name: &str, body: &str) -> Result<FunctionPackage, Failed> {
    injected(
        "fast-power",
        &format!("checker-{name}"),
        "hostile-judge",
        "fn check(input: &Input, _expected: &Output, got: &Output) -> Check {",
        &format!("let _ = (input, got);\n        return (|| -> Check {{ {body} }})();"),
    )
}

/// Every case's judging is sent to the judge at once, but each has its own wait from the
/// moment the judge gets to it: a checker that takes a while on every case is not stopped
/// because the cases together take longer than one case's wait.
fn slow_checker_has_its_wait_per_case() -> Result<(), Failed> {
    let package = with_checker(
        "slow",
        "std::thread::sleep(std::time::Duration::from_millis(400)); Check::pass()",
    )?;
    let started = Instant::now();
    let report = grade(&package, &package.reference).map_err(|e| format!("{e}"))?;
    let took = started.elapsed();
    if report.verdict != Verdict::Accepted {
        return Err(format!("{report:#?}").into());
    }
    if took < Duration::from_secs(11) {
        return Err(format!(
            "{} cases took only {took:?}: not longer than one wait",
            report.cases.len()
        )
        .into());
    }
    Ok(())
}

fn hostile_checker(name: &str, body: &str, said: &str) -> Result<(), Failed> {
    let package = with_checker(name, body)?;
    let started = Instant::now();
    let result = grade(&package, &package.reference);
    let took = started.elapsed();
    let text = match &result {
        Err(GradeError::Kata { source, .. }) => source.to_string(),
        other => return Err(format!("not the kata's fault: {other:#?}").into()),
    };
    if !text.contains(said) {
        return Err(format!("`{text}` does not say `{said}`").into());
    }
    if text.contains("root:") {
        return Err(format!("a host file reached the report: {text}").into());
    }
    if took > Duration::from_secs(90) {
        return Err(format!("the grading took {took:?}").into());
    }
    Ok(())
}
