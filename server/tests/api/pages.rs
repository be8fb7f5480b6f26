use crate::browser::{Browser, csrf_of};
use crate::helpers::{Options, TestApp, fake_grader, grader, reference, spawn_app};
use server::db::users::{self, Role};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(120);

async fn no_workers() -> TestApp {
    spawn_app(
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await
}

fn location(resp: &reqwest::Response) -> String {
    resp.headers()["location"].to_str().unwrap().to_string()
}

/// An account with a password and the given role, made the way `user add` would (plus a hash).
async fn account(app: &TestApp, name: &str, role: Role) {
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&app.app.state.db, name, role, Some(&hash))
        .await
        .unwrap();
}

#[tokio::test]
async fn sign_up_log_out_and_log_in_with_csrf_on_every_form() {
    let app = no_workers().await;
    let b = Browser::new(&app);

    // A form posted without the page's token is refused, and nothing is stored.
    let page = b.page("/signup").await;
    assert!(page.contains("Create an account"));
    let token = csrf_of(&page);
    let refused = b
        .post_form(
            "/signup",
            &[
                ("name", "ada"),
                ("password", "correct horse"),
                ("confirm", "correct horse"),
            ],
        )
        .await;
    assert_eq!(refused.status(), 403);
    let body = refused.text().await.unwrap();
    assert!(
        body.contains("<!doctype html>") && body.contains("CSRF"),
        "{body}"
    );
    let forged = b
        .post_form(
            "/signup",
            &[
                ("csrf", "forged"),
                ("name", "ada"),
                ("password", "correct horse"),
                ("confirm", "correct horse"),
            ],
        )
        .await;
    assert_eq!(forged.status(), 403);
    assert_eq!(app.count("users").await, 0);

    let short = b
        .post_form(
            "/signup",
            &[
                ("csrf", &token),
                ("name", "ada"),
                ("password", "short"),
                ("confirm", "short"),
            ],
        )
        .await;
    assert_eq!(short.status(), 422);
    assert!(short.text().await.unwrap().contains("at least 8"));

    b.signup("ada", "correct horse").await;
    let session = b.cookie("ik_session").expect("a session cookie");
    let line = b
        .set_cookies
        .lock()
        .unwrap()
        .iter()
        .find(|l| l.starts_with("ik_session="))
        .cloned()
        .unwrap();
    assert!(
        line.contains("HttpOnly") && line.contains("SameSite=Lax") && !line.contains("Secure"),
        "{line}"
    );
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM users WHERE name = 'ada'")
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE id_sha256 = $1")
        .bind(&session)
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    assert_eq!(stored, 0, "only the digest of the session secret is stored");

    let home = b.page("/").await;
    assert!(home.contains(">ada</span>") && home.contains("Log out"));
    let signup_again = b
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("name", "ada"),
                ("password", "another one"),
                ("confirm", "another one"),
            ],
        )
        .await;
    assert_eq!(signup_again.status(), 409, "the name is taken");
    let html = signup_again.text().await.unwrap();
    assert!(
        html.contains("A user named <code>ada</code> already exists."),
        "the quoted name is code, not raw backticks: {html}"
    );

    // The API takes the session cookie, but a cookie-authenticated POST needs the CSRF header.
    let session_csrf = csrf_of(&home);
    let body = serde_json::json!({"kata": "fast-power", "source": "// x", "mode": "run"});
    assert_eq!(
        b.post_json("/api/submissions", &body, None).await.status(),
        403
    );
    assert_eq!(
        b.post_json("/api/submissions", &body, Some("wrong"))
            .await
            .status(),
        403
    );
    assert_eq!(
        b.post_json("/api/submissions", &body, Some(&session_csrf))
            .await
            .status(),
        202
    );

    // Log out: without the token refused; with it the session ends.
    assert_eq!(b.post_form("/logout", &[]).await.status(), 403);
    let out = b.post_form("/logout", &[("csrf", &session_csrf)]).await;
    assert_eq!(out.status(), 303);
    assert!(b.cookie("ik_session").is_none());
    assert_eq!(app.count("sessions").await, 0);
    let gated = b.get("/progress").await;
    assert_eq!(gated.status(), 303);
    assert_eq!(location(&gated), "/login?next=/progress");
    // The old session secret no longer works.
    b.set_cookie("ik_session", &session);
    assert_eq!(b.get("/progress").await.status(), 303);

    let wrong = b.login("ada", "wrong horse!").await;
    assert_eq!(wrong.status(), 401);
    assert!(
        wrong
            .text()
            .await
            .unwrap()
            .contains("Wrong user name or password")
    );
    let nobody = b.login("nobody", "correct horse").await;
    assert_eq!(nobody.status(), 401);
    let ok = b
        .submit_form(
            "/login?next=/progress",
            "/login",
            &[
                ("name", "ada"),
                ("password", "correct horse"),
                ("next", "/progress"),
            ],
        )
        .await;
    assert_eq!(ok.status(), 303);
    assert_eq!(location(&ok), "/progress");
    assert!(b.page("/progress").await.contains("My progress"));
    let offsite = b
        .submit_form(
            "/login",
            "/login",
            &[
                ("name", "ada"),
                ("password", "correct horse"),
                ("next", "//evil.example/"),
            ],
        )
        .await;
    assert_eq!(location(&offsite), "/", "no open redirect");
}

