//! No lost work, over HTTP: drafts saved and served per learner and kata (bounded like a
//! submission), opened hints remembered, a past submission loaded into the editor, and the
//! submission page's numbered lines. The browser side is in `workbench_browser.rs`.

use crate::browser::{Browser, csrf_of};
use crate::helpers::spawn_idle;
use serde_json::{Value, json};

#[tokio::test]
async fn drafts_follow_the_learner_and_are_bounded() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    assert_eq!(b.get("/api/katas/fast-power/draft").await.status(), 401);
    b.signup("ada", "long enough pw").await;
    let page = b.page("/katas/fast-power").await;
    let token = csrf_of(&page);
    assert!(page.contains(">the starter</span>"), "no draft yet");

    let empty: Value = b
        .get("/api/katas/fast-power/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        empty,
        json!({ "source": null, "updated_at": null, "kata_version": null, "api_changed": null })
    );

    let draft = json!({ "source": "// half done <script>" });
    let refused = b
        .put_json("/api/katas/fast-power/draft", &draft, None)
        .await;
    assert_eq!(refused.status(), 403, "a session needs the CSRF token");
    let saved = b
        .put_json("/api/katas/fast-power/draft", &draft, Some(&token))
        .await;
    assert_eq!(saved.status(), 200);
    let back: Value = b
        .get("/api/katas/fast-power/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(back["source"], "// half done <script>");
    assert!(back["updated_at"].as_i64().unwrap() > 0);

    let page = b.page("/katas/fast-power").await;
    assert!(
        page.contains("// half done &#60;script&#62;</textarea>") && page.contains("your draft"),
        "the editor opens on the draft, escaped"
    );

    let huge = json!({ "source": "x".repeat(graders::MAX_SOURCE_BYTES + 1) });
    let too_big = b
        .put_json("/api/katas/fast-power/draft", &huge, Some(&token))
        .await;
    assert_eq!(too_big.status(), 413);
    let unknown = b
        .put_json("/api/katas/no-such-kata/draft", &draft, Some(&token))
        .await;
    assert_eq!(unknown.status(), 404);
    let extra = b
        .put_json(
            "/api/katas/fast-power/draft",
            &json!({ "source": "", "other": 1 }),
            Some(&token),
        )
        .await;
    assert_eq!(extra.status(), 400);
    let still: Value = b
        .get("/api/katas/fast-power/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        still["source"], "// half done <script>",
        "bad input loses nothing"
    );

    // Another learner sees none of it.
    let other = Browser::new(&app);
    other.signup("bob", "long enough pw").await;
    let theirs: Value = other
        .get("/api/katas/fast-power/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(theirs["source"], Value::Null);
    assert!(!other.page("/katas/fast-power").await.contains("half done"));
}

#[tokio::test]
async fn opened_hints_stay_open_and_past_submissions_open_in_the_editor() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("ada", "long enough pw").await;
    let page = b.page("/katas/fast-power").await;
    let token = csrf_of(&page);
    assert!(!page.contains("open data-seen"));
    let opened = b
        .put_json("/api/katas/fast-power/hints/1", &json!(null), Some(&token))
        .await;
    assert_eq!(opened.status(), 204);
    let again = b
        .put_json("/api/katas/fast-power/hints/1", &json!(null), Some(&token))
        .await;
    assert_eq!(again.status(), 204, "opening twice is fine");
    let missing = b
        .put_json("/api/katas/fast-power/hints/99", &json!(null), Some(&token))
        .await;
    assert_eq!(missing.status(), 404);
    let page = b.page("/katas/fast-power").await;
    assert_eq!(page.matches("open data-seen").count(), 1, "hint 2 is open");
    assert!(page.contains(r#"data-index="1" open data-seen"#));

    let sent = b
        .post_json(
            "/api/submissions",
            &json!({ "kata": "fast-power", "source": "// first try\nfn x() {}\n", "mode": "run" }),
            Some(&token),
        )
        .await;
    assert_eq!(sent.status(), 202);
    let id = sent.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let draft = json!({ "source": "// later work" });
    b.put_json("/api/katas/fast-power/draft", &draft, Some(&token))
        .await;
    let page = b.page("/katas/fast-power").await;
    assert!(
        page.contains("// later work"),
        "the draft beats the last attempt"
    );
    let page = b.page(&format!("/katas/fast-power?from={id}")).await;
    assert!(
        page.contains("// first try") && page.contains(&format!("submission #{id}")),
        "?from loads that submission"
    );

    let shown = b.page(&format!("/submissions/{id}")).await;
    assert!(shown.contains(r#"id="L2""#) && shown.contains("numbered"));
    assert!(shown.contains(&format!("/katas/fast-power?from={id}")));
    let history = b.page("/katas/fast-power/submissions").await;
    assert!(history.contains(&format!("/katas/fast-power?from={id}")));

    // Someone else's submission is not theirs to open.
    let other = Browser::new(&app);
    other.signup("bob", "long enough pw").await;
    assert_eq!(
        other
            .get(&format!("/katas/fast-power?from={id}"))
            .await
            .status(),
        404
    );
}

/// "Open in the editor" on a past submission replaces the draft in the editor, but the page
/// keeps that draft one click away.
#[tokio::test]
async fn opening_a_past_submission_keeps_the_draft_one_click_away() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("ada", "long enough pw").await;
    let token = csrf_of(&b.page("/katas/fast-power").await);
    let resp = b
        .post_json(
            "/api/submissions",
            &json!({ "kata": "fast-power", "source": "// submitted earlier", "mode": "submit" }),
            Some(&token),
        )
        .await;
    assert_eq!(resp.status(), 202);
    let id = resp.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let draft = json!({ "source": "// the draft since <b>" });
    let saved = b
        .put_json("/api/katas/fast-power/draft", &draft, Some(&token))
        .await;
    assert_eq!(saved.status(), 200);

    let page = b.page(&format!("/katas/fast-power?from={id}")).await;
    assert!(page.contains("// submitted earlier</textarea>"), "{page}");
    assert!(
        page.contains(r#"<template id="replaced-draft">// the draft since &#60;b&#62;</template>"#)
    );
    assert!(page.contains(r#"id="restore-draft""#) && page.contains("Bring back my draft"));
    let plain = b.page("/katas/fast-power").await;
    assert!(
        !plain.contains("restore-draft"),
        "nothing replaced without ?from"
    );
}
