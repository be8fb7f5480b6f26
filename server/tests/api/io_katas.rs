//! Stdin/stdout katas published to the running service (issue 21 §3 on issue 20's path): an
//! instructor publishes a package from a folder outside the checkout, the sandbox verifies it,
//! every replica lists it without a restart, and a worker — built in, or remote and new to the
//! version — fetches the package by content hash and grades against exactly that version. A
//! package that fails verification changes nothing. Real sandbox and rustc: skipped where the
//! host has no sandbox (required under `INFRAKATA_CI=1`).

use crate::helpers::{self, Options, TestApp, spawn_app, spawn_replica};
use crate::publishing::{copy_dir, kata_command, publish};
use serde_json::Value;
use server::db::users::{self, Role};
use server::domain::JobPhase;
use server::queue::WorkerHello;
use server::worker::RemoteSource;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const SLUG: &str = "pair-sums";
const GRADING: Duration = Duration::from_secs(180);

fn pair_sums() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../graders/tests/io/pair-sums")
}

/// pair-sums copied outside the checkout, its statement ending with `note`: a version no other
/// test in this process has published (so no worker has it cached).
pub(crate) fn fresh_copy(note: &str) -> tempfile::TempDir {
    let dir = copy_dir(&pair_sums());
    let readme = dir.path().join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap();
    std::fs::write(&readme, format!("{text}\n{note}\n")).unwrap();
    dir
}

/// A replica that verifies uploads with its grader but grades no submission itself.
fn no_workers() -> Options {
    Options {
        workers: 0,
        ..Options::default()
    }
}

async fn staff_token(app: &TestApp) -> String {
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Admin, None).await.unwrap();
    users::issue_token(db, ines.id).await.unwrap()
}

async fn json(app: &TestApp, token: &str, path: &str) -> Value {
    let resp = app.get(token, path).await;
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
    resp.json().await.unwrap()
}

async fn versions(app: &TestApp, token: &str) -> Vec<Value> {
    json(app, token, &format!("/api/katas/{SLUG}/versions")).await["versions"]
        .as_array()
        .unwrap()
        .clone()
}

async fn graded(app: &TestApp, token: &str, source: &str) -> Value {
    let id = app.submit_id(token, SLUG, source, "submit").await;
    app.verdict(token, id, GRADING).await
}

#[tokio::test]
async fn a_published_stdin_stdout_kata_is_served_by_every_replica_and_graded_in_the_sandbox() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(Options::default(), Some(grader)).await;

    let replica = spawn_replica(&app, no_workers(), None).await;
    let staff = staff_token(&app).await;
    let package = fresh_copy("Published while the service runs.");

    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("reference.rs") && out.contains("overflow"),
        "{out}"
    );

    // Both replicas serve it at once, with no restart and no code of it in the binary.
    let learner = app.user("lea").await;
    for served_by in [&app, &replica] {
        let listed = json(served_by, &learner, "/api/katas").await;
        assert!(
            listed.to_string().contains(&format!("\"{SLUG}\"")),
            "{listed}"
        );
        let shown = json(served_by, &learner, &format!("/api/katas/{SLUG}")).await;
        assert_eq!(shown["version"]["number"], 1, "{shown}");
        assert!(
            shown["statement"].as_str().unwrap().contains("a + b"),
            "{shown}"
        );
        assert!(shown.to_string().contains("Pair sums"), "{shown}");
    }
    let page = replica
        .client
        .get(replica.url(&format!("/katas/{SLUG}")))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Pair sums"));

    // A learner submits through the replica; the built-in worker loads the package by hash.
    let hash = server::password::hash("long enough pw").unwrap();
    let lea = users::create(&app.app.state.db, "lea-browser", Role::Learner, Some(&hash))
        .await
        .unwrap();
    let learner = users::issue_token(&app.app.state.db, lea.id).await.unwrap();
    let reference = std::fs::read_to_string(package.path().join("reference.rs")).unwrap();
    let accepted = graded(&replica, &learner, &reference).await;
    assert_eq!(accepted["verdict"], "accepted", "{accepted}");
    assert_eq!(accepted["kata_version"], 1, "{accepted}");
    let overflow = std::fs::read_to_string(package.path().join("wrong/overflow.rs")).unwrap();
    let wrong = graded(&replica, &learner, &overflow).await;
    assert_eq!(wrong["verdict"], "wrong_answer", "{wrong}");
    // Their progress page counts it with the build's katas.
    let browser = crate::browser::Browser::new(&replica);
    browser.login("lea-browser", "long enough pw").await;
    let progress = browser.page("/progress").await;
    assert!(progress.contains("href=\"/katas/pair-sums\""), "{progress}");

    // A version whose reference is wrong is refused by the sandbox's verdicts; nothing changes.
    std::fs::write(package.path().join("reference.rs"), &overflow).unwrap();
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(!ok, "{out}");
    assert!(
        out.contains("sandbox") && out.contains("reference.rs"),
        "{out}"
    );
    assert_eq!(versions(&app, &staff).await.len(), 1);
    let shown = json(&replica, &learner, &format!("/api/katas/{SLUG}")).await;
    assert_eq!(shown["version"]["number"], 1);
}

