//! A job graded against a published package goes only to a worker whose hello says it grades
//! that kind of package: in a rolling deploy, a worker from before function katas were built
//! from their files (it grades stdin/stdout packages only) never claims such a job, verdict or
//! measurement, and would otherwise grade it against the build's kata.

use crate::helpers::spawn_idle;
use crate::publishing::copy_dir;
use katas::archive::PackageFiles;
use server::db::jobs::{self, Claimed, PackageKinds};
use server::db::kata_versions::{self, Published};
use server::db::{Db, kata_packages, served};
use server::domain::{JobKind, JobPhase};

async fn claim(db: &Db, phase: JobPhase, packages: PackageKinds) -> Option<Claimed> {
    jobs::claim_for(db, "w", &[JobKind::Cpu], phase, 60_000, packages)
        .await
        .unwrap()
        .0
}

const IO_ONLY: PackageKinds = PackageKinds {
    io: true,
    function: false,
};
const FUNCTION_ONLY: PackageKinds = PackageKinds {
    io: false,
    function: true,
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
    let mut tx = db.begin().await.unwrap();
    kata_packages::store(
        &mut tx,
        &hash,
        &files.to_tar_gz(),
        katas::KataKind::Cpu,
        None,
    )
    .await
    .unwrap();
    served::lock_kata(&mut tx, "fast-power").await.unwrap();
    let published = kata_versions::publish(&mut tx, "fast-power", &version)
        .await
        .unwrap();
    served::set_live(&mut tx, "fast-power", published.number)
        .await
        .unwrap();
    tx.commit().await.unwrap();

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
