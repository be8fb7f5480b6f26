//! The refusals the handlers no longer write themselves: every urlencoded page form goes
//! through `CsrfForm` (a missing or forged token is 403 with the error page, and nothing
//! happens), a signed-out post is refused as such before its form is read (`SignedIn`), and a
//! learner calling a staff-only API route is refused by `StaffUser`.

use crate::browser::Browser;
use crate::helpers::spawn_idle;

/// Every page form a signed-in learner can post, with fields that would otherwise be accepted.
const FORMS: &[(&str, &[(&str, &str)])] = &[
    ("/interviews", &[("minutes", "30")]),
    (
        "/katas/fast-power/submissions",
        &[("source", "x"), ("mode", "run")],
    ),
    ("/submissions/1/cancel", &[]),
    ("/drills/python-gil/next", &[]),
    ("/interviews/1/hint", &[]),
    ("/interviews/1/finish", &[]),
    ("/lang", &[("lang", "zh")]),
    ("/logout", &[]),
];

#[tokio::test]
async fn a_page_form_without_its_token_is_refused_before_the_handler() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("ada", "long enough pw").await;
    for (path, fields) in FORMS {
        for token in [None, Some("forged")] {
            let mut form = fields.to_vec();
            if let Some(t) = token {
                form.push(("csrf", t));
            }
            let resp = b.post_form(path, &form).await;
            assert_eq!(resp.status(), 403, "{path} with {token:?}");
            let html = resp.text().await.unwrap();
            assert!(
                html.contains("<!doctype html>") && html.contains("CSRF"),
                "{path}: {html}"
            );
        }
    }
    assert_eq!(app.count("interviews").await, 0);
    assert_eq!(app.count("submissions").await, 0);
    b.page("/interviews").await; // still signed in: the logout was refused too

    // Signed out, a learner's form is refused as signed out (401, the page says to log in),
    // not as a stale form: `SignedIn` runs before the form is read.
    let anonymous = Browser::new(&app);
    for (path, fields) in FORMS
        .iter()
        .filter(|(p, _)| !["/lang", "/logout"].contains(p))
    {
        let resp = anonymous.post_form(path, fields).await;
        assert_eq!(resp.status(), 401, "{path}");
        assert!(!resp.text().await.unwrap().contains("CSRF"), "{path}");
    }
}

#[tokio::test]
async fn a_learner_is_refused_by_the_staff_api_in_its_words() {
    let app = spawn_idle().await;
    let learner = app.user("ada").await;
    let resp = app.get(&learner, "/api/katas/fast-power/versions").await;
    assert_eq!(resp.status(), 403);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(
        body["error"],
        "only instructors and admins manage kata versions"
    );
    assert_eq!(body["error_zh"], "只有教师和管理员可以管理题目版本");
    let anonymous = reqwest::get(app.url("/api/katas/fast-power/versions"))
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
}
