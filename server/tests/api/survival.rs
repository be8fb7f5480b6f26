//! The server survives what once crashed or bloated it: the hostile submissions behind those
//! findings are posted through the API while `/api/health` is polled; it must answer every
//! time, every verdict must be stored as the submission's header says, and the process (the
//! app and its built-in workers run in this test process) must stay small.

use crate::helpers::{Options, grader, spawn_app};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(180);
/// What the app, its workers and the grader may add to the process at their peak during the
/// burst. The suite's other tests run in this process too and leave it at several hundred MiB
/// before this one starts (measured: 0.95 GiB resident), so the bound is on the growth.
const GROWTH_BYTES: u64 = 512 << 20;

/// Files of the grader's hostile suite (each names its expected verdict in its header).
const ATTACKS: &[&str] = &[
    "deep_tree.rs",
    "panic_huge_message.rs",
    "stdout_flood.rs",
    "stderr_flood.rs",
    "forge_keepalive_frames.rs",
    "perf_exec_fake_summary.rs",
    "perf_stage_two_faced.rs",
    "huge_static_read.rs",
    "thread_bomb.rs",
];

#[tokio::test]
async fn hostile_submissions_through_the_api_leave_the_server_answering() {
    let Some(grader) = grader() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let token = app.user("mallory").await;
    let resident = memory("VmRSS:");
    let _ = std::fs::write("/proc/self/clear_refs", "5");

    let stop = Arc::new(AtomicBool::new(false));
    let health = {
        let url = app.url("/api/health");
        let stop = Arc::clone(&stop);
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            let (mut ok, mut failed) = (0u32, Vec::new());
            let started = Instant::now();
            while !stop.load(Ordering::Relaxed) && started.elapsed() < WAIT * 2 {
                match client
                    .get(&url)
                    .timeout(Duration::from_secs(5))
                    .send()
                    .await
                {
                    Ok(r) if r.status().is_success() => ok += 1,
                    other => failed.push(format!("{other:?}")),
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            (ok, failed)
        })
    };

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../graders/tests/hostile");
    let mut posted = Vec::new();
    for name in ATTACKS {
        let source = std::fs::read_to_string(dir.join(name)).expect("hostile file");
        let expected = source
            .lines()
            .find_map(|l| l.strip_prefix("//! expected-verdict:"))
            .expect("header")
            .trim()
            .to_string();
        let id = app.submit_id(&token, "fast-power", &source, "submit").await;
        posted.push((name, id, expected));
    }
    for (name, id, expected) in &posted {
        let done = app.verdict(&token, *id, WAIT).await;
        assert_eq!(done["verdict"], expected.as_str(), "{name}: {done}");
    }
    stop.store(true, Ordering::Relaxed);
    let (ok, failed) = health.await.expect("health poller");
    assert!(ok > 0, "health was never asked");
    assert!(
        failed.is_empty(),
        "health check failed during the burst: {failed:?}"
    );
    let peak = memory("VmHWM:");
    assert!(
        peak.saturating_sub(resident) < GROWTH_BYTES,
        "the server process grew from {} MiB to a peak of {} MiB",
        resident >> 20,
        peak >> 20
    );
}

/// A line of this process's `/proc/self/status`, in bytes (0 when unreadable).
fn memory(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb << 10)
}