#[tokio::test]
async fn pages_render() {
    let app = no_workers().await;
    let b = Browser::new(&app);
    let home = b.page("/").await;
    for kata in katas::catalogue::all() {
        assert!(home.contains(&kata.meta().slug), "{}", kata.meta().slug);
    }
    let easy = b.page("/?difficulty=easy").await;
    assert!(easy.contains("/katas/fast-power"));
    assert!(!easy.contains("/katas/tp-split\""), "filtered out");
    let topic = b.page("/?topic=numerics").await;
    assert!(topic.contains("/katas/fast-power"));

    let kata = b.page("/katas/fast-power").await;
    assert!(kata.contains("<h2>Task</h2>"), "Markdown rendered");
    assert!(kata.contains("Hint 1 of 4"));
    assert!(
        !kata.contains("Exponentiation by squaring"),
        "concept locked"
    );
    assert!(kata.contains("Log in to run and submit"));
    assert!(kata.contains("todo!("), "the starter in the editor");
    assert!(
        b.page("/katas/fast-power/leaderboard")
            .await
            .contains("Nobody has solved")
    );
    assert!(b.page("/login").await.contains("Log in"));

    let css = b.get("/static/style.css").await;
    assert_eq!(css.status(), 200);
    assert!(
        css.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );
    assert_eq!(b.get("/static/app.js").await.status(), 200);

    let missing = b.get("/katas/no-such-kata").await;
    assert_eq!(missing.status(), 404);
    let html = missing.text().await.unwrap();
    assert!(
        html.contains("<!doctype html>") && html.contains("unknown kata <code>no-such-kata</code>")
    );
    let api = b.get("/api/katas/no-such-kata").await;
    assert_eq!(api.status(), 404);
    assert!(api.text().await.unwrap().starts_with("{\"error\""));
    assert_eq!(b.get("/nowhere").await.status(), 404);

    b.signup("grace", "long enough pw").await;
    let kata = b.page("/katas/fast-power").await;
    assert!(kata.contains("Run <kbd>") && kata.contains("Submit <kbd>"));
    let token = csrf_of(&kata);
    let posted = b
        .post_form(
            "/katas/fast-power/submissions",
            &[
                ("csrf", &token),
                ("source", "// my attempt"),
                ("mode", "run"),
            ],
        )
        .await;
    assert_eq!(posted.status(), 303);
    let to = location(&posted);
    let page = b.page(&to).await;
    assert!(
        page.contains("Queued") && page.contains("// my attempt"),
        "{page}"
    );
    assert!(page.contains("next in line") || page.contains("0 ahead"));
    assert!(
        b.page("/katas/fast-power").await.contains("// my attempt"),
        "the editor starts from the last attempt"
    );
    let history = b.page("/katas/fast-power/submissions").await;
    assert!(history.contains(&format!("href=\"{to}\"")));
    let progress = b.page("/progress").await;
    assert!(progress.contains("Attempted"));
}

