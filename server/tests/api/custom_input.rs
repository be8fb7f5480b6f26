//! Custom input over HTTP: `POST /api/katas/{slug}/custom` queues a run of the learner's program
//! on their own input (through the real grader; how the pages show a custom run, through the
//! scripted one), and the report shows both answers. Bad JSON and GPU katas get a clear 422
//! (413 when too large) and nothing is stored; an input only the kata's own code can refuse is
//! refused by its judge, in the sandbox, as the run's verdict (the server runs no kata's code).

use crate::browser::{Browser, csrf_of};
use crate::helpers::{
    Options, TestApp, fake_grader, grader, reference, spawn_app, spawn_idle, until_done,
};
use serde_json::{Value, json};
use server::domain::SubmissionId;
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
    // Made after the start by fast-power's judge, in the sandbox: what its reference makes.
    let kata = app.with_examples("fast-power").await;
    let sample = kata["custom_input"].as_str().expect("a sample input");
    assert_eq!(
        Some(sample.to_string()),
        katas::catalogue::find("fast-power").unwrap().sample_input()
    );
    let resp = custom(
        &app,
        &token,
        "fast-power",
        &json!({ "source": reference("fast-power"), "input": sample }),
    )
    .await;
    assert_eq!(resp.status(), 202);
    let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = app
        .verdict(&token, SubmissionId(id), Duration::from_secs(120))
        .await;
    assert_eq!(done["verdict"], "accepted", "{done}");
    assert_eq!(done["mode"], "run");
    assert_eq!(done["custom_run"], true);
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
    let done = app
        .verdict(&token, SubmissionId(id), Duration::from_secs(120))
        .await;
    assert_eq!(done["verdict"], "wrong_answer", "{done}");
    assert_eq!(done["custom"]["reference"], r#"{"PowMod":[0]}"#);
    assert_eq!(done["custom"]["learner"], r#"{"PowMod":[1]}"#);

    // An input the kata refuses: its judge says why, in both languages, as the run's verdict.
    for (input, says, says_zh) in [
        (
            r#"{"PowMod":[[2,10,0]]}"#,
            "modulus 0 is outside 1..=2^63",
            "模数 0 不在",
        ),
        (
            r#"{"Cube":[[1,2]]}"#,
            "not this kata's input",
            "不符合此题的输入格式",
        ),
    ] {
        let resp = custom(
            &app,
            &token,
            "fast-power",
            &json!({ "source": reference("fast-power"), "input": input }),
        )
        .await;
        assert_eq!(resp.status(), 202, "{input}");
        let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
        let done = app
            .verdict(&token, SubmissionId(id), Duration::from_secs(120))
            .await;
        assert_eq!(done["verdict"], "input_refused", "{done}");
        let message = done["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{input}: {done}");
        let zh = done["message_zh"].as_str().unwrap_or_default();
        assert!(zh.contains(says_zh), "{input}: {done}");
    }
}

#[tokio::test]
async fn refused_inputs_get_the_kata_message_and_store_nothing() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let source = reference("fast-power");
    let cases = [
        (
            "fast-power",
            "{not json",
            None,
            "not valid JSON at line 1, column 2",
        ),
        ("fast-power", "{not json", Some("zh-CN"), "第 1 行第 2 列"),
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
        assert!(
            body["error_zh"].as_str().is_some_and(|zh| !zh.is_empty()),
            "the page in 中文 has its words too: {body}"
        );
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

/// Polls `/api/submissions/{id}` with the browser's session until it is done.
async fn done_in(browser: &Browser, id: i64) -> Value {
    until_done(Duration::from_secs(120), || async {
        browser
            .get(&format!("/api/submissions/{id}"))
            .await
            .json()
            .await
            .unwrap()
    })
    .await
}

/// A custom run is stored as a `run` with its input beside it: the pages call it what it is
/// ("Custom input", 自定义输入), its report shows both answers, and it is never an attempt, a
/// solve or a leaderboard entry, even when the answers agree.
#[tokio::test]
async fn a_custom_run_is_shown_as_custom_input_and_never_counts() {
    let grader = fake_grader();
    let app = spawn_app(Options::default(), Some(grader)).await;
    let browser = Browser::new(&app);
    browser.signup("ada", "long enough pw").await;
    let db = &app.app.state.db;
    let ada = server::db::users::id_of(db, "ada").await.unwrap().unwrap();

    // The kata page offers the tab, pre-filled with the sample; a GPU kata says it has none.
    app.with_examples("fast-power").await;
    let page = browser.page("/katas/fast-power").await;
    let sample = katas::catalogue::find("fast-power")
        .unwrap()
        .sample_input()
        .unwrap();
    assert!(page.contains(r#"id="btab-custom""#), "the third tab");
    let escaped = sample.replace('"', "&#34;");
    assert!(
        page.contains(&escaped) || page.contains(&sample.replace('"', "&quot;")),
        "the sample pre-filled: {sample}"
    );
    let gpu = katas::catalogue::all()
        .iter()
        .find(|k| k.meta().kind == katas::KataKind::Gpu)
        .map(|k| k.meta().slug.clone());
    if let Some(gpu) = gpu {
        let page = browser.page(&format!("/katas/{gpu}")).await;
        assert!(page.contains("GPU katas offer no custom input"), "{gpu}");
        assert!(!page.contains(r#"id="custom-input""#), "{gpu}: no form");
    }

    let csrf = csrf_of(&page);
    let resp = browser
        .post_json(
            "/api/katas/fast-power/custom",
            &json!({ "source": reference("fast-power"), "input": r#"{"PowMod":[[3,4,7]]}"# }),
            Some(&csrf),
        )
        .await;
    assert_eq!(resp.status(), 202);
    let custom = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = done_in(&browser, custom).await;
    assert_eq!(done["verdict"], "accepted", "{done}");
    let resp = browser
        .post_json(
            "/api/submissions",
            &json!({ "kata": "fast-power", "source": reference("fast-power"), "mode": "run" }),
            Some(&csrf),
        )
        .await;
    assert_eq!(resp.status(), 202);
    let run = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    done_in(&browser, run).await;

    // Named as what it is, beside the plain run.
    let history = browser.page("/katas/fast-power/submissions").await;
    assert!(history.contains("<td>custom input</td>"), "{history}");
    assert!(history.contains("<td>run</td>"), "{history}");
    let shown = browser.page(&format!("/submissions/{custom}")).await;
    assert!(
        shown.contains(r#"<p class="muted">custom input · "#),
        "{shown}"
    );
    let panel = browser.page(&format!("/submissions/{custom}/report")).await;
    assert!(panel.contains(r#"data-mode="custom""#), "{panel}");
    assert!(
        panel.contains("Custom input (one case of yours)"),
        "{panel}"
    );
    assert!(panel.contains("Your answer"), "{panel}");
    for who in ["learner", "reference"] {
        let answer = format!(r#"data-answer="{who}">{{&#34;PowMod&#34;:[4]}}</pre>"#);
        assert!(panel.contains(&answer), "{who}'s answer: {panel}");
    }
    assert!(!panel.contains("r-cases"), "no case table for the one case");
    // A program that does not compile is still a custom run: the reference's answer beside none.
    let resp = browser
        .post_json(
            "/api/katas/fast-power/custom",
            &json!({ "source": "pub fn power(b: f64, e: i32) -> f64 { b * e } // fake: compile_error\n", "input": sample }),
            Some(&csrf),
        )
        .await;
    assert_eq!(resp.status(), 202);
    let broken = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = done_in(&browser, broken).await;
    assert_eq!(done["verdict"], "compile_error", "{done}");
    assert_eq!(done["custom"]["learner"], Value::Null, "{done}");
    let panel = browser.page(&format!("/submissions/{broken}/report")).await;
    assert!(panel.contains(r#"data-mode="custom""#), "{panel}");
    assert!(
        panel.contains(r#"data-answer="learner">no answer</p>"#),
        "{panel}"
    );
    browser
        .switch_lang("zh", "/katas/fast-power/submissions")
        .await;
    let history = browser.page("/katas/fast-power/submissions").await;
    assert!(history.contains("<td>自定义输入</td>"), "{history}");
    let panel = browser.page(&format!("/submissions/{custom}/report")).await;
    assert!(
        panel.contains("你的输出") && panel.contains("参考实现的输出"),
        "{panel}"
    );

    // Not an attempt, not a solve, not on the leaderboard; the plain run is an attempt.
    let progress = server::db::progress::for_user(db, ada).await.unwrap();
    assert_eq!(progress.len(), 1, "{progress:?}");
    assert_eq!(
        progress[0].submissions, 1,
        "only the plain run: {progress:?}"
    );
    assert!(!progress[0].solved.0);
    assert!(
        server::db::progress::solved(db, ada)
            .await
            .unwrap()
            .is_empty()
    );
    let board = server::db::progress::leaderboard(db, "fast-power", 10)
        .await
        .unwrap();
    assert!(board.is_empty(), "{board:?}");
}
