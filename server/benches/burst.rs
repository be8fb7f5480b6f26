//! A class's burst: N distinct accepted `fast-power` submissions posted at once, and the time
//! until every one is graded, with 1 and then 2 `infrakata serve` replicas on one PostgreSQL
//! database (no built-in workers) and the same 2 remote `infrakata worker` processes (one
//! grading slot each). The client is this process (concurrent HTTP posts), so it does not bound
//! the figure. Each run also checks that every submission was graded exactly once.
//!
//! `cargo bench -p server --bench burst` (as root: the workers' sandbox;
//! `INFRAKATA_BENCH_SUBMISSIONS` sets N, 300; `INFRAKATA_BENCH_MODE` `run` (the samples, the
//! default) or `submit` (every case, measured); `INFRAKATA_BENCH_REPLICAS` the runs in order,
//! `1,2`: `2,1` shows whether the order favours the second). Skipped, saying why, without
//! PostgreSQL server binaries or without root.

#[allow(dead_code)]
#[path = "../tests/api/postgres.rs"]
mod postgres;

use server::db::users::{self, Role};
use server::db::{self, Db, Location};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_infrakata");
const WORKERS: usize = 2;
const WORKER_TOKEN: &str = "wk_burst_bench";
/// The per-user rate limit lets 10 submissions through at once: one learner per 10.
const PER_LEARNER: usize = 10;
/// Graded before the clock starts, so that neither run pays for a cold worker.
const WARM_UP: usize = 4;

fn main() {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run());
}