#[tokio::test]
async fn security_headers_on_every_response() {
    let app = no_workers().await;
    let b = Browser::new(&app);
    for path in [
        "/",
        "/katas/fast-power",
        "/api/katas",
        "/static/app.js",
        "/nowhere",
        "/progress",
    ] {
        let resp = b.get(path).await;
        let h = resp.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{path}: {csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
    }
    // No inline script anywhere: every <script> has a src.
    let html = b.page("/katas/fast-power").await;
    assert!(!html.contains("<script>"));
}

#[tokio::test]
async fn pages_enforce_who_may_see_what() {
    let app = no_workers().await;
    let alice = app.user("alice").await;
    let id = app
        .submit(&alice, "fast-power", "// alice's secret", "run")
        .await
        .json::<serde_json::Value>()
        .await
        .unwrap()["id"]
        .as_i64()
        .unwrap();

    let mallory = Browser::new(&app);
    mallory.signup("mallory", "long enough pw").await;
    for path in [
        format!("/submissions/{id}"),
        format!("/submissions/{id}/report"),
    ] {
        let resp = mallory.get(&path).await;
        assert_eq!(resp.status(), 404, "{path}");
        assert!(!resp.text().await.unwrap().contains("alice's secret"));
    }
    assert!(
        !mallory
            .page("/katas/fast-power")
            .await
            .contains("alice's secret")
    );
    let admin = mallory.get("/admin").await;
    assert_eq!(admin.status(), 403, "learners do not see the admin page");
    assert!(
        admin
            .text()
            .await
            .unwrap()
            .contains("instructors and admins")
    );
    // Every staff page and action refuses a learner the same way (one `Staff` extractor).
    let staff_gets = [
        "/admin/katas/fast-power",
        "/admin/katas/fast-power/stats.csv",
        "/admin/drills",
    ];
    let staff_posts = [
        format!("/admin/submissions/{id}/cancel"),
        format!("/admin/submissions/{id}/requeue"),
        "/admin/drills/reload".to_string(),
    ];
    for path in staff_gets {
        let resp = mallory.get(path).await;
        assert_eq!(resp.status(), 403, "{path}");
        assert!(
            resp.text()
                .await
                .unwrap()
                .contains("instructors and admins")
        );
    }
    for path in &staff_posts {
        let resp = mallory.post_form(path, &[]).await;
        assert_eq!(resp.status(), 403, "{path}");
        assert!(
            resp.text()
                .await
                .unwrap()
                .contains("instructors and admins")
        );
    }
    let locked = mallory.get("/katas/fast-power/solution").await;
    assert_eq!(locked.status(), 403, "the reference is locked until solved");
    assert!(
        !locked
            .text()
            .await
            .unwrap()
            .contains("pub fn pow_mod(base: u64")
    );

    let anonymous = Browser::new(&app);
    assert_eq!(anonymous.get("/admin").await.status(), 303);
    for path in staff_gets {
        assert_eq!(anonymous.get(path).await.status(), 303, "{path}");
    }
    assert_eq!(
        anonymous.get(&format!("/submissions/{id}")).await.status(),
        303
    );

    account(&app, "ines", Role::Instructor).await;
    let staff = Browser::new(&app);
    assert_eq!(staff.login("ines", "long enough pw").await.status(), 303);
    let page = staff.page("/admin").await;
    assert!(page.contains("Kata packages") && page.contains("Workers"));
    assert!(page.contains("fast-power") && page.contains("complete"));
    assert!(page.contains(">1</span><span class=\"stat-label\">queued"));
}

#[tokio::test]
async fn user_text_is_escaped() {
    let app = no_workers().await;
    // Names are validated at sign-up; one that got in some other way must still be inert.
    let evil = "<script>alert(1)</script>";
    sqlx::query("INSERT INTO users (name, role, created_at) VALUES ($1, 'learner', 0)")
        .bind(evil)
        .execute(&app.app.state.db)
        .await
        .unwrap();
    let user = users::by_name_with_hash(&app.app.state.db, evil)
        .await
        .unwrap()
        .unwrap()
        .0;
    let (secret, _) = server::db::sessions::create(&app.app.state.db, &user)
        .await
        .unwrap();
    let b = Browser::new(&app);
    b.set_cookie("ik_session", &secret);
    let home = b.page("/").await;
    assert!(!home.contains(evil), "raw markup in the page");
    // askama writes numeric character references.
    assert!(home.contains("&#60;script&#62;alert(1)&#60;/script&#62;"));

    let source = "</textarea><script>alert(2)</script>";
    let kata = b.page("/katas/fast-power").await;
    let resp = b
        .post_form(
            "/katas/fast-power/submissions",
            &[
                ("csrf", &csrf_of(&kata)),
                ("source", source),
                ("mode", "run"),
            ],
        )
        .await;
    assert_eq!(resp.status(), 303);
    let page = b.page(&location(&resp)).await;
    assert!(!page.contains("<script>alert(2)"));
    let editor = b.page("/katas/fast-power").await;
    assert!(!editor.contains("</textarea><script>"));
    assert!(editor.contains("&#60;/textarea&#62;&#60;script&#62;alert(2)"));

    // The sign-up form echoes a refused name, escaped.
    let anon = Browser::new(&app);
    let resp = anon
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("name", "\"><script>alert(3)</script>"),
                ("password", "long enough pw"),
                ("confirm", "long enough pw"),
            ],
        )
        .await;
    assert_eq!(resp.status(), 422);
    let html = resp.text().await.unwrap();
    assert!(!html.contains("<script>alert(3)"));
    assert!(html.contains("value=\"&#34;&#62;&#60;script&#62;alert(3)"));
    assert!(
        html.contains(
            "User names are 1–40 letters, digits, <code>-</code>, <code>_</code> or <code>.</code>."
        ),
        "the name rule's characters are code, not raw backticks: {html}"
    );
}

