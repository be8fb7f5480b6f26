//! Publishing a new function kata when the replica cannot run its checks (issue 20 §4): the
//! replica that takes the upload runs no grader and leaves the sandbox checks to a remote
//! worker (`services::package_checks`) — the path a GPU kata takes on a service whose GPUs are
//! on worker nodes — against the same upload checked by a replica's own grader, alternating in
//! one run. Every round uploads fast-power under a new slug with its checker's source changed by
//! a comment, so each version is built and verified from scratch on both paths. The difference
//! is the hand-off: queueing the candidate, a worker's claim, its fetch of the archive, the
//! answer, and the replica's polling.
//!
//! `cargo bench -p server --bench publish_on_worker` as root (the sandbox);
//! `INFRAKATA_BENCH_ROUNDS` sets the rounds (default 5).

use graders::{Grader, GraderConfig};
use katas::archive::{Limits, PackageFiles};
use server::app::{self, App, AppConfig};
use server::db::users::{self, Role};
use server::domain::JobPhase;
use server::grader_slot::GraderSlot;
use server::queue::WorkerHello;
use server::worker::RemoteSource;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    graders::sandbox::run_stage_if_requested();
    let grader: Arc<dyn graders::Grade> = match Grader::new(GraderConfig::for_checkout()) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            println!("publish_on_worker bench skipped: {e}");
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
    v[v.len() / 2].as_secs_f64()
}

/// fast-power as a new kata `slug`, its checker's source tagged so it is built anew.
fn archive(slug: &str, tag: &str) -> Vec<u8> {
    let dir = katas::catalogue::find("fast-power").unwrap().dir();
    let copy = tempfile::tempdir().unwrap();
    PackageFiles::read_dir(dir, &Limits::default())
        .unwrap()
        .write_into(copy.path())
        .unwrap();
    let edit = |file: &str, change: &dyn Fn(String) -> String| {
        let path = copy.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, change(text)).unwrap();
    };
    edit("kata.toml", &|t| {
        t.replacen("slug = \"fast-power\"", &format!("slug = \"{slug}\""), 1)
    });
    edit("kata.rs", &|t| format!("{t}\n// {tag}\n"));
    PackageFiles::read_dir(copy.path(), &Limits::default())
        .unwrap()
        .to_tar_gz()
}

async fn service(
    dir: &std::path::Path,
    name: &str,
    grader: Option<Arc<dyn graders::Grade>>,
) -> (App, String) {
    let config = AppConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: server::db::Location::Sqlite(dir.join(format!("{name}.db"))),
        workers: 0,
        server: server::state::ServerConfig {
            // Every round is an upload: the instructors' hourly allowance would stop the bench.
            kata_upload_budget: server::db::allowance::Budget::per_hour(
                std::num::NonZeroU32::new(10_000).unwrap(),
                std::num::NonZeroU32::new(10_000).unwrap(),
            ),
            // A verification is answered in the request, never as "checking".
            publish_wait: Duration::from_secs(50),
            ..Default::default()
        },
    };
    let app = app::start(config, GraderSlot::ready(grader)).await.unwrap();
    let staff = users::create(&app.state.db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let token = users::issue_token(&app.state.db, staff.id).await.unwrap();
    (app, token)
}

async fn run(grader: Arc<dyn graders::Grade>) {
    let dir = tempfile::tempdir().unwrap();
    let (own, own_token) = service(dir.path(), "own", Some(grader.clone())).await;
    let (handing, handing_token) = service(dir.path(), "handing", None).await;
    let worker = tokio::spawn(server::worker::run(
        Arc::new(RemoteSource::new(
            &handing.url(),
            &handing.state.config.worker_token,
            WorkerHello {
                worker_id: "bench-worker".into(),
                name: "bench-worker".into(),
                capabilities: server::worker::capabilities(1),
                phase: JobPhase::Verdict,
            },
        )),
        grader,
    ));
    while !server::db::workers::checker_connected(&handing.state.db, false)
        .await
        .unwrap()
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let rounds: usize = std::env::var("INFRAKATA_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let client = reqwest::Client::new();
    let publish = |app: &App, token: &str, slug: String, archive: Vec<u8>| {
        let request = client
            .post(format!("{}/api/katas/{slug}/versions", app.url()))
            .bearer_auth(token)
            .body(archive);
        async move {
            let started = Instant::now();
            let resp = request.send().await.unwrap();
            let status = resp.status();
            let body = resp.text().await.unwrap();
            assert_eq!(status, 201, "{body}");
            (started.elapsed(), body)
        }
    };
    println!("publish_on_worker bench: {rounds} rounds, the two paths alternating");
    let (mut by_own, mut by_worker) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let slug = format!("power-bench-{round}");
        let (took, _) = publish(
            &own,
            &own_token,
            slug.clone(),
            archive(&slug, &format!("own {run} {round}")),
        )
        .await;
        by_own.push(took);
        let (took, body) = publish(
            &handing,
            &handing_token,
            slug.clone(),
            archive(&slug, &format!("worker {run} {round}")),
        )
        .await;
        assert!(body.contains("sandbox of a worker"), "{body}");
        by_worker.push(took);
        println!(
            "round {round}: replica's grader {:.2} s, a worker's {:.2} s",
            by_own[round].as_secs_f64(),
            took.as_secs_f64()
        );
    }
    let (a, b) = (median(by_own), median(by_worker));
    println!(
        "publish a new function kata (fast-power's files), p50: the replica's own grader {a:.2} s; \
         left to a remote worker {b:.2} s ({:.2}×, +{:.0} ms)",
        b / a,
        (b - a) * 1e3
    );
    worker.abort();
    own.stop();
    handing.stop();
}
