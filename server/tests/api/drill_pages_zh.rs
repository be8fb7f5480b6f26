//! The drill page's form starts with nothing chosen, an empty choice is asked again, items are
//! listed by their titles, and a result viewed in 中文 says its words and count units in
//! Chinese.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{answer_key, spawn_idle};
use katas_drills::Key;

fn location(resp: &reqwest::Response) -> String {
    resp.headers()["location"].to_str().unwrap().to_string()
}

#[tokio::test]
async fn answers_start_empty_and_results_read_in_chinese() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("lin", "long enough pw").await;
    b.switch_lang("zh", "/drills/view-contiguous").await;
    let page = b.page("/drills/view-contiguous").await;
    let csrf = csrf_of(&page);
    // Items are listed by their titles in the viewer's language.
    assert!(
        page.contains(r#"<td data-item="transpose-strides">转置后的步长</td>"#),
        "{page}"
    );
    assert!(page.contains(r#"<span class="tag">步长</span>"#), "{page}");
    let resp = b
        .post_form(
            "/drills/view-contiguous/transpose-strides/start",
            &[("csrf", &csrf)],
        )
        .await;
    let at = location(&resp);
    let question = b.page(&at).await;
    assert!(question.contains("转置后的步长"), "{question}");
    // Every select starts on the empty entry; none is preset to a real answer.
    let selects = question.matches("<select").count();
    assert!(selects > 0, "{question}");
    assert_eq!(
        question
            .matches(r#"<option value="" selected>—</option>"#)
            .count(),
        selects,
        "{question}"
    );
    assert!(!question.contains(r#"value="True" selected"#));

    // Left empty, the answer is asked again and the attempt stays open.
    let resp = b
        .post_form(
            &at,
            &[
                ("csrf", &csrf),
                ("p0", "(1, 2)"),
                ("p1", "(1, 2)"),
                ("p2", ""),
            ],
        )
        .await;
    assert_eq!(resp.status(), 400);
    let id: i64 = at.trim_start_matches("/drills/attempts/").parse().unwrap();
    let open: Option<i64> =
        sqlx::query_scalar("SELECT answered_at FROM drill_attempts WHERE id = $1")
            .bind(id)
            .fetch_one(&app.app.state.db)
            .await
            .unwrap();
    assert!(open.is_none());

    // A multiple choice answered wrong: its per-option words are Chinese.
    let page = b.page("/drills/view-contiguous").await;
    let resp = b
        .post_form(
            "/drills/view-contiguous/which-are-views/start",
            &[("csrf", &csrf_of(&page))],
        )
        .await;
    let at = location(&resp);
    let id: i64 = at.trim_start_matches("/drills/attempts/").parse().unwrap();
    let key: Key = answer_key(&app.app.state.db, id).await;
    let katas_drills::KeyBody::Choice { options, .. } = &key.body else {
        panic!("a choice")
    };
    let wrong = options.iter().find(|o| !o.correct).unwrap().label.clone();
    let resp = b.post_form(&at, &[("csrf", &csrf), ("pick", &wrong)]).await;
    assert_eq!(resp.status(), 303);
    let result = b.page(&location(&resp)).await;
    assert!(
        result.contains("没选") && result.contains("选了"),
        "{result}"
    );
    assert!(!result.contains("not picked"), "{result}");
    // The missed item is due again today, listed by its title.
    let review = b.page("/review").await;
    assert!(review.contains("哪些结果是视图"), "{review}");
}

/// A predict-part's choices (`yes`/`no`, `ok`/`raises`) read in Chinese on the question and in
/// the result, while the value sent stays the word grading knows (issue 23 §4).
#[tokio::test]
async fn predict_choices_read_in_chinese() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("mei", "long enough pw").await;
    b.switch_lang("zh", "/drills/view-contiguous").await;
    let page = b.page("/drills/view-contiguous").await;
    let csrf = csrf_of(&page);
    let resp = b
        .post_form(
            "/drills/view-contiguous/view-after-transpose/start",
            &[("csrf", &csrf)],
        )
        .await;
    let at = location(&resp);
    let question = b.page(&at).await;
    for option in [
        r#"<option value="ok">正常运行</option>"#,
        r#"<option value="raises">抛出异常</option>"#,
        r#"<option value="yes">是</option>"#,
        r#"<option value="no">否</option>"#,
    ] {
        assert!(question.contains(option), "{option}: {question}");
    }
    assert!(question.contains("（是/否）"), "{question}");
    assert!(
        !question.contains(">yes<") && !question.contains("yes/no"),
        "{question}"
    );

    let resp = b
        .post_form(
            &at,
            &[("csrf", &csrf), ("p0", "ok"), ("p1", "1"), ("p2", "yes")],
        )
        .await;
    assert_eq!(resp.status(), 303);
    let result = b.page(&location(&resp)).await;
    assert!(
        result.contains("正常运行") && result.contains("抛出异常"),
        "{result}"
    );
    assert!(result.contains("是") && result.contains("否"), "{result}");
    assert!(
        !result.contains(">raises<") && !result.contains(">no<"),
        "{result}"
    );
}