/// Polls the result panel until the verdict is in.
async fn finished(b: &Browser, id: &str) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let html = b.page(&format!("{id}/report")).await;
        if html.contains("data-state=\"done\"") {
            return html;
        }
        assert!(Instant::now() < deadline, "{id} not done: {html}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn verdicts_show_on_the_page_and_solving_unlocks_the_reference() {
    let grader = fake_grader();
    let app = spawn_app(Options::default(), Some(grader)).await;
    let b = Browser::new(&app);
    b.signup("lin", "long enough pw").await;
    let post = |source: &'static str, mode: &'static str| {
        let b = &b;
        async move {
            let kata = b.page("/katas/fast-power").await;
            let resp = b
                .post_form(
                    "/katas/fast-power/submissions",
                    &[
                        ("csrf", &csrf_of(&kata)),
                        ("source", source),
                        ("mode", mode),
                    ],
                )
                .await;
            assert_eq!(resp.status(), 303);
            location(&resp)
        }
    };

    let wrong = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
    let wrong_at = post(wrong, "run").await;
    let html = finished(&b, &wrong_at).await;
    assert!(html.contains("Wrong answer"), "{html}");
    assert!(html.contains("power: 2^10"), "the failing case is named");
    assert!(html.contains("Expected"));

    let broken = "pub fn power(b: f64, e: i32) -> f64 {\n    b * e // fake: compile_error\n}\n";
    let html = finished(&b, &post(broken, "run").await).await;
    assert!(html.contains("Compile error"), "{html}");
    assert!(html.contains("data-line=\"2\"") && html.contains("line 2, column"));

    assert_eq!(b.get("/katas/fast-power/solution").await.status(), 403);
    let html = finished(&b, &post(reference("fast-power"), "submit").await).await;
    assert!(html.contains("Accepted"), "{html}");
    assert!(html.contains("cases passed"));

    let solution = b.page("/katas/fast-power/solution").await;
    assert!(
        solution.contains("Exponentiation by squaring"),
        "concept notes"
    );
    assert!(solution.contains("pub fn pow_mod"), "the reference");
    assert!(
        b.page("/katas/fast-power")
            .await
            .contains("/katas/fast-power/solution")
    );
    assert!(b.page("/").await.contains("✓ Solved"));
    let board = b.page("/katas/fast-power/leaderboard").await;
    assert!(board.contains("lin") && board.contains("(you)"), "{board}");
    assert!(b.page("/progress").await.contains(">Solved<"));

    // Someone else's accepted code is readable only after solving the kata oneself.
    let accepted = board
        .split("href=\"/submissions/")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the leaderboard links lin's solution")
        .to_string();
    let kim = Browser::new(&app);
    kim.signup("kim", "long enough pw").await;
    assert_eq!(
        kim.get(&format!("/submissions/{accepted}")).await.status(),
        404
    );
    assert!(
        !kim.page("/katas/fast-power/leaderboard")
            .await
            .contains("href=\"/submissions/")
    );
    let kata = kim.page("/katas/fast-power").await;
    let resp = kim
        .post_form(
            "/katas/fast-power/submissions",
            &[
                ("csrf", &csrf_of(&kata)),
                ("source", reference("fast-power")),
                ("mode", "submit"),
            ],
        )
        .await;
    let html = finished(&kim, &location(&resp)).await;
    assert!(html.contains("Accepted"), "{html}");
    let theirs = kim.page(&format!("/submissions/{accepted}")).await;
    assert!(theirs.contains("by lin") && theirs.contains("pub fn pow_mod"));
    // A wrong answer of lin's stays private.
    assert_eq!(kim.get(&wrong_at).await.status(), 404);
}

