//! Submissions that end without being graded: a learner cancels one that waits, a waiting one
//! times out after the configured wait (a GPU kata with no GPU worker), an admin cancels or
//! requeues any job. None is the learner's failure, and none counts as an attempt.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{Options, TestApp, spawn_app, spawn_idle, until_done};
use serde_json::{Value, json};
use server::db::users::{self, Role};
use std::time::Duration;

async fn submit(b: &Browser, token: &str) -> i64 {
    let sent = b
        .post_json(
            "/api/submissions",
            &json!({ "kata": "fast-power", "source": "// waiting", "mode": "submit" }),
            Some(token),
        )
        .await;
    assert_eq!(sent.status(), 202);
    sent.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

async fn learner(app: &TestApp, name: &str) -> (Browser, String) {
    let b = Browser::new(app);
    b.signup(name, "long enough pw").await;
    let token = csrf_of(&b.page("/").await);
    (b, token)
}

#[tokio::test]
async fn a_learner_cancels_a_waiting_submission_and_it_is_not_an_attempt() {
    let app = spawn_idle().await;
    let (b, token) = learner(&app, "ada").await;
    let id = submit(&b, &token).await;
    let page = b.page(&format!("/submissions/{id}")).await;
    assert!(page.contains("Cancel this submission"));

    let (other, other_token) = learner(&app, "bob").await;
    let theirs = other
        .post_json(
            &format!("/api/submissions/{id}/cancel"),
            &json!(null),
            Some(&other_token),
        )
        .await;
    assert_eq!(theirs.status(), 404, "only the learner may cancel");
    let no_csrf = b
        .post_json(&format!("/api/submissions/{id}/cancel"), &json!(null), None)
        .await;
    assert_eq!(no_csrf.status(), 403);

    let cancelled = b
        .post_json(
            &format!("/api/submissions/{id}/cancel"),
            &json!(null),
            Some(&token),
        )
        .await;
    assert_eq!(cancelled.status(), 200);
    let body: Value = cancelled.json().await.unwrap();
    assert_eq!(
        (&body["state"], &body["withdrawn"], &body["verdict"]),
        (
            &json!("done"),
            &json!("cancelled"),
            &json!("internal_error")
        ),
        "{body}"
    );
    let again = b
        .post_json(
            &format!("/api/submissions/{id}/cancel"),
            &json!(null),
            Some(&token),
        )
        .await;
    assert_eq!(again.status(), 409);

    let page = b.page(&format!("/submissions/{id}")).await;
    assert!(page.contains("Cancelled") && !page.contains("Cancel this submission"));
    let progress = b.page("/progress").await;
    assert!(
        !progress.contains("Attempted"),
        "a cancelled submission is not an attempt"
    );
    let history = b.page("/katas/fast-power/submissions").await;
    assert!(history.contains("Cancelled"));
}

#[tokio::test]
async fn a_submission_no_worker_takes_times_out_clearly() {
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| c.max_queue_wait = Duration::from_millis(300),
            ..Options::default()
        },
        None,
    )
    .await;
    let (b, token) = learner(&app, "ada").await;
    let id = submit(&b, &token).await;
    let body = until_done(Duration::from_secs(20), || async {
        b.get(&format!("/api/submissions/{id}"))
            .await
            .json()
            .await
            .unwrap()
    })
    .await;
    assert_eq!(body["withdrawn"], "timed_out", "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("does not count as an attempt"),
        "{body}"
    );
    let page = b.page(&format!("/submissions/{id}")).await;
    assert!(page.contains("Not graded: no worker took it"));
    assert!(!b.page("/progress").await.contains("Attempted"));
}

#[tokio::test]
async fn an_admin_requeues_and_cancels_any_job() {
    let app = spawn_idle().await;
    let (learner_b, token) = learner(&app, "ada").await;
    let id = submit(&learner_b, &token).await;

    let refused = learner_b
        .post_form(
            &format!("/admin/submissions/{id}/cancel"),
            &[("csrf", token.as_str())],
        )
        .await;
    assert_eq!(refused.status(), 403, "learners may not");

    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&app.app.state.db, "root", Role::Admin, Some(&hash))
        .await
        .unwrap();
    let admin = Browser::new(&app);
    assert_eq!(admin.login("root", "long enough pw").await.status(), 303);
    let page = admin.page("/admin").await;
    assert!(page.contains(&format!("/admin/submissions/{id}/requeue")));
    // Both ask first with script (app.js reads `data-confirm`); without it they simply post.
    assert!(
        page.contains(&format!(
            "data-confirm=\"Put submission #{id} back in the queue?"
        )),
        "{page}"
    );
    assert!(
        page.contains(&format!("data-confirm=\"Cancel submission #{id}?")),
        "{page}"
    );
    let admin_token = csrf_of(&page);
    let requeued = admin
        .post_form(
            &format!("/admin/submissions/{id}/requeue"),
            &[("csrf", admin_token.as_str())],
        )
        .await;
    assert_eq!(requeued.status(), 303);
    let cancelled = admin
        .post_form(
            &format!("/admin/submissions/{id}/cancel"),
            &[("csrf", admin_token.as_str())],
        )
        .await;
    assert_eq!(cancelled.status(), 303);
    let twice = admin
        .post_form(
            &format!("/admin/submissions/{id}/cancel"),
            &[("csrf", admin_token.as_str())],
        )
        .await;
    assert_eq!(twice.status(), 409);
    let body: Value = learner_b
        .get(&format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["withdrawn"], "cancelled", "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("An administrator cancelled"),
        "{body}"
    );
}

/// Reads the event stream until `needle` shows up (or fails after a while).
async fn read_until(resp: &mut reqwest::Response, seen: &mut String, needle: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while !seen.contains(needle) {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let chunk = tokio::time::timeout(left, resp.chunk())
            .await
            .unwrap_or_else(|_| panic!("no {needle} on the stream: {seen}"))
            .unwrap()
            .unwrap_or_else(|| panic!("the stream ended before {needle}: {seen}"));
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test]
async fn the_queue_position_moves_live_on_the_event_stream() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let first = app.submit_id(&token, "fast-power", "// one", "run").await;
    let second = app.submit_id(&token, "fast-power", "// two", "run").await;
    let mut stream = app
        .get(&token, &format!("/api/submissions/{second}/events"))
        .await;
    let mut seen = String::new();
    read_until(&mut stream, &mut seen, "\"queue_position\":1").await;
    let cancelled = app
        .client
        .post(app.url(&format!("/api/submissions/{first}/cancel")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 200);
    read_until(&mut stream, &mut seen, "\"queue_position\":0").await;
}

#[tokio::test]
async fn a_slow_queue_with_a_worker_connected_does_not_time_out() {
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| c.max_queue_wait = Duration::from_millis(300),
            ..Options::default()
        },
        None,
    )
    .await;
    let (b, token) = learner(&app, "ada").await;
    let caps = server::db::workers::Capabilities {
        cores: 1,
        kinds: vec![server::domain::JobKind::Cpu],
        gpu: None,
        packages: true,
        function_packages: true,
        gpu_packages: true,
        package_checks: false,
        renews_checks: false,
        compiled: None,
    };
    server::db::workers::seen(&app.app.state.db, "busy", "busy", &caps, false)
        .await
        .unwrap();
    let id = submit(&b, &token).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let body: Value = b
        .get(&format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        body["state"], "queued",
        "a worker of its kind is connected: {body}"
    );
}
