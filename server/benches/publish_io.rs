//! Publishing a stdin/stdout kata to a running service and grading it there (issue 20 §4,
//! issue 21 §3): `POST /api/katas/{slug}/versions` with the package as a `.tar.gz`, the sandbox's
//! verification included (reference, starter, every `wrong/` program, input validators), then an
//! accepted submit of the reference through HTTP until its verdict. Two packages: pair-sums
//! (the default validator, three `wrong/` programs) and the Kattis fixture modern-pair-sum
//! imported (a C++ output validator, a Python input validator, two `wrong/` programs). Every
//! round puts a new tag in every program, so nothing is a compile-cache hit (the validators keep
//! theirs, as a new version usually does). Baseline in the same run, alternating: bare
//! `rustc -O` building the same reference as a program.
//!
//! `cargo bench -p server --bench publish_io` (as root: the sandbox; skipped without it).

use graders::{Grader, GraderConfig};
use katas::archive::PackageFiles;
use server::app::{self, AppConfig};
use server::db::users::{self, Role};
use server::grader_slot::GraderSlot;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    graders::sandbox::run_stage_if_requested();
    let grader = match Grader::new(GraderConfig::for_checkout()) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            println!("publish_io bench skipped: {e}");
            return;
        }
    };
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(grader));
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

/// Every `.rs` file under `dir`, recursively.
fn programs(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found
}

/// The package at `dir` with `tag` at the end of every program and of the statement.
fn tagged(dir: &Path, tag: &str) -> (Vec<u8>, String) {
    let copy = tempfile::tempdir().unwrap();
    let files = PackageFiles::read_dir(dir, &katas::io::limits()).unwrap();
    files.write_into(copy.path()).unwrap();
    for file in programs(copy.path())
        .into_iter()
        .chain([copy.path().join("README.md")])
    {
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, format!("{text}\n// {tag}\n")).unwrap();
    }
    let reference = std::fs::read_to_string(copy.path().join("reference.rs")).unwrap();
    let archive = PackageFiles::read_dir(copy.path(), &katas::io::limits())
        .unwrap()
        .to_tar_gz();
    (archive, reference)
}

fn bare_rustc(dir: &Path, source: &str) -> Duration {
    let file = dir.join("bare.rs");
    std::fs::write(&file, source).unwrap();
    let started = Instant::now();
    let status = std::process::Command::new("rustc")
        .args(["--edition=2021", "-O", "-o"])
        .arg(dir.join("bare"))
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    started.elapsed()
}

async fn run(grader: Arc<Grader>) {
    let dir = tempfile::tempdir().unwrap();
    let config = AppConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: server::db::Location::Sqlite(dir.path().join("bench.db")),
        workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
        server: server::state::ServerConfig {
            // Every round is an upload: the instructors' hourly allowance would stop the bench.
            kata_upload_budget: server::db::allowance::Budget::per_hour(
                std::num::NonZeroU32::new(10_000).unwrap(),
                std::num::NonZeroU32::new(10_000).unwrap(),
            ),
            ..Default::default()
        },
    };
    let app = app::start(config, GraderSlot::ready(Some(grader)))
        .await
        .unwrap();
    let db = &app.state.db;
    let staff = users::create(db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let staff = users::issue_token(db, staff.id).await.unwrap();
    let learner = users::create(db, "lea", Role::Learner, None).await.unwrap();
    let learner = users::issue_token(db, learner.id).await.unwrap();
    let base = app.url();
    let client = reqwest::Client::new();
    let rounds: usize = std::env::var("INFRAKATA_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let imported = dir.path().join("modern-pair-sum");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(["kata", "import"])
        .arg(root.join("katas/tests/kattis/modern-pair-sum"))
        .arg("--out")
        .arg(&imported)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let packages = [
        ("pair-sums", root.join("graders/tests/io/pair-sums")),
        ("modern-pair-sum", imported),
    ];

    println!("publish_io bench: {rounds} rounds each, alternating with bare `rustc -O`");
    for (slug, package) in packages {
        let (mut publish, mut verdict, mut bare) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let (archive, reference) = tagged(&package, &format!("{run} {round}"));
            bare.push(bare_rustc(
                dir.path(),
                &format!("{reference}\n// bare {run} {round}\n"),
            ));

            let started = Instant::now();
            let resp = client
                .post(format!("{base}/api/katas/{slug}/versions"))
                .bearer_auth(&staff)
                .body(archive)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 201, "{}", resp.text().await.unwrap());
            resp.bytes().await.unwrap();
            publish.push(started.elapsed());

            let source = format!("{reference}\n// submit {run} {round}\n");
            let started = Instant::now();
            let resp = client
                .post(format!("{base}/api/submissions"))
                .bearer_auth(&learner)
                .json(&serde_json::json!({ "kata": slug, "source": source, "mode": "submit" }))
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 202);
            let id = resp.json::<serde_json::Value>().await.unwrap()["id"]
                .as_i64()
                .unwrap();
            loop {
                let shown: serde_json::Value = client
                    .get(format!("{base}/api/submissions/{id}"))
                    .bearer_auth(&learner)
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                if let Some(v) = shown["verdict"].as_str() {
                    assert_eq!(v, "accepted", "{shown}");
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            verdict.push(started.elapsed());
        }
        let (p, v, b) = (median(publish), median(verdict), median(bare));
        println!(
            "{slug}: publish p50 {p:.0} ms ({:.1}× a bare build); accepted submit → verdict p50 \
             {v:.0} ms ({:.2}×); bare `rustc -O` p50 {b:.0} ms",
            p / b,
            v / b
        );
    }
    app.stop();
}
