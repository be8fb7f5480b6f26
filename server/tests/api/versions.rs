//! Kata versions over HTTP: the built-in catalogue is published when a database starts, every
//! draft and submission records the version it was written for, and code written for a version
//! whose learner-facing API differs is told what changed (and offered the new starter).

use crate::browser::Browser;
use crate::helpers::{Options, database, reference, spawn_idle, spawn_on};
use katas::learner_api::LearnerApi;
use serde_json::{Value, json};
use server::db::kata_versions::Published;
use server::db::katas::{Catalogue, GENERATION, sync, sync_catalogue};
use server::db::users;

async fn json_of(resp: reqwest::Response) -> Value {
    assert_eq!(resp.status(), 200);
    resp.json().await.unwrap()
}

#[tokio::test]
async fn the_built_in_catalogue_is_published_and_work_records_its_version() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let kata = json_of(app.get(&token, "/api/katas/fast-power").await).await;
    assert_eq!(kata["version"]["number"], 1);
    let package = katas::catalogue::find("fast-power").unwrap().package();
    assert_eq!(kata["version"]["content_hash"], package.content_hash);

    let id = app
        .submit_id(&token, "fast-power", reference("fast-power"), "submit")
        .await;
    let submission = json_of(app.get(&token, &format!("/api/submissions/{id}")).await).await;
    assert_eq!(submission["kata_version"], 1);
    assert_eq!(submission["api_changed"], Value::Null);

    let put = app
        .client
        .put(app.url("/api/katas/fast-power/draft"))
        .bearer_auth(&token)
        .json(&json!({ "source": "// mine" }))
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    let draft = json_of(app.get(&token, "/api/katas/fast-power/draft").await).await;
    assert_eq!(draft["kata_version"], 1);
    assert_eq!(draft["api_changed"], Value::Null);

    // Every kata's version, GPU ones included, is stored with its files, which hash to the
    // version's own, so a replica or worker of another build grades it from them.
    let all: Vec<&str> = katas::catalogue::all()
        .iter()
        .map(|k| k.meta().slug.as_str())
        .collect();
    let stored: Vec<(String, Vec<u8>)> = sqlx::query_as(
        "SELECT v.slug, p.archive FROM kata_packages p
           JOIN kata_versions v ON v.content_hash = p.content_hash ORDER BY v.slug",
    )
    .fetch_all(&app.app.state.db)
    .await
    .unwrap();
    let mut stored_slugs: Vec<&str> = stored.iter().map(|(slug, _)| slug.as_str()).collect();
    let mut expected = all.clone();
    stored_slugs.sort();
    expected.sort();
    assert_eq!(stored_slugs, expected);
    for (slug, archive) in &stored {
        let files = katas::archive::PackageFiles::unpack(archive, &katas::io::limits()).unwrap();
        let built = katas::catalogue::find(slug).unwrap().package();
        assert_eq!(files.content_hash(), built.content_hash, "{slug}");
    }

    // Starting again (another replica, a restart) publishes and stores nothing new.
    let before = app.count("kata_versions").await;
    assert_eq!(before as usize, katas::catalogue::all().len());
    sync(&app.app.state.db).await.unwrap();
    assert_eq!(app.count("kata_versions").await, before);
    assert_eq!(app.count("kata_packages").await as usize, all.len());
}

