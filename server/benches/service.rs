//! Service figures that need the whole stack (run as root: grading uses the sandbox):
//! - run → verdict, submit → verdict and submit → performance figure through HTTP + SSE for
//!   an accepted `fast-power` submission, a compile error and a compile-cache hit, beside bare
//!   `rustc -O` building the same file as a program in the same run;
//! - `infrakata grade` on a cached source against the same grading in-process: the CLI's
//!   start-up;
//! - a burst of 500 submissions from 30 learners: time to drain, every one graded exactly once,
//!   the p99 of the catalogue page while the queue drains, and the drain rate against the
//!   compile floor (one bare program build per worker at a time, all workers at once, measured
//!   after the burst).
//!
//! `cargo bench -p server --bench service` (set `INFRAKATA_BENCH_BURST` for another burst size,
//! `INFRAKATA_BENCH_BURST_MODE=submit` for accepted submits, `INFRAKATA_BENCH_LEARNERS` for how
//! many learners send it, `INFRAKATA_BENCH_ROUNDS` for fewer latency rounds).
//! Requests per second for single routes come from wrk; see BENCHMARKS.md for the commands.

use graders::{Grader, GraderConfig};
use server::app::{self, AppConfig};
use server::db::users::{self, Role};
use server::grader_slot::GraderSlot;
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
        db: server::db::Location::Sqlite(dir.path().join("bench.db")),
        workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
        server: ServerConfig {
            submissions_per_minute: NonZeroU32::new(100_000).unwrap(),
            submission_burst: NonZeroU32::new(100_000).unwrap(),
            ..ServerConfig::default()
        },
    };
    let app = app::start(config, GraderSlot::ready(Some(grader.clone())))
        .await
        .unwrap();
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

    // 1. Latency, interleaved with the bare-rustc baseline so both see the same machine: the
    // learner's file built as a program (`rustc -O` with a `main`), the floor of any grading.
    let program = dir.path().join("program.rs");
    std::fs::write(&program, format!("{source}\nfn main() {{}}\n")).unwrap();
    let rounds: usize = std::env::var("INFRAKATA_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let (mut bare, mut run_verdict, mut submit_verdict, mut submit_figure) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut compile_error, mut cache_hit, mut cli, mut in_process) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut again_verdict = Vec::new();
    // One source graded once before the rounds, so every later grading of it is a cache hit,
    // through the service and through the CLI alike.
    let cached = format!("{source}\n// cached {run}\n");
    let cached_file = dir.path().join("cached.rs");
    std::fs::write(&cached_file, &cached).unwrap();
    let warm = submit(&client, &app.url(), &token, &cached, "run").await;
    follow(&client, &app.url(), &token, id_ok(warm)).await;
    let grade_cli = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_infrakata"))
            .args(["grade", "fast-power"])
            .arg(&cached_file)
            .args(["--mode", "run", "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    grade_cli();
    for i in 0..rounds {
        let started = Instant::now();
        let status = std::process::Command::new("rustc")
            .args(["--edition=2024", "-O"])
            .arg("-o")
            .arg(dir.path().join("program"))
            .arg(&program)
            .status()
            .unwrap();
        assert!(status.success());
        bare.push(started.elapsed());

        for mode in ["run", "submit"] {
            let unique = format!("{source}\n// latency {run} {i} {mode}\n");
            let started = Instant::now();
            let id = submit(&client, &app.url(), &token, &unique, mode).await;
            let (verdict, done) = follow(&client, &app.url(), &token, id_ok(id)).await;
            if mode == "run" {
                run_verdict.push(verdict - started);
            } else {
                submit_verdict.push(verdict - started);
                submit_figure.push(done - started);
            }
        }

        // A learner who submits again the moment the verdict shows: the first submission's
        // figure is still owed, and must not hold up the second's verdict.
        let first = format!("{source}\n// again-first {run} {i}\n");
        let first = submit(&client, &app.url(), &token, &first, "submit").await;
        until_verdict(&client, &app.url(), &token, first).await;
        let second = format!("{source}\n// again-second {run} {i}\n");
        let started = Instant::now();
        let id = submit(&client, &app.url(), &token, &second, "submit").await;
        let (verdict, _) = follow(&client, &app.url(), &token, id_ok(id)).await;
        again_verdict.push(verdict - started);
        follow(&client, &app.url(), &token, id_ok(first)).await;

        let broken = format!("{source}\nfn broken() -> u32 {{ \"{run} {i}\" }}\n");
        let started = Instant::now();
        let id = submit(&client, &app.url(), &token, &broken, "run").await;
        let (verdict, _) = follow(&client, &app.url(), &token, Expect(id, "compile_error")).await;
        compile_error.push(verdict - started);

        let started = Instant::now();
        let id = submit(&client, &app.url(), &token, &cached, "run").await;
        let (verdict, _) = follow(&client, &app.url(), &token, id_ok(id)).await;
        cache_hit.push(verdict - started);

        let started = Instant::now();
        grade_cli();
        cli.push(started.elapsed());
        let started = Instant::now();
        let report = grader
            .grade("fast-power", &cached, katas::Mode::Run, &|_| {})
            .unwrap();
        assert_eq!(report.verdict, katas::Verdict::Accepted);
        in_process.push(started.elapsed());
    }
    for v in [
        &mut bare,
        &mut run_verdict,
        &mut submit_verdict,
        &mut submit_figure,
        &mut again_verdict,
        &mut compile_error,
        &mut cache_hit,
        &mut cli,
        &mut in_process,
    ] {
        v.sort();
    }
    let floor = ms(percentile(&bare, 0.5));
    println!(
        "accepted fast-power through HTTP + SSE, {rounds} rounds, against bare `rustc -O` building the same file as a program (p50 {floor:.1} ms, p99 {:.1} ms):",
        ms(percentile(&bare, 0.99))
    );
    for (what, v) in [
        ("run → verdict", &run_verdict),
        ("submit → verdict", &submit_verdict),
        ("submit → performance figure", &submit_figure),
        ("submit again at the verdict → verdict", &again_verdict),
        ("compile error → verdict", &compile_error),
        ("cache hit (run) → verdict", &cache_hit),
    ] {
        println!(
            "  {what:<30} p50 {:.1} ms  p99 {:.1} ms   | ratio of p50s {:.2}",
            ms(percentile(v, 0.5)),
            ms(percentile(v, 0.99)),
            ms(percentile(v, 0.5)) / floor
        );
    }

    println!(
        "`infrakata grade` on a cached source: p50 {:.1} ms, p99 {:.1} ms; the same grading in-process: p50 {:.1} ms; start-up ≈ {:.1} ms",
        ms(percentile(&cli, 0.5)),
        ms(percentile(&cli, 0.99)),
        ms(percentile(&in_process, 0.5)),
        ms(percentile(&cli, 0.5)) - ms(percentile(&in_process, 0.5))
    );

    // 2. A burst: every submission distinct (no cache hits), all queued at once.
    let burst: usize = std::env::var("INFRAKATA_BENCH_BURST")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    // `submit` bursts accepted submits: their verdicts must drain at the compile floor while
    // their figures follow on the measuring loop.
    let burst_mode = std::env::var("INFRAKATA_BENCH_BURST_MODE").unwrap_or_else(|_| "run".into());
    // A class submitting together: the burst comes round-robin from this many learners.
    let learners: usize = std::env::var("INFRAKATA_BENCH_LEARNERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    let mut tokens = Vec::with_capacity(learners);
    for n in 0..learners {
        let learner = users::create(&app.state.db, &format!("learner{n}"), Role::Learner, None)
            .await
            .unwrap();
        tokens.push(users::issue_token(&app.state.db, learner.id).await.unwrap());
    }
    let started = Instant::now();
    let mut ids = Vec::with_capacity(burst);
    for i in 0..burst {
        ids.push(
            submit(
                &client,
                &app.url(),
                &tokens[i % learners],
                &format!("{source}\n// burst {run} {i}\n"),
                &burst_mode,
            )
            .await,
        );
    }
    let queued_in = started.elapsed();
    let mut page = Vec::new();
    let mut verdicts_in = None;
    loop {
        let t = Instant::now();
        let resp = client
            .get(format!("{}/api/katas", app.url()))
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success());
        page.push(t.elapsed());
        let done: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions WHERE state = 'done' AND id >= $1",
        )
        .bind(ids[0])
        .fetch_one(&app.state.db)
        .await
        .unwrap();
        if verdicts_in.is_none() {
            let judged: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM submissions WHERE verdict IS NOT NULL AND id >= $1",
            )
            .bind(ids[0])
            .fetch_one(&app.state.db)
            .await
            .unwrap();
            if judged as usize == burst {
                verdicts_in = Some(started.elapsed());
            }
        }
        if done as usize == burst {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let drained = started.elapsed();
    let verdicts_in = verdicts_in.unwrap_or(drained);
    let once: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM jobs WHERE submission_id >= $1 AND attempts = 1 AND state = 'done'",
    )
    .bind(ids[0])
    .fetch_one(&app.state.db)
    .await
    .unwrap();
    let accepted: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM submissions WHERE id >= $1 AND verdict = 'accepted'",
    )
    .bind(ids[0])
    .fetch_one(&app.state.db)
    .await
    .unwrap();
    page.sort();
    // The floor: every worker building one bare program after another at the same time, nothing
    // else, measured right after the burst on the same machine. The single build's p50 times
    // the workers is the floor only if two builds at once run as fast as one alone.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let ideal_rate = workers as f64 / (floor / 1e3);
    let floor_rate = concurrent_builds(&program, dir.path(), workers, 10);
    let rate = burst as f64 / verdicts_in.as_secs_f64();
    println!("burst of {burst} distinct `{burst_mode}` submissions from {learners} learners:");
    println!(
        "  all stored (202) in {:.2} s; drained in {:.1} s ({:.1} gradings/s); graded once: {once}/{burst}; accepted: {accepted}/{burst}",
        queued_in.as_secs_f64(),
        drained.as_secs_f64(),
        burst as f64 / drained.as_secs_f64()
    );
    println!(
        "  every verdict in {:.1} s ({rate:.1} verdicts/s); compile floor: {workers} workers each building bare `rustc -O` programs one after another, at once = {floor_rate:.1} builds/s; the verdicts drained at {:.2} of it ({:.2} of {workers} × the single build's p50 = {ideal_rate:.1} builds/s)",
        verdicts_in.as_secs_f64(),
        rate / floor_rate,
        rate / ideal_rate,
    );
    println!(
        "  GET / (the catalogue page) during the drain: {} samples, p50 {:.2} ms, p99 {:.2} ms",
        page.len(),
        ms(percentile(&page, 0.5)),
        ms(percentile(&page, 0.99))
    );
    app.stop();
}

