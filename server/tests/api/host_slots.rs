//! Isolation slots are host-wide: `infrakata grade` processes started beside a running app,
//! whose two built-in workers grade submissions posted through the API at the same time,
//! never share a job uid or cgroup. Before slots were host-wide, every process started its uid
//! pool at the same uid and some of six such gradings ended in an internal error ("execve
//! /prog: EAGAIN": `RLIMIT_NPROC` counts per uid across the host).

use crate::helpers::{Options, grader, reference, spawn_app};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const CLI_GRADINGS: usize = 6;
const API_SUBMISSIONS: usize = 4;
const ROUNDS: usize = 2;
/// Generous: everything shares two cores, and callgrind measures each accepted submit.
const WAIT: Duration = Duration::from_secs(600);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grade_processes_and_the_service_share_the_host_slots() {
    // `grader()` says why it skips without the sandbox (and fails under INFRAKATA_CI=1); the
    // `grade` processes need the same root.
    let Some(grader) = grader() else { return };
    let app = spawn_app(
        Options {
            workers: 2,
            burst: (ROUNDS * API_SUBMISSIONS) as u32,
            ..Options::default()
        },
        Some(grader),
    )
    .await;
    let token = app.user("ada").await;
    let dir = tempfile::tempdir().unwrap();
    // Unique sources, even across runs of this test: a cache hit would skip the compile job.
    let nonce = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let source = |who: &str, round: usize, n: usize| {
        format!(
            "{}\n// {who} {round}.{n} of run {nonce}\n",
            reference("fast-power")
        )
    };

    for round in 0..ROUNDS {
        let mut children = Vec::new();
        for n in 0..CLI_GRADINGS {
            let file = dir.path().join(format!("cli-{round}-{n}.rs"));
            std::fs::write(&file, source("cli", round, n)).unwrap();
            let child = Command::new(env!("CARGO_BIN_EXE_infrakata"))
                .args(["grade", "fast-power"])
                .arg(&file)
                .arg("--json")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the binary starts");
            children.push(child);
        }
        let mut ids = Vec::new();
        for n in 0..API_SUBMISSIONS {
            let id = app
                .submit_id(&token, "fast-power", &source("api", round, n), "submit")
                .await;
            ids.push(id);
        }

        let mut failures = Vec::new();
        for id in ids {
            let done = app.verdict(&token, id, WAIT).await;
            if done["verdict"] != "accepted" {
                failures.push(format!("round {round}, submission {id}: {done}"));
            }
        }
        for (n, child) in children.into_iter().enumerate() {
            let out = tokio::task::spawn_blocking(move || child.wait_with_output())
                .await
                .unwrap()
                .unwrap();
            let report: Option<serde_json::Value> = serde_json::from_slice(&out.stdout).ok();
            let verdict = report.as_ref().map(|r| r["verdict"].clone());
            if !out.status.success() || verdict.as_ref().is_none_or(|v| v != "accepted") {
                failures.push(format!(
                    "round {round}, grade process {n}: {} {}\n{}",
                    out.status,
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "every correct solution must be accepted:\n{}",
            failures.join("\n")
        );
    }
}
