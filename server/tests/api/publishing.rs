//! Instructors publish a kata version to the running service (issue 20 §4): `infrakata kata
//! publish` sends a folder from outside the checkout, the service verifies it, and every
//! replica serves the new version without a restart; a refused package (a changed grading or
//! a new kata where no grader can verify it, a hostile archive) changes nothing; a version can be rolled back and
//! forward, and a restart keeps the live version as instructors left it.

use crate::browser::Browser;
use crate::helpers::{Options, TestApp, fake_grader, reference, spawn_app, spawn_replica};
use serde_json::{Value, json};
use server::db::users::{self, Role};
use std::path::Path;

const FIX: &str = "Revised on the running service.";

fn no_workers() -> Options {
    Options {
        workers: 0,
        ..Options::default()
    }
}

/// fast-power's package copied into a fresh folder outside the checkout.
fn copy_of_fast_power() -> tempfile::TempDir {
    copy_of("fast-power")
}

/// A built-in kata's package copied into a fresh folder outside the checkout.
fn copy_of(slug: &str) -> tempfile::TempDir {
    copy_dir(Path::new(
        katas::catalogue::find(slug).unwrap().package().dir,
    ))
}

/// The package folder `from` copied into a fresh folder outside the checkout.
pub(crate) fn copy_dir(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    let mut pending = vec![from.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let target = to.path().join(path.strip_prefix(from).unwrap());
            if path.is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                pending.push(path);
            } else {
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }
    to
}

/// Adds a sentence at the end of the statement's first section, in English only (the lint
/// compares sections, hints, code and backticked values, not prose).
fn fix_statement(dir: &Path) {
    let path = dir.join("README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let second = text.match_indices("\n## ").nth(1).unwrap().0;
    let fixed = format!("{}\n{FIX}\n{}", &text[..second], &text[second..]);
    std::fs::write(path, fixed).unwrap();
}

/// `infrakata kata publish DIR` against `app`: (succeeded, stdout).
pub(crate) async fn publish(
    app: &TestApp,
    dir: &Path,
    token: &str,
    extra: &[&str],
) -> (bool, String) {
    let dir = dir.display().to_string();
    let args: Vec<&str> = ["publish", dir.as_str()]
        .into_iter()
        .chain(extra.iter().copied())
        .collect();
    kata_command(app, token, &args).await
}

/// `infrakata kata ARGS --server URL --token TOKEN` against `app`: (succeeded, stdout and
/// stderr).
pub(crate) async fn kata_command(app: &TestApp, token: &str, args: &[&str]) -> (bool, String) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_infrakata"));
    command
        .arg("kata")
        .args(args)
        .args(["--server", &app.url(""), "--token", token])
        .env_remove("INFRAKATA_SERVER")
        .env_remove("INFRAKATA_TOKEN");
    let out = tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    (out.status.success(), format!("{stdout}{stderr}"))
}

async fn shown(app: &TestApp) -> Value {
    let resp = app
        .client
        .get(app.url("/api/katas/fast-power"))
        .send()
        .await;
    resp.unwrap().json().await.unwrap()
}