async fn run() {
    let n: usize = std::env::var("INFRAKATA_BENCH_SUBMISSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mode = std::env::var("INFRAKATA_BENCH_MODE").unwrap_or_else(|_| "run".into());
    if postgres::bin_dir().is_none() {
        println!("burst: skipped: no PostgreSQL server binaries (apt-get install postgresql)");
        return;
    }
    if !nix::unistd::geteuid().is_root() {
        println!("burst: skipped: the workers' sandbox needs root");
        return;
    }
    let order: Vec<usize> = std::env::var("INFRAKATA_BENCH_REPLICAS")
        .unwrap_or_else(|_| "1,2".into())
        .split(',')
        .map(|r| {
            r.trim()
                .parse()
                .expect("INFRAKATA_BENCH_REPLICAS: e.g. 1,2")
        })
        .collect();
    let mut secs = std::collections::BTreeMap::new();
    for replicas in order {
        let drain = drain(replicas, n, &mode).await;
        let s = drain.as_secs_f64();
        println!(
            "burst: {replicas} replica(s), {WORKERS} workers: {n} {mode} submissions drained in \
             {s:.1} s = {:.2} gradings/s",
            n as f64 / s
        );
        secs.insert(replicas, s);
    }
    if let (Some(one), Some(two)) = (secs.get(&1), secs.get(&2)) {
        println!(
            "burst: drain time 1 replica / 2 replicas = {:.2}",
            one / two
        );
    }
}

/// Child processes that are killed when the run ends, however it ends.
struct Processes(Vec<(String, Child)>);

impl Processes {
    fn spawn(&mut self, name: &str, logs: &Path, args: &[&str]) {
        let log = std::fs::File::create(logs.join(format!("{name}.log"))).unwrap();
        let child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {name}: {e}"));
        self.0.push((name.to_string(), child));
    }

    /// Panics, with its log, when a process has exited.
    fn check_alive(&mut self, logs: &Path) {
        for (name, child) in &mut self.0 {
            if let Ok(Some(status)) = child.try_wait() {
                let log =
                    std::fs::read_to_string(logs.join(format!("{name}.log"))).unwrap_or_default();
                panic!("{name} exited ({status}):\n{log}");
            }
        }
    }
}

impl Drop for Processes {
    fn drop(&mut self) {
        for (_, child) in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port()
}

fn reference() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../katas/problems/fast-power/reference.rs");
    std::fs::read_to_string(path).unwrap()
}

async fn drain(replicas: usize, n: usize, mode: &str) -> Duration {
    let url = postgres::fresh_database().await;
    let db = db::open(Location::Postgres(url.clone())).await.unwrap();
    let logs = tempfile::tempdir().unwrap();
    let mut processes = Processes(Vec::new());
    let mut bases = Vec::new();
    for r in 0..replicas {
        let addr = format!("127.0.0.1:{}", free_port());
        processes.spawn(
            &format!("replica{r}"),
            logs.path(),
            &[
                "serve",
                "--addr",
                &addr,
                "--db",
                &url,
                "--workers",
                "0",
                "--worker-token",
                WORKER_TOKEN,
            ],
        );
        bases.push(format!("http://{addr}"));
    }
    let client = reqwest::Client::new();
    for base in &bases {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !client
            .get(format!("{base}/api/health"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            processes.check_alive(logs.path());
            assert!(Instant::now() < deadline, "{base} did not come up");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    for w in 0..WORKERS {
        let base = &bases[w % replicas];
        processes.spawn(
            &format!("worker{w}"),
            logs.path(),
            &[
                "worker",
                "--server",
                base,
                "--token",
                WORKER_TOKEN,
                "--parallel",
                "1",
            ],
        );
    }

    // Distinct sources, in this run and against any earlier one: none shares a compiled binary.
    let reference = reference();
    let nonce = format!("{}-{}", std::process::id(), db::now_ms());
    let learners = (WARM_UP + n).div_ceil(PER_LEARNER);
    let mut tokens = Vec::new();
    for l in 0..learners {
        let user = users::create(&db, &format!("learner{l}"), Role::Learner, None)
            .await
            .unwrap();
        tokens.push(users::issue_token(&db, user.id).await.unwrap());
    }
    let post_all = |range: std::ops::Range<usize>| {
        range
            .map(|i| {
                let client = client.clone();
                let url = format!("{}/api/submissions", bases[i % replicas]);
                let token = tokens[i / PER_LEARNER].clone();
                let body = serde_json::json!({
                    "kata": "fast-power",
                    "mode": mode,
                    "source": format!("{reference}\n// burst {replicas} {nonce} {i}\n"),
                });
                tokio::spawn(async move {
                    let resp = client
                        .post(url)
                        .bearer_auth(token)
                        .json(&body)
                        .send()
                        .await
                        .unwrap();
                    let status = resp.status();
                    let text = resp.text().await.unwrap();
                    assert_eq!(status, 202, "{text}");
                    serde_json::from_str::<serde_json::Value>(&text).unwrap()["id"]
                        .as_i64()
                        .unwrap()
                })
            })
            .collect::<Vec<_>>()
    };

    for post in post_all(0..WARM_UP) {
        post.await.unwrap();
    }
    wait_until_done(&db, WARM_UP, &mut processes, logs.path()).await;

    let start = Instant::now();
    let posts = post_all(WARM_UP..WARM_UP + n);
    let mut ids = Vec::new();
    for post in posts {
        ids.push(post.await.unwrap());
    }
    let posted = start.elapsed();
    wait_until_done(&db, WARM_UP + n, &mut processes, logs.path()).await;
    let drained = start.elapsed();
    println!(
        "burst: {replicas} replica(s): posted {n} in {:.2} s",
        posted.as_secs_f64()
    );
    check_exactly_once(&db, WARM_UP + n).await;
    drained
}

async fn count(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(db).await.unwrap()
}

async fn wait_until_done(db: &Db, total: usize, processes: &mut Processes, logs: &Path) {
    let deadline = Instant::now() + Duration::from_secs(3600);
    while count(db, "SELECT COUNT(*) FROM submissions WHERE state = 'done'").await < total as i64 {
        processes.check_alive(logs);
        assert!(Instant::now() < deadline, "not drained in an hour");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every submission has one verdict, accepted, from one finished job, and its cases were
/// stored once: no grading was recorded twice.
async fn check_exactly_once(db: &Db, total: usize) {
    let total = total as i64;
    let checks = [
        ("submissions", "SELECT COUNT(*) FROM submissions", total),
        (
            "accepted",
            "SELECT COUNT(*) FROM submissions WHERE verdict = 'accepted'",
            total,
        ),
        (
            "jobs done",
            "SELECT COUNT(*) FROM jobs WHERE state = 'done'",
            total,
        ),
        (
            "jobs per submission",
            "SELECT COUNT(*) FROM (SELECT submission_id FROM jobs
               GROUP BY submission_id HAVING COUNT(*) > 1) AS d",
            0,
        ),
        (
            "duplicated case results",
            "SELECT COUNT(*) FROM (SELECT submission_id, position FROM case_results
               GROUP BY submission_id, position HAVING COUNT(*) > 1) AS d",
            0,
        ),
        (
            "submissions without cases",
            "SELECT COUNT(*) FROM submissions s
             WHERE NOT EXISTS (SELECT 1 FROM case_results c WHERE c.submission_id = s.id)",
            0,
        ),
    ];
    for (what, sql, expected) in checks {
        assert_eq!(count(db, sql).await, expected, "{what}");
    }
    let released = count(db, "SELECT COUNT(*) FROM jobs WHERE attempts > 1").await;
    println!(
        "burst: exactly once: {total} graded, {total} accepted, 0 twice; {released} re-leased"
    );
}