#[tokio::test]
async fn a_remote_worker_new_to_a_version_fetches_it_by_hash_and_grades_it() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    // This replica verifies uploads but grades nothing itself: only the remote worker does.
    let app = spawn_app(no_workers(), Some(Arc::clone(&grader))).await;
    let staff = staff_token(&app).await;
    let package = fresh_copy("Graded by a worker that had never seen it.");
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    let hash = versions(&app, &staff).await[0]["content_hash"]
        .as_str()
        .unwrap()
        .to_string();

    // Queued before any worker is there; a worker from before published packages (its hello
    // says nothing of them) is never given it.
    let learner = app.user("rui").await;
    let reference = std::fs::read_to_string(package.path().join("reference.rs")).unwrap();
    let id = app.submit_id(&learner, SLUG, &reference, "submit").await;
    let (old, _) = server::db::jobs::claim_for(
        &app.app.state.db,
        "old-worker",
        &[server::domain::JobKind::Cpu],
        JobPhase::Verdict,
        60_000,
        server::db::jobs::PackageKinds::NONE,
        None,
    )
    .await
    .unwrap();
    assert!(old.is_none(), "{old:?}");

    let worker_token = app.app.state.config.worker_token.clone();
    let source = Arc::new(RemoteSource::new(
        &app.url(""),
        &worker_token,
        WorkerHello {
            worker_id: "remote-io".into(),
            name: "remote io".into(),
            capabilities: server::worker::capabilities(1),
            phase: JobPhase::Verdict,
        },
    ));
    let worker = tokio::spawn(server::worker::run(source, grader));
    let accepted = app.verdict(&learner, id, GRADING).await;
    worker.abort();
    assert_eq!(accepted["verdict"], "accepted", "{accepted}");

    // What a worker is sent is exactly the version named, and only to a worker.
    let fetched = app
        .get(&worker_token, &format!("/api/worker/packages/{hash}"))
        .await;
    assert_eq!(fetched.status(), 200);
    let files =
        katas::archive::PackageFiles::unpack(&fetched.bytes().await.unwrap(), &katas::io::limits())
            .unwrap();
    assert_eq!(files.content_hash(), hash);
    let unknown = app
        .get(&worker_token, "/api/worker/packages/0123abcd")
        .await;
    assert_eq!(unknown.status(), 404);
    let as_learner = app
        .get(&learner, &format!("/api/worker/packages/{hash}"))
        .await;
    assert!(
        as_learner.status() == 401 || as_learner.status() == 403,
        "{}",
        as_learner.status()
    );
}