/// A checker's explanation and a grader's own message speak the viewer's language on the
/// report; the JSON keeps `message` in English and adds `message_zh`; `expected` and `got` are
/// the same values in both.
#[tokio::test]
async fn a_chinese_viewer_reads_the_checker_s_message_in_chinese() {
    let Some(grader) = grader() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let b = Browser::new(&app);
    b.signup("mei", "long enough pw").await;
    b.set_cookie("ik_lang", "zh");
    let kata = b.page("/katas/fast-power").await;
    let submit = |source: &'static str| {
        let csrf = csrf_of(&kata);
        let b = &b;
        async move {
            let resp = b
                .post_form(
                    "/katas/fast-power/submissions",
                    &[("csrf", &csrf), ("source", source), ("mode", "run")],
                )
                .await;
            assert_eq!(resp.status(), 303);
            location(&resp)
        }
    };

    let wrong = "pub fn power(_b: f64, _e: i32) -> f64 { 0.0 }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n";
    let at = submit(wrong).await;
    let html = finished(&b, &at).await;
    assert!(html.contains("答案错误"), "{html}");
    assert!(
        html.contains("power(2.0, 10) 的结果偏差过大"),
        "the checker's words in 中文: {html}"
    );
    assert!(!html.contains(" is off "), "no English beside it: {html}");
    assert!(
        html.contains("相对容差 1e-12"),
        "the tolerance as the statement writes it: {html}"
    );
    assert!(
        html.contains("<code>1024.0</code>"),
        "expected as a value: {html}"
    );

    let id = at.rsplit('/').next().unwrap();
    let api: serde_json::Value = b
        .get(&format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let mismatch = &api["cases"][0]["mismatch"];
    assert!(
        mismatch["message"].as_str().unwrap().contains("is off"),
        "{api}"
    );
    assert!(
        mismatch["message_zh"]
            .as_str()
            .unwrap()
            .contains("偏差过大"),
        "{api}"
    );
    assert_eq!(mismatch["expected"], "1024.0");

    // A limit the session reports (the program stops before answering), and a missing entry
    // point said again in the learner's terms: both ours, both in 中文.
    let html = finished(
        &b,
        &submit("pub fn power(_b: f64, _e: i32) -> f64 { std::process::exit(0) }\npub fn pow_mod(_b: u64, _e: u64, _m: u64) -> u64 { 0 }\n").await,
    )
    .await;
    assert!(html.contains("程序在回答这个用例之前就退出了"), "{html}");
    let html = finished(
        &b,
        &submit("pub fn power(b: f64, _e: i32) -> f64 { b }\n").await,
    )
    .await;
    assert!(
        html.contains("你的文件必须按题面给出的签名定义 <code>pub fn pow_mod(...)</code>")
            || html.contains("你的文件必须按题面给出的签名定义 `pub fn pow_mod(...)`"),
        "{html}"
    );
}

