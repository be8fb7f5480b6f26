//! End-to-end grading (sandboxed compile + sandboxed run + trusted checks) of an accepted
//! `fast-power` submission, beside bare `rustc` compiling the same learner file in the same run.
//! Also: a compile-error submission, a cache hit (identical resubmission), and an accepted
//! `submit` (every case, then the instruction-count measurement) with the measurement alone;
//! the verdict of each data-only kata against its own bare build; and the verdict of a
//! stdin/stdout kata (one sandboxed process per case; the default validator, then a Python
//! output validator run in the sandbox per case) against the bare build of the same program;
//! and the verdict of each rank kata (every rank its own sandboxed process, the network in the
//! grader) beside the compile floor: their learner files name the `katas` crate, so they have
//! no bare build of their own, and fast-power's is what every verdict pays.
//!
//! A function kata built from its package (`graders::package`): the verdict through the
//! package's judge process beside the build's own judge and the bare build, and a whole
//! publish-time verification (every solution of the package, its judge built anew) of a small
//! and a large kata.
//!
//! Run as root (the sandbox needs it): `cargo bench -p graders --bench grading`.

use criterion::Criterion;
use graders::{Grader, GraderConfig};
use katas::Mode;
use std::cell::Cell;
use std::hint::black_box;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn main() {
    graders::sandbox::run_stage_if_requested();
    let grader = match Grader::new(GraderConfig::for_checkout()) {
        Ok(g) => g,
        Err(e) => {
            println!("grading bench skipped: {e}");
            return;
        }
    };
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(15)
        .measurement_time(Duration::from_secs(8));
    bench(&mut c, &grader);
    bench_data_only(&mut c, &grader);
    bench_io(&mut c, &grader);
    bench_ranks(&mut c, &grader);
    bench_packages(&mut c, &grader);
    c.final_summary();
}

fn bench(c: &mut Criterion, grader: &Grader) {
    let kata = katas::catalogue::find("fast-power").expect("seed kata");
    let source = kata.package().reference;
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("solution.rs");
    std::fs::write(&file, source).expect("write");
    // The learner file as a standalone program, the way a learner would build it by hand.
    let program = dir.path().join("program.rs");
    let main = "fn main() { println!(\"{} {}\", power(2.0, 10), pow_mod(2, 10, 1000)); }\n";
    std::fs::write(&program, format!("{source}\n{main}")).expect("write");
    // A fresh comment per iteration defeats the compile cache without changing the code; the
    // count starts at random, or the cache would still hold an earlier run's sources.
    let n = AtomicU64::new(fastrand::u64(..) >> 1);
    let unique = |s: &str| format!("{s}\n// {}\n", n.fetch_add(1, Ordering::Relaxed));

    let mut g = c.benchmark_group("grading fast-power (accepted)");
    g.bench_function("baseline: bare rustc -O on the learner file", |b| {
        b.iter(|| {
            let status = Command::new("rustc")
                .args([
                    "--edition=2024",
                    "--crate-type=lib",
                    "-Copt-level=3",
                    "-Ccodegen-units=1",
                    "--emit=link",
                ])
                .arg("--out-dir")
                .arg(dir.path())
                .arg(&file)
                .status()
                .expect("rustc runs");
            assert!(status.success());
        })
    });
    g.bench_function(
        "baseline: bare rustc -O, learner file + main as a program",
        |b| b.iter(|| build_program(&program, dir.path())),
    );
    g.bench_function("grade run (samples): compile + run + check", |b| {
        b.iter(|| {
            let r = grader
                .grade("fast-power", &unique(source), Mode::Run, &|_| {})
                .expect("grades");
            assert_eq!(r.verdict, katas::Verdict::Accepted);
            black_box(r)
        })
    });
    g.bench_function("grade run (samples), cache hit", |b| {
        b.iter(|| {
            black_box(
                grader
                    .grade("fast-power", source, Mode::Run, &|_| {})
                    .expect("grades"),
            )
        })
    });
    g.bench_function(
        "grade submit, accepted: compile + all cases + measurement",
        |b| {
            b.iter(|| {
                let r = grader
                    .grade("fast-power", &unique(source), Mode::Submit, &|_| {})
                    .expect("grades");
                assert!(r.performance.is_some(), "{:?}", r.performance_missing);
                black_box(r)
            })
        },
    );
    // What a learner waits for since the verdict is published first.
    g.bench_function(
        "grade submit, accepted: the verdict (compile + all cases)",
        |b| {
            b.iter(|| {
                let judged = grader
                    .judge("fast-power", &unique(source), Mode::Submit, &|_| {})
                    .expect("grades");
                assert!(judged.owes_instruction_count());
                black_box(judged.report)
            })
        },
    );
    // Only the measuring stage of the same gradings (reference counts are cached per input
    // set once the first gradings have drawn each set).
    g.bench_function("grade submit: the measurement stage alone", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let started = Cell::new(None);
                let ended = Cell::new(None);
                let progress = |stage: graders::Stage| match stage {
                    graders::Stage::Measuring => started.set(Some(Instant::now())),
                    graders::Stage::Done => ended.set(Some(Instant::now())),
                    _ => {}
                };
                let r = grader
                    .grade("fast-power", &unique(source), Mode::Submit, &progress)
                    .expect("grades");
                black_box(r);
                if let (Some(a), Some(b)) = (started.get(), ended.get()) {
                    total += b - a;
                }
            }
            total
        })
    });
    // The same stage as the service runs it: the verdict's job has compiled the program and
    // the measuring loop banked the reference's count after the previous figure
    // (`Grader::bank_reference_count`); both untimed here, as both are off the learner's wait
    // for the figure once the verdict is out.
    g.bench_function(
        "grade submit: the measurement stage, reference count banked",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let submitted = unique(source);
                    let judged = grader
                        .judge("fast-power", &submitted, Mode::Submit, &|_| {})
                        .expect("grades");
                    assert!(judged.owes_instruction_count());
                    grader.bank_reference_count("fast-power").expect("banks");
                    let started = Instant::now();
                    let measured = grader
                        .measure_submission("fast-power", &submitted, &|_| {})
                        .expect("measures");
                    total += started.elapsed();
                    black_box(measured);
                }
                total
            })
        },
    );
    let broken = "pub fn power(base: f64, exponent: i32) -> f64 { base * exponent }\npub fn pow_mod(b: u64, e: u64, m: u64) -> u64 { b + e + m }\n";
    g.bench_function("grade: compile error (JSON diagnostics)", |b| {
        b.iter(|| {
            let r = grader
                .grade("fast-power", &unique(broken), Mode::Run, &|_| {})
                .expect("grades");
            assert_eq!(r.verdict, katas::Verdict::CompileError);
            black_box(r)
        })
    });
    g.finish();
}

