//! Measuring is a job of its own: an accepted submit's verdict is published by its verdict job,
//! which then becomes a measurement at the lowest priority that only measuring loops claim, and
//! only while no verdict is queued. No verdict waits behind it, a measurement lost with its worker is leased again, and the verdict
//! is never graded again for it.

use crate::helpers::{Options, grader, reference, spawn_app, spawn_idle};
use graders::{GradeReport, Measured, report::Performance};
use katas::{Message, Mode, Verdict};
use server::db::jobs::{self, Claimed};
use server::db::queue_state;
use server::db::{Db, submissions};
use server::domain::{JobKind, JobPhase, SubmissionId};
use std::time::Duration;

async fn claim(db: &Db, worker: &str, phase: JobPhase, lease_ms: i64) -> Option<Claimed> {
    jobs::claim(db, worker, &[JobKind::Cpu], phase, lease_ms)
        .await
        .unwrap()
        .0
}

fn accepted() -> GradeReport {
    let mut report =
        GradeReport::internal_error("fast-power", Mode::Submit, Message::verbatim("stand-in"));
    report.verdict = Verdict::Accepted;
    report.message = None;
    report
}

fn figure() -> Measured {
    Measured::Figure(Performance {
        instructions: 900,
        reference_instructions: 1000,
        ratio: 0.9,
        cases: 3,
        harness_instructions: 0,
    })
}

#[tokio::test]
async fn a_measurement_waits_behind_every_verdict_and_never_regrades_it() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let db = &app.app.state.db;
    let first = app.submit_id(&token, "fast-power", "// a", "submit").await;
    let job = claim(db, "verdicts", JobPhase::Verdict, 60_000)
        .await
        .unwrap();
    assert_eq!(job.submission_id, first);
    assert!(
        jobs::hand_over_to_measure(db, job.job_id, &job.lease_token, &accepted())
            .await
            .unwrap()
            .is_some()
    );
    let seen = submissions::get(db, first).await.unwrap().unwrap();
    assert_eq!(seen.verdict, Some(Verdict::Accepted), "the verdict is out");
    // A queued measurement is never timed out as if its submission still waited for a verdict.
    assert_eq!(
        queue_state::waited_too_long(db, -1_000_000).await.unwrap(),
        Vec::<SubmissionId>::new()
    );

    // A verdict queued after it is still taken first, and verdict loops never take it.
    let second = app.submit_id(&token, "fast-power", "// b", "run").await;
    // While a verdict waits, a measuring loop takes nothing: in a burst the cores go to verdicts.
    assert_eq!(
        claim(db, "measuring-1", JobPhase::Measure, 60_000).await,
        None
    );
    let next = claim(db, "verdicts", JobPhase::Verdict, 60_000)
        .await
        .unwrap();
    assert_eq!(next.submission_id, second);
    assert_eq!(claim(db, "verdicts", JobPhase::Verdict, 60_000).await, None);

    // Its measuring worker dies (a 1 ms lease); another measuring loop takes it again.
    let lost = claim(db, "measuring-1", JobPhase::Measure, 1)
        .await
        .unwrap();
    assert_eq!((lost.submission_id, lost.phase), (first, JobPhase::Measure));
    tokio::time::sleep(Duration::from_millis(20)).await;
    let again = claim(db, "measuring-2", JobPhase::Measure, 60_000)
        .await
        .unwrap();
    assert_eq!(again.job_id, lost.job_id);
    assert!(
        jobs::finish_measurement(db, lost.job_id, &lost.lease_token, &figure())
            .await
            .unwrap()
            .is_none(),
        "the lost lease's figure is refused"
    );
    assert!(
        jobs::finish_measurement(db, again.job_id, &again.lease_token, &figure())
            .await
            .unwrap()
            .is_some()
    );
    let done = submissions::get(db, first).await.unwrap().unwrap();
    assert_eq!(done.state, submissions::State::Done);
    assert_eq!(done.verdict, Some(Verdict::Accepted));
    let report = done.report.unwrap();
    assert_eq!(report["performance"]["ratio"], 0.9);
}

