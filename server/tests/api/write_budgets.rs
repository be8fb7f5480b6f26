//! Per-user write budgets beyond submissions: a flood of drill-attempt starts or interview starts
//! is refused with 429 once the account's budget is spent, a refused start stores nothing (over
//! the API and through the pages' forms, which show the app's error page), and one account's
//! flood leaves another's budget whole. Staff uploads of kata packages have a budget too, spent
//! before the package is unpacked.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{Options, TestApp, answer_key, spawn_app};
use serde_json::{Value, json};
use server::db::allowance::Budget;
use std::num::NonZeroU32;
use std::time::Duration;

/// `burst` at once and nothing more during a test.
fn only(burst: u32) -> Budget {
    Budget {
        burst: NonZeroU32::new(burst).unwrap(),
        every: Duration::from_secs(3600),
    }
}

async fn app_with(configure: fn(&mut server::state::ServerConfig)) -> TestApp {
    spawn_app(
        Options {
            workers: 0,
            configure,
            ..Options::default()
        },
        None,
    )
    .await
}

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn count(app: &TestApp, table: &str, user: &str) -> i64 {
    sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM {table} WHERE user_id = (SELECT id FROM users WHERE name = $1)"
    ))
    .bind(user)
    .fetch_one(&app.app.state.db)
    .await
    .unwrap()
}

const START: &str = "/api/drills/python-gil/why-gil/attempts";

#[tokio::test]
async fn a_flood_of_drill_attempts_stops_at_the_budget_even_when_each_is_answered() {
    let app = app_with(|c| c.drill_attempt_budget = only(5)).await;
    let ada = app.user("ada").await;
    let mut started = 0;
    let mut refused = 0;
    for _ in 0..20 {
        let resp = post(&app, &ada, START, json!({})).await;
        match resp.status().as_u16() {
            201 => {
                started += 1;
                // Answered at once, so the cap on unanswered attempts never comes into it.
                let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
                let answer = format!("/api/drill-attempts/{id}/answer");
                let parts = answer_key(&app.app.state.db, id)
                    .await
                    .model_response()
                    .parts;
                let resp = post(&app, &ada, &answer, json!({ "parts": parts })).await;
                assert_eq!(resp.status(), 200);
            }
            429 => {
                refused += 1;
                // One unit comes back within the budget's interval (an hour here).
                assert_eq!(resp.headers()["retry-after"], "3600");
                let body: Value = resp.json().await.unwrap();
                let en = body["error"].as_str().unwrap();
                let zh = body["error_zh"].as_str().unwrap();
                assert!(en.contains("too many drill attempts"), "{en}");
                assert!(zh.contains("太频繁"), "{zh}");
            }
            other => panic!("status {other}"),
        }
    }
    assert_eq!((started, refused), (5, 15));
    assert_eq!(count(&app, "drill_attempts", "ada").await, 5);

    let bob = app.user("bob").await;
    assert_eq!(post(&app, &bob, START, json!({})).await.status(), 201);
    assert_eq!(count(&app, "drill_attempts", "bob").await, 1);
    app.app.stop();
}

#[tokio::test]
async fn the_drill_forms_show_a_spent_budget_as_the_error_page() {
    let app = app_with(|c| c.drill_attempt_budget = only(1)).await;
    let b = Browser::new(&app);
    b.signup("cleo", "long enough pw").await;
    let csrf = csrf_of(&b.page("/drills/python-gil").await);
    let start = "/drills/python-gil/why-gil/start";
    assert_eq!(b.post_form(start, &[("csrf", &csrf)]).await.status(), 303);
    let refused = b.post_form(start, &[("csrf", &csrf)]).await;
    assert_eq!(refused.status(), 429);
    assert_eq!(
        refused.headers()["retry-after"],
        "3600",
        "the page keeps it"
    );
    let page = refused.text().await.unwrap();
    assert!(
        page.contains("<html") && page.contains("too many drill attempts"),
        "{page}"
    );
    // A random session starts its first attempt from the same budget.
    b.switch_lang("zh", "/drills/python-gil").await;
    let next = b
        .post_form("/drills/python-gil/next", &[("csrf", &csrf), ("n", "3")])
        .await;
    assert_eq!(next.status(), 429);
    let page = next.text().await.unwrap();
    assert!(page.contains("开始概念题作答太频繁"), "{page}");
    assert_eq!(count(&app, "drill_attempts", "cleo").await, 1);
    app.app.stop();
}

