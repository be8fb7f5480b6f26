//! Per-user and per-client limits: live event streams per user, failed log-ins per account and
//! per address, and where a log-in or a sign-up may send the browser next.

use crate::browser::Browser;
use crate::helpers::{Options, TestApp, spawn_app};
use server::db::users::{self, Role};
use server::login_throttle::FailureQuota;
use std::net::IpAddr;
use std::time::Duration;

async fn no_workers(configure: fn(&mut server::state::ServerConfig)) -> TestApp {
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

async fn account(app: &TestApp, name: &str) {
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&app.app.state.db, name, Role::Learner, Some(&hash))
        .await
        .unwrap();
}

fn location(resp: &reqwest::Response) -> &str {
    resp.headers()["location"].to_str().unwrap()
}

#[tokio::test]
async fn a_user_holds_at_most_eight_event_streams() {
    let app = no_workers(|_| {}).await;
    let ada = app.user("ada").await;
    let bob = app.user("bob").await;
    let id = app.submit_id(&ada, "fast-power", "// later", "run").await;
    let path = format!("/api/submissions/{id}/events");
    let mut streams = Vec::new();
    for _ in 0..8 {
        let resp = app.get(&ada, &path).await;
        assert_eq!(resp.status(), 200);
        streams.push(resp);
    }
    let refused = app.get(&ada, &path).await;
    assert_eq!(refused.status(), 429);
    let body: serde_json::Value = refused.json().await.unwrap();
    let error = body["error"].as_str().unwrap();
    assert!(
        error.contains("at most 8") && error.contains("event streams"),
        "{error}"
    );
    // Another user's streams are counted apart (bob may not see ada's run: 404, not 429).
    assert_eq!(app.get(&bob, &path).await.status(), 404);

    // A stream the client drops frees its slot once the server notices (at the latest on the
    // next keep-alive write, every 15 s).
    drop(streams.pop());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let resp = app.get(&ada, &path).await;
        if resp.status() == 200 {
            break;
        }
        assert_eq!(resp.status(), 429);
        assert!(
            tokio::time::Instant::now() < deadline,
            "the dropped stream's slot never came free"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    app.app.stop();
}

/// Issue 22 §6: free accounts from one address, or from many, cannot take every connection
/// with event streams; pages and health stay answered.
#[tokio::test]
async fn event_streams_are_bounded_per_address_and_in_all() {
    let app = no_workers(|c| {
        c.event_streams_per_address = 5;
        c.edge.max_connections = 16;
    })
    .await;
    let mut tokens = Vec::new();
    let mut paths = Vec::new();
    for name in ["ada", "bob", "cy"] {
        let token = app.user(name).await;
        let id = app.submit_id(&token, "fast-power", "// later", "run").await;
        paths.push(format!("/api/submissions/{id}/events"));
        tokens.push(token);
    }
    let mut held = Vec::new();
    let mut refusals = Vec::new();
    for (token, path) in tokens.iter().zip(&paths) {
        for _ in 0..3 {
            let resp = app.get(token, path).await;
            match resp.status().as_u16() {
                200 => held.push(resp),
                429 => refusals.push(resp.json::<serde_json::Value>().await.unwrap()),
                other => panic!("a stream answered {other}"),
            }
        }
    }
    assert_eq!(held.len(), 5, "five streams from one address, then no more");
    let error = refusals[0]["error"].as_str().unwrap();
    assert!(error.contains("network address"), "{error}");
    assert!(
        refusals[0]["error_zh"]
            .as_str()
            .is_some_and(|zh| zh.contains("网络地址")),
        "{}",
        refusals[0]
    );

    // Loopback has more than one address: 127.0.0.2 is another client. In all, streams hold at
    // most half of the 16 connections.
    let other = reqwest::Client::builder()
        .local_address(IpAddr::from([127, 0, 0, 2]))
        .build()
        .unwrap();
    let mut total_refusal = None;
    for _ in 0..5 {
        let resp = other
            .get(app.url(&paths[2]))
            .bearer_auth(&tokens[2])
            .send()
            .await
            .unwrap();
        match resp.status().as_u16() {
            200 => held.push(resp),
            429 => total_refusal = Some(resp.json::<serde_json::Value>().await.unwrap()),
            other => panic!("a stream answered {other}"),
        }
    }
    assert_eq!(held.len(), 8, "half of the connection cap");
    let total_refusal = total_refusal.expect("the ninth stream is refused");
    assert!(
        total_refusal["error"]
            .as_str()
            .unwrap()
            .contains("this server holds 8"),
        "{total_refusal}"
    );
    let health = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let page = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(page.status(), 200, "the catalogue page");
    drop(held);
    app.app.stop();
}

fn small_throttle(c: &mut server::state::ServerConfig) {
    // Nothing drains during the test: every failure counts until the end.
    let every = Duration::from_secs(600);
    c.login_failures_per_account = FailureQuota { burst: 3, every };
    c.login_failures_per_address = FailureQuota { burst: 6, every };
}

async fn assert_throttled(resp: reqwest::Response, what: &str) {
    assert_eq!(resp.status(), 429);
    let retry: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=600).contains(&retry), "Retry-After: {retry}");
    let page = resp.text().await.unwrap();
    assert!(
        page.contains("Too many failed log-ins") && page.contains(what),
        "{page}"
    );
}

