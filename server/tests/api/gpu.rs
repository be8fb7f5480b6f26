//! GPU jobs without a GPU: only workers advertising `gpu` claim them, and learners and
//! instructors are told when none is connected. There is no GPU kata yet, so the GPU
//! submissions are written straight into the database (a CPU kata's slug with kind `gpu`).

use crate::browser::Browser;
use crate::helpers::{TestApp, reference, spawn_idle};
use katas::Mode;
use server::db::users::{self, Role, User};
use server::db::workers::{self, Capabilities};
use server::db::{Db, jobs, submissions};
use server::domain::{JobKind, Slug, SubmissionId, Word as _};
use server::queue::{self, WorkerHello};
use std::time::Duration;

fn caps(kinds: &[&str]) -> Capabilities {
    Capabilities {
        cores: 4,
        kinds: kinds
            .iter()
            .map(|k| JobKind::from_name(k).unwrap())
            .collect(),
        gpu: kinds.contains(&"gpu").then(|| graders::gpu::GpuInfo {
            name: "NVIDIA H200".into(),
            compute_capability: (9, 0),
            memory_bytes: 150_000_000_000,
            driver_version: "13.0".into(),
        }),
        packages: true,
        function_packages: true,
        gpu_packages: true,
        package_checks: false,
        renews_checks: false,
        compiled: None,
    }
}

async fn learner(app: &TestApp, name: &str) -> (User, String) {
    let db = &app.app.state.db;
    let user = users::create(db, name, Role::Learner, None).await.unwrap();
    let token = users::issue_token(db, user.id).await.unwrap();
    (user, token)
}

async fn enqueue(db: &Db, user: &User, kind: &str) -> SubmissionId {
    let kind = JobKind::from_name(kind).expect("a job kind");
    submissions::create(
        db,
        user.id,
        &Slug::parse("fast-power").unwrap(),
        kind,
        Mode::Submit,
        reference("fast-power"),
    )
    .await
    .unwrap()
}

async fn waiting_for(app: &TestApp, token: &str, id: SubmissionId) -> serde_json::Value {
    let body: serde_json::Value = app
        .get(token, &format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["state"], "queued", "{body}");
    body["waiting_for"].clone()
}

#[tokio::test]
async fn a_cpu_only_worker_never_gets_a_gpu_job() {
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let (user, _) = learner(&app, "gina").await;
    // The GPU job is older: a claim that ignored kinds would take it first.
    let gpu = enqueue(db, &user, "gpu").await;
    let cpu = enqueue(db, &user, "cpu").await;

    let (Some(job), _) = jobs::claim(
        db,
        "cpu-w",
        &[JobKind::Cpu],
        server::domain::JobPhase::Verdict,
        60_000,
    )
    .await
    .unwrap() else {
        panic!("the CPU job is claimable");
    };
    assert_eq!(job.submission_id, cpu);
    let (none, _) = jobs::claim(
        db,
        "cpu-w",
        &[JobKind::Cpu],
        server::domain::JobPhase::Verdict,
        60_000,
    )
    .await
    .unwrap();
    assert_eq!(none, None, "a CPU-only worker got the GPU job");

    // Through the protocol's claim (what built-in and remote workers call), with a long poll.
    let hello = WorkerHello {
        worker_id: "cpu-w".into(),
        name: "cpu only".into(),
        capabilities: caps(&["cpu"]),
        phase: server::domain::JobPhase::Verdict,
    };
    let got = queue::claim(&app.app.state, &hello, false, Duration::from_millis(300))
        .await
        .unwrap();
    assert_eq!(got, None, "a CPU-only worker got the GPU job");

    let hello = WorkerHello {
        worker_id: "gpu-w".into(),
        name: "gpu".into(),
        capabilities: caps(&["cpu", "gpu"]),
        phase: server::domain::JobPhase::Verdict,
    };
    let got = queue::claim(&app.app.state, &hello, false, Duration::from_millis(300))
        .await
        .unwrap()
        .expect("the GPU worker gets the GPU job");
    assert_eq!(got.submission_id, gpu);
}

