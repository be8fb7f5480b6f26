//! Service figures that need the whole stack (run as root: grading uses the sandbox):
//! - submit → verdict latency through HTTP + SSE for an accepted `fast-power` submission,
//!   beside bare `rustc -O` on the same file in the same run;
//! - a burst of 500 submissions: time to drain, every one graded exactly once, and the p99 of
//!   `GET /api/katas` while the queue drains.
//!
//! `cargo bench -p server --bench service` (set `INFRAKATA_BENCH_BURST` for another burst size).
//! Requests per second for single routes come from wrk; see BENCHMARKS.md for the commands.

use graders::{Grader, GraderConfig};
use server::app::{self, AppConfig};
use server::db::users::{self, Role};
use server::state::ServerConfig;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    graders::sandbox::run_stage_if_requested();
    let grader = match Grader::new(GraderConfig::for_checkout()) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            println!("service bench skipped: {e}");
            return;
        }
    };
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(grader));
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

async fn run(grader: Arc<Grader>) {
    let dir = tempfile::tempdir().unwrap();
    let config = AppConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db_path: dir.path().join("bench.db"),
        workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
        server: ServerConfig {
            submissions_per_minute: NonZeroU32::new(100_000).unwrap(),
            submission_burst: NonZeroU32::new(100_000).unwrap(),
            ..ServerConfig::default()
        },
    };
    let app = app::start(config, Some(grader)).await.unwrap();
    let user = users::create(&app.state.db, "bench", Role::Learner, None)
        .await
        .unwrap();
    let token = users::issue_token(&app.state.db, user.id).await.unwrap();
    let client = reqwest::Client::new();
    let source = katas::catalogue::find("fast-power")
        .unwrap()
        .package()
        .reference;
    let file = dir.path().join("solution.rs");
    std::fs::write(&file, source).unwrap();

    // A per-run tag keeps every source new to the compile cache, which outlives a run.
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();

    // 1. Latency, interleaved with the bare-rustc baseline so both see the same machine.
    let rounds = 30;
    let (mut grading, mut bare) = (Vec::new(), Vec::new());
    for i in 0..rounds {
        let started = Instant::now();
        let status = std::process::Command::new("rustc")
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
            .unwrap();
        assert!(status.success());
        bare.push(started.elapsed());

        let unique = format!("{source}\n// latency {run} {i}\n");
        let started = Instant::now();
        let id = submit(&client, &app.url(), &token, &unique, "run").await;
        let events = client
            .get(format!("{}/api/submissions/{id}/events", app.url()))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        grading.push(started.elapsed());
        assert!(
            events.contains("event: verdict") && events.contains("\"accepted\""),
            "{events}"
        );
    }
    grading.sort();
    bare.sort();
    println!("submit → verdict (HTTP + SSE, run mode, accepted fast-power, {rounds} rounds):");
    println!(
        "  p50 {:.1} ms  p99 {:.1} ms   | bare rustc -O on the same file: p50 {:.1} ms  p99 {:.1} ms   | ratio p50 {:.2}",
        ms(percentile(&grading, 0.5)),
        ms(percentile(&grading, 0.99)),
        ms(percentile(&bare, 0.5)),
        ms(percentile(&bare, 0.99)),
        ms(percentile(&grading, 0.5)) / ms(percentile(&bare, 0.5))
    );

    // 2. A burst: every submission distinct (no cache hits), all queued at once.
    let burst: usize = std::env::var("INFRAKATA_BENCH_BURST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let started = Instant::now();
    let mut ids = Vec::with_capacity(burst);
    for i in 0..burst {
        ids.push(
            submit(
                &client,
                &app.url(),
                &token,
                &format!("{source}\n// burst {run} {i}\n"),
                "run",
            )
            .await,
        );
    }
    let queued_in = started.elapsed();
    let mut page = Vec::new();
    loop {
        let t = Instant::now();
        let resp = client
            .get(format!("{}/api/katas", app.url()))
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success());
        page.push(t.elapsed());
        let done: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM submissions WHERE state = 'done' AND id >= ?")
                .bind(ids[0])
                .fetch_one(&app.state.db)
                .await
                .unwrap();
        if done as usize == burst {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let drained = started.elapsed();
    let once: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM jobs WHERE submission_id >= ? AND attempts = 1 AND state = 'done'",
    )
    .bind(ids[0])
    .fetch_one(&app.state.db)
    .await
    .unwrap();
    let accepted: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM submissions WHERE id >= ? AND verdict = 'accepted'",
    )
    .bind(ids[0])
    .fetch_one(&app.state.db)
    .await
    .unwrap();
    page.sort();
    println!("burst of {burst} distinct submissions:");
    println!(
        "  all stored (202) in {:.2} s; drained in {:.1} s ({:.1} gradings/s); graded once: {once}/{burst}; accepted: {accepted}/{burst}",
        queued_in.as_secs_f64(),
        drained.as_secs_f64(),
        burst as f64 / drained.as_secs_f64()
    );
    println!(
        "  GET /api/katas during the drain: {} samples, p50 {:.2} ms, p99 {:.2} ms",
        page.len(),
        ms(percentile(&page, 0.5)),
        ms(percentile(&page, 0.99))
    );
    app.stop();
}

async fn submit(client: &reqwest::Client, url: &str, token: &str, source: &str, mode: &str) -> i64 {
    let resp = client
        .post(format!("{url}/api/submissions"))
        .bearer_auth(token)
        .json(&serde_json::json!({ "kata": "fast-power", "source": source, "mode": mode }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 202);
    resp.json::<serde_json::Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}