#[tokio::test]
async fn sign_ups_are_throttled_per_address_before_any_account_is_made() {
    let app = no_workers(|c| {
        c.sign_ups_per_address = server::login_throttle::FailureQuota {
            burst: 2,
            every: std::time::Duration::from_secs(600),
        };
    })
    .await;
    let here = Browser::from_address(&app, Some("127.0.0.1".parse().unwrap()));
    let there = Browser::from_address(&app, Some("127.0.0.2".parse().unwrap()));
    here.signup("ana", "long enough pw").await;
    here.signup("ben", "long enough pw").await;
    let form = [
        ("name", "cid"),
        ("password", "long enough pw"),
        ("confirm", "long enough pw"),
    ];
    let refused = here.submit_form("/signup", "/signup", &form).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    let page = refused.text().await.unwrap();
    assert!(
        page.contains("Too many new accounts from your network address"),
        "{page}"
    );
    assert_eq!(app.count("users").await, 2, "no account was made");
    there.signup("cid", "long enough pw").await;
    app.app.stop();
}

#[tokio::test]
async fn failed_log_ins_are_throttled_per_account_and_per_address() {
    let app = no_workers(small_throttle).await;
    for name in ["ada", "bob", "cy"] {
        account(&app, name).await;
    }
    let local: IpAddr = "127.0.0.1".parse().unwrap();
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    let here = Browser::from_address(&app, Some(local));
    let there = Browser::from_address(&app, Some(other));

    // Three failures on ada: her account is throttled, even with the right password and from
    // another address.
    for _ in 0..3 {
        assert_eq!(here.login("ada", "wrong password").await.status(), 401);
    }
    assert_throttled(here.login("ada", "long enough pw").await, "this account").await;
    assert_throttled(there.login("ada", "long enough pw").await, "this account").await;

    // Someone else's failures do not stop bob, even from the same address.
    assert_eq!(here.login("bob", "long enough pw").await.status(), 303);
    assert_eq!(here.login("bob", "long enough pw").await.status(), 303);

    // Three more failures from this address (unknown names count the same) use up its six.
    for name in ["cy", "nobody", "nobody-else"] {
        assert_eq!(here.login(name, "wrong password").await.status(), 401);
    }
    assert_throttled(here.login("bob", "long enough pw").await, "network address").await;
    // …but not another address's.
    assert_eq!(there.login("bob", "long enough pw").await.status(), 303);
    assert_eq!(there.login("cy", "long enough pw").await.status(), 303);
    app.app.stop();
}