/// An earlier deploy served two katas from other packages: `ring-allreduce` whose `send` took
/// a slice (a changed API), and `fast-power` with another statement (the same API). This
/// binary then publishes its own packages as their second versions.
#[tokio::test]
async fn code_written_for_an_older_api_is_told_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let db = server::db::open(database(&dir).await).await.unwrap();
    let mut earlier = Catalogue::compiled().unwrap();
    earlier.generation = GENERATION - 1;
    earlier
        .katas
        .retain(|k| k.slug == "ring-allreduce" || k.slug == "fast-power");
    for row in &mut earlier.katas {
        let logic = katas::catalogue::find(&row.slug).unwrap().package().logic;
        let old_logic = logic.replace(
            "pub fn send(&mut self, message: Vec<f32>)",
            "pub fn send(&mut self, message: &[f32])",
        );
        assert_eq!(
            old_logic == logic,
            row.slug == "fast-power",
            "the test's edit of ring-allreduce's API applies"
        );
        row.version = Published {
            content_hash: format!("an-earlier-{}", row.slug),
            grading_hash: format!("an-earlier-{}", row.slug),
            api: LearnerApi::of_logic(&old_logic).unwrap(),
            starter: "// the earlier starter".into(),
            ..row.version.clone()
        };
    }
    sync_catalogue(&db, &earlier).await.unwrap();
    db.close().await;

    let app = spawn_on(
        dir,
        Options {
            workers: 0,
            ..Options::default()
        },
        None,
    )
    .await;
    // Signed in on the pages, and holding a token for the API.
    let browser = Browser::new(&app);
    browser.signup("ada", "correct horse battery").await;
    let id: server::domain::UserId = sqlx::query_scalar("SELECT id FROM users WHERE name = 'ada'")
        .fetch_one(&app.app.state.db)
        .await
        .unwrap();
    let token = users::issue_token(&app.app.state.db, id).await.unwrap();
    let kata = json_of(app.get(&token, "/api/katas/ring-allreduce").await).await;
    assert_eq!(kata["version"]["number"], 2, "{kata}");

    // Work written while the earlier versions were served.
    let ring = app
        .submit_id(&token, "ring-allreduce", "// old code", "run")
        .await;
    let power = app
        .submit_id(&token, "fast-power", "// old code", "run")
        .await;
    for slug in ["ring-allreduce", "fast-power"] {
        let put = app
            .client
            .put(app.url(&format!("/api/katas/{slug}/draft")))
            .bearer_auth(&token)
            .json(&json!({ "source": "// old draft" }))
            .send()
            .await
            .unwrap();
        assert_eq!(put.status(), 200);
    }
    for table in ["submissions", "drafts"] {
        // As if saved before this binary was deployed.
        sqlx::query(&format!("UPDATE {table} SET kata_version = 1"))
            .execute(&app.app.state.db)
            .await
            .unwrap();
    }

    let changed = json_of(app.get(&token, &format!("/api/submissions/{ring}")).await).await;
    assert_eq!(changed["kata_version"], 1);
    let api = &changed["api_changed"];
    assert_eq!(api["written_for"], 1);
    assert_eq!(api["current"], 2);
    assert_eq!(
        api["changes"],
        json!([{
            "name": "RingComm::send",
            "before": "pub fn send(&mut self, message: &[f32])",
            "after": "pub fn send(&mut self, message: Vec<f32>)",
        }])
    );
    let starter = katas::catalogue::find("ring-allreduce")
        .unwrap()
        .package()
        .starter;
    assert_eq!(api["starter"], starter);
    let draft = json_of(app.get(&token, "/api/katas/ring-allreduce/draft").await).await;
    assert_eq!(
        draft["source"], "// old draft",
        "the old code stays readable"
    );
    assert_eq!(draft["api_changed"], *api);

    // The kata page says so above the learner's draft, in both languages.
    let page = browser.page("/katas/ring-allreduce").await;
    assert!(page.contains("id=\"api-changed\""), "{page}");
    assert!(page.contains("written for version 1 of the kata"));
    assert!(page.contains("RingComm::send"));
    assert!(page.contains("message: Vec&lt;f32&gt;") || page.contains("message: Vec&#60;f32&#62;"));
    let page = browser.page(&format!("/submissions/{ring}")).await;
    assert!(
        page.contains("id=\"api-changed\""),
        "the submission's page says so too"
    );
    browser.switch_lang("zh", "/katas/ring-allreduce").await;
    let page = browser.page("/katas/ring-allreduce").await;
    assert!(page.contains("这段代码是为本题第 1 版写的"), "{page}");

    // A new statement with the same API breaks nothing, so nothing is said.
    let same = json_of(app.get(&token, &format!("/api/submissions/{power}")).await).await;
    assert_eq!(same["kata_version"], 1);
    assert_eq!(same["api_changed"], Value::Null);
    let draft = json_of(app.get(&token, "/api/katas/fast-power/draft").await).await;
    assert_eq!(draft["api_changed"], Value::Null);

    // Version 1 was another build's: this replica cannot grade against it, so no rejudge runs
    // against it (this build's own version 2 could be).
    let ines = users::create(&app.app.state.db, "ines", users::Role::Admin, None)
        .await
        .unwrap();
    let staff = users::issue_token(&app.app.state.db, ines.id)
        .await
        .unwrap();
    let refused = app
        .client
        .post(app.url("/api/katas/fast-power/rejudges"))
        .bearer_auth(&staff)
        .json(&json!({ "version": 1, "scope": "all" }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 409);
    let said: Value = refused.json().await.unwrap();
    assert!(said.to_string().contains("another build's code"), "{said}");
}