#[tokio::test]
async fn a_refused_interview_start_stores_nothing_and_budgets_are_per_user() {
    let app = app_with(|c| c.interview_budget = only(1)).await;
    let ada = app.user("ada").await;
    assert_eq!(
        post(&app, &ada, "/api/interviews", json!({}))
            .await
            .status(),
        201
    );
    let (interviews, attempts) = (
        count(&app, "interviews", "ada").await,
        count(&app, "drill_attempts", "ada").await,
    );
    assert_eq!((interviews, attempts), (1, 5));
    for _ in 0..3 {
        let resp = post(&app, &ada, "/api/interviews", json!({})).await;
        assert_eq!(resp.status(), 429);
        let body: Value = resp.json().await.unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("too many interviews"),
            "{body}"
        );
        assert!(
            body["error_zh"]
                .as_str()
                .unwrap()
                .contains("开始面试太频繁")
        );
    }
    assert_eq!(count(&app, "interviews", "ada").await, interviews);
    assert_eq!(count(&app, "drill_attempts", "ada").await, attempts);

    // An interview's attempts are paid by the interview, not from the drill-attempt budget.
    assert_eq!(post(&app, &ada, START, json!({})).await.status(), 201);

    let bob = app.user("bob").await;
    assert_eq!(
        post(&app, &bob, "/api/interviews", json!({}))
            .await
            .status(),
        201
    );
    app.app.stop();
}

#[tokio::test]
async fn an_interview_refused_by_the_open_attempt_cap_stores_nothing_nor_spends() {
    let app = app_with(|c| {
        c.drill_attempt_budget = only(200);
        c.interview_budget = only(1);
    })
    .await;
    let ada = app.user("ada").await;
    // Two slots short of five: the interview cannot hold its items.
    let cap = server::services::drills::MAX_OPEN_ATTEMPTS;
    for _ in 0..cap - 2 {
        assert_eq!(post(&app, &ada, START, json!({})).await.status(), 201);
    }
    let resp = post(&app, &ada, "/api/interviews", json!({})).await;
    assert_eq!(resp.status(), 429);
    let body: Value = resp.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("unanswered"),
        "{body}"
    );
    assert_eq!(count(&app, "interviews", "ada").await, 0);
    assert_eq!(count(&app, "drill_attempts", "ada").await, cap - 2);

    // The refused start spent nothing: once attempts are answered, the one interview fits.
    sqlx::query("UPDATE drill_attempts SET answered_at = started_at")
        .execute(&app.app.state.db)
        .await
        .unwrap();
    assert_eq!(
        post(&app, &ada, "/api/interviews", json!({}))
            .await
            .status(),
        201
    );
    app.app.stop();
}

#[tokio::test]
async fn the_interview_form_shows_a_spent_budget_as_the_error_page() {
    let app = app_with(|c| c.interview_budget = only(1)).await;
    let b = Browser::new(&app);
    b.signup("dora", "long enough pw").await;
    let csrf = csrf_of(&b.page("/interviews").await);
    let form = [("csrf", csrf.as_str()), ("minutes", "45")];
    assert_eq!(b.post_form("/interviews", &form).await.status(), 303);
    let refused = b.post_form("/interviews", &form).await;
    assert_eq!(refused.status(), 429);
    let page = refused.text().await.unwrap();
    assert!(
        page.contains("<html") && page.contains("too many interviews"),
        "{page}"
    );
    assert_eq!(count(&app, "interviews", "dora").await, 1);
    app.app.stop();
}

#[tokio::test]
async fn a_flood_of_kata_uploads_is_refused_before_it_is_unpacked() {
    let app = app_with(|c| c.kata_upload_budget = only(2)).await;
    let db = &app.app.state.db;
    let ines = server::db::users::create(db, "ines", server::db::users::Role::Admin, None)
        .await
        .unwrap();
    let staff = server::db::users::issue_token(db, ines.id).await.unwrap();
    let upload = |body: &'static [u8]| {
        app.client
            .post(app.url("/api/katas/fast-power/versions"))
            .bearer_auth(&staff)
            .header("content-type", "application/octet-stream")
            .body(body)
            .send()
    };
    // Refused packages spend the budget too: the service unpacked and read them.
    for _ in 0..2 {
        assert_eq!(upload(b"not an archive").await.unwrap().status(), 422);
    }
    let refused = upload(b"not an archive").await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("kata packages uploaded"),
        "{body}"
    );
    let versions: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM kata_versions WHERE slug = 'fast-power'")
            .fetch_one(db)
            .await
            .unwrap();
    assert_eq!(versions, 1, "only the build's own version");
}