#[tokio::test]
async fn a_queued_gpu_job_says_it_waits_for_a_gpu_worker() {
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let (user, token) = learner(&app, "hana").await;
    let gpu = enqueue(db, &user, "gpu").await;
    let cpu = enqueue(db, &user, "cpu").await;

    // No worker at all.
    assert_eq!(waiting_for(&app, &token, gpu).await, "gpu worker");
    assert_eq!(waiting_for(&app, &token, cpu).await, "cpu worker");

    // A CPU worker connects: the CPU job waits only for its turn.
    workers::seen(db, "cpu-w", "cpu", &caps(&["cpu"]), false)
        .await
        .unwrap();
    assert_eq!(waiting_for(&app, &token, gpu).await, "gpu worker");
    assert_eq!(
        waiting_for(&app, &token, cpu).await,
        serde_json::Value::Null
    );

    // A GPU worker connects.
    workers::seen(db, "gpu-w", "gpu", &caps(&["cpu", "gpu"]), false)
        .await
        .unwrap();
    assert_eq!(
        waiting_for(&app, &token, gpu).await,
        serde_json::Value::Null
    );

    // …and is not seen for longer than a long poll allows: gone again.
    sqlx::query("UPDATE workers SET last_seen = last_seen - $1 WHERE id = 'gpu-w'")
        .bind(workers::CONNECTED_MS + 1_000)
        .execute(db)
        .await
        .unwrap();
    assert_eq!(waiting_for(&app, &token, gpu).await, "gpu worker");
}

#[tokio::test]
async fn pages_say_when_no_gpu_worker_is_connected() {
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let (user, _) = learner(&app, "iris").await;
    let gpu = enqueue(db, &user, "gpu").await;

    // The learner's submission page (the kata page's result panel is the same template).
    let (secret, _) = server::db::sessions::create(db, &user).await.unwrap();
    let b = Browser::new(&app);
    b.set_cookie("ik_session", &secret);
    let page = b.page(&format!("/submissions/{gpu}")).await;
    assert!(page.contains("waiting for a GPU worker"), "{page}");
    // The GPU kata's page warns before the learner submits.
    let kata = b.page("/katas/gpu-pow-mod").await;
    assert!(
        kata.contains("No GPU worker is connected.") && kata.contains("after 15 minutes"),
        "{kata}"
    );
    assert!(!b.page("/katas/fast-power").await.contains("No GPU worker"));

    // The admin page.
    let staff = users::create(db, "jules", Role::Instructor, None)
        .await
        .unwrap();
    let (secret, _) = server::db::sessions::create(db, &staff).await.unwrap();
    let admin = Browser::new(&app);
    admin.set_cookie("ik_session", &secret);
    let page = admin.page("/admin").await;
    assert!(
        page.contains("No GPU worker is connected: 1 GPU job waiting"),
        "{page}"
    );

    // A GPU worker of a build from before GPU katas were graded from their stored packages
    // cannot grade the version served (stored, as every version a replica serves is).
    let older = workers::Capabilities {
        gpu_packages: false,
        package_checks: false,
        renews_checks: false,
        ..caps(&["cpu", "gpu"])
    };
    workers::seen(db, "gpu-old", "older build", &older, false)
        .await
        .unwrap();
    assert!(b.page("/katas/gpu-pow-mod").await.contains("No GPU worker"));
    workers::seen(db, "gpu-w", "lent H200", &caps(&["cpu", "gpu"]), false)
        .await
        .unwrap();
    let page = admin.page("/admin").await;
    assert!(!page.contains("No GPU worker is connected"), "{page}");
    assert!(
        page.contains("NVIDIA H200 (compute 9.0, 140 GiB, CUDA driver 13.0)"),
        "{page}"
    );
    let page = b.page(&format!("/submissions/{gpu}")).await;
    assert!(!page.contains("waiting for a GPU worker"));
    assert!(!b.page("/katas/gpu-pow-mod").await.contains("No GPU worker"));
}

#[tokio::test]
async fn remote_workers_claim_by_kind_over_http_and_their_gpu_is_recorded() {
    use crate::helpers::WORKER_TOKEN;
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let (user, _) = learner(&app, "kira").await;
    let gpu = enqueue(db, &user, "gpu").await;
    let claim = |hello: serde_json::Value| {
        app.client
            .post(app.url("/api/worker/claim"))
            .bearer_auth(WORKER_TOKEN)
            .json(&hello)
            .send()
    };

    // A worker from before GPU support sends no `gpu` field: it still talks, gets no GPU job.
    let old = claim(serde_json::json!({
        "worker_id": "old", "name": "old", "capabilities": { "cores": 2, "kinds": ["cpu"] }
    }))
    .await
    .unwrap();
    assert_eq!(old.status(), 204);

    let resp = claim(serde_json::json!({
        "worker_id": "h200", "name": "lent H200", "capabilities": caps(&["cpu", "gpu"])
    }))
    .await
    .unwrap();
    assert_eq!(resp.status(), 200);
    let job: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(job["submission_id"], gpu.0);

    let seen = workers::list(db).await.unwrap();
    let h200 = seen.iter().find(|w| w.id == "h200").unwrap();
    assert_eq!(h200.capabilities, Some(caps(&["cpu", "gpu"])));
    let old = seen.iter().find(|w| w.id == "old").unwrap();
    assert_eq!(old.capabilities.as_ref().unwrap().gpu, None);
}

