//! The verdict of an accepted submit of each rank kata (`ring-allreduce`, `tp-split`: every
//! case, every rank its own sandboxed process, the network in the grader), beside bare
//! `rustc -O` building fast-power's reference as a program in the same run (the rank katas'
//! learner files name the `katas` crate, so they have no bare build of their own; fast-power's
//! is the compile floor every verdict pays).
//!
//! Run as root (the sandbox needs it): `cargo bench -p graders --bench ranks`.

use criterion::Criterion;
use graders::{Grader, GraderConfig};
use katas::Mode;
use std::hint::black_box;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

fn main() {
    graders::sandbox::run_stage_if_requested();
    let grader = match Grader::new(GraderConfig::for_checkout()) {
        Ok(g) => g,
        Err(e) => {
            println!("rank grading bench skipped: {e}");
            return;
        }
    };
    let mut c = Criterion::default()
        .configure_from_args()
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    bench(&mut c, &grader);
    c.final_summary();
}

fn bench(c: &mut Criterion, grader: &Grader) {
    let floor = katas::catalogue::find("fast-power").expect("seed kata");
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("program.rs");
    let main = "fn main() { println!(\"{} {}\", power(2.0, 10), pow_mod(2, 10, 1000)); }\n";
    std::fs::write(&program, format!("{}\n{main}", floor.package().reference)).expect("write");
    // A fresh comment per iteration defeats the compile cache without changing the code.
    let n = AtomicU64::new(fastrand::u64(..) >> 1);
    let unique = |s: &str| format!("{s}\n// {}\n", n.fetch_add(1, Ordering::Relaxed));

    // Where a verdict's time goes, case by case (`RANKS_CASE_TIMES=1`).
    if std::env::var_os("RANKS_CASE_TIMES").is_some() {
        for slug in ["ring-allreduce", "tp-split"] {
            let source = katas::catalogue::find(slug)
                .expect("a rank kata")
                .package()
                .reference;
            let start = std::time::Instant::now();
            let judged = grader
                .judge(slug, &unique(source), Mode::Submit, &|_| {})
                .expect("grades");
            println!("{slug}: verdict in {:?}", start.elapsed());
            for case in &judged.report.cases {
                println!("  {:>9.2} ms  {}", case.time_ms, case.name);
            }
        }
    }
    let mut g = c.benchmark_group("grading rank katas (accepted)");
    g.bench_function("baseline: bare rustc -O, fast-power as a program", |b| {
        b.iter(|| {
            let status = Command::new("rustc")
                .args([
                    "--edition=2024",
                    "-Copt-level=3",
                    "-Ccodegen-units=1",
                    "-Cstrip=debuginfo",
                ])
                .arg("-o")
                .arg(dir.path().join("program"))
                .arg(&program)
                .status()
                .expect("rustc runs");
            assert!(status.success());
        })
    });
    for slug in ["ring-allreduce", "tp-split"] {
        let kata = katas::catalogue::find(slug).expect("a rank kata");
        let source = kata.package().reference;
        g.bench_function(format!("{slug}: grade run (samples), the verdict"), |b| {
            b.iter(|| {
                let judged = grader
                    .judge(slug, &unique(source), Mode::Run, &|_| {})
                    .expect("grades");
                assert_eq!(judged.report.verdict, katas::Verdict::Accepted);
                black_box(judged.report)
            })
        });
        g.bench_function(format!("{slug}: grade submit, the verdict"), |b| {
            b.iter(|| {
                let judged = grader
                    .judge(slug, &unique(source), Mode::Submit, &|_| {})
                    .expect("grades");
                assert_eq!(judged.report.verdict, katas::Verdict::Accepted);
                black_box(judged.report)
            })
        });
    }
    g.finish();
}
