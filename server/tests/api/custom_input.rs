//! Custom input over HTTP: `POST /api/katas/{slug}/custom` queues a run of the learner's program
//! on their own input (through the real grader), and the report shows both answers; inputs
//! the kata refuses, bad JSON and GPU katas get a clear 422 (413 when too large) and nothing is
//! stored.

use crate::helpers::{Options, TestApp, grader, reference, spawn_app, spawn_idle};
use serde_json::{Value, json};
use std::time::Duration;

async fn custom(app: &TestApp, token: &str, slug: &str, body: &Value) -> reqwest::Response {
    app.client
        .post(app.url(&format!("/api/katas/{slug}/custom")))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_custom_input_runs_beside_the_reference() {
    let Some(grader) = grader() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let token = app.user("ada").await;
    let kata: Value = app
        .get(&token, "/api/katas/fast-power")
        .await
        .json()
        .await
        .unwrap();
    let sample = kata["custom_input"].as_str().expect("a sample input");
    let resp = custom(
        &app,
        &token,
        "fast-power",
        &json!({ "source": reference("fast-power"), "input": sample }),
    )
    .await;
    assert_eq!(resp.status(), 202);
    let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = app.verdict(&token, id, Duration::from_secs(120)).await;
    assert_eq!(done["verdict"], "accepted", "{done}");
    assert_eq!(done["mode"], "run");
    assert_eq!(done["cases"].as_array().unwrap().len(), 1);
    assert_eq!(done["custom"]["input"], sample);
    assert_eq!(done["custom"]["learner"], done["custom"]["reference"]);

    // A wrong answer is shown beside the reference's.
    let wrong = katas::catalogue::find("fast-power")
        .unwrap()
        .package()
        .wrong
        .iter()
        .find(|w| w.name == "forgets-modulus-one")
        .unwrap()
        .source;
    let resp = custom(
        &app,
        &token,
        "fast-power",
        &json!({ "source": wrong, "input": r#"{"PowMod":[[7,0,1]]}"# }),
    )
    .await;
    assert_eq!(resp.status(), 202);
    let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = app.verdict(&token, id, Duration::from_secs(120)).await;
    assert_eq!(done["verdict"], "wrong_answer", "{done}");
    assert_eq!(done["custom"]["reference"], r#"{"PowMod":[0]}"#);
    assert_eq!(done["custom"]["learner"], r#"{"PowMod":[1]}"#);
}

#[tokio::test]
async fn refused_inputs_get_the_kata_message_and_store_nothing() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let source = reference("fast-power");
    let cases = [
        (
            "fast-power",
            r#"{"PowMod":[[2,10,0]]}"#,
            None,
            "modulus 0 is outside 1..=2^63",
        ),
        (
            "fast-power",
            r#"{"PowMod":[[2,10,0]]}"#,
            Some("zh-CN"),
            "模数 0 不在",
        ),
        ("fast-power", "{not json", None, "not valid JSON"),
        ("fast-power", r#"{"Cube":[[1,2]]}"#, None, "not valid JSON"),
        ("gpu-pow-mod", "{}", None, "not offered"),
    ];
    for (slug, input, lang, says) in cases {
        let mut req = app
            .client
            .post(app.url(&format!("/api/katas/{slug}/custom")))
            .bearer_auth(&token)
            .json(&json!({ "source": source, "input": input }));
        if let Some(lang) = lang {
            req = req.header("Accept-Language", lang);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), 422, "{slug} {input}");
        let body: Value = resp.json().await.unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(says), "{slug} {input}: {error}");
    }
    let big = format!(r#"{{"Power":[{}[1.0,1]]}}"#, "[1.0,1],".repeat(9000));
    let resp = custom(
        &app,
        &token,
        "fast-power",
        &json!({ "source": source, "input": big }),
    )
    .await;
    assert_eq!(resp.status(), 413);
    let resp = custom(
        &app,
        &token,
        "no-such-kata",
        &json!({ "source": source, "input": "{}" }),
    )
    .await;
    assert_eq!(resp.status(), 404);
    let resp = custom(&app, &token, "fast-power", &json!({ "source": source })).await;
    assert_eq!(resp.status(), 400, "the input is required");
    assert_eq!(app.count("submissions").await, 0, "nothing was stored");
    assert_eq!(app.count("jobs").await, 0, "nothing was queued");

    let kata: Value = app
        .get(&token, "/api/katas/gpu-pow-mod")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        kata["custom_input"],
        Value::Null,
        "no sample for a GPU kata"
    );
}