/// `body` posted to `path` with the worker token.
fn worker_post(
    app: &TestApp,
    path: String,
    body: serde_json::Value,
) -> impl std::future::Future<Output = reqwest::Result<reqwest::Response>> {
    app.client
        .post(app.url(&path))
        .bearer_auth(crate::helpers::WORKER_TOKEN)
        .json(&body)
        .send()
}

/// A package's sandbox checks that a replica left to a worker (`db::package_checks`): a GPU
/// kata's go only to a worker with a GPU that says it runs checks, never to a CPU worker nor to
/// one from before checks; only the lease holder reads the candidate and answers, once; and a
/// lease that runs out lets another worker take the check over.
#[tokio::test]
async fn a_gpu_kata_s_checks_go_only_to_a_worker_with_a_gpu_and_its_lease() {
    use crate::helpers::WORKER_TOKEN;
    use server::db::package_checks;
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let id = package_checks::queue(db, "pow-mod-drill", "abc123", true, b"candidate")
        .await
        .unwrap();
    let hello = |id: &str, kinds: &[&str], checks: bool| {
        serde_json::json!({
            "worker_id": id, "name": id,
            "capabilities": Capabilities { package_checks: checks, ..caps(kinds) },
        })
    };
    let post = |path: String, body: serde_json::Value| worker_post(&app, path, body);
    let claim = |body| post("/api/worker/checks/claim".into(), body);
    for (who, kinds, checks) in [
        ("cpu", &["cpu"][..], true),
        ("old-gpu", &["cpu", "gpu"], false),
    ] {
        let resp = claim(hello(who, kinds, checks)).await.unwrap();
        assert_eq!(resp.status(), 204, "{who}");
    }
    // A learner's token is not a worker's.
    let resp = app
        .client
        .post(app.url("/api/worker/checks/claim"))
        .bearer_auth(app.user("mallory").await)
        .json(&hello("m", &["cpu", "gpu"], true))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);

    let resp = claim(hello("h200", &["cpu", "gpu"], true)).await.unwrap();
    assert_eq!(resp.status(), 200);
    let check: package_checks::Claimed = resp.json().await.unwrap();
    assert_eq!((check.id, check.gpu), (id, true));
    assert_eq!(check.content_hash, "abc123");
    // Held: nobody else gets it.
    let resp = claim(hello("h100", &["cpu", "gpu"], true)).await.unwrap();
    assert_eq!(resp.status(), 204);
    // Staff see it on /admin, and who runs it; a check nobody took yet says so.
    package_checks::queue(db, "tp-drill", "def456", false, b"candidate")
        .await
        .unwrap();
    let staff = users::create(db, "jules", Role::Instructor, None)
        .await
        .unwrap();
    let (secret, _) = server::db::sessions::create(db, &staff).await.unwrap();
    let admin = Browser::new(&app);
    admin.set_cookie("ik_session", &secret);
    let page = admin.page("/admin").await;
    assert!(page.contains("Package checks left to workers"), "{page}");
    assert!(
        page.contains("pow-mod-drill") && page.contains("being run by h200"),
        "{page}"
    );
    assert!(
        page.contains("tp-drill") && page.contains("waiting for a worker"),
        "{page}"
    );
    let resp = claim(hello("cpu", &["cpu"], true)).await.unwrap();
    assert_eq!(resp.status(), 200, "a CPU kata's check goes to any worker");

    let archive = |lease: &str| {
        app.client
            .get(app.url(&format!("/api/worker/checks/{id}/archive")))
            .query(&[("lease", lease)])
            .bearer_auth(WORKER_TOKEN)
            .send()
    };
    assert_eq!(archive("check_forged").await.unwrap().status(), 409);
    let got = archive(&check.lease_token).await.unwrap();
    assert_eq!(got.status(), 200);
    assert_eq!(&got.bytes().await.unwrap()[..], b"candidate");

    let outcome = serde_json::json!({ "failed": { "error": "no device after all" } });
    let answer = |token: &str| {
        post(
            format!("/api/worker/checks/{id}/outcome"),
            serde_json::json!({ "lease_token": token, "outcome": outcome }),
        )
    };
    assert_eq!(answer("check_forged").await.unwrap().status(), 409);
    assert_eq!(answer(&check.lease_token).await.unwrap().status(), 204);
    assert_eq!(
        answer(&check.lease_token).await.unwrap().status(),
        409,
        "once"
    );
    let stored = package_checks::outcome(db, id).await.unwrap().unwrap();
    assert!(stored.contains("no device after all"), "{stored}");

    // A worker that claimed a check and stopped: once its lease has run out, another takes it.
    let again = package_checks::queue(db, "pow-mod-drill", "abc123", true, b"candidate")
        .await
        .unwrap();
    let first = package_checks::claim(db, "gone", true, 0)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.id, again);
    tokio::time::sleep(Duration::from_millis(5)).await;
    let resp = claim(hello("h100", &["cpu", "gpu"], true)).await.unwrap();
    assert_eq!(resp.status(), 200);
    let taken: package_checks::Claimed = resp.json().await.unwrap();
    assert_eq!(taken.id, again);
    assert_ne!(taken.lease_token, first.lease_token);
    assert_eq!(archive(&first.lease_token).await.unwrap().status(), 409);

    // A check whose replica stopped waiting long ago is never claimed, and goes at the next
    // queueing.
    let stale = package_checks::queue(db, "pow-mod-drill", "abc123", false, b"candidate")
        .await
        .unwrap();
    sqlx::query("UPDATE package_checks SET created_at = 0 WHERE id = $1")
        .bind(stale)
        .execute(db)
        .await
        .unwrap();
    let resp = claim(hello("h100", &["cpu", "gpu"], true)).await.unwrap();
    assert_eq!(resp.status(), 204);
    package_checks::queue(db, "pow-mod-drill", "abc123", true, b"candidate")
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM package_checks WHERE created_at = 0")
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(left, 0);
}

