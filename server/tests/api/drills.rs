//! Drills over HTTP: the JSON API and the pages never show an attempt's answer before the
//! learner commits one; the first answer is graded and stored; the review queue and streak
//! follow.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{Options, TestApp, answer_key, spawn_app, spawn_idle};
use katas_drills::{AnswerSpec, Drills};
use serde_json::{Value, json};
use server::db::users::{self, Role};
use std::collections::BTreeSet;

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// Texts that only a graded result may show for this item: explanation and option feedback.
fn secrets(set: &str, item: &str) -> Vec<String> {
    let (_, item) = Drills::builtin().item(set, item).unwrap();
    let mut out = vec![item.explanation.en.clone(), item.explanation.zh.clone()];
    if let AnswerSpec::Choice { options, .. } = &item.answer {
        for o in options {
            out.push(o.feedback.en.clone());
            out.push(o.feedback.zh.clone());
        }
    }
    out
}

fn keys(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

fn assert_no_answer_in(json: &Value, set: &str, item: &str) {
    let text = json.to_string();
    for secret in secrets(set, item) {
        assert!(!text.contains(&secret), "`{secret}` leaked in {text}");
    }
    let mut found = BTreeSet::new();
    keys(json, &mut found);
    for leak in [
        "correct",
        "feedback",
        "expected",
        "explanation",
        "answer_key",
        "order",
        "answers",
        "tolerance",
    ] {
        assert!(!found.contains(leak), "`{leak}` in {text}");
    }
}

#[tokio::test]
async fn the_api_hides_the_key_until_the_answer_then_grades_it_once() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;

    let sets: Value = app.get(&token, "/api/drills").await.json().await.unwrap();
    let sets = sets.as_array().unwrap();
    assert_eq!(sets.len(), Drills::builtin().sets().len());
    assert!(sets.iter().all(|s| s["items"].as_u64().unwrap() >= 5));
    assert!(
        sets.iter()
            .take(5)
            .all(|s| s["items"].as_u64().unwrap() >= 15)
    );
    let set: Value = app
        .get(&token, "/api/drills/python-gil")
        .await
        .json()
        .await
        .unwrap();
    for item in set["items"].as_array().unwrap() {
        assert_no_answer_in(item, "python-gil", item["id"].as_str().unwrap());
    }
    assert_eq!(app.get(&token, "/api/drills/nope").await.status(), 404);

    // Start: what comes back is the question only.
    let resp = post(
        &app,
        &token,
        "/api/drills/python-gil/why-gil/attempts",
        json!({}),
    )
    .await;
    assert_eq!(resp.status(), 201);
    let started: Value = resp.json().await.unwrap();
    assert_no_answer_in(&started, "python-gil", "why-gil");
    let id = started["id"].as_i64().unwrap();
    let shown: Value = app
        .get(&token, &format!("/api/drill-attempts/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(shown["answered"], false);
    assert!(shown["result"].is_null());
    assert_no_answer_in(&shown, "python-gil", "why-gil");

    // Another learner sees nothing of it.
    let other = app.user("eve").await;
    assert_eq!(
        app.get(&other, &format!("/api/drill-attempts/{id}"))
            .await
            .status(),
        404
    );
    let answer = format!("/api/drill-attempts/{id}/answer");
    assert_eq!(
        post(&app, &other, &answer, json!({ "parts": ["A"] }))
            .await
            .status(),
        404
    );

    // Unusable answers are refused and lose nothing.
    assert_eq!(
        post(&app, &token, &answer, json!({ "parts": ["Z"] }))
            .await
            .status(),
        400
    );
    assert_eq!(
        post(&app, &token, &answer, json!({ "parts": ["A", "B"] }))
            .await
            .status(),
        400
    );
    let long = "A".repeat(5000);
    assert_eq!(
        post(&app, &token, &answer, json!({ "parts": [long] }))
            .await
            .status(),
        400
    );
    assert_eq!(
        post(&app, &token, &answer, json!({ "part": ["A"] }))
            .await
            .status(),
        400
    );

    // A wrong answer is data: graded, explained, stored once.
    let key = answer_key(&app.app.state.db, id).await;
    let katas_drills::KeyBody::Choice { options, .. } = &key.body else {
        panic!("a choice key")
    };
    let wrong = options.iter().find(|o| !o.correct).unwrap().label.clone();
    let resp = post(&app, &token, &answer, json!({ "parts": [wrong] })).await;
    assert_eq!(resp.status(), 200);
    let graded: Value = resp.json().await.unwrap();
    assert_eq!(graded["result"]["correct"], false);
    assert_eq!(graded["result"]["score"], 0.0);
    let explanation = &Drills::builtin()
        .item("python-gil", "why-gil")
        .unwrap()
        .1
        .explanation;
    assert_eq!(
        graded["result"]["explanation"]["en"],
        explanation.en.as_str()
    );
    let right = key.model_response();
    assert_eq!(
        post(&app, &token, &answer, json!({ "parts": right.parts }))
            .await
            .status(),
        409
    );
    let after: Value = app
        .get(&token, &format!("/api/drill-attempts/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(after["answered"], true);
    assert_eq!(after["result"]["correct"], false);

    // A fresh attempt answered right.
    let started: Value = post(
        &app,
        &token,
        "/api/drills/allreduce-cost/ring-time/attempts",
        json!({}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_no_answer_in(&started, "allreduce-cost", "ring-time");
    let id2 = started["id"].as_i64().unwrap();
    let right = answer_key(&app.app.state.db, id2).await.model_response();
    let graded: Value = post(
        &app,
        &token,
        &format!("/api/drill-attempts/{id2}/answer"),
        json!({ "parts": right.parts }),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(graded["result"]["correct"], true);

    // The missed item is due again today; the streak counts today.
    let review: Value = app.get(&token, "/api/review").await.json().await.unwrap();
    let due: Vec<&str> = review["due"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["subject"].as_str().unwrap())
        .collect();
    assert!(due.contains(&"python-gil/why-gil"), "{review}");
    assert_eq!(review["streak"]["current"], 1);
    assert_eq!(
        app.get(&other, "/api/review")
            .await
            .json::<Value>()
            .await
            .unwrap()["due"],
        json!([])
    );
}

fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
}

fn location(resp: &reqwest::Response) -> String {
    resp.headers()["location"].to_str().unwrap().to_string()
}

#[tokio::test]
async fn the_pages_show_the_question_then_the_result_in_both_languages() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("grace", "long enough pw").await;

    let index = b.page("/drills").await;
    for set in Drills::builtin().sets() {
        assert!(
            index.contains(&escaped(&set.title.en)),
            "{} missing",
            set.slug
        );
    }
    // The header's language switch drives these pages as every other: no `?lang=`.
    b.switch_lang("zh", "/drills").await;
    let zh = b.page("/drills").await;
    assert!(zh.contains(r#"<html lang="zh-CN">"#) && zh.contains("概念练习"));
    assert!(
        zh.contains("Python 的 GIL") && !zh.contains("?lang="),
        "{zh}"
    );

    for (set, item, lang) in [
        ("python-ipc", "unpicklable", "en"),
        ("view-contiguous", "transpose-strides", "zh"),
        ("tensor-parallel", "collective-per-op", "en"),
        ("allreduce-cost", "ring-phases", "zh"),
        ("python-gil", "cpu-threads-time", "en"),
    ] {
        b.switch_lang(lang, &format!("/drills/{set}")).await;
        let page = b.page(&format!("/drills/{set}")).await;
        let csrf = csrf_of(&page);
        let resp = b
            .post_form(&format!("/drills/{set}/{item}/start"), &[("csrf", &csrf)])
            .await;
        assert_eq!(resp.status(), 303, "{set}/{item}");
        let at = location(&resp);
        let question = b.page(&at).await;
        for secret in secrets(set, item) {
            assert!(
                !question.contains(&escaped(&secret)),
                "{set}/{item}: `{secret}` on the page"
            );
        }
        let id: i64 = at
            .trim_start_matches("/drills/attempts/")
            .split('?')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let key = answer_key(&app.app.state.db, id).await;
        let right = key.model_response();
        let is_choice = matches!(key.body, katas_drills::KeyBody::Choice { .. });
        let mut form: Vec<(String, String)> = vec![("csrf".into(), csrf.clone())];
        for (i, p) in right.parts.iter().enumerate() {
            let name = if is_choice {
                "pick".to_string()
            } else {
                format!("p{i}")
            };
            form.push((name, p.clone()));
        }
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let resp = b.post_form(&at, &pairs).await;
        assert_eq!(resp.status(), 303, "{set}/{item}");
        let result = b.page(&location(&resp)).await;
        // The attempt's own explanation, with its drawn numbers filled in.
        let explanation = key.explanation.get(lang);
        assert!(
            result.contains(&escaped(explanation)),
            "{set}/{item}: no explanation in\n{result}"
        );
        assert!(result.contains(if lang == "zh" { "正确" } else { "Right" }));
        assert!(result.contains(if lang == "zh" {
            "解释"
        } else {
            "Explanation"
        }));
        // Committed: answering again is refused.
        let again = b.post_form(&at, &pairs).await;
        assert_eq!(again.status(), 409);
    }

    // An unusable answer shows the question again with the reason; nothing is lost.
    let page = b.page("/drills/python-gil").await;
    let csrf = csrf_of(&page);
    let resp = b
        .post_form("/drills/python-gil/why-gil/start", &[("csrf", &csrf)])
        .await;
    let at = location(&resp);
    let resp = b.post_form(&at, &[("csrf", &csrf)]).await;
    assert_eq!(resp.status(), 400);
    let html = resp.text().await.unwrap();
    assert!(
        html.contains("pick at least one option") || html.contains("pick exactly one option"),
        "{html}"
    );
    assert!(b.page(&at).await.contains("Commit answer"));
    // The same refusal in 中文 once the page is.
    b.switch_lang("zh", &at).await;
    let resp = b.post_form(&at, &[("csrf", &csrf)]).await;
    assert_eq!(resp.status(), 400);
    let html = resp.text().await.unwrap();
    assert!(
        html.contains("请至少选择一项") || html.contains("请恰好选择一项"),
        "{html}"
    );

    // A missing CSRF token changes nothing.
    let resp = b.post_form(&at, &[("pick", "A")]).await;
    assert_eq!(resp.status(), 403);

    let review = b.page("/review").await;
    assert!(review.contains("data-streak=\"1\""), "{review}");
    b.switch_lang("zh", "/review").await;
    let review_zh = b.page("/review").await;
    assert!(review_zh.contains("今日复习") && review_zh.contains("连续天数"));
}

#[tokio::test]
async fn drill_pages_need_a_login_to_practise() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    let page = b.page("/drills/python-gil").await;
    assert!(page.contains("Log in to practise"));
    let resp = b.get("/review").await;
    assert_eq!(resp.status(), 303);
    let resp = b.get("/drills/attempts/1").await;
    assert_eq!(resp.status(), 303);
}

#[tokio::test]
async fn instructors_see_item_statistics_and_reload_drills_from_disk() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    for wrong in [true, false] {
        let started: Value = post(
            &app,
            &token,
            "/api/drills/python-gil/pep-703/attempts",
            json!({}),
        )
        .await
        .json()
        .await
        .unwrap();
        let id = started["id"].as_i64().unwrap();
        let key = answer_key(&app.app.state.db, id).await;
        let katas_drills::KeyBody::Choice { options, .. } = &key.body else {
            panic!()
        };
        let pick = options
            .iter()
            .find(|o| o.correct != wrong)
            .unwrap()
            .label
            .clone();
        let resp = post(
            &app,
            &token,
            &format!("/api/drill-attempts/{id}/answer"),
            json!({ "parts": [pick] }),
        )
        .await;
        assert_eq!(resp.status(), 200);
    }

    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&app.app.state.db, "ines", Role::Instructor, Some(&hash))
        .await
        .unwrap();
    let learner = Browser::new(&app);
    learner.signup("lea", "long enough pw").await;
    assert_eq!(learner.get("/admin/drills").await.status(), 403);

    let staff = Browser::new(&app);
    assert_eq!(staff.login("ines", "long enough pw").await.status(), 303);
    let page = staff.page("/admin/drills").await;
    let row = page
        .lines()
        .find(|l| l.contains("\">pep-703"))
        .unwrap_or_else(|| panic!("{page}"));
    assert!(
        row.contains(">2</td>") && row.contains(">50%</td>"),
        "{row}"
    );
    // The answered item comes first (weakest first).
    assert!(page.find("pep-703").unwrap() < page.find("why-gil").unwrap());

    let csrf = csrf_of(&page);
    assert_eq!(
        staff.post_form("/admin/drills/reload", &[]).await.status(),
        403
    );
    let resp = staff
        .post_form("/admin/drills/reload", &[("csrf", &csrf)])
        .await;
    assert_eq!(resp.status(), 200);
    let html = resp.text().await.unwrap();
    let (sets, count) = (
        Drills::builtin().sets().len(),
        Drills::builtin().item_count(),
    );
    assert!(
        html.contains(&format!("Reloaded {sets} sets, {count} items from disk.")),
        "{html}"
    );
}

#[tokio::test]
async fn a_solved_kata_enters_the_review_queue() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let user_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE name = 'ada'")
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    // A week-old accepted submit: its first review is due by now.
    let week_ago = server::db::now_ms() - 7 * 86_400_000;
    sqlx::query(
        "INSERT INTO submissions (user_id, kata, mode, source, state, verdict, created_at)
         VALUES ($1, 'fast-power', 'submit', '', 'done', 'accepted', $2)",
    )
    .bind(user_id)
    .bind(week_ago)
    .execute(&app.app.state.db)
    .await
    .unwrap();
    let review: Value = app.get(&token, "/api/review").await.json().await.unwrap();
    let due = review["due"].as_array().unwrap();
    assert!(
        due.iter()
            .any(|d| d["kind"] == "kata" && d["subject"] == "fast-power"),
        "{review}"
    );
    // Read twice, still one card.
    let again: Value = app.get(&token, "/api/review").await.json().await.unwrap();
    assert_eq!(again["due"].as_array().unwrap().len(), due.len());
}

#[tokio::test]
async fn unanswered_attempts_are_bounded_per_learner() {
    // A budget that lets the cap, not the rate, refuse.
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| c.drill_attempt_budget.burst = std::num::NonZeroU32::new(200).unwrap(),
            ..Options::default()
        },
        None,
    )
    .await;
    let token = app.user("ada").await;
    let cap = server::services::drills::MAX_OPEN_ATTEMPTS;
    for _ in 0..cap {
        let resp = post(
            &app,
            &token,
            "/api/drills/python-gil/why-gil/attempts",
            json!({}),
        )
        .await;
        assert_eq!(resp.status(), 201);
    }
    let resp = post(
        &app,
        &token,
        "/api/drills/python-gil/why-gil/attempts",
        json!({}),
    )
    .await;
    assert_eq!(resp.status(), 429);
    let other = app.user("eve").await;
    let resp = post(
        &app,
        &other,
        "/api/drills/python-gil/why-gil/attempts",
        json!({}),
    )
    .await;
    assert_eq!(resp.status(), 201, "the bound is per learner");
}
