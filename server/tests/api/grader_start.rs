//! `infrakata serve` does not wait for its grader: a first start builds the kata library in the
//! sandbox (half a minute), and meanwhile pages answer and submissions queue; the built-in
//! workers grade them once the grader is ready.

use crate::helpers::{Options, fake_grader, reference, spawn_preparing};
use server::grader_slot::GraderSlot;
use std::time::Duration;

#[tokio::test]
async fn the_service_serves_while_its_grader_is_prepared_and_grades_once_it_is_ready() {
    let (ready, prepared) = std::sync::mpsc::channel::<()>();
    let grader = GraderSlot::preparing(move || {
        let _ = prepared.recv();
        Some(fake_grader())
    });
    let app = spawn_preparing(Options::default(), grader).await;
    let home = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
    let learner = app.user("ada").await;
    let id = app
        .submit_id(&learner, "fast-power", reference("fast-power"), "submit")
        .await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let waiting: serde_json::Value = app
        .get(&learner, &format!("/api/submissions/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(waiting["state"], "queued", "{waiting}");
    // No worker is connected yet, and the learner is told what the submission waits for.
    assert_eq!(waiting["waiting_for"], "cpu worker", "{waiting}");

    ready.send(()).unwrap();
    let done = app.verdict(&learner, id, Duration::from_secs(30)).await;
    assert_eq!(done["verdict"], "accepted", "{done}");
}

#[tokio::test]
async fn a_grader_that_fails_to_prepare_leaves_the_service_serving_without_one() {
    let grader = GraderSlot::preparing(|| panic!("the kata library did not build"));
    let app = spawn_preparing(Options::default(), grader).await;
    assert!(app.app.state.grader.get().await.is_none());
    let home = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
}
