//! One learner answering one item over and over in a day: every answer is stored and the
//! review card stays a finite, bounded schedule on whichever database the suite runs on. The
//! answers go through the server's own attempt functions (the ones the HTTP handlers call), with
//! a drill-attempt budget large enough for them all.

use crate::helpers::{Options, answer_key, spawn_app};
use katas_drills::{KeyBody, Response};
use server::services::drills::{answer_attempt, start_attempt};

async fn card(db: &server::db::Db, user: server::domain::UserId, subject: &str) -> (f64, f64) {
    sqlx::query_as(
        "SELECT stability, difficulty FROM review_cards WHERE user_id = $1 AND subject = $2",
    )
    .bind(user)
    .bind(subject)
    .fetch_one(db)
    .await
    .unwrap()
}

#[tokio::test]
async fn over_a_hundred_answers_of_one_item_in_a_day_keep_the_card_sound() {
    let app = spawn_app(
        Options {
            workers: 0,
            configure: |c| c.drill_attempt_budget.burst = std::num::NonZeroU32::new(300).unwrap(),
            ..Options::default()
        },
        None,
    )
    .await;
    let token = app.user("ada").await;
    let state = &app.app.state;
    let db = &state.db;
    let user: server::domain::UserId =
        sqlx::query_scalar("SELECT id FROM users WHERE name = 'ada'")
            .fetch_one(db)
            .await
            .unwrap();

    for _ in 0..110 {
        let (id, _) = start_attempt(state, user, "allreduce-cost", "ring-time")
            .await
            .unwrap();
        let right = answer_key(db, id).await.model_response();
        let (graded, _) = answer_attempt(db, user, id, &right).await.unwrap();
        assert!(graded.correct);
    }
    let (s, d) = card(db, user, "allreduce-cost/ring-time").await;
    assert!(
        s.is_finite() && s > 0.0 && (1.0..=10.0).contains(&d),
        "{s} {d}"
    );

    // Misses and hits in turn wear stability down fastest; it stays bounded all the same.
    for i in 0..150 {
        let (id, _) = start_attempt(state, user, "python-gil", "why-gil")
            .await
            .unwrap();
        let key = answer_key(db, id).await;
        let KeyBody::Choice { options, .. } = &key.body else {
            panic!("a choice")
        };
        let pick = options.iter().find(|o| o.correct == (i % 3 == 2)).unwrap();
        let answer = Response {
            parts: vec![pick.label.clone()],
        };
        answer_attempt(db, user, id, &answer).await.unwrap();
        let (s, _) = card(db, user, "python-gil/why-gil").await;
        assert!(s.is_finite() && s >= 0.01, "answer {i}: {s}");
    }
    let review = app.get(&token, "/api/review").await;
    assert_eq!(review.status(), 200);
}