#[tokio::test]
async fn log_in_sends_the_browser_only_to_a_path_on_this_site() {
    let app = no_workers(|_| {}).await;
    account(&app, "ada").await;
    let cases = [
        ("/%09/evil.example/x", "/"),
        ("//evil.example/x", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example", "/"),
        ("/%2F/evil.example", "/"),
        ("/progress?tab=all", "/progress?tab=all"),
    ];
    for (next, expected) in cases {
        let b = Browser::new(&app);
        // As a query on the form (the form carries it on), and as the posted field.
        let page = b
            .page(&format!(
                "/login?next={}",
                next.replace('%', "%25")
                    .replace('?', "%3F")
                    .replace('&', "%26")
            ))
            .await;
        assert!(!page.contains("evil.example"), "{next}: {page}");
        let resp = b
            .submit_form(
                "/login",
                "/login",
                &[
                    ("name", "ada"),
                    ("password", "long enough pw"),
                    ("next", next),
                ],
            )
            .await;
        assert_eq!(resp.status(), 303, "{next}");
        assert_eq!(location(&resp), expected, "next={next:?}");
    }
    app.app.stop();
}

#[tokio::test]
async fn sign_up_keeps_next_and_the_links_between_the_forms_carry_it() {
    let app = no_workers(|_| {}).await;
    let b = Browser::new(&app);
    // Sent to log in from a page, a newcomer who chooses to sign up still goes back there.
    let login = b.page("/login?next=/progress%3Ftab%3Dall").await;
    assert!(
        login.contains(r#"href="/signup?next=/progress%3Ftab%3Dall""#),
        "{login}"
    );
    let signup = b.page("/signup?next=/progress%3Ftab%3Dall").await;
    assert!(
        signup.contains(r#"name="next" value="/progress?tab=all""#),
        "{signup}"
    );
    assert!(
        signup.contains(r#"href="/login?next=/progress%3Ftab%3Dall""#),
        "{signup}"
    );
    // Without a way back, the links stay plain.
    let plain = b.page("/signup").await;
    assert!(plain.contains(r#"href="/login""#), "{plain}");

    // A refused form keeps it too.
    let refused = b
        .submit_form(
            "/signup",
            "/signup",
            &[
                ("name", "ada"),
                ("password", "short"),
                ("confirm", "short"),
                ("next", "/progress?tab=all"),
            ],
        )
        .await;
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(
        html.contains(r#"name="next" value="/progress?tab=all""#),
        "{html}"
    );

    let cases = [
        ("/progress?tab=all", "/progress?tab=all"),
        ("//evil.example/x", "/"),
    ];
    for (i, (next, expected)) in cases.into_iter().enumerate() {
        let b = Browser::new(&app);
        let page = b
            .page(&format!("/signup?next={}", next.replace('?', "%3F")))
            .await;
        assert!(!page.contains("evil.example"), "{next}: {page}");
        let name = format!("new{i}");
        let resp = b
            .submit_form(
                "/signup",
                "/signup",
                &[
                    ("name", &name),
                    ("password", "long enough pw"),
                    ("confirm", "long enough pw"),
                    ("next", next),
                ],
            )
            .await;
        assert_eq!(resp.status(), 303, "{next}");
        assert_eq!(location(&resp), expected, "next={next:?}");
    }
    app.app.stop();
}

#[tokio::test]
async fn an_unknown_slug_is_echoed_only_in_part() {
    let app = no_workers(|_| {}).await;
    let token = app.user("eve").await;
    let slug = "a".repeat(6_000);
    for path in [
        format!("/api/katas/{slug}"),
        format!("/api/katas/{slug}/draft"),
    ] {
        let resp = app.get(&token, &path).await;
        assert_eq!(resp.status(), 404);
        let body = resp.text().await.unwrap();
        assert!(body.len() < 1_000, "{} bytes echoed", body.len());
    }
    let resp = app.submit(&token, &slug, "// x", "run").await;
    assert!(resp.status().is_client_error());
    assert!(resp.text().await.unwrap().len() < 1_000);
    app.app.stop();
}
