//! A job graded against a published package goes only to a worker whose hello says it grades
//! that kind of package: in a rolling deploy, a worker from before function katas (or GPU
//! katas) were built from their files never claims such a job, verdict or measurement, and
//! would otherwise grade it against the build's kata, or refuse it.

use crate::helpers::spawn_idle;
use crate::publishing::copy_dir;
use katas::archive::PackageFiles;
use server::db::jobs::{self, Claimed, PackageKinds};
use server::db::kata_versions::{self, Published};
use server::db::{Db, kata_packages, queue_state, served, workers};
use server::domain::{JobKind, JobPhase};

async fn claim(db: &Db, phase: JobPhase, packages: PackageKinds) -> Option<Claimed> {
    jobs::claim_for(db, "w", &[JobKind::Cpu], phase, 60_000, packages, None)
        .await
        .unwrap()
        .0
}

/// Publishes `version` of `slug` and makes it live, storing `archive` as its (function) package
/// when given; its number.
async fn publish_live(db: &Db, slug: &str, version: &Published, archive: Option<Vec<u8>>) -> i64 {
    let mut tx = db.begin().await.unwrap();
    if let Some(archive) = archive {
        let hash = &version.content_hash;
        kata_packages::store(&mut tx, hash, &archive, katas::KataKind::Cpu, None)
            .await
            .unwrap();
    }
    served::lock_kata(&mut tx, slug).await.unwrap();
    let published = kata_versions::publish(&mut tx, slug, version)
        .await
        .unwrap();
    served::set_live(&mut tx, slug, published.number)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    published.number
}

const IO_ONLY: PackageKinds = PackageKinds {
    io: true,
    function: false,
    gpu: false,
};
const FUNCTION_ONLY: PackageKinds = PackageKinds {
    io: false,
    function: true,
    gpu: true,
};

