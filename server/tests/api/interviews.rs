//! Interview mode over HTTP: a timed session (the clock shortened by moving its end into the
//! past), results withheld until the end, answers locked after it, a report kept in history,
//! in English and 中文; the kata drawn from the learner's difficulty band.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{Options, TestApp, answer_key, spawn_app, spawn_idle};
use serde_json::{Value, json};
use server::domain::Availability;
use std::collections::BTreeSet;

/// Runs the clock out now. The end is this millisecond, and the call returns only once the
/// clock has passed it: what happened before the call (a submit in the same millisecond) stays
/// inside the window, and the interview is over when the call returns.
async fn time_up(app: &TestApp, id: i64) {
    let end = server::db::now_ms();
    while server::db::now_ms() <= end {
        tokio::task::yield_now().await;
    }
    sqlx::query("UPDATE interviews SET ends_at = $1 WHERE id = $2")
        .bind(end)
        .bind(id)
        .execute(&app.app.state.db)
        .await
        .unwrap();
}

fn location(resp: &reqwest::Response) -> String {
    resp.headers()["location"].to_str().unwrap().to_string()
}

/// Starts a 45-minute interview from the pages as `b`'s learner: its id and its page's path.
pub async fn start_on_the_pages(b: &Browser, csrf: &str) -> (i64, String) {
    let resp = b
        .post_form("/interviews", &[("csrf", csrf), ("minutes", "45")])
        .await;
    assert_eq!(resp.status(), 303);
    let at = location(&resp);
    let id: i64 = at
        .trim_start_matches("/interviews/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (id, at)
}

#[tokio::test]
async fn the_api_withholds_results_until_the_end_then_locks_and_reports() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let post = |path: &str, body: Value| {
        app.client
            .post(app.url(path))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    assert_eq!(
        post("/api/interviews", json!({ "minutes": 0 }))
            .await
            .unwrap()
            .status(),
        400
    );
    let resp = post("/api/interviews", json!({})).await.unwrap();
    assert_eq!(resp.status(), 201);
    let session: Value = resp.json().await.unwrap();
    let id = session["id"].as_i64().unwrap();
    let span = session["ends_ms"].as_i64().unwrap() - session["started_ms"].as_i64().unwrap();
    assert_eq!(span, 45 * 60_000, "45 minutes by default");
    assert!(session.get("difficulty").is_none());
    let items = session["items"].as_array().unwrap();
    assert_eq!(items.len(), 5);
    let first = items[0]["attempt"].as_i64().unwrap();

    let right = answer_key(&app.app.state.db, first).await.model_response();
    let answered: Value = post(
        &format!("/api/drill-attempts/{first}/answer"),
        json!({ "parts": right.parts }),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(answered["recorded"], true);
    assert!(answered.get("result").is_none(), "{answered}");
    let shown: Value = app
        .get(&token, &format!("/api/drill-attempts/{first}"))
        .await
        .json()
        .await
        .unwrap();
    assert!(
        shown["result"].is_null(),
        "withheld while the clock runs: {shown}"
    );

    let done: Value = post(&format!("/api/interviews/{id}/finish"), json!({}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let report = &done["report"];
    assert_eq!(report["items"].as_array().unwrap().len(), 5);
    assert_eq!(report["items"][0]["outcome"], "right");
    assert_eq!(report["items"][1]["outcome"], "unanswered");
    assert_eq!(report["kata_verdict"], "none");
    // One of six parts right, nothing else: 100/6.
    assert!(
        (report["score"].as_f64().unwrap() - 100.0 / 6.0).abs() < 1e-6,
        "{report}"
    );
    let second = items[1]["attempt"].as_i64().unwrap();
    let resp = post(
        &format!("/api/drill-attempts/{second}/answer"),
        json!({ "parts": ["A"] }),
    )
    .await
    .unwrap();
    assert_eq!(resp.status(), 409, "locked after the end");
    let shown: Value = app
        .get(&token, &format!("/api/drill-attempts/{first}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(shown["result"]["correct"], true);
    let again: Value = app
        .get(&token, &format!("/api/interviews/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["report"], *report, "the report is kept as it was");
    let other = app.user("eve").await;
    assert_eq!(
        app.get(&other, &format!("/api/interviews/{id}"))
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn a_learner_runs_an_interview_on_the_pages_and_reads_the_report() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("grace", "long enough pw").await;
    b.switch_lang("zh", "/interviews").await;
    let page = b.page("/interviews").await;
    assert!(page.contains("模拟面试") && page.contains("开始面试"));
    b.switch_lang("en", "/interviews").await;
    let csrf = csrf_of(&page);
    let (id, at) = start_on_the_pages(&b, &csrf).await;
    let session = b.page(&at).await;
    assert!(session.contains("data-ends-at=") && session.contains("/static/interview.js"));
    assert!(
        session.contains(r#"id="interview-form""#) && session.contains(r#"data-kata=""#),
        "the kata page's editor and live verdict"
    );
    assert!(!session.contains("diff-"), "difficulty stays hidden");
    assert!(!session.contains("class=\"hint\""));

    // A hint, at a cost.
    let resp = b
        .post_form(&format!("/interviews/{id}/hint"), &[("csrf", &csrf)])
        .await;
    assert_eq!(resp.status(), 303);
    assert!(b.page(&at).await.contains("class=\"hint\""));

    // Answer two of the five items right; the pages say the answer is recorded, nothing more.
    let attempts: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM drill_attempts WHERE interview_id = $1 ORDER BY id")
            .bind(id)
            .fetch_all(&app.app.state.db)
            .await
            .unwrap();
    assert_eq!(attempts.len(), 5);
    for &attempt in &attempts[..2] {
        let key = answer_key(&app.app.state.db, attempt).await;
        let is_choice = matches!(key.body, katas_drills::KeyBody::Choice { .. });
        let mut form = vec![("csrf".to_string(), csrf.clone())];
        for (i, p) in key.model_response().parts.into_iter().enumerate() {
            form.push((
                if is_choice {
                    "pick".into()
                } else {
                    format!("p{i}")
                },
                p,
            ));
        }
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let resp = b
            .post_form(&format!("/drills/attempts/{attempt}"), &pairs)
            .await;
        assert_eq!(resp.status(), 303);
        assert!(location(&resp).starts_with(&format!("/interviews/{id}")));
        let page = b.page(&format!("/drills/attempts/{attempt}")).await;
        assert!(page.contains("Answer recorded"), "{page}");
        assert!(!page.contains("Explanation"));
    }

    // The kata's submit form stores a submission for the interview's kata.
    let resp = b
        .post_form(
            &format!("/interviews/{id}/submit"),
            &[("csrf", &csrf), ("source", "fn main() {}")],
        )
        .await;
    assert_eq!(resp.status(), 303);
    assert_eq!(app.count("submissions").await, 1);

    // The clock runs out: answers lock, the session page turns into the report.
    time_up(&app, id).await;
    let locked = b
        .post_form(
            &format!("/drills/attempts/{}", attempts[2]),
            &[("csrf", &csrf), ("pick", "A")],
        )
        .await;
    assert_eq!(locked.status(), 409);
    let resp = b.get(&at).await;
    assert_eq!(resp.status(), 303);
    assert!(location(&resp).contains("/report"));
    let report = b.page(&format!("/interviews/{id}/report")).await;
    assert_eq!(
        report.matches("data-outcome=\"right\"").count(),
        2,
        "{report}"
    );
    assert_eq!(report.matches("data-outcome=\"unanswered\"").count(), 3);
    assert!(report.contains("Review next") && report.contains(r#"data-review="drill""#));
    assert!(
        report.contains(r#"data-verdict="pending""#) && report.contains(">Pending<"),
        "{report}"
    );
    assert!(report.contains("<td class=\"num\">1</td>"), "one hint used");
    b.switch_lang("zh", &format!("/interviews/{id}/report"))
        .await;
    let zh = b.page(&format!("/interviews/{id}/report")).await;
    assert!(zh.contains("面试报告") && zh.contains("接下来复习") && zh.contains("未作答"));
    let history = b.page("/interviews").await;
    assert!(history.contains(&format!("/interviews/{id}/report")));
}

/// The last submit still queued when the clock stops: the report waits for its verdict instead
/// of keeping "pending" for good.
#[tokio::test]
async fn a_submit_queued_at_the_end_lands_in_the_report() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let session: Value = app
        .client
        .post(app.url("/api/interviews"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = session["id"].as_i64().unwrap();
    let kata = session["kata"].as_str().unwrap().to_string();
    let submission = app.submit_id(&token, &kata, "fn main() {}", "submit").await;

    time_up(&app, id).await;
    let path = format!("/api/interviews/{id}");
    let shown: Value = app.get(&token, &path).await.json().await.unwrap();
    assert_eq!(shown["report"]["kata_verdict"], "pending", "{shown}");

    // The grader lands the queued submit after the end.
    sqlx::query("UPDATE submissions SET verdict = 'accepted', passed = 3, total = 3 WHERE id = $1")
        .bind(submission)
        .execute(&app.app.state.db)
        .await
        .unwrap();
    let shown: Value = app.get(&token, &path).await.json().await.unwrap();
    assert_eq!(shown["report"]["kata_verdict"], "accepted", "{shown}");
    let stored: String = sqlx::query_scalar("SELECT report FROM interviews WHERE id = $1")
        .bind(id)
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    assert!(stored.contains(r#""kata_verdict":"accepted""#), "{stored}");
}

/// The kata page would hand out for free the hints the interview charges for, so it withholds
/// them while the interview on that kata runs and gives them back once it is over.
#[tokio::test]
async fn the_kata_page_withholds_hints_while_its_interview_runs() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("grace", "long enough pw").await;
    let page = b.page("/interviews").await;
    let resp = b
        .post_form(
            "/interviews",
            &[("csrf", &csrf_of(&page)), ("minutes", "45")],
        )
        .await;
    assert_eq!(resp.status(), 303);
    let (id, kata): (i64, String) =
        sqlx::query_as("SELECT id, kata FROM interviews ORDER BY id DESC LIMIT 1")
            .fetch_one(&app.app.state.db)
            .await
            .unwrap();
    let during = b.page(&format!("/katas/{kata}")).await;
    assert!(!during.contains("class=\"hint\""), "{during}");
    assert!(
        during.contains("data-hints-withheld") && during.contains(&format!("/interviews/{id}"))
    );

    time_up(&app, id).await;
    let after = b.page(&format!("/katas/{kata}")).await;
    assert!(after.contains("class=\"hint\"") && !after.contains("data-hints-withheld"));
}

/// An item the running interview asks, started and answered outside it, keeps its result (and
/// explanation) back until the interview is over.
#[tokio::test]
async fn the_same_item_outside_the_interview_reveals_nothing_until_the_end() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let session: Value = app
        .client
        .post(app.url("/api/interviews"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = session["id"].as_i64().unwrap();
    let (set, item): (String, String) = sqlx::query_as(
        "SELECT drill_set, item FROM drill_attempts WHERE interview_id = $1 ORDER BY id LIMIT 1",
    )
    .bind(id)
    .fetch_one(&app.app.state.db)
    .await
    .unwrap();
    let started: Value = app
        .client
        .post(app.url(&format!("/api/drills/{set}/{item}/attempts")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let outside = started["id"].as_i64().unwrap();
    let right = answer_key(&app.app.state.db, outside)
        .await
        .model_response();
    let answered: Value = app
        .client
        .post(app.url(&format!("/api/drill-attempts/{outside}/answer")))
        .bearer_auth(&token)
        .json(&json!({ "parts": right.parts }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answered["recorded"], true, "{answered}");
    assert!(answered.get("result").is_none(), "{answered}");
    let path = format!("/api/drill-attempts/{outside}");
    let shown: Value = app.get(&token, &path).await.json().await.unwrap();
    assert!(shown["result"].is_null(), "{shown}");

    time_up(&app, id).await;
    let shown: Value = app.get(&token, &path).await.json().await.unwrap();
    assert_eq!(shown["result"]["correct"], true, "{shown}");
}

/// The interview's editor keeps its code on the server: the page shows the saved draft (or the
/// code of the last no-script submit), never the starter again; nothing is kept after the end.
#[tokio::test]
async fn the_interview_keeps_its_code_across_reloads() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let session: Value = app
        .client
        .post(app.url("/api/interviews"))
        .bearer_auth(&token)
        .json(&json!({}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = session["id"].as_i64().unwrap();
    let put = |source: &str| {
        app.client
            .put(app.url(&format!("/api/interviews/{id}/draft")))
            .bearer_auth(&token)
            .json(&json!({ "source": source }))
            .send()
    };
    assert_eq!(
        put("// mine, typed during the interview")
            .await
            .unwrap()
            .status(),
        204
    );
    let (draft,): (Option<String>,) = sqlx::query_as("SELECT draft FROM interviews WHERE id = $1")
        .bind(id)
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    assert_eq!(
        draft.as_deref(),
        Some("// mine, typed during the interview")
    );
    let big = "x".repeat(graders::MAX_SOURCE_BYTES + 1);
    assert_eq!(put(&big).await.unwrap().status(), 413);

    let b = Browser::new(&app);
    b.signup("grace", "long enough pw").await;
    let page = b.page("/interviews").await;
    let csrf = csrf_of(&page);
    let (mine, _) = start_on_the_pages(&b, &csrf).await;
    let resp = b
        .post_form(
            &format!("/interviews/{mine}/submit"),
            &[("csrf", &csrf), ("source", "// the attempt of grace")],
        )
        .await;
    assert_eq!(resp.status(), 303);
    let again = b.page(&format!("/interviews/{mine}")).await;
    assert!(
        again.contains("// the attempt of grace</textarea>"),
        "{again}"
    );

    time_up(&app, id).await;
    assert_eq!(put("// too late").await.unwrap().status(), 409);
}

/// Marks `kata` solved by `name`: an accepted submit, as a graded one would leave.
async fn solved(app: &TestApp, name: &str, kata: &str) {
    let user_id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE name = $1")
        .bind(name)
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO submissions (user_id, kata, mode, source, state, verdict, created_at)
         VALUES ($1, $2, 'submit', '', 'done', 'accepted', $3)",
    )
    .bind(user_id)
    .bind(kata)
    .bind(server::db::now_ms())
    .execute(&app.app.state.db)
    .await
    .unwrap();
}

/// The katas of `draws` interviews started by `token`'s learner.
async fn drawn(app: &TestApp, token: &str, draws: usize) -> BTreeSet<String> {
    let mut katas = BTreeSet::new();
    for _ in 0..draws {
        let resp = app
            .client
            .post(app.url("/api/interviews"))
            .bearer_auth(token)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 201);
        let session: Value = resp.json().await.unwrap();
        katas.insert(session["kata"].as_str().unwrap().to_string());
    }
    katas
}

fn set(katas: &[&str]) -> BTreeSet<String> {
    katas.iter().map(|k| k.to_string()).collect()
}

/// Every interview after fast-power used to be graph-fusion (the first unsolved kata in
/// catalogue order). Now the kata is drawn from the learner's unsolved listed CPU katas at the
/// difficulty of the hardest kata they solved and the one above (the easiest for a new learner),
/// else from the unsolved ones nearest that band, else from all of them.
#[tokio::test]
async fn the_interview_kata_is_drawn_from_the_learners_difficulty_band() {
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| c.interview_budget.burst = std::num::NonZeroU32::new(100).unwrap(),
            ..Options::default()
        },
        None,
    )
    .await;
    // The CPU katas by difficulty, as the catalogue has them (fast-power is easy, graph-fusion
    // and tp-split hard, view-contiguous medium).
    let band = |d: katas::Difficulty| -> BTreeSet<String> {
        katas::catalogue::all()
            .iter()
            .map(|k| k.meta())
            .filter(|m| m.kind == katas::KataKind::Cpu && m.difficulty == d)
            .map(|m| m.slug.clone())
            .collect()
    };
    let (easy_katas, medium, hard) = (
        band(katas::Difficulty::Easy),
        band(katas::Difficulty::Medium),
        band(katas::Difficulty::Hard),
    );
    assert!(easy_katas.contains("fast-power") && medium.contains("view-contiguous"));
    assert_eq!(hard, set(&["graph-fusion", "tp-split"]));

    let new = app.user("new").await;
    let got = drawn(&app, &new, 3).await;
    assert!(got.is_subset(&easy_katas), "a new learner: {got:?}");

    // Easy solved: easy and medium, of which only the medium ones are unsolved. (Each learner
    // starts at most 20 interviews: five open drill attempts each, 100 at most.)
    let easy = app.user("easy").await;
    for kata in &easy_katas {
        solved(&app, "easy", kata).await;
    }
    let got = drawn(&app, &easy, 8).await;
    assert!(got.is_subset(&medium), "{got:?}");

    // A medium kata solved: medium and hard, graph-fusion among them.
    let mid = app.user("mid").await;
    solved(&app, "mid", "fast-power").await;
    solved(&app, "mid", "view-contiguous").await;
    let got = drawn(&app, &mid, 12).await;
    let band: BTreeSet<String> = hard
        .iter()
        .chain(&medium)
        .filter(|k| *k != "view-contiguous")
        .cloned()
        .collect();
    assert!(got.is_subset(&band), "{got:?}");
    assert!(got.len() > 1, "a draw, not always the same kata: {got:?}");

    // A hard kata solved first: the band is hard alone.
    let bold = app.user("bold").await;
    solved(&app, "bold", "graph-fusion").await;
    assert_eq!(drawn(&app, &bold, 3).await, set(&["tp-split"]));
    // Both hard ones solved: nothing unsolved in the band, so the nearest below it (medium),
    // never an easy kata two steps away.
    solved(&app, "bold", "tp-split").await;
    let got = drawn(&app, &bold, 8).await;
    assert!(got.is_subset(&medium), "{got:?}");

    // An unlisted kata is never drawn, even when it is the only one in the band.
    for kata in &easy_katas {
        server::db::kata_availability::set(&app.app.state.db, kata, Availability::Unlisted)
            .await
            .unwrap();
    }
    let fresh = app.user("fresh").await;
    let got = drawn(&app, &fresh, 8).await;
    assert!(got.is_subset(&medium), "the nearest listed band: {got:?}");

    // Everything listed solved: any listed CPU kata again.
    let done = app.user("done").await;
    for kata in medium.iter().chain(&hard) {
        solved(&app, "done", kata).await;
    }
    let got = drawn(&app, &done, 12).await;
    let listed: BTreeSet<String> = medium.union(&hard).cloned().collect();
    assert!(got.is_subset(&listed), "{got:?}");
    assert!(easy_katas.iter().all(|k| !got.contains(k)));
}