#[tokio::test]
async fn the_admin_page_publishes_a_new_stdin_stdout_kata_and_lists_it() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(no_workers(), Some(grader)).await;
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&app.app.state.db, "ines", Role::Instructor, Some(&hash))
        .await
        .unwrap();
    let staff = crate::browser::Browser::new(&app);
    staff.login("ines", "long enough pw").await;
    let page = staff.page("/admin").await;
    assert!(page.contains("Publish a new kata"), "{page}");
    let csrf = crate::browser::csrf_of(&page);
    let package = fresh_copy("Published from the admin page.");
    let archive = katas::archive::PackageFiles::read_dir(package.path(), &Default::default())
        .unwrap()
        .to_tar_gz();
    let resp = staff
        .post_upload(
            "/admin/katas",
            &[("csrf", csrf.as_str()), ("slug", SLUG), ("unlisted", "1")],
            ("package", "pair-sums.tar.gz", &archive),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let report = resp.text().await.unwrap();
    assert!(report.contains("Published as version 1"), "{report}");
    assert!(report.contains("reference.rs"), "{report}");
    let page = staff.page("/admin").await;
    assert!(page.contains("href=\"/admin/katas/pair-sums\""), "{page}");
    let versions = staff.page("/admin/katas/pair-sums").await;
    assert!(versions.contains("uploaded by ines"), "{versions}");
    // Published unlisted: a preview for staff, unknown to learners until listed.
    assert!(staff.page("/katas/pair-sums").await.contains("Pair sums"));
    let learner = app.user("lea").await;
    let listed = json(&app, &learner, "/api/katas").await;
    assert!(!listed.to_string().contains("\"pair-sums\""), "{listed}");
    assert_eq!(
        app.get(&learner, "/api/katas/pair-sums").await.status(),
        404
    );
}

#[tokio::test]
async fn an_imported_kattis_package_publishes_and_grades_through_its_own_validator() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let staff = staff_token(&app).await;
    // A 2025-09 package with a C++ output validator and a Python input validator.
    let kattis =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../katas/tests/kattis/modern-pair-sum");
    let out = tempfile::tempdir().unwrap();
    let package = out.path().join("modern-pair-sum");
    let imported = std::process::Command::new(env!("CARGO_BIN_EXE_infrakata"))
        .args(["kata", "import"])
        .arg(&kattis)
        .arg("--out")
        .arg(&package)
        .output()
        .unwrap();
    assert!(
        imported.status.success(),
        "{}",
        String::from_utf8_lossy(&imported.stderr)
    );
    let (ok, report) = publish(&app, &package, &staff, &[]).await;
    assert!(ok, "{report}");
    assert!(
        report.contains("input_validators/validate.py") && report.contains("4 inputs valid"),
        "{report}"
    );

    let learner = app.user("kim").await;
    let slug = "modern-pair-sum";
    let listed = json(&app, &learner, "/api/katas").await;
    assert!(listed.to_string().contains(slug), "{listed}");
    let solution =
        |name: &str| std::fs::read_to_string(kattis.join("submissions").join(name)).unwrap();
    for (file, verdict) in [
        ("accepted/with_map.rs", "accepted"),
        ("wrong_answer/same_spot.rs", "wrong_answer"),
    ] {
        let id = app
            .submit_id(&learner, slug, &solution(file), "submit")
            .await;
        let graded = app.verdict(&learner, id, GRADING).await;
        assert_eq!(graded["verdict"], verdict, "{file}: {graded}");
    }
}

/// `text` with `from` replaced by `to`, asserting it was there.
fn edited(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{}: no `{from}`", path.display());
    std::fs::write(path, text.replace(from, to)).unwrap();
}