#[tokio::test]
async fn a_function_package_s_jobs_go_only_to_workers_that_grade_them() {
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    // fast-power's live version is a function package stored on the service (new limits).
    let kata = katas::catalogue::find("fast-power").unwrap();
    let dir = copy_dir(std::path::Path::new(kata.package().dir));
    let toml = dir.path().join("kata.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replacen("memory_mb = 64", "memory_mb = 96", 1)).unwrap();
    let files = PackageFiles::read_dir(dir.path(), &katas::archive::Limits::default()).unwrap();
    let hash = files.content_hash();
    let version = Published {
        content_hash: hash.clone(),
        grading_hash: files.grading_hash(),
        ..Published::compiled(kata).unwrap()
    };
    publish_live(db, "fast-power", &version, Some(files.to_tar_gz())).await;

    let token = app.user("ada").await;
    let id = app.submit_id(&token, "fast-power", "// a", "submit").await;
    assert!(claim(db, JobPhase::Verdict, IO_ONLY).await.is_none());
    assert!(
        claim(db, JobPhase::Verdict, PackageKinds::NONE)
            .await
            .is_none()
    );
    // A package stored before kinds were recorded goes only to a worker grading both.
    sqlx::query("UPDATE kata_packages SET kind = NULL")
        .execute(db)
        .await
        .unwrap();
    assert!(claim(db, JobPhase::Verdict, FUNCTION_ONLY).await.is_none());
    let job = claim(db, JobPhase::Verdict, PackageKinds::ALL)
        .await
        .expect("a worker grading both takes it");
    assert_eq!(job.submission_id, id);
    assert_eq!(job.package.as_deref(), Some(hash.as_str()));

    // Its measurement likewise.
    sqlx::query("UPDATE kata_packages SET kind = 'function'")
        .execute(db)
        .await
        .unwrap();
    let mut accepted = graders::GradeReport::internal_error(
        "fast-power",
        katas::Mode::Submit,
        katas::Message::verbatim("stand-in"),
    );
    accepted.verdict = katas::Verdict::Accepted;
    accepted.message = None;
    jobs::hand_over_to_measure(db, job.job_id, &job.lease_token, &accepted)
        .await
        .unwrap()
        .expect("the lease is held");
    assert!(claim(db, JobPhase::Measure, IO_ONLY).await.is_none());
    let measuring = claim(db, JobPhase::Measure, FUNCTION_ONLY)
        .await
        .expect("a worker grading function packages measures it");
    assert_eq!(measuring.package.as_deref(), Some(hash.as_str()));
}

/// In a rolling deploy a newer build publishes its own version of a kata without storing its
/// files (a build from before every kata's files were stored): a worker of the older build, which compiled another version of that kata in, must leave its jobs to a worker that
/// has it rather than grade them against its own.
#[tokio::test]
async fn a_version_neither_stored_nor_compiled_in_waits_for_a_build_that_has_it() {
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let own = server::worker::capabilities(0)
        .compiled
        .expect("a worker of this build names what it compiled in");
    let kata = katas::catalogue::find("fast-power").unwrap();
    assert!(own.iter().any(|h| h == kata.package().content_hash));
    let claim = |compiled: Option<Vec<String>>| async move {
        jobs::claim_for(
            db,
            "w",
            &[JobKind::Cpu],
            JobPhase::Verdict,
            60_000,
            PackageKinds::ALL,
            compiled.as_deref(),
        )
        .await
        .unwrap()
        .0
    };
    let learner = app.user("ada").await;

    // The build's own version (stored at start-up, and compiled in) goes to this build.
    let id = app
        .submit_id(&learner, "fast-power", "// a", "submit")
        .await;
    let job = claim(Some(own.clone())).await.expect("its own version");
    assert_eq!(job.submission_id, id);

    // Another build's version, its files not stored here.
    sqlx::query("DELETE FROM kata_packages")
        .execute(db)
        .await
        .unwrap();
    let newer = Published {
        content_hash: "b".repeat(64),
        grading_hash: "c".repeat(64),
        ..Published::compiled(kata).unwrap()
    };
    let number = publish_live(db, "fast-power", &newer, None).await;
    // This replica serves its own version still; a replica of the newer build serves the
    // newer one, as this submission was.
    let written_for_newer = |id: server::domain::SubmissionId| async move {
        sqlx::query("UPDATE submissions SET kata_version = $1 WHERE id = $2")
            .bind(number)
            .bind(id)
            .execute(db)
            .await
            .unwrap();
    };
    let id = app
        .submit_id(&learner, "fast-power", "// b", "submit")
        .await;
    written_for_newer(id).await;
    assert!(claim(Some(own.clone())).await.is_none());
    // While only this build's workers are connected, the learner is told it waits for a
    // worker (and after the queue's wait it is ended, saying so, rather than left queued).
    let older = server::worker::capabilities(1);
    workers::seen(db, "older", "older", &older, false)
        .await
        .unwrap();
    let waiting = queue_state::waiting_for(db, id).await.unwrap();
    assert_eq!(waiting.as_deref(), Some("cpu worker"));
    let newer_worker = workers::Capabilities {
        compiled: Some(vec![newer.content_hash.clone()]),
        ..older
    };
    workers::seen(db, "newer", "newer", &newer_worker, false)
        .await
        .unwrap();
    assert_eq!(queue_state::waiting_for(db, id).await.unwrap(), None);
    assert!(claim(Some(Vec::new())).await.is_none());
    // A worker naming the version's grading hash (a statement fix of what it compiled in
    // grades the same) takes it.
    let job = claim(Some(vec![newer.grading_hash.clone()]))
        .await
        .expect("the build that has it");
    assert_eq!(job.submission_id, id);
    assert_eq!(job.package, None);

    // A worker from before hellos said what they compiled in takes such a job as it did.
    let id = app
        .submit_id(&learner, "fast-power", "// c", "submit")
        .await;
    written_for_newer(id).await;
    let job = claim(None).await.expect("an older worker");
    assert_eq!(job.submission_id, id);
}

/// Every GPU kata of the build is stored as a package at start, and a stored GPU version is
/// graded from its files: a GPU worker from before GPU katas were built from their packages
/// (its hello says nothing of them) would refuse such a package, so it is never given one, and
/// a learner whose only GPU worker is such a one is told what the submission waits for.
#[tokio::test]
async fn a_stored_gpu_version_goes_only_to_a_worker_that_grades_gpu_packages() {
    let app = spawn_idle().await;
    let db = &app.app.state.db;
    let kata = katas::catalogue::find("gpu-pow-mod").unwrap();
    assert!(
        kata_packages::is_stored(db, kata.package().content_hash)
            .await
            .unwrap(),
        "the build's GPU kata is stored at start"
    );
    let learner = app.user("ada").await;
    let id = app
        .submit_id(&learner, "gpu-pow-mod", "// a", "submit")
        .await;
    let claim = |packages: PackageKinds| async move {
        jobs::claim_for(
            db,
            "w",
            &[JobKind::Gpu],
            JobPhase::Verdict,
            60_000,
            packages,
            None,
        )
        .await
        .unwrap()
        .0
    };
    let no_gpu_packages = PackageKinds {
        gpu: false,
        ..PackageKinds::ALL
    };
    let older = workers::Capabilities {
        kinds: vec![JobKind::Gpu],
        gpu_packages: false,
        package_checks: false,
        renews_checks: false,
        ..server::worker::capabilities(1)
    };
    workers::seen(db, "older", "older", &older, false)
        .await
        .unwrap();
    assert_eq!(
        queue_state::waiting_for(db, id).await.unwrap().as_deref(),
        Some("gpu worker")
    );
    assert!(claim(no_gpu_packages).await.is_none());
    let newer = workers::Capabilities {
        gpu_packages: true,
        package_checks: false,
        renews_checks: false,
        ..older
    };
    workers::seen(db, "newer", "newer", &newer, false)
        .await
        .unwrap();
    assert_eq!(queue_state::waiting_for(db, id).await.unwrap(), None);
    let job = claim(PackageKinds::ALL)
        .await
        .expect("a worker grading GPU packages");
    assert_eq!(job.submission_id, id);
    assert_eq!(job.package.as_deref(), Some(kata.package().content_hash));
}
