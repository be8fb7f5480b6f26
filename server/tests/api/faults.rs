use crate::helpers::{
    Options, WORKER_TOKEN, fake_grader, grader, reference, spawn_app, spawn_idle, spawn_on,
};
use server::domain::SubmissionId;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(90);

fn remote_worker(url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args([
            "worker",
            "--server",
            url,
            "--token",
            WORKER_TOKEN,
            "--parallel",
            "1",
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("the worker starts")
}

/// Correct, but each `power` call sleeps, so the job is still running when the worker dies.
fn slow_source() -> String {
    reference("fast-power").replacen(
        "pub fn power(base: f64, exponent: i32) -> f64 {",
        "pub fn power(base: f64, exponent: i32) -> f64 {\n    std::thread::sleep(std::time::Duration::from_millis(700));",
        1,
    )
}

#[tokio::test]
async fn a_job_whose_worker_dies_is_graded_once_by_another() {
    if grader().is_none() {
        return;
    }
    let app = spawn_app(
        Options {
            workers: 0,
            lease: Duration::from_secs(2),
            ..Options::default()
        },
        None,
    )
    .await;
    let token = app.user("erin").await;
    let mut first = remote_worker(&app.app.url());
    let id = app
        .submit_id(&token, "fast-power", &slow_source(), "run")
        .await;

    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let body: serde_json::Value = app
            .get(&token, &format!("/api/submissions/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if body["state"] == "running" {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never started running: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    first.kill().unwrap();
    first.wait().unwrap();

    let mut second = remote_worker(&app.app.url());
    let done = app.verdict(&token, id, WAIT).await;
    second.kill().unwrap();
    let _ = second.wait();
    assert_eq!(done["verdict"], "accepted", "{done}");
    let attempts: i64 = sqlx::query_scalar("SELECT attempts FROM jobs WHERE submission_id = $1")
        .bind(id)
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    assert_eq!(attempts, 2, "leased to the dead worker, then to the second");
    assert_eq!(app.count("case_results").await, 5, "one report, not two");
}

#[tokio::test]
async fn a_remote_worker_publishes_the_verdict_before_the_figure() {
    if grader().is_none() {
        return;
    }
    let app = spawn_app(
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await;
    let token = app.user("ivan").await;
    let id = app
        .submit_id(&token, "fast-power", reference("fast-power"), "submit")
        .await;
    // Connected before any worker exists, so no event can be missed.
    let events = app
        .get(&token, &format!("/api/submissions/{id}/events"))
        .await;
    let mut worker = remote_worker(&app.app.url());
    let text = tokio::time::timeout(WAIT, events.text())
        .await
        .expect("the stream ends with the submission done")
        .unwrap();
    worker.kill().unwrap();
    let _ = worker.wait();
    let states: Vec<(String, bool)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str::<serde_json::Value>(d).unwrap())
        .map(|v| {
            (
                v["state"].as_str().unwrap().to_string(),
                !v["verdict"].is_null(),
            )
        })
        .collect();
    let first = states.iter().position(|(_, verdict)| *verdict).unwrap();
    assert_eq!(states[first].0, "measuring", "{text}");
    assert_eq!(
        states.last().unwrap(),
        &("done".to_string(), true),
        "{text}"
    );
}

#[tokio::test]
async fn queued_jobs_survive_a_restart() {
    let grader = fake_grader();
    let app = spawn_idle().await;
    let token = app.user("frank").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let resp = app
            .submit(&token, "fast-power", reference("fast-power"), "run")
            .await;
        assert_eq!(resp.status(), 202);
        ids.push(
            resp.json::<serde_json::Value>().await.unwrap()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let dir = app.dir;
    app.app.stop();

    let restarted = spawn_on(dir, Options::default(), Some(grader)).await;
    for id in ids {
        let done = restarted.verdict(&token, SubmissionId(id), WAIT).await;
        assert_eq!(done["verdict"], "accepted", "{done}");
    }
}

#[tokio::test]
async fn a_late_result_from_a_lost_lease_is_refused() {
    use server::db::jobs;
    let app = spawn_idle().await;
    let token = app.user("grace").await;
    app.submit(&token, "fast-power", "// any", "run").await;
    let db = &app.app.state.db;
    let (Some(first), _) = jobs::claim(
        db,
        "w1",
        &[server::domain::JobKind::Cpu],
        server::domain::JobPhase::Verdict,
        1,
    )
    .await
    .unwrap() else {
        panic!("a job")
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    let (Some(second), _) = jobs::claim(
        db,
        "w2",
        &[server::domain::JobKind::Cpu],
        server::domain::JobPhase::Verdict,
        60_000,
    )
    .await
    .unwrap() else {
        panic!("the expired lease is claimable")
    };
    assert_eq!(first.job_id, second.job_id);
    let report = graders::GradeReport::internal_error(
        "fast-power",
        katas::Mode::Run,
        katas::Message::verbatim("x"),
    );
    assert!(
        !jobs::finish_with(db, first.job_id, Some(&first.lease_token), &report)
            .await
            .unwrap()
    );
    assert!(
        !jobs::heartbeat(db, first.job_id, &first.lease_token, 1000)
            .await
            .unwrap()
    );
    assert!(
        jobs::finish_with(db, second.job_id, Some(&second.lease_token), &report)
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn a_job_that_keeps_failing_ends_as_internal_error() {
    use server::db::jobs;
    let app = spawn_idle().await;
    let token = app.user("heidi").await;
    let id = app.submit_id(&token, "fast-power", "// any", "run").await;
    let db = &app.app.state.db;
    for _ in 0..jobs::MAX_ATTEMPTS {
        let (Some(job), _) = jobs::claim(
            db,
            "w",
            &[server::domain::JobKind::Cpu],
            server::domain::JobPhase::Verdict,
            60_000,
        )
        .await
        .unwrap() else {
            panic!("a job")
        };
        assert!(
            jobs::release(db, job.job_id, &job.lease_token, "sandbox unavailable")
                .await
                .unwrap()
        );
    }
    let (none, failed) = jobs::claim(
        db,
        "w",
        &[server::domain::JobKind::Cpu],
        server::domain::JobPhase::Verdict,
        60_000,
    )
    .await
    .unwrap();
    assert!(none.is_none());
    assert_eq!(failed, vec![id]);
    let body: serde_json::Value = app
        .get(&token, &format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["verdict"], "internal_error");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("sandbox unavailable"),
        "{body}"
    );
}