async fn post_archive(app: &TestApp, token: &str, body: Vec<u8>) -> reqwest::Response {
    app.client
        .post(app.url("/api/katas/fast-power/versions"))
        .bearer_auth(token)
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn make_live(app: &TestApp, token: &str, version: i64) -> reqwest::Response {
    app.client
        .post(app.url("/api/katas/fast-power/live"))
        .bearer_auth(token)
        .json(&json!({ "version": version }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn an_instructor_publishes_a_statement_fix_that_every_replica_serves_at_once() {
    let app = spawn_app(no_workers(), None).await;
    let replica = spawn_replica(&app, no_workers(), None).await;
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();
    let learner = app.user("ada").await;
    assert_eq!(shown(&app).await["version"]["number"], 1);

    let package = copy_of_fast_power();
    fix_statement(package.path());
    // Learners cannot publish.
    let (ok, out) = publish(&app, package.path(), &learner, &[]).await;
    assert!(!ok && out.contains("403"), "{out}");

    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("fast-power version 2 published and live"),
        "{out}"
    );
    for check in [
        "archive",
        "kata_toml",
        "lint",
        "grading_unchanged",
        "solutions",
    ] {
        assert!(out.contains(check), "{check}: {out}");
    }
    for on in [&app, &replica] {
        let kata = shown(on).await;
        assert_eq!(kata["version"]["number"], 2);
        assert!(kata["statement"].as_str().unwrap().contains(FIX));
        let page = Browser::new(on).page("/katas/fast-power").await;
        assert!(page.contains(FIX));
    }
    // Learners' code keeps compiling (same API), and new work records the version.
    let id = replica
        .submit_id(&learner, "fast-power", "// mine", "run")
        .await;
    let sub: Value = replica
        .get(&learner, &format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(sub["kata_version"], 2);
    assert!(sub["api_changed"].is_null(), "{sub}");

    // The same files again: no new version, live again.
    let (ok, out) = publish(&app, package.path(), &staff, &["--lang", "zh"]).await;
    assert!(ok && out.contains("已是第 2 版"), "{out}");

    // Roll back, then forward; a restart (the start-up sync of the same build) keeps it.
    assert_eq!(make_live(&app, &staff, 1).await.status(), 200);
    assert!(
        !shown(&replica).await["statement"]
            .as_str()
            .unwrap()
            .contains(FIX)
    );
    assert_eq!(make_live(&replica, &staff, 2).await.status(), 200);
    assert_eq!(make_live(&app, &staff, 7).await.status(), 404);
    assert_eq!(make_live(&app, &learner, 1).await.status(), 403);
    let restarted = spawn_replica(&app, no_workers(), None).await;
    assert_eq!(shown(&restarted).await["version"]["number"], 2);

    let versions: Value = app
        .get(&staff, "/api/katas/fast-power/versions")
        .await
        .json()
        .await
        .unwrap();
    let versions = versions["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0]["source"], "upload");
    assert_eq!(versions[0]["published_by"], "ines");
    assert_eq!(versions[0]["live"], true);
    assert_eq!(versions[1]["source"], "build");
    // Its files are stored, as the build's are, for replicas and workers of another build.
    assert_eq!(versions[0]["packaged"], true);
    assert_eq!(versions[1]["packaged"], true);

    // A worker of this build grades it as it grades its own version, from its own files: the
    // scripted grader builds no package, so a fetch of the stored one would fail the job.
    let worker = spawn_replica(&app, Options::default(), Some(fake_grader())).await;
    let id = worker
        .submit_id(&learner, "fast-power", reference("fast-power"), "submit")
        .await;
    let report = worker
        .verdict(&learner, id, std::time::Duration::from_secs(60))
        .await;
    assert_eq!(report["verdict"], "accepted", "{report}");
    assert_eq!(report["kata_version"], 2, "{report}");
}

const TITLE_EN: &str = "Fast power, revised";
const TITLE_ZH: &str = "快速幂（修订后的标题）";
const HINT_ZH: &str =
    "修订后的提示：指数为负时，用 `i32::unsigned_abs` 得到 `|n|`，最后取一次倒数。";

/// A statement fix that renames the kata in both languages, drops the last of its four hints
/// (in both: the lint keeps their hints in step) and rewrites the third in Chinese.
fn retitle_and_drop_a_hint(dir: &Path) {
    rewrite(&dir.join("README.md"), |text| {
        cut(
            &retitled(text, TITLE_EN),
            "\n- In `pow_mod`",
            "\n\n## Concept",
        )
    });
    rewrite(&dir.join("README.zh.md"), |text| {
        let text = cut(&retitled(text, TITLE_ZH), "\n- `pow_mod` 里", "\n\n## 原理");
        let third = text
            .lines()
            .find(|l| l.starts_with("- 指数为负时"))
            .unwrap();
        text.replace(third, &format!("- {HINT_ZH}"))
    });
}

fn rewrite(path: &Path, edit: impl FnOnce(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, edit(&text)).unwrap();
}

/// `text` with its first line, the `# ` title, replaced.
fn retitled(text: &str, title: &str) -> String {
    let (first, rest) = text.split_once('\n').unwrap();
    assert!(first.starts_with("# "), "{first}");
    format!("# {title}\n{rest}")
}

/// `text` without the span from `from` up to (not including) `to`.
fn cut(text: &str, from: &str, to: &str) -> String {
    let at = text.find(from).unwrap();
    let end = at + text[at..].find(to).unwrap();
    format!("{}{}", &text[..at], &text[end..])
}

#[tokio::test]
async fn a_statement_fix_retitles_the_kata_and_moves_its_hint_bound() {
    let app = spawn_app(no_workers(), None).await;
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();
    let before = shown(&app).await;
    assert_eq!(before["hints"], 4);
    let old_zh = katas::catalogue::find("fast-power")
        .unwrap()
        .statement_in(katas::Lang::Zh)
        .title;

    let package = copy_of_fast_power();
    retitle_and_drop_a_hint(package.path());
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");

    let kata = shown(&app).await;
    assert_eq!(kata["title"], TITLE_EN);
    assert_eq!(kata["hints"], 3);
    let listed: Value = app
        .client
        .get(app.url("/api/katas"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let entry = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["slug"] == "fast-power")
        .unwrap();
    assert_eq!(entry["title"], TITLE_EN);

    let learner = Browser::new(&app);
    learner.signup("ada", "long enough pw").await;
    learner.switch_lang("zh", "/").await;
    let catalogue = learner.page("/").await;
    assert!(catalogue.contains(TITLE_ZH), "{catalogue}");
    assert!(!catalogue.contains(&old_zh), "{catalogue}");
    let page = learner.page("/katas/fast-power").await;
    assert!(page.contains(TITLE_ZH) && !page.contains(&old_zh), "{page}");
    assert!(
        page.contains("提示 3 / 3") && !page.contains("提示 1 / 4"),
        "{page}"
    );

    // The bound is the served statement's three hints, not the compiled four.
    let csrf = crate::browser::csrf_of(&page);
    let hint = |index: u32| {
        let (learner, csrf) = (&learner, &csrf);
        async move {
            let path = format!("/api/katas/fast-power/hints/{index}");
            learner.put_json(&path, &json!(null), Some(csrf)).await
        }
    };
    assert_eq!(hint(3).await.status(), 404);
    assert_eq!(hint(2).await.status(), 204);
    let page = learner.page("/katas/fast-power").await;
    let opened = page.split(r#"data-index="2" open data-seen"#).nth(1);
    let opened = opened.unwrap_or_else(|| panic!("hint 3 is not open: {page}"));
    let shown_text = opened.split("</details>").next().unwrap();
    assert!(shown_text.contains("修订后的提示"), "{shown_text}");

    // Every page that names the kata in passing names it by the served title too.
    for path in [
        "/progress",
        "/katas/fast-power/leaderboard",
        "/katas/fast-power/submissions",
    ] {
        let page = learner.page(path).await;
        assert!(
            page.contains(TITLE_ZH) && !page.contains(&old_zh),
            "{path}: {page}"
        );
    }

    // So does an interview's report, on its page and through the API (which gave the title
    // stored with the kata at first publication).
    let csrf = crate::browser::csrf_of(&learner.page("/interviews").await);
    let (id, _) = crate::interviews::start_on_the_pages(&learner, &csrf).await;
    sqlx::query("UPDATE interviews SET kata = 'fast-power' WHERE id = $1")
        .bind(id)
        .execute(db)
        .await
        .unwrap();
    let finished = learner
        .post_json(
            &format!("/api/interviews/{id}/finish"),
            &json!({}),
            Some(&csrf),
        )
        .await;
    assert_eq!(finished.status(), 200);
    let done: Value = finished.json().await.unwrap();
    assert_eq!(done["report"]["kata_title"], TITLE_EN, "{done}");
    let report = learner.page(&format!("/interviews/{id}/report")).await;
    assert!(report.contains(TITLE_ZH), "{report}");
}

#[tokio::test]
async fn a_data_only_kata_publishes_a_statement_fix_and_refuses_a_changed_case() {
    let app = spawn_app(no_workers(), None).await;
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();

    // Its logic is generated from data/cases.toml, which is what travels and is compared.
    let package = copy_of("paged-kv-cache");
    assert!(!package.path().join("kata.rs").exists());
    fix_statement(package.path());
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("paged-kv-cache version 2 published and live"),
        "{out}"
    );

    let cases = package.path().join("data/cases.toml");
    let text = std::fs::read_to_string(&cases).unwrap();
    std::fs::write(&cases, text.replacen("args = [4,", "args = [8,", 1)).unwrap();
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    // A changed case is graded from the package's own files: built and verified in the
    // sandbox, which this replica does not run.
    assert!(
        !ok && out.contains("grading_changed")
            && out.contains("data/cases.toml")
            && out.contains("runs no grader"),
        "{out}"
    );
}

#[tokio::test]
async fn a_refused_package_changes_nothing_and_says_why() {
    let app = spawn_app(no_workers(), None).await;
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Admin, None).await.unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();
    let before = shown(&app).await;

    // Its grading changed: built from its files and verified in the sandbox, which a replica
    // with no grader cannot do.
    let package = copy_of_fast_power();
    let reference = package.path().join("reference.rs");
    let text = std::fs::read_to_string(&reference).unwrap();
    std::fs::write(&reference, format!("{text}\n// tuned\n")).unwrap();
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(!ok, "{out}");
    assert!(
        out.contains("grading_changed")
            && out.contains("reference.rs")
            && out.contains("runs no grader"),
        "{out}"
    );
    assert!(out.contains("nothing changed"), "{out}");

    // A broken statement fails the lint.
    let package = copy_of_fast_power();
    std::fs::write(package.path().join("README.zh.md"), "# 只有标题\n").unwrap();
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(
        !ok && out.contains("lint") && out.contains("README.zh.md"),
        "{out}"
    );

    // A kata this build does not have is built from its files too: not on this replica.
    let package = copy_of_fast_power();
    let toml = package.path().join("kata.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("slug = \"fast-power\"", "slug = \"fast-power-2\""),
    )
    .unwrap();
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(!ok && out.contains("runs no grader"), "{out}");

    // A stdin/stdout package needs the sandbox to verify it: a replica with no grader says so.
    let io = Path::new(env!("CARGO_MANIFEST_DIR")).join("../graders/tests/io/pair-sums");
    let (ok, out) = publish(&app, &io, &staff, &[]).await;
    assert!(
        !ok && out.contains("sandbox") && out.contains("runs no grader"),
        "{out}"
    );

    // Hostile archives: refused with the reason, in both languages.
    let escape = hostile_tar("../../etc/cron.d/x");
    let resp = post_archive(&app, &staff, escape).await;
    assert_eq!(resp.status(), 422);
    let report: Value = resp.json().await.unwrap();
    assert_eq!(report["checks"][0]["check"], "archive");
    assert_eq!(report["checks"][0]["passed"], false);
    assert!(
        report["error"]
            .as_str()
            .unwrap()
            .contains("not a plain relative path")
    );
    assert!(!report["error_zh"].as_str().unwrap().is_empty());
    let resp = post_archive(&app, &staff, b"just text".to_vec()).await;
    assert_eq!(resp.status(), 422);
    // Over a function kata's 4 MiB: read (a stdin/stdout package may be larger), then refused.
    let over_function_bound = vec![0x1f; (4 << 20) + 1];
    assert_eq!(
        post_archive(&app, &staff, over_function_bound)
            .await
            .status(),
        422
    );
    let too_big = vec![0x1f; (64 << 20) + 1];
    assert_eq!(post_archive(&app, &staff, too_big).await.status(), 413);

    let after = shown(&app).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["statement"], before["statement"]);
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM kata_versions WHERE slug = 'fast-power'")
            .fetch_one(db)
            .await
            .unwrap();
    assert_eq!(count, 1);
}

/// A `.tar.gz` with one entry named `name`, written header by header (tar's own builder
/// refuses `..`).
fn hostile_tar(name: &str) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    let mut header = tar::Header::new_gnu();
    header.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
    header.set_size(4);
    header.set_mode(0o644);
    header.set_cksum();
    tar.append(&header, &b"evil"[..]).unwrap();
    tar.into_inner().unwrap().finish().unwrap()
}

#[tokio::test]
async fn the_upload_page_publishes_and_reports_in_the_viewers_language() {
    let app = spawn_app(no_workers(), None).await;
    let db = &app.app.state.db;
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(db, "ines", Role::Instructor, Some(&hash))
        .await
        .unwrap();
    users::create(db, "lea", Role::Learner, Some(&hash))
        .await
        .unwrap();
    let staff = Browser::new(&app);
    staff.login("ines", "long enough pw").await;
    let page = staff.page("/admin/katas/fast-power").await;
    assert!(page.contains("Publish a version") && page.contains("id=\"kata-versions\""));
    let csrf = crate::browser::csrf_of(&page);

    let package = copy_of_fast_power();
    fix_statement(package.path());
    let archive = katas::archive::PackageFiles::read_dir(package.path(), &Default::default())
        .unwrap()
        .to_tar_gz();
    let upload = |csrf: String, archive: Vec<u8>| {
        let staff = &staff;
        async move {
            staff
                .post_upload(
                    "/admin/katas/fast-power/versions",
                    &[("csrf", csrf.as_str())],
                    ("package", "fast-power.tar.gz", &archive),
                )
                .await
        }
    };
    // Without the page's CSRF token nothing is read.
    assert_eq!(upload("wrong".into(), archive.clone()).await.status(), 403);
    let resp = upload(csrf.clone(), archive.clone()).await;
    assert_eq!(resp.status(), 200);
    let report = resp.text().await.unwrap();
    assert!(report.contains("Published as version 2"), "{report}");
    assert!(report.contains("grading_unchanged"));
    assert!(
        shown(&app).await["statement"]
            .as_str()
            .unwrap()
            .contains(FIX)
    );
    let page = staff.page("/admin/katas/fast-power").await;
    assert!(page.contains("uploaded by ines") && page.contains("Make live"));

    // Refused, in Chinese: the report names the failing check; nothing changes.
    staff.switch_lang("zh", "/admin/katas/fast-power").await;
    let resp = upload(csrf.clone(), hostile_tar("../escape")).await;
    let report = resp.text().await.unwrap();
    assert!(
        report.contains("未通过") && report.contains("没有任何改变"),
        "{report}"
    );
    assert_eq!(shown(&app).await["version"]["number"], 2);

    // Roll back from the page.
    let resp = staff
        .post_form(
            "/admin/katas/fast-power/live",
            &[("csrf", csrf.as_str()), ("version", "1")],
        )
        .await;
    assert!(resp.status().is_redirection(), "{}", resp.status());
    assert!(
        !shown(&app).await["statement"]
            .as_str()
            .unwrap()
            .contains(FIX)
    );

    // A learner reaches neither.
    let learner = Browser::new(&app);
    learner.login("lea", "long enough pw").await;
    let page = learner.page("/katas/fast-power").await;
    let csrf = crate::browser::csrf_of(&page);
    let resp = learner
        .post_upload(
            "/admin/katas/fast-power/versions",
            &[("csrf", csrf.as_str())],
            ("package", "fast-power.tar.gz", &archive),
        )
        .await;
    assert_eq!(resp.status(), 403);
}

#[tokio::test]
async fn an_upload_that_outlasts_its_request_is_checked_to_the_end_and_reported_anywhere() {
    // No wait at all: every upload is answered "checking" and its report read later.
    let opts = Options {
        workers: 0,
        configure: |c| c.publish_wait = std::time::Duration::ZERO,
        ..Options::default()
    };
    let app = spawn_app(opts, None).await;
    let replica = spawn_replica(&app, no_workers(), None).await;
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Admin, None).await.unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();

    // The CLI follows the report to its end.
    let package = copy_of_fast_power();
    fix_statement(package.path());
    let (ok, out) = publish(&app, package.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("checking the package") && out.contains("version 2 published and live"),
        "{out}"
    );

    // Through the API: 202 and where the report will be; any replica serves it.
    std::fs::write(package.path().join("README.zh.md"), "# 只有标题\n").unwrap();
    let archive = katas::archive::PackageFiles::read_dir(package.path(), &Default::default())
        .unwrap()
        .to_tar_gz();
    let resp = post_archive(&app, &staff, archive).await;
    assert_eq!(resp.status(), 202);
    let checking: Value = resp.json().await.unwrap();
    assert_eq!(checking["state"], "checking");
    let at = checking["report"].as_str().unwrap().to_string();
    // An upload's `state` ends `done`, as a submission's does.
    let report = crate::helpers::until_done(std::time::Duration::from_secs(30), || async {
        replica.get(&staff, &at).await.json().await.unwrap()
    })
    .await;
    assert_eq!(report["version"], Value::Null, "{report}");
    assert!(
        report["error"].as_str().unwrap().contains("README.zh.md"),
        "{report}"
    );
    assert_eq!(shown(&replica).await["version"]["number"], 2);

    let other = at.replace("/uploads/", "/uploads/9");
    assert_eq!(replica.get(&staff, &other).await.status(), 404);
    let learner = app.user("lea").await;
    assert_eq!(replica.get(&learner, &at).await.status(), 403);
}

#[tokio::test]
async fn a_version_published_unlisted_is_a_preview_for_staff_only() {
    let app = spawn_app(no_workers(), None).await;
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Admin, None).await.unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();
    let package = copy_of_fast_power();
    fix_statement(package.path());
    let (ok, out) = publish(&app, package.path(), &staff, &["--unlisted"]).await;
    assert!(ok, "{out}");
    let learner = app.user("lea").await;
    assert_eq!(
        app.get(&learner, "/api/katas/fast-power").await.status(),
        404
    );
    let listed: Value = app.get(&learner, "/api/katas").await.json().await.unwrap();
    assert!(!listed.to_string().contains("\"fast-power\""), "{listed}");
    let versions: Value = app
        .get(&staff, "/api/katas/fast-power/versions")
        .await
        .json()
        .await
        .unwrap();
    let newest = &versions["versions"][0];
    assert_eq!(newest["number"], 2, "{versions}");
    assert_eq!(newest["status"], "unlisted", "{versions}");
    assert_eq!(newest["live"], true, "{versions}");
}