/// Every data-only kata (its `Spec` generated from `[data]`): the verdict of an accepted submit
/// against bare `rustc -O` building the same learner file as a program, in the same run. The
/// program's `main` takes each of the learner's functions as a pointer, so it is compiled in full.
fn bench_data_only(c: &mut Criterion, grader: &Grader) {
    for kata in katas::catalogue::all() {
        let Some(data) = &kata.meta().data else {
            continue;
        };
        let slug = kata.meta().slug.as_str();
        let source = kata.package().reference;
        if source.contains("use katas::") {
            // The bare build has no `katas` crate to name a declared struct from.
            continue;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let program = dir.path().join("program.rs");
        let pointers: Vec<String> = data
            .signatures()
            .into_iter()
            .map(|text| {
                let sig = katas::data::decl::Signature::parse_with(text, &struct_names(data))
                    .expect("a built kata's signature parses");
                let params: Vec<String> = sig.params.iter().map(|(_, t)| t.to_string()).collect();
                format!(
                    "std::hint::black_box({} as fn({}) -> {});",
                    sig.name,
                    params.join(", "),
                    sig.returns
                )
            })
            .collect();
        let main = format!("fn main() {{ {} }}\n", pointers.join(" "));
        std::fs::write(&program, format!("{source}\n{main}")).expect("write");
        let n = AtomicU64::new(fastrand::u64(..) >> 1);
        let unique = |s: &str| format!("{s}\n// {}\n", n.fetch_add(1, Ordering::Relaxed));

        let mut g = c.benchmark_group(format!("grading {slug} (data-only, accepted)"));
        g.bench_function(
            "baseline: bare rustc -O, learner file + main as a program",
            |b| b.iter(|| build_program(&program, dir.path())),
        );
        g.bench_function(
            "grade submit, accepted: the verdict (compile + all cases)",
            |b| {
                b.iter(|| {
                    let judged = grader
                        .judge(slug, &unique(source), Mode::Submit, &|_| {})
                        .expect("grades");
                    assert_eq!(judged.report.verdict, katas::Verdict::Accepted);
                    black_box(judged.report)
                })
            },
        );
        g.finish();
    }
}

/// The stdin/stdout fixture (`graders/tests/io/pair-sums`, 3 cases): an accepted submit's
/// verdict with Kattis's default validator and with a Python output validator, against bare
/// `rustc -O` building the same program.
fn bench_io(c: &mut Criterion, grader: &Grader) {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/io/pair-sums");
    let package = katas::io::IoPackage::read_dir(&fixture).expect("the fixture reads");
    let source = package.reference().expect("a reference").to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("program.rs");
    std::fs::write(&program, &source).expect("write");
    let custom = with_python_validator(&fixture);
    let n = AtomicU64::new(fastrand::u64(..) >> 1);
    let unique = |s: &str| format!("{s}\n// {}\n", n.fetch_add(1, Ordering::Relaxed));
    let mut g = c.benchmark_group("grading pair-sums (stdin/stdout, accepted)");
    g.bench_function("baseline: bare rustc -O on the program", |b| {
        b.iter(|| build_program(&program, dir.path()))
    });
    for (name, package) in [
        ("default validator", &package),
        ("Python validator", &custom.1),
    ] {
        g.bench_function(
            format!("grade submit, accepted, {name}: the verdict"),
            |b| {
                b.iter(|| {
                    let report = grader
                        .grade_io(package, &unique(&source), Mode::Submit, &|_| {})
                        .expect("grades");
                    assert_eq!(report.verdict, katas::Verdict::Accepted);
                    black_box(report)
                })
            },
        );
    }
    g.finish();
}

/// The fixture with an output validator in Python that accepts what the default one would.
fn with_python_validator(fixture: &std::path::Path) -> (tempfile::TempDir, katas::io::IoPackage) {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = katas::archive::PackageFiles::read_dir(fixture, &katas::io::limits())
        .expect("the fixture reads");
    let meta = files.text("kata.toml").expect("kata.toml").replace(
        "validator = \"default\"",
        "validator = \"custom\"\nvalidator_language = \"python3\"\nvalidator_files = [\"output_validator/v.py\"]",
    );
    files.write_into(dir.path()).expect("write the copy");
    std::fs::write(dir.path().join("kata.toml"), meta).expect("write");
    std::fs::create_dir_all(dir.path().join("output_validator")).expect("mkdir");
    std::fs::write(
        dir.path().join("output_validator/v.py"),
        "import sys\nwant = open(sys.argv[2]).read().split()\nsys.exit(42 if sys.stdin.read().split() == want else 43)\n",
    )
    .expect("write");
    let package = katas::io::IoPackage::read_dir(dir.path()).expect("the copy reads");
    (dir, package)
}

/// The baseline every ratio here is taken against: bare `rustc -O` building `program` (a
/// learner file plus a `main`) into `out`, the way a learner would build it by hand.
/// `ring-allreduce` and `tp-split`: samples and every case, beside bare `rustc -O` building
/// fast-power's reference as a program. `RANKS_CASE_TIMES=1` first prints where one verdict's
/// time goes: when each stage began (the build ends at `Running`), then each case's time.
fn bench_ranks(c: &mut Criterion, grader: &Grader) {
    let floor = katas::catalogue::find("fast-power").expect("seed kata");
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("program.rs");
    let main = "fn main() { println!(\"{} {}\", power(2.0, 10), pow_mod(2, 10, 1000)); }\n";
    std::fs::write(&program, format!("{}\n{main}", floor.package().reference)).expect("write");
    let n = AtomicU64::new(fastrand::u64(..) >> 1);
    let unique = |s: &str| format!("{s}\n// {}\n", n.fetch_add(1, Ordering::Relaxed));
    let slugs = ["ring-allreduce", "tp-split"];
    let reference = |slug| {
        katas::catalogue::find(slug)
            .expect("a rank kata")
            .package()
            .reference
    };
    if std::env::var_os("RANKS_CASE_TIMES").is_some() {
        for slug in slugs {
            let start = Instant::now();
            let judged = grader
                .judge(slug, &unique(reference(slug)), Mode::Submit, &|stage| {
                    println!("  {:>9.2} ms  stage {stage:?}", ms(start.elapsed()))
                })
                .expect("grades");
            println!("{slug}: verdict in {:?}", start.elapsed());
            for case in &judged.report.cases {
                println!("  {:>9.2} ms  {}", case.time_ms, case.name);
            }
        }
    }
    let mut g = c.benchmark_group("grading rank katas (accepted)");
    g.bench_function("baseline: bare rustc -O, fast-power as a program", |b| {
        b.iter(|| build_program(&program, dir.path()))
    });
    for slug in slugs {
        for (mode, what) in [
            (Mode::Run, "grade run (samples)"),
            (Mode::Submit, "grade submit"),
        ] {
            g.bench_function(format!("{slug}: {what}, the verdict"), |b| {
                b.iter(|| {
                    let judged = grader
                        .judge(slug, &unique(reference(slug)), mode, &|_| {})
                        .expect("grades");
                    assert_eq!(judged.report.verdict, katas::Verdict::Accepted);
                    black_box(judged.report)
                })
            });
        }
    }
    g.finish();
}

fn build_program(program: &std::path::Path, out: &std::path::Path) {
    let status = Command::new("rustc")
        .args([
            "--edition=2024",
            "-Copt-level=3",
            "-Ccodegen-units=1",
            "-Cstrip=debuginfo",
        ])
        .arg("-o")
        .arg(out.join("program"))
        .arg(program)
        .status()
        .expect("rustc runs");
    assert!(status.success());
}

fn struct_names(data: &katas::data::decl::DataDecl) -> Vec<String> {
    katas::data::decl::StructDecl::names(&data.structs).expect("a built kata's structs parse")
}

fn bench_packages(c: &mut Criterion, grader: &Grader) {
    let problems = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../katas/problems");
    let read = |slug: &str| {
        graders::package::FunctionPackage::read_dir(&problems.join(slug)).expect("reads")
    };
    let package = read("fast-power");
    let source = package.reference.clone();
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("program.rs");
    let main = "fn main() { println!(\"{} {}\", power(2.0, 10), pow_mod(2, 10, 1000)); }\n";
    std::fs::write(&program, format!("{source}\n{main}")).expect("write");
    let n = AtomicU64::new(fastrand::u64(..) >> 1);
    let unique = |s: &str| format!("{s}\n// {}\n", n.fetch_add(1, Ordering::Relaxed));
    let mut g = c.benchmark_group("grading fast-power from its package (accepted)");
    g.bench_function("baseline: bare rustc -O on the learner file", |b| {
        b.iter(|| build_program(&program, dir.path()))
    });
    g.bench_function(
        "grade submit, the package's judge process: the verdict",
        |b| {
            b.iter(|| {
                let report = grader
                    .grade_package(&package, &unique(&source), Mode::Submit, &|_| {})
                    .expect("grades");
                assert_eq!(report.verdict, katas::Verdict::Accepted);
                black_box(report)
            })
        },
    );
    g.finish();
    // A custom-input run: admitted and answered by the package's judge process, which also
    // reads the learner's JSON.
    let sample = katas::catalogue::find("fast-power")
        .and_then(|k| k.sample_input())
        .expect("fast-power offers custom input");
    let mut g = c.benchmark_group("a custom-input run of fast-power (accepted)");
    g.bench_function("baseline: bare rustc -O on the learner file", |b| {
        b.iter(|| build_program(&program, dir.path()))
    });
    g.bench_function("its package, its judge process: custom_package", |b| {
        b.iter(|| {
            let report = grader
                .custom_package(&package, &unique(&source), &sample, &|_| {})
                .expect("runs");
            assert_eq!(report.verdict, katas::Verdict::Accepted);
            black_box(report)
        })
    });
    g.finish();
    // The figure of an accepted submit, as a measuring loop takes it once the verdict is out:
    // the verdict's program from the compile cache, the reference counted on the same fresh
    // inputs (no banked count on either side), against the package's own.
    let mut g = c.benchmark_group("the figure of an accepted fast-power submit");
    g.sample_size(10);
    g.bench_function("its package, its judge process: measure_package", |b| {
        b.iter(|| {
            let measured = grader
                .measure_package(&package, &source, &|_| {})
                .expect("measures");
            assert!(
                matches!(measured, graders::Measured::Figure(_)),
                "{measured:?}"
            );
            black_box(measured)
        })
    });
    g.finish();
    // A publish builds everything anew: a fresh comment in the logic changes every build's key.
    let mut g = c.benchmark_group("publishing a function package (verification)");
    g.sample_size(10).measurement_time(Duration::from_secs(30));
    for slug in ["fast-power", "graph-fusion"] {
        let package = read(slug);
        // A new version of the package, verified: all of it built and run.
        let verified_fresh = || {
            let mut fresh = package.clone();
            fresh.logic = unique(&package.logic);
            let rows = grader.verify_package(&fresh).expect("verifies");
            assert!(rows.iter().all(|r| r.ok), "{rows:?}");
            (fresh, rows)
        };
        g.bench_function(
            format!(
                "{slug}: judge and every solution built and run ({} wrong)",
                package.wrong.len()
            ),
            |b| b.iter(|| black_box(verified_fresh().1)),
        );
        // What a publish runs in all: the verification, then the custom-input form's examples
        // from the version's judge.
        g.bench_function(
            format!("{slug}: verification, then the form's examples"),
            |b| {
                b.iter(|| {
                    let (fresh, rows) = verified_fresh();
                    let examples = grader.package_examples(&fresh).expect("examples");
                    assert!(!examples.examples.is_empty());
                    black_box((rows, examples))
                })
            },
        );
    }
    g.finish();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
