use crate::helpers::{Options, fake_grader, grader, reference, spawn_app, spawn_idle};
use server::domain::SubmissionId;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

#[tokio::test]
async fn submissions_get_real_verdicts_and_the_report_of_grade_json() {
    let Some(grader) = grader() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let token = app.user("alice").await;

    let resp = app
        .submit(&token, "fast-power", reference("fast-power"), "run")
        .await;
    assert_eq!(resp.status(), 202);
    let id = resp.json::<serde_json::Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let done = app.verdict(&token, SubmissionId(id), WAIT).await;
    assert_eq!(done["verdict"], "accepted", "{done}");
    assert_eq!(done["score"]["passed"], 5);
    assert!(
        done["cases"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["outcome"] == "passed")
    );

    let wrong = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
    let id = app.submit_id(&token, "fast-power", wrong, "run").await;
    let done = app.verdict(&token, id, WAIT).await;
    assert_eq!(done["verdict"], "wrong_answer", "{done}");
    let failing = done["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["outcome"] == "wrong_answer")
        .unwrap();
    assert_eq!(failing["name"], "power: 2^10");

    let broken = "pub fn power(b: f64, e: i32) -> f64 {\n    b * e\n}\n";
    let id = app.submit_id(&token, "fast-power", broken, "run").await;
    let done = app.verdict(&token, id, WAIT).await;
    assert_eq!(done["verdict"], "compile_error", "{done}");
    assert!(
        done["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["line"] == 2)
    );
    assert_eq!(
        app.count("case_results").await,
        10,
        "per-case rows are stored"
    );
}

#[tokio::test]
async fn events_stream_states_then_the_verdict() {
    let grader = fake_grader();
    let app = spawn_app(Options::default(), Some(grader)).await;
    let token = app.user("bob").await;
    let id = app
        .submit_id(&token, "fast-power", reference("fast-power"), "run")
        .await;
    let text = app
        .get(&token, &format!("/api/submissions/{id}/events"))
        .await
        .text()
        .await
        .unwrap();
    let events: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    assert_eq!(events.last(), Some(&"verdict"), "{text}");
    let last = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .next_back()
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(report["verdict"], "accepted");
}

#[tokio::test]
async fn an_accepted_submit_shows_its_verdict_before_its_figure() {
    let grader = fake_grader();
    let app = spawn_app(Options::default(), Some(grader)).await;
    let token = app.user("bob").await;
    // The fake measures as slowly as it judges: long enough that the stream sees the verdict
    // while the figure is still owed, on either backend and under load.
    let source = format!(
        "{}\n// fake: accepted\n// fake: slow 1500ms\n",
        reference("fast-power")
    );
    let id = app.submit_id(&token, "fast-power", &source, "submit").await;
    let text = app
        .get(&token, &format!("/api/submissions/{id}/events"))
        .await
        .text()
        .await
        .unwrap();
    let views: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let first_verdict = views
        .iter()
        .find(|v| !v["verdict"].is_null())
        .expect("a verdict event");
    assert_eq!(first_verdict["state"], "measuring", "{text}");
    assert_eq!(first_verdict["verdict"], "accepted", "{text}");
    assert!(first_verdict["performance"].is_null(), "{text}");
    let last = views.last().unwrap();
    assert_eq!(last["state"], "done", "{text}");
    assert_eq!(last["verdict"], "accepted", "{text}");
    assert!(
        !last["performance"].is_null() || !last["performance_missing"].is_null(),
        "the figure, or why there is none: {text}"
    );
}

#[tokio::test]
async fn queue_position_is_visible_while_waiting() {
    // No worker: jobs stay queued.
    let app = spawn_idle().await;
    let token = app.user("carol").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let resp = app
            .submit(&token, "fast-power", reference("fast-power"), "submit")
            .await;
        ids.push(
            resp.json::<serde_json::Value>().await.unwrap()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    for (i, id) in ids.iter().enumerate() {
        let body: serde_json::Value = app
            .get(&token, &format!("/api/submissions/{id}"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(body["state"], "queued");
        assert_eq!(body["queue_position"], i as i64);
        assert_eq!(body["verdict"], serde_json::Value::Null);
    }
}

#[tokio::test]
async fn learners_see_only_their_own_submissions() {
    let app = spawn_idle().await;
    let alice = app.user("alice").await;
    let mallory = app.user("mallory").await;
    let id = app.submit_id(&alice, "fast-power", "// mine", "run").await;
    assert_eq!(
        app.get(&mallory, &format!("/api/submissions/{id}"))
            .await
            .status(),
        404
    );
    assert_eq!(
        app.get(&mallory, &format!("/api/submissions/{id}/events"))
            .await
            .status(),
        404
    );
    assert_eq!(
        app.get(&alice, &format!("/api/submissions/{id}"))
            .await
            .status(),
        200
    );
    let anonymous = app
        .client
        .get(app.url(&format!("/api/submissions/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let forged = app
        .get("ik_not_a_token", &format!("/api/submissions/{id}"))
        .await;
    assert_eq!(forged.status(), 401);
    // The worker API refuses learners' tokens.
    let claim = app
        .client
        .post(app.url("/api/worker/claim"))
        .bearer_auth(&alice)
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(claim.status(), 403);
}

#[tokio::test]
async fn bad_input_gets_a_clear_error_and_stores_nothing() {
    let app = spawn_idle().await;
    let token = app.user("dave").await;
    let post = |body: Vec<u8>| {
        app.client
            .post(app.url("/api/submissions"))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let resp = post(b"{not json".to_vec()).await.unwrap();
    assert_eq!(resp.status(), 400);
    assert!(resp.text().await.unwrap().contains("malformed"));

    let resp = post(b"{\"kata\":\"fast-power\",\"source\":\"\xff\xfe\"}".to_vec())
        .await
        .unwrap();
    assert_eq!(resp.status(), 400, "invalid UTF-8");

    let resp = post(br#"{"kata":"fast-power"}"#.to_vec()).await.unwrap();
    assert_eq!(resp.status(), 400, "missing source");

    let resp = post(br#"{"kata":"fast-power","source":"x","mode":"fast"}"#.to_vec())
        .await
        .unwrap();
    assert_eq!(resp.status(), 400, "unknown mode");

    let resp = app.submit(&token, "no-such-kata", "x", "run").await;
    assert_eq!(resp.status(), 404);
    assert!(
        resp.text()
            .await
            .unwrap()
            .contains("unknown kata `no-such-kata`")
    );
    // A long unknown slug comes back cut short, wherever it is refused.
    let long = "z".repeat(20_000);
    let resp = app.submit(&token, &long, "x", "run").await;
    assert_eq!(resp.status(), 404);
    let body = resp.text().await.unwrap();
    assert!(
        body.contains("unknown kata `zzz") && body.len() < 1_000,
        "{}",
        body.len()
    );
    let resp = app.get(&token, &format!("/api/katas/{long}")).await;
    assert_eq!(resp.status(), 404);
    let body = resp.text().await.unwrap();
    assert!(
        body.contains("unknown kata `zzz") && body.len() < 1_000,
        "{}",
        body.len()
    );

    let resp = app
        .submit(&token, "fast-power", &"x".repeat(65 << 10), "run")
        .await;
    assert_eq!(resp.status(), 413);
    assert!(resp.text().await.unwrap().contains("the limit is 65536"));

    let resp = post(vec![b' '; 1 << 20]).await.unwrap();
    assert_eq!(resp.status(), 413, "body limit");

    assert_eq!(app.count("submissions").await, 0);
    assert_eq!(app.count("jobs").await, 0);
}

#[tokio::test]
async fn the_catalogue_is_served_in_order() {
    let app = spawn_idle().await;
    let list: Vec<serde_json::Value> = app
        .client
        .get(app.url("/api/katas"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let slugs: Vec<&str> = list.iter().map(|k| k["slug"].as_str().unwrap()).collect();
    let expected: Vec<&str> = katas::catalogue::all()
        .iter()
        .map(|k| k.meta().slug.as_str())
        .collect();
    assert_eq!(slugs, expected);
    let one: serde_json::Value = app
        .client
        .get(app.url("/api/katas/fast-power"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(one["statement"].as_str().unwrap().contains("## Task"));
    assert!(
        !one["statement"].as_str().unwrap().contains("## Concept"),
        "concept notes unlock after solving"
    );
    assert_eq!(
        app.client
            .get(app.url("/api/katas/nope"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn submissions_are_rate_limited_per_user() {
    let app = spawn_app(
        Options {
            workers: 0,
            burst: 2,
            ..Options::default()
        },
        None,
    )
    .await;
    let (ivan, judy) = (app.user("ivan").await, app.user("judy").await);
    for _ in 0..2 {
        assert_eq!(
            app.submit(&ivan, "fast-power", "// x", "run")
                .await
                .status(),
            202
        );
    }
    let refused = app.submit(&ivan, "fast-power", "// x", "run").await;
    assert_eq!(refused.status(), 429);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("too many submissions")
    );
    assert_eq!(
        app.submit(&judy, "fast-power", "// x", "run")
            .await
            .status(),
        202,
        "per user"
    );
    assert_eq!(app.count("submissions").await, 3);
}