#[tokio::test]
async fn cookies_are_secure_when_configured() {
    let dir = tempfile::tempdir().unwrap();
    let config = server::app::AppConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        db: crate::helpers::database(&dir).await,
        workers: 0,
        server: server::state::ServerConfig {
            secure_cookies: true,
            ..server::state::ServerConfig::default()
        },
    };
    let app = server::app::start(config, server::grader_slot::GraderSlot::ready(None))
        .await
        .unwrap();
    let resp = reqwest::get(format!("{}/login", app.url())).await.unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.starts_with("ik_csrf=") && cookie.contains("Secure"),
        "{cookie}"
    );
    app.stop();
}

#[tokio::test]
async fn pages_speak_the_language_asked_for_and_the_switch_is_remembered() {
    let app = no_workers().await;
    let get_with = |lang: &'static str| {
        let url = app.app.url();
        async move {
            reqwest::Client::new()
                .get(format!("{url}/"))
                .header("accept-language", lang)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    // A visitor's Accept-Language decides, q-values included; English otherwise.
    let zh = get_with("zh-CN,zh;q=0.9,en;q=0.8").await;
    assert!(zh.contains(r#"<html lang="zh-CN">"#), "{zh}");
    assert!(zh.contains(">题库</a>") && zh.contains("快速幂"), "{zh}");
    assert!(!zh.contains(">Catalogue</a>"), "{zh}");
    let vary = reqwest::get(app.app.url() + "/").await.unwrap();
    assert_eq!(vary.headers()["vary"], "Accept-Language, Cookie");
    let en = get_with("fr;q=0.9, en;q=0.8, zh;q=0.5").await;
    assert!(en.contains(r#"<html lang="en">"#) && en.contains(">Catalogue</a>"));

    // The switch: a form in the header, for visitors a cookie, then back to the same page.
    let b = Browser::new(&app);
    let kata = b.page("/katas/fast-power").await;
    assert!(kata.contains(r#"<html lang="en">"#) && kata.contains("The question"));
    assert!(kata.contains(r#"action="/lang""#) && kata.contains(r#"value="/katas/fast-power""#));
    let resp = b
        .submit_form(
            "/katas/fast-power",
            "/lang",
            &[("lang", "zh"), ("next", "/katas/fast-power")],
        )
        .await;
    assert_eq!(resp.status(), 303);
    assert_eq!(location(&resp), "/katas/fast-power");
    let kata = b.page("/katas/fast-power").await;
    assert!(kata.contains(r#"<html lang="zh-CN">"#), "{kata}");
    assert!(
        kata.contains("面试题") && kata.contains("pub fn pow_mod(base: u64"),
        "the statement in Chinese, its code unchanged: {kata}"
    );
    // Only a same-origin path is a place to return to; a bad language or token changes nothing.
    let resp = b
        .submit_form("/", "/lang", &[("lang", "en"), ("next", "//evil.example/")])
        .await;
    assert_eq!(location(&resp), "/");
    assert_eq!(b.cookie("ik_lang").as_deref(), Some("en"));
    let resp = b
        .submit_form("/", "/lang", &[("lang", "xx"), ("next", "/")])
        .await;
    assert_eq!(resp.status(), 400);
    let resp = b
        .post_form("/lang", &[("csrf", "forged"), ("lang", "zh")])
        .await;
    assert_eq!(resp.status(), 403);
    assert_eq!(b.cookie("ik_lang").as_deref(), Some("en"));

    // A signed-in user's choice is saved with the account and follows them to a new browser,
    // where it outranks Accept-Language.
    let b = Browser::new(&app);
    b.signup("mei", "correct horse").await;
    let resp = b
        .submit_form(
            "/progress",
            "/lang",
            &[("lang", "zh"), ("next", "/progress")],
        )
        .await;
    assert_eq!(location(&resp), "/progress");
    let saved: Option<String> = sqlx::query_scalar("SELECT lang FROM users WHERE name = 'mei'")
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    assert_eq!(saved.as_deref(), Some("zh"));
    let elsewhere = Browser::new(&app);
    assert_eq!(elsewhere.login("mei", "correct horse").await.status(), 303);
    assert_eq!(elsewhere.cookie("ik_lang"), None);
    let progress = elsewhere.page("/progress").await;
    assert!(
        progress.contains(r#"<html lang="zh-CN">"#) && progress.contains("我的进度"),
        "{progress}"
    );
    assert!(progress.contains("退出登录"), "{progress}");
}

/// Refusals a learner meets on the pages speak the page's language: the error page (404 of an
/// unknown address or kata, with quoted parts as code, never raw backticks; a stale CSRF token);
/// the API keeps English and adds `error_zh`. (A drill answer that cannot be graded: drills.rs.)
#[tokio::test]
async fn error_pages_and_form_errors_speak_the_page_language() {
    let app = no_workers().await;
    let b = Browser::new(&app);
    for (lang, title, nothing, kata) in [
        (
            "en",
            "Not Found",
            "nothing here: check the address",
            "unknown kata ",
        ),
        (
            "zh",
            "找不到页面",
            "这里什么也没有：请检查地址",
            "没有名为 ",
        ),
    ] {
        b.set_cookie("ik_lang", lang);
        let resp = b.get("/no/such/page").await;
        assert_eq!(resp.status(), 404);
        let html = resp.text().await.unwrap();
        assert!(html.contains(title) && html.contains(nothing), "{html}");
        let resp = b.get("/katas/no-such-kata").await;
        assert_eq!(resp.status(), 404);
        let html = resp.text().await.unwrap();
        assert!(
            html.contains(kata) && html.contains("<code>no-such-kata</code>"),
            "{html}"
        );
        assert!(!html.contains('`'), "no raw backticks: {html}");
    }
    let api = b.get("/api/katas/no-such-kata").await;
    let body: serde_json::Value = api.json().await.unwrap();
    assert_eq!(body["error"], "unknown kata `no-such-kata`");
    assert_eq!(body["error_zh"], "没有名为 `no-such-kata` 的题目");

    // A stale form (the language switch's, here) in 中文.
    let resp = b
        .post_form("/lang", &[("csrf", "stale"), ("lang", "en")])
        .await;
    assert_eq!(resp.status(), 403);
    let html = resp.text().await.unwrap();
    assert!(
        html.contains("禁止访问") && html.contains("请刷新页面后再试"),
        "{html}"
    );
}
