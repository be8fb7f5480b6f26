//! Publishing a kata version to a running service (issue 20): `POST /api/katas/{slug}/versions`
//! with the package as a `.tar.gz`, verification included (archive bounds, `kata.toml`, the lint
//! in both languages, the grading hash), for the smallest and the largest built-in package. Each
//! upload changes the English statement, so every one publishes a new version and makes it
//! live. Baselines measured in the same run, alternating with the uploads: `GET
//! /api/katas/{slug}` (an HTTP round trip that reads the served version and its statement) and
//! packing the folder client-side (`PackageFiles::read_dir` + `to_tar_gz`, what the CLI does
//! before it sends).
//!
//! `cargo bench -p server --bench publish` (no sandbox, no root: nothing is graded).

use katas::archive::{Limits, PackageFiles};
use server::app::{self, AppConfig};
use server::db::users::{self, Role};
use server::grader_slot::GraderSlot;
use std::path::Path;
use std::time::{Duration, Instant};

const ROUNDS: usize = 40;

fn main() {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run());
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

/// The package in `dir` as uploaded, its English statement ending in `round`.
fn archive(dir: &Path, round: usize) -> Vec<u8> {
    let copy = tempfile::tempdir().unwrap();
    let files = PackageFiles::read_dir(dir, &Limits::default()).unwrap();
    files.write_into(copy.path()).unwrap();
    let readme = copy.path().join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(&readme, format!("{text}\nRevision {round}.\n")).unwrap();
    PackageFiles::read_dir(copy.path(), &Limits::default())
        .unwrap()
        .to_tar_gz()
}

async fn run() {
    let dir = tempfile::tempdir().unwrap();
    let config = AppConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: server::db::Location::Sqlite(dir.path().join("bench.db")),
        workers: 0,
        server: server::state::ServerConfig {
            // Every round is an upload: the instructors' hourly allowance would stop the bench.
            kata_upload_budget: server::db::allowance::Budget::per_hour(
                std::num::NonZeroU32::new(10_000).unwrap(),
                std::num::NonZeroU32::new(10_000).unwrap(),
            ),
            ..Default::default()
        },
    };
    let app = app::start(config, GraderSlot::ready(None)).await.unwrap();
    let staff = users::create(&app.state.db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let token = users::issue_token(&app.state.db, staff.id).await.unwrap();
    let base = app.url();
    let client = reqwest::Client::new();

    // The smallest and the largest package by bytes.
    let mut by_size: Vec<(u64, &'static dyn katas::Kata)> = katas::catalogue::all()
        .iter()
        .map(|k| {
            let files = PackageFiles::read_dir(k.dir(), &Limits::default()).unwrap();
            let bytes = files
                .names()
                .map(|n| files.get(n).unwrap().len() as u64)
                .sum();
            (bytes, *k)
        })
        .collect();
    by_size.sort_by_key(|(bytes, _)| *bytes);
    let picks = [by_size[0], by_size[by_size.len() - 1]];

    println!("publish bench: {ROUNDS} rounds each, alternating with the baselines");
    for (bytes, kata) in picks {
        let slug = &kata.meta().slug;
        let files = PackageFiles::read_dir(kata.dir(), &Limits::default()).unwrap();
        let archives: Vec<Vec<u8>> = (0..ROUNDS).map(|r| archive(kata.dir(), r)).collect();
        let (mut publish, mut get, mut pack) = (Vec::new(), Vec::new(), Vec::new());
        for upload in archives {
            let t = Instant::now();
            let resp = client
                .post(format!("{base}/api/katas/{slug}/versions"))
                .bearer_auth(&token)
                .body(upload)
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 201, "{}", resp.text().await.unwrap());
            resp.bytes().await.unwrap();
            publish.push(t.elapsed());

            let t = Instant::now();
            let resp = client
                .get(format!("{base}/api/katas/{slug}"))
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 200);
            resp.bytes().await.unwrap();
            get.push(t.elapsed());

            let t = Instant::now();
            let packed = PackageFiles::read_dir(kata.dir(), &Limits::default())
                .unwrap()
                .to_tar_gz();
            std::hint::black_box(packed);
            pack.push(t.elapsed());
        }
        let (p, g, k) = (median(publish), median(get), median(pack));
        println!(
            "{slug}: {} files, {bytes} bytes — publish p50 {p:.2} ms; GET /api/katas/{slug} p50 \
             {g:.2} ms ({:.1}×); packing the folder p50 {k:.2} ms ({:.1}×)",
            files.names().count(),
            p / g,
            p / k,
        );
    }
    app.stop();
}
