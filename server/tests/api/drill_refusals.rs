//! Malformed drill answers over HTTP, for every item kind and inside an interview: a 400 that
//! carries nothing of the key, the attempt left open, and the right answer afterwards still
//! taking full credit. On the page, a refusal that quotes the answer in backticks shows it as
//! code, as do option texts and feedback.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{TestApp, answer_key, spawn_idle};
use katas_drills::{AnswerSpec, Drills, Key, KeyBody};
use serde_json::{Value, json};

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// The first shipped item of each answer kind.
fn one_item_per_kind() -> Vec<(String, String)> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for set in Drills::builtin().sets() {
        for item in &set.items {
            let kind = server::services::drills::kind_of(&item.answer);
            if !seen.contains(&kind) {
                seen.push(kind);
                out.push((set.slug.clone(), item.id.clone()));
            }
        }
    }
    assert_eq!(out.len(), 6, "{seen:?}");
    out
}

/// Ways the key could be spelled inside a message, beyond single labels.
fn key_spellings(key: &Key) -> Vec<String> {
    let model = key.model_response().parts;
    let mut out = vec![model.join(" "), model.join(""), model.join(", ")];
    if let KeyBody::Numeric { expected, .. } = &key.body {
        out.push(format!("{expected}"));
    }
    out.retain(|s| s.chars().count() > 1);
    out
}

fn malformed(key: &Key) -> Vec<Vec<String>> {
    let model = key.model_response().parts;
    let mut out = vec![
        vec![],
        vec![String::new()],
        vec!["Q".to_string(); model.len()],
        vec!["A".to_string(); model.len() + 1],
    ];
    let mut blank = model.clone();
    blank[0] = String::new();
    out.push(blank);
    if model.len() > 1 {
        let mut repeated = model.clone();
        repeated[1] = repeated[0].clone();
        if matches!(key.body, KeyBody::Ordering { .. }) {
            out.push(repeated);
        }
    }
    out
}

async fn assert_refused_without_key(app: &TestApp, token: &str, id: i64) {
    let key = answer_key(&app.app.state.db, id).await;
    let explanation = key.explanation.en.clone();
    let answer = format!("/api/drill-attempts/{id}/answer");
    for parts in malformed(&key) {
        let resp = post(app, token, &answer, json!({ "parts": parts })).await;
        assert_eq!(resp.status(), 400, "{parts:?}");
        let text = resp.text().await.unwrap();
        assert!(!text.contains(&explanation), "{text}");
        for spelling in key_spellings(&key) {
            assert!(!text.contains(&spelling), "`{spelling}` in {text}");
        }
        let shown: Value = app
            .get(token, &format!("/api/drill-attempts/{id}"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(shown["answered"], false, "{parts:?} closed the attempt");
    }
    let resp = post(
        app,
        token,
        &answer,
        json!({ "parts": key.model_response().parts }),
    )
    .await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn malformed_answers_of_every_kind_are_asked_again_without_the_key() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    for (set, item) in one_item_per_kind() {
        let started: Value = post(
            &app,
            &token,
            &format!("/api/drills/{set}/{item}/attempts"),
            json!({}),
        )
        .await
        .json()
        .await
        .unwrap();
        let id = started["id"].as_i64().unwrap();
        let (_, it) = Drills::builtin().item(&set, &item).unwrap();
        assert_refused_without_key(&app, &token, id).await;
        let done: Value = app
            .get(&token, &format!("/api/drill-attempts/{id}"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(done["result"]["score"], 1.0, "{set}/{item}: {done}");
        if let AnswerSpec::Ordering { .. } = it.answer {
            assert_eq!(done["result"]["correct"], true);
        }
    }

    // Inside an interview the same refusals hold, and the answer is then recorded.
    let session: Value = post(&app, &token, "/api/interviews", json!({}))
        .await
        .json()
        .await
        .unwrap();
    for entry in session["items"].as_array().unwrap() {
        let id = entry["attempt"].as_i64().unwrap();
        assert_refused_without_key(&app, &token, id).await;
    }
}

#[tokio::test]
async fn quoted_words_on_the_drill_page_show_as_code() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("ada", "long enough pw").await;
    let page = b.page("/drills/python-gil").await;
    let csrf = csrf_of(&page);
    let resp = b
        .post_form("/drills/python-gil/why-gil/start", &[("csrf", &csrf)])
        .await;
    let at = resp.headers()["location"].to_str().unwrap().to_string();
    let question = b.page(&at).await;
    assert!(question.contains("<code>x += 1</code>"), "{question}");
    assert!(!question.contains("`x += 1`"), "{question}");

    // A letter that names no option: the refusal quotes it as code, not in raw backticks.
    let resp = b.post_form(&at, &[("csrf", &csrf), ("pick", "Z")]).await;
    assert_eq!(resp.status(), 400);
    let html = resp.text().await.unwrap();
    assert!(
        html.contains("<code>z</code> is not one of the options"),
        "{html}"
    );
    assert!(!html.contains('`'), "{html}");

    // Every option's feedback is in the result, with its code marked too.
    let resp = b.post_form(&at, &[("csrf", &csrf), ("pick", "A")]).await;
    assert_eq!(resp.status(), 303);
    let result = b.page(resp.headers()["location"].to_str().unwrap()).await;
    assert!(result.contains("<code>x += 1</code>"), "{result}");
    assert!(!result.contains('`'), "{result}");
}