/// A worker whose hello says it renews its checks' leases gets a lease of a minute, renewed by
/// `POST /api/worker/checks/{id}/heartbeat` while it runs the check, so a worker that stops is
/// taken over within a minute; one from before renewals keeps the long lease it needs. Only
/// the lease holder renews, and only until the check is answered.
#[tokio::test]
async fn a_check_s_lease_is_short_for_a_worker_that_renews_it() {
    use server::db::package_checks;
    use server::services::package_checks::{LEASE_MS, RENEWED_LEASE_MS};
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let post = |path: String, body: serde_json::Value| worker_post(&app, path, body);
    let lease_left = |id: i64| async move {
        let ends: i64 =
            sqlx::query_scalar("SELECT lease_expires_at FROM package_checks WHERE id = $1")
                .bind(id)
                .fetch_one(db)
                .await
                .unwrap();
        ends - server::db::now_ms()
    };
    let claimed = |renews: bool| {
        let hello = serde_json::json!({
            "worker_id": "w", "name": "w",
            "capabilities": Capabilities {
                package_checks: true,
                renews_checks: renews,
                ..caps(&["cpu"])
            },
        });
        async move {
            let resp = post("/api/worker/checks/claim".into(), hello)
                .await
                .unwrap();
            assert_eq!(resp.status(), 200);
            resp.json::<package_checks::Claimed>().await.unwrap()
        }
    };

    let older = package_checks::queue(db, "fast-power", "abc123", false, b"candidate")
        .await
        .unwrap();
    assert_eq!(claimed(false).await.id, older);
    assert!(
        lease_left(older).await > LEASE_MS - 60_000,
        "the long lease"
    );

    let id = package_checks::queue(db, "fast-power", "abc123", false, b"candidate")
        .await
        .unwrap();
    let check = claimed(true).await;
    assert_eq!(check.id, id);
    let left = lease_left(id).await;
    assert!(left <= RENEWED_LEASE_MS && left > 0, "{left} ms");
    sqlx::query("UPDATE package_checks SET lease_expires_at = $1 WHERE id = $2")
        .bind(server::db::now_ms() + 1_000)
        .bind(id)
        .execute(db)
        .await
        .unwrap();
    let beat = |token: &str| {
        post(
            format!("/api/worker/checks/{id}/heartbeat"),
            serde_json::json!({ "lease_token": token }),
        )
    };
    assert_eq!(beat("check_forged").await.unwrap().status(), 409);
    assert!(
        lease_left(id).await <= 1_000,
        "a forged renewal changes nothing"
    );
    assert_eq!(beat(&check.lease_token).await.unwrap().status(), 204);
    assert!(lease_left(id).await > 1_000, "renewed");
    let answered = post(
        format!("/api/worker/checks/{id}/outcome"),
        serde_json::json!({
            "lease_token": check.lease_token,
            "outcome": { "failed": { "error": "done" } },
        }),
    )
    .await
    .unwrap();
    assert_eq!(answered.status(), 204);
    assert_eq!(
        beat(&check.lease_token).await.unwrap().status(),
        409,
        "an answered check is over"
    );
}
