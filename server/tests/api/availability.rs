//! Instructors list, unlist and retire a kata (issue 20 §5). Learners stop seeing an unlisted
//! kata while staff preview it; a retired kata stays readable but takes no submissions; another
//! replica sees each change without a restart; a newly published version keeps the status.

use crate::browser::{Browser, csrf_of};
use crate::helpers::{Options, TestApp, database, spawn_app, spawn_on, spawn_replica};
use serde_json::Value;
use server::db::katas::{Catalogue, GENERATION, sync_catalogue};
use server::db::users::{self, Role};

const PASSWORD: &str = "long enough pw";

fn no_workers() -> Options {
    Options {
        workers: 0,
        ..Options::default()
    }
}

async fn set_availability(staff: &Browser, status: &str) -> reqwest::Response {
    let page = staff.page("/admin/katas/fast-power").await;
    assert!(page.contains("Who sees this kata"), "{page}");
    let csrf = csrf_of(&page);
    staff
        .post_form(
            "/admin/katas/fast-power/availability",
            &[("csrf", csrf.as_str()), ("status", status)],
        )
        .await
}

/// An anonymous GET of the API, read as JSON.
async fn get_json(app: &TestApp, path: &str) -> Value {
    let resp = app.client.get(app.url(path)).send().await.unwrap();
    resp.json().await.unwrap()
}

async fn listed_slugs(app: &TestApp) -> Vec<String> {
    let list = get_json(app, "/api/katas").await;
    list.as_array()
        .unwrap()
        .iter()
        .map(|k| k["slug"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn instructors_unlist_and_retire_a_kata_and_every_replica_follows() {
    let app = spawn_app(no_workers(), None).await;
    let replica = spawn_replica(&app, no_workers(), None).await;
    let db = &app.app.state.db;
    let hash = server::password::hash(PASSWORD).unwrap();
    let ines = users::create(db, "ines", Role::Instructor, Some(&hash))
        .await
        .unwrap();
    users::create(db, "lea", Role::Learner, Some(&hash))
        .await
        .unwrap();
    let staff_token = users::issue_token(db, ines.id).await.unwrap();
    let learner_token = app.user("ada").await;
    let staff = Browser::new(&app);
    staff.login("ines", PASSWORD).await;
    let learner = Browser::new(&app);
    learner.login("lea", PASSWORD).await;
    let source = "// later";

    assert!(listed_slugs(&app).await.contains(&"fast-power".into()));
    let shown = get_json(&app, "/api/katas/fast-power").await;
    assert_eq!(shown["availability"], "listed");

    // Only staff change it.
    let page = learner.page("/katas/fast-power").await;
    let refused = learner
        .post_form(
            "/admin/katas/fast-power/availability",
            &[("csrf", csrf_of(&page).as_str()), ("status", "retired")],
        )
        .await;
    assert_eq!(refused.status(), 403);
    assert_eq!(set_availability(&staff, "hidden").await.status(), 400);

    // Unlisted: gone for learners, on both replicas; staff preview it and may submit.
    let done = set_availability(&staff, "unlisted").await;
    assert!(done.status().is_redirection(), "{}", done.status());
    for on in [&app, &replica] {
        assert!(!listed_slugs(on).await.contains(&"fast-power".into()));
        let shown = on.client.get(on.url("/api/katas/fast-power")).send().await;
        assert_eq!(shown.unwrap().status(), 404);
        assert_eq!(
            on.submit(&learner_token, "fast-power", source, "run")
                .await
                .status(),
            404
        );
    }
    assert_eq!(learner.get("/katas/fast-power").await.status(), 404);
    // Through the API, staff preview it as on its page; a learner's token changes nothing.
    for (token, status) in [(&staff_token, 200), (&learner_token, 404)] {
        let shown = app
            .client
            .get(app.url("/api/katas/fast-power"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(shown.status(), status);
    }
    // Nor do its draft and hint routes know it, to a learner; staff keep them.
    for (token, hint_status, draft_status) in [(&learner_token, 404, 404), (&staff_token, 204, 200)]
    {
        let hint = app
            .client
            .put(app.url("/api/katas/fast-power/hints/0"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(hint.status(), hint_status);
        let draft = app
            .client
            .get(app.url("/api/katas/fast-power/draft"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(draft.status(), draft_status);
    }
    assert!(
        !learner
            .page("/")
            .await
            .contains("href=\"/katas/fast-power\"")
    );
    let preview = staff.page("/katas/fast-power").await;
    assert!(preview.contains("Unlisted: learners cannot see this kata"));
    let catalogue = staff.page("/").await;
    assert!(catalogue.contains("href=\"/katas/fast-power\"") && catalogue.contains(">unlisted<"));
    assert_eq!(
        app.submit(&staff_token, "fast-power", source, "run")
            .await
            .status(),
        202
    );
    assert!(
        staff
            .page("/admin/katas/fast-power")
            .await
            .contains("value=\"unlisted\" checked")
    );

    // Retired: readable by everyone, out of the catalogue, no submissions from anyone.
    set_availability(&staff, "retired").await;
    assert!(!listed_slugs(&replica).await.contains(&"fast-power".into()));
    let shown = get_json(&replica, "/api/katas/fast-power").await;
    assert_eq!(shown["availability"], "retired");
    for token in [&learner_token, &staff_token] {
        let resp = replica.submit(token, "fast-power", source, "submit").await;
        assert_eq!(resp.status(), 409);
        let body: Value = resp.json().await.unwrap();
        assert!(
            body["error"].as_str().unwrap().contains("retired"),
            "{body}"
        );
        assert!(
            body["error_zh"].as_str().unwrap().contains("停用"),
            "{body}"
        );
    }
    let page = learner.page("/katas/fast-power").await;
    assert!(page.contains("Retired: this kata takes no new submissions"));

    // Listed again: back for everyone.
    set_availability(&staff, "listed").await;
    assert!(listed_slugs(&replica).await.contains(&"fast-power".into()));
    assert_eq!(
        replica
            .submit(&learner_token, "fast-power", source, "run")
            .await
            .status(),
        202
    );
    replica.app.stop();
    app.app.stop();
}

#[tokio::test]
async fn a_new_version_keeps_the_status_of_the_live_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = server::db::open(database(&dir).await).await.unwrap();
    let mut earlier = Catalogue::compiled().unwrap();
    earlier.generation = GENERATION - 1;
    for row in &mut earlier.katas {
        row.version.content_hash = format!("an-earlier-{}", row.slug);
    }
    sync_catalogue(&db, &earlier).await.unwrap();
    sqlx::query("UPDATE kata_versions SET status = 'retired' WHERE slug = 'fast-power'")
        .execute(&db)
        .await
        .unwrap();
    db.close().await;

    // Starting publishes this build's package as version 2, live, and still retired.
    let app = spawn_on(dir, no_workers(), None).await;
    let shown = get_json(&app, "/api/katas/fast-power").await;
    assert_eq!(shown["version"]["number"], 2);
    assert_eq!(shown["availability"], "retired");
    assert!(listed_slugs(&app).await.contains(&"graph-fusion".into()));
    app.app.stop();
}