#[tokio::test]
async fn a_measurement_that_keeps_failing_keeps_its_verdict_and_says_why() {
    let app = spawn_idle().await;
    let token = app.user("bea").await;
    let db = &app.app.state.db;
    let id = app.submit_id(&token, "fast-power", "// a", "submit").await;
    let job = claim(db, "verdicts", JobPhase::Verdict, 60_000)
        .await
        .unwrap();
    jobs::hand_over_to_measure(db, job.job_id, &job.lease_token, &accepted())
        .await
        .unwrap();
    for _ in 0..jobs::MAX_ATTEMPTS {
        let m = claim(db, "measuring", JobPhase::Measure, 60_000)
            .await
            .unwrap();
        jobs::release(db, m.job_id, &m.lease_token, "valgrind crashed")
            .await
            .unwrap();
    }
    let (none, failed) = jobs::claim(db, "measuring", &[JobKind::Cpu], JobPhase::Measure, 60_000)
        .await
        .unwrap();
    assert_eq!((none, failed), (None, vec![id]));
    let done = submissions::get(db, id).await.unwrap().unwrap();
    assert_eq!(done.verdict, Some(Verdict::Accepted), "the verdict stands");
    let report = done.report.unwrap();
    assert!(
        report["performance_missing"]
            .as_str()
            .unwrap()
            .contains("valgrind crashed"),
        "{report}"
    );
}

/// Through the real workers: the verdict loop hands the accepted submit over, and the app's
/// measuring loop adds the figure.
#[tokio::test]
async fn the_built_in_measuring_loop_adds_the_figure() {
    let Some(grader) = grader() else { return };
    let app = spawn_app(Options::default(), Some(grader)).await;
    let token = app.user("cy").await;
    let id = app
        .submit_id(&token, "fast-power", reference("fast-power"), "submit")
        .await;
    let done = app.verdict(&token, id, Duration::from_secs(90)).await;
    assert_eq!(done["verdict"], "accepted", "{done}");
    assert!(
        done["performance"]["ratio"].is_number() || done["performance_missing"].is_string(),
        "{done}"
    );
    let (phase, worker): (String, String) =
        sqlx::query_as("SELECT phase, worker_id FROM jobs WHERE submission_id = $1")
            .bind(id)
            .fetch_one(&app.app.state.db)
            .await
            .unwrap();
    assert_eq!(phase, "measure");
    assert!(worker.ends_with("-measuring"), "{worker}");
}

#[tokio::test]
async fn a_queued_rejudge_does_not_hold_a_measurement_back() {
    let app = spawn_idle().await;
    let token = app.user("ada").await;
    let db = &app.app.state.db;
    let first = app.submit_id(&token, "fast-power", "// a", "submit").await;
    let job = claim(db, "verdicts", JobPhase::Verdict, 60_000)
        .await
        .unwrap();
    assert!(
        jobs::hand_over_to_measure(db, job.job_id, &job.lease_token, &accepted())
            .await
            .unwrap()
            .is_some()
    );
    // An instructor's rejudge of the kata's accepted submits waits in the queue.
    let staff = server::db::users::create(db, "ines", server::db::users::Role::Admin, None)
        .await
        .unwrap();
    let (_, queued) = server::db::rejudges::start(
        db,
        "fast-power",
        1,
        server::db::rejudges::Scope::Accepted,
        staff.id,
    )
    .await
    .unwrap();
    assert_eq!(queued, 1);
    let measuring = claim(db, "measuring", JobPhase::Measure, 60_000)
        .await
        .expect("the measurement is claimed while the rejudge waits");
    assert_eq!(measuring.submission_id, first);
    assert_eq!(measuring.rejudge, None);
    // The rejudge's job is a verdict loop's, after it.
    let rejudged = claim(db, "verdicts", JobPhase::Verdict, 60_000)
        .await
        .unwrap();
    assert_eq!(rejudged.submission_id, first);
    assert!(rejudged.rejudge.is_some());
}