#[tokio::test]
async fn a_package_larger_than_a_function_katas_bound_publishes_and_a_crashing_validator_is_reported()
 {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let staff = staff_token(&app).await;

    // A new secret group, and an attachment of 4.5 MiB that does not compress: the archive is
    // over a function kata's 4 MiB bound.
    let package = fresh_copy("With more cases and an attachment.");
    let more = package.path().join("data/secret/more");
    std::fs::create_dir_all(&more).unwrap();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut input, mut answer) = (String::from("2000\n"), String::new());
    for _ in 0..2000 {
        let a = (next() % 2_000_000_000) as i64 - 1_000_000_000;
        let b = (next() % 2_000_000_000) as i64 - 1_000_000_000;
        input.push_str(&format!("{a} {b}\n"));
        answer.push_str(&format!("{}\n", a + b));
    }
    std::fs::write(more.join("1.in"), input).unwrap();
    std::fs::write(more.join("1.ans"), answer).unwrap();
    let noise: Vec<u8> = (0..(9 << 19) / 8)
        .flat_map(|_| next().to_le_bytes())
        .collect();
    std::fs::create_dir_all(package.path().join("attachments")).unwrap();
    std::fs::write(package.path().join("attachments/noise.bin"), noise).unwrap();
    let archive = katas::archive::PackageFiles::read_dir(package.path(), &katas::io::limits())
        .unwrap()
        .to_tar_gz();
    assert!(archive.len() > 4 << 20, "{} bytes", archive.len());
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    let learner = app.user("lea").await;
    let reference = std::fs::read_to_string(package.path().join("reference.rs")).unwrap();
    let accepted = graded(&app, &learner, &reference).await;
    assert_eq!(accepted["verdict"], "accepted", "{accepted}");

    // An instructor's output validator that crashes: every program's run is the kata's failure,
    // the report says so, and nothing changes.
    let hostile = fresh_copy("Judged by a validator that crashes.");
    edited(
        &hostile.path().join("kata.toml"),
        "validator = \"default\"",
        "validator = \"custom\"\nvalidator_language = \"python3\"\n\
         validator_files = [\"output_validator/validate.py\"]",
    );
    std::fs::create_dir_all(hostile.path().join("output_validator")).unwrap();
    std::fs::write(
        hostile.path().join("output_validator/validate.py"),
        "import sys\nraise SystemExit(3)\n",
    )
    .unwrap();
    let (ok, out) = publish(&app, hostile.path(), &staff, &[]).await;
    assert!(!ok, "{out}");
    assert!(
        out.contains("reference.rs") && out.contains("internal_error"),
        "{out}"
    );
    assert_eq!(versions(&app, &staff).await.len(), 1);
    let health = app.client.get(app.url("/api/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
}

#[tokio::test]
async fn a_rejudge_against_a_candidate_shows_which_verdicts_would_change_before_it_goes_live() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let staff = staff_token(&app).await;
    let package = fresh_copy("Before a rejudge.");
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");

    // Three submits on version 1: the reference, a program that is wrong only for five pairs
    // (no case of version 1 has five), and one that is wrong already.
    let learner = app.user("lea").await;
    let reference = std::fs::read_to_string(package.path().join("reference.rs")).unwrap();
    let quirky = reference.replace(
        "let n = numbers.next().expect(\"n\");",
        "let n = numbers.next().expect(\"n\");\n    if n == 5 {\n        println!(\"0\");\n        return;\n    }",
    );
    assert_ne!(quirky, reference);
    let overflow = std::fs::read_to_string(package.path().join("wrong/overflow.rs")).unwrap();
    let mut ids = Vec::new();
    for (source, verdict) in [
        (&reference, "accepted"),
        (&quirky, "accepted"),
        (&overflow, "wrong_answer"),
    ] {
        let id = app.submit_id(&learner, SLUG, source, "submit").await;
        let graded = app.verdict(&learner, id, GRADING).await;
        assert_eq!(graded["verdict"], verdict, "{graded}");
        ids.push(id);
    }

    // Version 2 adds a case of five pairs, published as a candidate: not live.
    let extra = package.path().join("data/secret/extra");
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(extra.join("1.in"), "5\n1 2\n3 4\n5 6\n7 8\n9 10\n").unwrap();
    std::fs::write(extra.join("1.ans"), "3\n7\n11\n15\n19\n").unwrap();
    let (ok, out) = publish(&app, package.path(), &staff, &["--candidate"]).await;
    assert!(
        ok && out.contains("version 2 published as a candidate"),
        "{out}"
    );
    let shown = json(&app, &learner, &format!("/api/katas/{SLUG}")).await;
    assert_eq!(shown["version"]["number"], 1);

    // Rejudge the accepted submits against it: the difference, by learner and by case.
    let resp = app
        .client
        .post(app.url(&format!("/api/katas/{SLUG}/rejudges")))
        .bearer_auth(&staff)
        .json(&serde_json::json!({ "version": 2, "scope": "accepted" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    let started: Value = resp.json().await.unwrap();
    assert_eq!(started["submissions"], 2, "{started}");
    let at = started["rejudge"].as_str().unwrap().to_string();
    let deadline = tokio::time::Instant::now() + GRADING;
    let diff = loop {
        let diff = json(&app, &staff, &at).await;
        if diff["done"] == diff["total"] {
            break diff;
        }
        assert!(tokio::time::Instant::now() < deadline, "{diff}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(diff["changed"], 1, "{diff}");
    let row = |id: &server::domain::SubmissionId| {
        diff["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["submission"] == id.0)
            .cloned()
            .unwrap_or_else(|| panic!("no row for {id}: {diff}"))
    };
    let same = row(&ids[0]);
    assert_eq!(
        (same["before"].as_str(), same["after"].as_str()),
        (Some("accepted"), Some("accepted"))
    );
    assert_eq!(same["changed"], false);
    let changed = row(&ids[1]);
    assert_eq!(changed["after"], "wrong_answer", "{changed}");
    assert!(
        changed["first_failed_after"]
            .as_str()
            .unwrap()
            .contains("extra"),
        "{changed}"
    );
    assert_eq!(changed["learner"], "lea");

    // The same from a terminal: `kata rejudge` waits for the difference and prints it.
    let (ok, out) = kata_command(&app, &staff, &["rejudge", SLUG, "--version", "2"]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("2 submissions graded again, 1 would change")
            && out.lines().any(|l| l.contains("lea")
                && l.contains("wrong_answer @ secret/extra/1")
                && l.ends_with("changed")),
        "{out}"
    );

    // The submissions themselves are untouched, and the candidate goes live when asked.
    let kept = json(&app, &learner, &format!("/api/submissions/{}", ids[1])).await;
    assert_eq!(kept["verdict"], "accepted");
    let (ok, out) = kata_command(&app, &staff, &["live", SLUG, "--version", "2"]).await;
    assert!(ok && out.contains("version 2 is live"), "{out}");
    let (ok, out) = kata_command(&app, &staff, &["live", SLUG, "--version", "9"]).await;
    assert!(!ok && out.contains("has no version 9"), "{out}");
    assert_eq!(
        json(&app, &learner, &format!("/api/katas/{SLUG}")).await["version"]["number"],
        2
    );

    // From the pages: the kata's page offers the rejudge, and its difference has a page.
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(&app.app.state.db, "ina", Role::Instructor, Some(&hash))
        .await
        .unwrap();
    let browser = crate::browser::Browser::new(&app);
    browser.login("ina", "long enough pw").await;
    let page = browser.page(&format!("/admin/katas/{SLUG}")).await;
    assert!(page.contains("Rejudge against a version"), "{page}");
    let csrf = crate::browser::csrf_of(&page);
    let resp = browser
        .post_form(
            &format!("/admin/katas/{SLUG}/rejudges"),
            &[("csrf", csrf.as_str()), ("version", "2"), ("scope", "all")],
        )
        .await;
    assert!(resp.status().is_redirection(), "{}", resp.status());
    let to = resp.headers()["location"].to_str().unwrap().to_string();
    let page = browser.page(&to).await;
    assert!(
        page.contains("Rejudged against version 2") && page.contains("id=\"rejudge\""),
        "{page}"
    );

    // The instructor's figures cover a published kata like a built one: its version 1 had the
    // three submits (a rejudge adds none).
    let csv = browser
        .get(&format!("/admin/katas/{SLUG}/stats.csv"))
        .await
        .text()
        .await
        .unwrap();
    let first = csv
        .lines()
        .find(|l| l.starts_with("1,"))
        .unwrap_or_else(|| panic!("no row for version 1 in {csv}"));
    let fields: Vec<&str> = first.split(',').collect();
    assert_eq!(
        &fields[..6],
        ["1", "3", "1", "2", "0.6667", "accepted=2;wrong_answer=1"],
        "{csv}"
    );

    // A staff member's rejudges are budgeted: 3 at once (ines has started two).
    let again = || async {
        app.client
            .post(app.url(&format!("/api/katas/{SLUG}/rejudges")))
            .bearer_auth(&staff)
            .json(&serde_json::json!({ "version": 2, "scope": "accepted" }))
            .send()
            .await
            .unwrap()
            .status()
    };
    assert_eq!(again().await, 201);
    assert_eq!(again().await, 429);
}
