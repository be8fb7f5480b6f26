//! Function katas built from their packages on the running service (issue 20 §2–3): an
//! instructor publishes a kata the build never saw, and a version of a built-in one whose
//! grading changed; the replica's grader builds each version's judge and learners' programs in
//! the compile sandbox and verifies the package there; every replica serves it without a
//! restart, and the worker grades a submission with that version's own judge. A version whose
//! reference its own checker refuses changes nothing. Real sandbox and rustc: skipped where the
//! host has no sandbox (required under `INFRAKATA_CI=1`).

use crate::browser::{Browser, csrf_of};
use crate::helpers::{self, Options, TestApp, spawn_app, spawn_replica};
use crate::publishing::{copy_dir, kata_command, publish};
use serde_json::Value;
use server::db::users::{self, Role};
use server::domain::JobPhase;
use server::queue::WorkerHello;
use server::worker::RemoteSource;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const GRADING: Duration = Duration::from_secs(180);

fn no_workers() -> Options {
    Options {
        workers: 0,
        ..Options::default()
    }
}

/// A built-in kata's package copied outside the checkout, `edit` applied to the named files.
fn edited(slug: &str, edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = copy_dir(Path::new(
        katas::catalogue::find(slug).unwrap().package().dir,
    ));
    for (file, from, to) in edits {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no `{from}`");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
    dir
}

/// A mock interview on the published kata `slug` (a copy of graph-fusion), as the pages run
/// one: its page shows the kata's editor, a hint is taken from the version's statement, and
/// the report names it by its title (the pages once looked the kata up in the build's
/// catalogue alone, and answered 404; the report showed the slug).
async fn an_interview_runs_on(app: &TestApp, slug: &str) {
    let b = Browser::new(app);
    b.signup("ivy", "long enough pw").await;
    let page = b.page("/interviews").await;
    let csrf = csrf_of(&page);
    let (id, at) = crate::interviews::start_on_the_pages(&b, &csrf).await;
    sqlx::query("UPDATE interviews SET kata = $1 WHERE id = $2")
        .bind(slug)
        .bind(id)
        .execute(&app.app.state.db)
        .await
        .unwrap();
    let session = b.page(&at).await;
    assert!(
        session.contains(&format!(r#"data-kata="{slug}""#)),
        "{session}"
    );
    let resp = b
        .post_form(&format!("/interviews/{id}/hint"), &[("csrf", &csrf)])
        .await;
    assert_eq!(resp.status(), 303);
    assert!(b.page(&at).await.contains(r#"class="hint""#));
    // Its report names the kata by its title, not its slug.
    let done: Value = b
        .post_json(
            &format!("/api/interviews/{id}/finish"),
            &serde_json::json!({}),
            Some(&csrf),
        )
        .await
        .json()
        .await
        .unwrap();
    let title = katas::catalogue::find("graph-fusion")
        .unwrap()
        .meta()
        .title
        .clone();
    assert_eq!(done["report"]["kata_title"], title.as_str(), "{done}");
}

/// What `infrakata worker` talks to `app` through, as the worker `id` with `capabilities`
/// taking jobs of `phase`.
fn remote_source(
    app: &TestApp,
    id: &str,
    capabilities: server::db::workers::Capabilities,
    phase: JobPhase,
) -> Arc<RemoteSource> {
    Arc::new(RemoteSource::new(
        &app.url(""),
        &app.app.state.config.worker_token,
        WorkerHello {
            worker_id: id.into(),
            name: id.into(),
            capabilities,
            phase,
        },
    ))
}

/// A remote worker (`infrakata worker`'s loop, over HTTP to `app`) with `capabilities`,
/// once the service has seen it as able to run a package's checks (a GPU kata's: `gpu`).
async fn remote_checker(
    app: &TestApp,
    id: &str,
    capabilities: server::db::workers::Capabilities,
    grader: Arc<dyn graders::Grade>,
) -> tokio::task::JoinHandle<()> {
    let gpu = capabilities.runs_gpu_checks();
    let worker = tokio::spawn(server::worker::run(
        remote_source(app, id, capabilities, JobPhase::Verdict),
        grader,
    ));
    // Seen once its loop first asks for a job.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !server::db::workers::checker_connected(&app.app.state.db, gpu)
        .await
        .unwrap()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the worker never said hello"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    worker
}

async fn shown(app: &TestApp, token: &str, slug: &str) -> Value {
    let resp = app.get(token, &format!("/api/katas/{slug}")).await;
    assert!(resp.status().is_success(), "{slug}: {}", resp.status());
    resp.json().await.unwrap()
}

#[tokio::test]
async fn function_packages_publish_on_the_running_service_and_grade_with_their_own_judge() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    // This replica verifies uploads with its grader; only a remote worker, new to every
    // version, grades submissions.
    let app = spawn_app(no_workers(), Some(grader.clone())).await;
    let replica = spawn_replica(&app, no_workers(), None).await;
    let remote = |id: &str, capabilities, phase| {
        tokio::spawn(server::worker::run(
            remote_source(&app, id, capabilities, phase),
            grader.clone(),
        ))
    };
    let worker = remote(
        "remote-packages",
        server::worker::capabilities(1),
        JobPhase::Verdict,
    );
    // An accepted submit's figure is counted by a measuring loop, against its version's
    // reference.
    let measurer = remote(
        "remote-measurer",
        server::worker::measuring_capabilities(),
        JobPhase::Measure,
    );
    let db = &app.app.state.db;
    let (staff, learner) = instructor_and_learner(&app).await;

    // A kata this build never saw: graph-fusion copied under a new slug, its files still naming
    // `katas::problems::graph_fusion` as a copy does.
    let new_kata = edited(
        "graph-fusion",
        &[(
            "kata.toml",
            "slug = \"graph-fusion\"",
            "slug = \"fusion-drill\"",
        )],
    );
    let (ok, out) = publish(&app, new_kata.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("fusion-drill version 1 published and live"),
        "{out}"
    );
    assert!(
        out.contains("reference.rs") && out.contains("wrong/no_fusion.rs"),
        "every solution ran in the sandbox: {out}"
    );
    for served_by in [&app, &replica] {
        let kata = shown(served_by, &learner, "fusion-drill").await;
        assert_eq!(kata["version"]["number"], 1, "{kata}");
    }
    an_interview_runs_on(&replica, "fusion-drill").await;
    let reference = std::fs::read_to_string(new_kata.path().join("reference.rs")).unwrap();
    let (_, report) = accepted_on(&replica, &learner, "fusion-drill", &reference, 1).await;
    assert_own_reference(&report);
    let starter = std::fs::read_to_string(new_kata.path().join("starter.rs")).unwrap();
    let id = app
        .submit_id(&learner, "fusion-drill", &starter, "submit")
        .await;
    let report = app.verdict(&learner, id, GRADING).await;
    assert_ne!(report["verdict"], "accepted", "{report}");

    // Custom input: the form starts from what the version's judge made when it was published
    // (the build's graph-fusion makes the same), and the judge admits and answers the input.
    assert!(out.contains("custom input offered"), "{out}");
    let sample = shown(&replica, &learner, "fusion-drill").await["custom_input"].clone();
    let built = katas::catalogue::find("graph-fusion").unwrap();
    assert_eq!(sample, built.sample_input().unwrap(), "{sample}");
    let custom = |input: &str| {
        let body = serde_json::json!({ "source": reference, "input": input });
        replica
            .client
            .post(replica.url("/api/katas/fusion-drill/custom"))
            .bearer_auth(&learner)
            .json(&body)
            .send()
    };
    let run = custom(sample.as_str().unwrap()).await.unwrap();
    assert_eq!(run.status(), 202);
    let id = run.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = app
        .verdict(&learner, server::domain::SubmissionId(id), GRADING)
        .await;
    assert_eq!(done["verdict"], "accepted", "{done}");
    assert_eq!(
        done["custom"]["learner"], done["custom"]["reference"],
        "{done}"
    );
    let expected = built.custom(sample.as_str().unwrap()).unwrap();
    assert_eq!(
        done["custom"]["reference"], expected.reference_output,
        "{done}"
    );
    // Not this kata's input: only its judge can tell, and says so as the run's verdict.
    let run = custom(r#"{"Nope": 1}"#).await.unwrap();
    assert_eq!(run.status(), 202);
    let id = run.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    let done = app
        .verdict(&learner, server::domain::SubmissionId(id), GRADING)
        .await;
    assert_eq!(done["verdict"], "input_refused", "{done}");
    let said = built.check_custom(r#"{"Nope": 1}"#).unwrap_err();
    assert_eq!(done["message"], said.message(katas::Lang::En), "{done}");
    // Not JSON at all: refused at once, nothing stored.
    let refused = custom("[1,").await.unwrap();
    assert_eq!(refused.status(), 422);

    // A candidate version is rejudged against before it goes live: both submits again, the
    // difference printed.
    let candidate = edited(
        "graph-fusion",
        &[
            (
                "kata.toml",
                "slug = \"graph-fusion\"",
                "slug = \"fusion-drill\"",
            ),
            ("kata.toml", "memory_mb = 512", "memory_mb = 600"),
        ],
    );
    let (ok, out) = publish(&app, candidate.path(), &staff, &["--candidate"]).await;
    assert!(ok && out.contains("fusion-drill version 2"), "{out}");
    let (ok, out) = kata_command(
        &app,
        &staff,
        &["rejudge", "fusion-drill", "--version", "2", "--all"],
    )
    .await;
    assert!(ok && out.contains("lea"), "{out}");
    assert_eq!(
        shown(&app, &learner, "fusion-drill").await["version"]["number"],
        1
    );

    // fast-power whose checker wants every power doubled: its own reference fails, so it is
    // refused with the sandbox's rows and nothing changes.
    let broken = edited(
        "fast-power",
        &[(
            "kata.rs",
            "let want = b.powf(f64::from(e));",
            "let want = 2.0 * b.powf(f64::from(e));",
        )],
    );
    let (ok, out) = publish(&app, broken.path(), &staff, &[]).await;
    assert!(!ok, "{out}");
    assert!(
        out.contains("grading_changed") && out.contains("kata.rs") && out.contains("wrong_answer"),
        "{out}"
    );
    assert_eq!(
        shown(&app, &learner, "fast-power").await["version"]["number"],
        1
    );

    // A version with new limits is built from its files and graded with them.
    let roomier = edited(
        "fast-power",
        &[("kata.toml", "memory_mb = 64", "memory_mb = 96")],
    );
    let (ok, out) = publish(&app, roomier.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("fast-power version 2 published and live"),
        "{out}"
    );
    for served_by in [&app, &replica] {
        let kata = shown(served_by, &learner, "fast-power").await;
        assert_eq!(kata["version"]["number"], 2, "{kata}");
        assert_eq!(kata["limits"]["memory_mb"], 96, "{kata}");
    }
    let reference = std::fs::read_to_string(roomier.path().join("reference.rs")).unwrap();
    let (id, report) = accepted_on(&app, &learner, "fast-power", &reference, 2).await;
    assert_own_reference(&report);

    // Both versions are listed as packaged: version 2 built from its upload, the build's
    // version 1 stored when the service started. The build's is a candidate too: rejudged
    // against it (a rollback's preview), the reference stays accepted.
    let listed = json(&app, &staff, "/api/katas/fast-power/versions").await;
    let packaged: Vec<(i64, bool)> = listed["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["number"].as_i64().unwrap(), v["packaged"] == true))
        .collect();
    assert_eq!(packaged, [(2, true), (1, true)], "{listed}");
    let (ok, out) = kata_command(&app, &staff, &["rejudge", "fast-power", "--version", "1"]).await;
    assert!(
        ok && out.contains("lea") && out.contains("graded again, 0 would change"),
        "{out}"
    );
    let kept = json(&app, &learner, &format!("/api/submissions/{id}")).await;
    assert_eq!(kept["kata_version"], 2, "{kept}");
    let hash = server::password::hash("long enough pw").unwrap();
    users::create(db, "ina", Role::Instructor, Some(&hash))
        .await
        .unwrap();
    let browser = crate::browser::Browser::new(&app);
    browser.login("ina", "long enough pw").await;
    let page = browser.page("/admin/katas/fast-power").await;
    assert!(
        page.contains("Rejudge against a version") && page.contains(r#"required value="2""#),
        "{page}"
    );
    assert!(page.contains("built from its files"), "{page}");

    // A version with a changed API (a third entry point) is built from its files too; work
    // written for version 2 stays readable and is told what changed, with the new starter.
    let put = app
        .client
        .put(app.url("/api/katas/fast-power/draft"))
        .bearer_auth(&learner)
        .json(&serde_json::json!({ "source": "// my draft for version 2" }))
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 200);
    let wider = with_square(roomier.path());
    let (ok, out) = publish(&app, wider.path(), &staff, &[]).await;
    assert!(ok && out.contains("fast-power version 3"), "{out}");
    let old = json(&app, &learner, &format!("/api/submissions/{id}")).await;
    let api = &old["api_changed"];
    assert_eq!(api["written_for"], 2, "{old}");
    assert_eq!(api["current"], 3, "{old}");
    assert!(api["changes"].to_string().contains("square"), "{old}");
    let starter = std::fs::read_to_string(wider.path().join("starter.rs")).unwrap();
    assert_eq!(api["starter"], starter.as_str(), "{old}");
    let draft = json(&replica, &learner, "/api/katas/fast-power/draft").await;
    assert_eq!(draft["source"], "// my draft for version 2", "{draft}");
    assert_eq!(draft["api_changed"], *api, "{draft}");
    let reference = std::fs::read_to_string(wider.path().join("reference.rs")).unwrap();
    accepted_on(&app, &learner, "fast-power", &reference, 3).await;

    // A restart of the same build keeps the version built from its package live.
    server::db::katas::sync(db).await.unwrap();
    assert_eq!(
        shown(&app, &learner, "fast-power").await["version"]["number"],
        3
    );
    worker.abort();
    measurer.abort();
}

/// A replica that runs no grader leaves a package's sandbox checks to a worker
/// (`services::package_checks`): with none connected an upload is refused at once, saying so,
/// and nothing changes; with a remote worker connected, the worker builds and checks the
/// package in its sandbox, the replica publishes it, and the worker grades it; a version whose
/// reference is wrong comes back refused with the worker's rows, and nothing changes. The
/// custom-input examples no judge here could make — the build's own versions', and a candidate
/// statement fix's — the remote worker makes (`worker::examples`).
#[tokio::test]
async fn a_replica_without_a_sandbox_leaves_the_checks_to_a_worker() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(no_workers(), None).await;
    let (staff, learner) = instructor_and_learner(&app).await;
    let new_kata = edited(
        "fast-power",
        &[(
            "kata.toml",
            "slug = \"fast-power\"",
            "slug = \"power-drill\"",
        )],
    );
    let (ok, out) = publish(&app, new_kata.path(), &staff, &[]).await;
    assert!(!ok, "{out}");
    assert!(out.contains("no worker is connected"), "{out}");
    let listed = app.get(&learner, "/api/katas/power-drill").await.status();
    assert_eq!(listed, reqwest::StatusCode::NOT_FOUND, "nothing changed");
    // A statement fix runs no package code to publish; with no judge here it is stored
    // without the form's examples, as the build's own version was.
    let fix = edited(
        "fast-power",
        &[("README.md", "A classic warm-up", "A well-known warm-up")],
    );
    let (ok, out) = publish(&app, fix.path(), &staff, &["--candidate"]).await;
    assert!(
        ok && out.contains("version 2 published as a candidate"),
        "{out}"
    );
    let candidate: String = sqlx::query_scalar(
        "SELECT content_hash FROM kata_versions WHERE slug = 'fast-power' AND number = 2",
    )
    .fetch_one(&app.app.state.db)
    .await
    .unwrap();
    // What is left for the workers: the candidate and the build's CPU katas; a GPU kata takes no
    // custom input, so its versions are never fetched for it.
    let awaiting = server::db::kata_packages::awaiting_examples(&app.app.state.db)
        .await
        .unwrap();
    let gpu: Vec<String> = sqlx::query_scalar(
        "SELECT v.content_hash FROM kata_versions v JOIN katas k ON k.slug = v.slug
          WHERE k.kind = 'gpu'",
    )
    .fetch_all(&app.app.state.db)
    .await
    .unwrap();
    assert!(
        !gpu.is_empty() && awaiting.contains(&candidate),
        "{awaiting:?}"
    );
    assert!(awaiting.iter().all(|h| !gpu.contains(h)), "{awaiting:?}");

    let worker = remote_checker(
        &app,
        "checker",
        server::worker::capabilities(1),
        grader.clone(),
    )
    .await;
    // What `infrakata worker` runs beside its loops.
    let examples = tokio::spawn(server::worker::fill_examples(
        remote_source(
            &app,
            "examples",
            server::worker::capabilities(1),
            JobPhase::Verdict,
        ),
        grader,
    ));
    let (ok, out) = publish(&app, new_kata.path(), &staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("power-drill version 1 published and live"),
        "{out}"
    );
    assert!(
        out.contains("run in the sandbox of a worker") && out.contains("reference.rs"),
        "{out}"
    );
    assert!(out.contains("custom input offered"), "{out}");
    let reference = std::fs::read_to_string(new_kata.path().join("reference.rs")).unwrap();
    let id = app
        .submit_id(&learner, "power-drill", &reference, "run")
        .await;
    let report = app.verdict(&learner, id, GRADING).await;
    assert_eq!(report["verdict"], "accepted", "{report}");

    let wrong = edited(
        "fast-power",
        &[
            (
                "kata.toml",
                "slug = \"fast-power\"",
                "slug = \"power-drill\"",
            ),
            (
                "reference.rs",
                "    }\n    acc\n}",
                "    }\n    2.0 * acc\n}",
            ),
        ],
    );
    let (ok, out) = publish(&app, wrong.path(), &staff, &[]).await;
    assert!(!ok, "{out}");
    assert!(
        out.contains("run in the sandbox of a worker") && out.contains("reference.rs"),
        "{out}"
    );
    let kata = shown(&app, &learner, "power-drill").await;
    assert_eq!(kata["version"]["number"], 1, "nothing changed: {kata}");
    assert_eq!(
        app.count("package_checks").await,
        0,
        "every check forgotten"
    );
    app.with_examples("fast-power").await;
    let deadline = std::time::Instant::now() + GRADING;
    while server::db::kata_packages::input_examples(&app.app.state.db, &candidate)
        .await
        .unwrap()
        .is_none()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no examples for the candidate"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    examples.abort();
    worker.abort();
}

/// A GPU kata the build never saw is built from its files like any function kata; verifying it
/// runs its solutions on a device. A replica whose grader has one publishes it; one whose
/// grader has none leaves the checks to a worker with a GPU — and with none connected (a CPU
/// worker that runs checks does not count) refuses it with a `gpu` row and changes nothing.
/// With a device (`scripts/gpu-check.sh`) a replica without a grader publishes a second copy
/// through a remote worker with the GPU.
#[tokio::test]
async fn a_gpu_kata_publishes_only_where_its_solutions_can_run_on_a_device() {
    let Some(grader) = helpers::grader() else {
        return;
    };
    let app = spawn_app(no_workers(), Some(grader.clone())).await;
    let (staff, learner) = instructor_and_learner(&app).await;
    // A CPU worker that runs checks is connected: it cannot run a GPU kata's.
    let cpu = server::worker::capabilities(1);
    server::db::workers::seen(&app.app.state.db, "cpu-checker", "cpu", &cpu, false)
        .await
        .unwrap();
    let new_kata = edited(
        "gpu-pow-mod",
        &[(
            "kata.toml",
            "slug = \"gpu-pow-mod\"",
            "slug = \"pow-mod-drill\"",
        )],
    );
    let (ok, out) = publish(&app, new_kata.path(), &staff, &[]).await;
    let listed = app.get(&learner, "/api/katas/pow-mod-drill").await.status();
    match graders::gpu::probe() {
        Ok(device) => {
            println!("publishing on {device}");
            assert!(ok, "{out}");
            assert!(
                out.contains("pow-mod-drill version 1 published and live"),
                "{out}"
            );
            assert!(listed.is_success(), "{listed}");
            on_a_gpu_worker(&app, &staff, grader).await;
        }
        Err(why) => {
            assert!(!katas::gpu::required(), "INFRAKATA_REQUIRE_GPU=1 but {why}");
            assert!(!ok, "{out}");
            assert!(
                out.contains("gpu") && out.contains("runs its solutions on a device"),
                "{out}"
            );
            assert!(out.contains("no worker with a GPU is connected"), "{out}");
            assert_eq!(listed, reqwest::StatusCode::NOT_FOUND, "nothing changed");
        }
    }
}

/// A GPU kata published through a replica that runs no grader: a remote worker with the device
/// runs its checks.
async fn on_a_gpu_worker(app: &TestApp, staff: &str, grader: Arc<dyn graders::Grade>) {
    let replica = spawn_replica(app, no_workers(), None).await;
    let worker = remote_checker(app, "gpu-checker", server::worker::capabilities(0), grader).await;
    let copy = edited(
        "gpu-pow-mod",
        &[(
            "kata.toml",
            "slug = \"gpu-pow-mod\"",
            "slug = \"pow-mod-copy\"",
        )],
    );
    let (ok, out) = publish(&replica, copy.path(), staff, &[]).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("run in the sandbox of a worker with a GPU"),
        "{out}"
    );
    assert!(
        out.contains("pow-mod-copy version 1 published and live"),
        "{out}"
    );
    worker.abort();
}

/// A rolling deploy in which this binary is the older build: a newer one stored its own
/// version of fast-power (a roomier memory limit, another starter, and a checker that wants
/// every power doubled) and made it live. This replica serves that version, not its own, and
/// its worker grades it from the stored files: a solution doubling every power is accepted,
/// which this build's own fast-power would call a wrong answer.
#[tokio::test]
async fn an_older_build_serves_and_grades_the_version_a_newer_build_stored() {
    use server::db::katas::{BuildPackage, Catalogue, GENERATION, sync_catalogue};
    let Some(grader) = helpers::grader() else {
        return;
    };
    let newer_files = edited(
        "fast-power",
        &[
            ("kata.toml", "memory_mb = 64", "memory_mb = 96"),
            (
                "starter.rs",
                "pub fn",
                "// the newer build's starter\npub fn",
            ),
            (
                "kata.rs",
                "let want = b.powf(f64::from(e));",
                "let want = 2.0 * b.powf(f64::from(e));",
            ),
            (
                "reference.rs",
                "    }\n    acc\n}",
                "    }\n    2.0 * acc\n}",
            ),
        ],
    );
    let files = katas::archive::PackageFiles::read_dir(
        newer_files.path(),
        &katas::archive::Limits::default(),
    )
    .unwrap();
    let package = graders::package::FunctionPackage::from_files(&files).unwrap();
    let mut newer = Catalogue::compiled().unwrap();
    newer.generation = GENERATION + 1;
    newer.fingerprint = "a newer build".into();
    let row = newer
        .katas
        .iter_mut()
        .find(|k| k.slug == "fast-power")
        .unwrap();
    row.version = server::db::kata_versions::Published {
        content_hash: files.content_hash(),
        grading_hash: files.grading_hash(),
        api: katas::learner_api::LearnerApi::of_logic(&package.logic).unwrap(),
        starter: package.starter.clone(),
        ..row.version.clone()
    };
    row.package = Some(BuildPackage {
        content_hash: files.content_hash(),
        files,
        kind: katas::KataKind::Cpu,
    });
    let dir = tempfile::tempdir().unwrap();
    let db = server::db::open(helpers::database(&dir).await)
        .await
        .unwrap();
    sync_catalogue(&db, &newer).await.unwrap();
    db.close().await;

    let app = helpers::spawn_on(dir, Options::default(), Some(grader)).await;
    let (staff, learner) = instructor_and_learner(&app).await;
    let kata = shown(&app, &learner, "fast-power").await;
    assert_eq!(kata["version"]["number"], 1, "{kata}");
    assert_eq!(kata["limits"]["memory_mb"], 96, "{kata}");
    assert!(
        kata["starter"]
            .as_str()
            .unwrap()
            .contains("the newer build's starter"),
        "{kata}"
    );
    // This build's own version is stored as well, so a newer replica could serve it in turn.
    let listed = json(&app, &staff, "/api/katas/fast-power/versions").await;
    let versions: Vec<(i64, bool, bool, bool)> = listed["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let number = v["number"].as_i64().unwrap();
            let flag = |name: &str| v[name] == true;
            (number, flag("packaged"), flag("servable"), flag("live"))
        })
        .collect();
    assert_eq!(
        versions,
        [(2, true, true, false), (1, true, true, true)],
        "{listed}"
    );

    let reference = std::fs::read_to_string(newer_files.path().join("reference.rs")).unwrap();
    accepted_on(&app, &learner, "fast-power", &reference, 1).await;
    app.app.stop();
}

/// Tokens of an instructor, ines, and a learner, lea.
async fn instructor_and_learner(app: &TestApp) -> (String, String) {
    let db = &app.app.state.db;
    let ines = users::create(db, "ines", Role::Instructor, None)
        .await
        .unwrap();
    let staff = users::issue_token(db, ines.id).await.unwrap();
    (staff, app.user("lea").await)
}

/// `source` submitted to `slug` through `app` by `learner`: accepted, on version `version`.
async fn accepted_on(
    app: &TestApp,
    learner: &str,
    slug: &str,
    source: &str,
    version: i64,
) -> (server::domain::SubmissionId, Value) {
    let id = app.submit_id(learner, slug, source, "submit").await;
    let report = app.verdict(learner, id, GRADING).await;
    assert_eq!(report["verdict"], "accepted", "{report}");
    assert_eq!(report["kata_version"], version, "{report}");
    (id, report)
}

/// The version's reference submitted: its figure counts exactly as that reference does (a
/// single-threaded program counts the same on the same inputs).
fn assert_own_reference(report: &Value) {
    let figure = &report["performance"];
    assert!(
        figure["reference_instructions"].as_u64() > Some(0),
        "{report}"
    );
    assert_eq!(
        figure["instructions"], figure["reference_instructions"],
        "{report}"
    );
}

async fn json(app: &TestApp, token: &str, path: &str) -> Value {
    let resp = app.get(token, path).await;
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
    resp.json().await.unwrap()
}

/// The package at `from` with a third entry point, `square`, in its API and every solution.
fn with_square(from: &Path) -> tempfile::TempDir {
    const SQUARE: &str = "\n/// `x` squared.\npub fn square(x: f64) -> f64 {\n    x * x\n}\n";
    let dir = copy_dir(from);
    let edit = |file: &Path, from: &str, to: &str| {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains(from), "{}: no `{from}`", file.display());
        std::fs::write(file, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        &dir.path().join("kata.toml"),
        "entry_points = [\"power\", \"pow_mod\"]",
        "entry_points = [\"power\", \"pow_mod\", \"square\"]",
    );
    edit(
        &dir.path().join("kata.rs"),
        "pub pow_mod: fn(u64, u64, u64) -> u64,",
        "pub pow_mod: fn(u64, u64, u64) -> u64,\n    pub square: fn(f64) -> f64,",
    );
    let wrong = std::fs::read_dir(dir.path().join("wrong"))
        .unwrap()
        .map(|e| e.unwrap().path());
    for file in wrong.chain(["reference.rs", "starter.rs"].map(|f| dir.path().join(f))) {
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, format!("{text}{SQUARE}")).unwrap();
    }
    dir
}