/// Builds per second when `workers` threads each build `program` `each` times, one after
/// another, all at once.
fn concurrent_builds(
    program: &std::path::Path,
    dir: &std::path::Path,
    workers: usize,
    each: usize,
) -> f64 {
    let started = Instant::now();
    std::thread::scope(|s| {
        for w in 0..workers {
            s.spawn(move || {
                for _ in 0..each {
                    let status = std::process::Command::new("rustc")
                        .args(["--edition=2024", "-O"])
                        .arg("-o")
                        .arg(dir.join(format!("floor-{w}")))
                        .arg(program)
                        .status()
                        .unwrap();
                    assert!(status.success());
                }
            });
        }
    });
    (workers * each) as f64 / started.elapsed().as_secs_f64()
}

/// Reads a submission's event stream until its verdict shows (its figure may still be owed).
async fn until_verdict(client: &reqwest::Client, url: &str, token: &str, id: i64) {
    let mut resp = client
        .get(format!("{url}/api/submissions/{id}/events"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let mut text = String::new();
    while let Some(chunk) = resp.chunk().await.unwrap() {
        text.push_str(&String::from_utf8_lossy(&chunk));
        if text.contains("event: verdict") {
            return;
        }
    }
    panic!("the stream ended without a verdict: {text}");
}

/// A submission and the verdict word its stream must end with.
struct Expect(i64, &'static str);

fn id_ok(id: i64) -> Expect {
    Expect(id, "accepted")
}

/// Follows a submission's event stream: when the verdict first showed, and when it was done.
async fn follow(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    expect: Expect,
) -> (Instant, Instant) {
    let Expect(id, word) = expect;
    let mut resp = client
        .get(format!("{url}/api/submissions/{id}/events"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let (mut text, mut verdict) = (String::new(), None);
    while let Some(chunk) = resp.chunk().await.unwrap() {
        text.push_str(&String::from_utf8_lossy(&chunk));
        if verdict.is_none() && text.contains("event: verdict") {
            verdict = Some(Instant::now());
        }
    }
    assert!(text.contains(&format!("\"{word}\"")), "{text}");
    let done = Instant::now();
    (verdict.unwrap_or(done), done)
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
