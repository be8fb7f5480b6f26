//! The review schedule: one FSRS card per learner and subject (a drill item `set/item`, or a
//! solved kata), scheduled by `rs-fsrs`; and the daily streak (days in a row, UTC, with at
//! least one answered drill or review).

use super::{Db, now_ms};
use crate::domain::UserId;
use chrono::{DateTime, Utc};
use rs_fsrs::{Card, FSRS, Rating, State};

/// What a card is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Drill,
    Kata,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Drill => "drill",
            Self::Kata => "kata",
        }
    }
}

/// A card that is due.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Due {
    pub kind: String,
    pub subject: String,
    pub due: i64,
    pub reps: i64,
    pub lapses: i64,
}

/// How well the learner did: all right → Good, at least half → Hard, else Again.
pub fn rating(score: f64) -> Rating {
    if score >= 1.0 {
        Rating::Good
    } else if score >= 0.5 {
        Rating::Hard
    } else {
        Rating::Again
    }
}

fn at(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

fn state_code(s: State) -> i64 {
    match s {
        State::New => 0,
        State::Learning => 1,
        State::Review => 2,
        State::Relearning => 3,
    }
}

fn state_of(code: i64) -> State {
    match code {
        1 => State::Learning,
        2 => State::Review,
        3 => State::Relearning,
        _ => State::New,
    }
}

/// The range a card's stability (days) is kept in. Repeated misses, and "early" reviews on the
/// same day, shrink stability geometrically; near 0 the forgetting curve is 0/0 = NaN, which
/// spreads to every later value, and SQLite stores a NaN bind as NULL (so the upsert failed its
/// NOT NULL). FSRS's own implementations clamp stability to 0.01 day from below for the same
/// reason; the top is `rs-fsrs`'s longest interval.
const MIN_STABILITY: f64 = 0.01;
const MAX_STABILITY: f64 = 36_500.0;

/// `card` with its memory state inside FSRS's domain: stability in
/// [`MIN_STABILITY`, `MAX_STABILITY`], difficulty in 1..=10; a value that is not finite
/// restarts at the domain's safe end (a lost memory, a hard card), so no NaN is stored or fed
/// back into the scheduler.
fn bounded(mut card: Card) -> Card {
    card.stability = if card.stability.is_finite() {
        card.stability.clamp(MIN_STABILITY, MAX_STABILITY)
    } else {
        MIN_STABILITY
    };
    card.difficulty = if card.difficulty.is_finite() {
        card.difficulty.clamp(1.0, 10.0)
    } else {
        10.0
    };
    card
}

#[derive(sqlx::FromRow)]
struct Row {
    due: i64,
    stability: f64,
    difficulty: f64,
    elapsed_days: i64,
    scheduled_days: i64,
    reps: i64,
    lapses: i64,
    state: i64,
    last_review: i64,
}

/// Records one review of `subject` at `now` (ms) and schedules the next; returns the new due
/// time (ms).
pub async fn review(
    db: &Db,
    user_id: UserId,
    kind: Kind,
    subject: &str,
    rating: Rating,
    now: i64,
) -> Result<i64, sqlx::Error> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state,
                last_review
         FROM review_cards WHERE user_id = $1 AND kind = $2 AND subject = $3",
    )
    .bind(user_id)
    .bind(kind.as_str())
    .bind(subject)
    .fetch_optional(db)
    .await?;
    let card = row.map_or_else(Card::new, |r| Card {
        due: at(r.due),
        stability: r.stability,
        difficulty: r.difficulty,
        elapsed_days: r.elapsed_days,
        scheduled_days: r.scheduled_days,
        reps: r.reps as i32,
        lapses: r.lapses as i32,
        state: state_of(r.state),
        last_review: at(r.last_review),
    });
    let next = bounded(FSRS::default().next(bounded(card), at(now), rating).card);
    let due = next.due.timestamp_millis();
    sqlx::query(
        "INSERT INTO review_cards (user_id, kind, subject, due, stability, difficulty,
           elapsed_days, scheduled_days, reps, lapses, state, last_review)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (user_id, kind, subject) DO UPDATE SET due = excluded.due,
           stability = excluded.stability, difficulty = excluded.difficulty,
           elapsed_days = excluded.elapsed_days, scheduled_days = excluded.scheduled_days,
           reps = excluded.reps, lapses = excluded.lapses, state = excluded.state,
           last_review = excluded.last_review",
    )
    .bind(user_id)
    .bind(kind.as_str())
    .bind(subject)
    .bind(due)
    .bind(next.stability)
    .bind(next.difficulty)
    .bind(next.elapsed_days)
    .bind(next.scheduled_days)
    .bind(i64::from(next.reps))
    .bind(i64::from(next.lapses))
    .bind(state_code(next.state))
    .bind(now)
    .execute(db)
    .await?;
    Ok(due)
}

/// A solved kata enters the queue (once; a later solve counts as a good review).
pub async fn kata_solved(db: &Db, user_id: UserId, slug: &str) -> Result<(), sqlx::Error> {
    review(db, user_id, Kind::Kata, slug, Rating::Good, now_ms()).await?;
    Ok(())
}

/// Cards due by `until` (ms), soonest first.
pub async fn due(db: &Db, user_id: UserId, until: i64) -> Result<Vec<Due>, sqlx::Error> {
    sqlx::query_as(
        "SELECT kind, subject, due, reps, lapses FROM review_cards
         WHERE user_id = $1 AND due <= $2 ORDER BY due, kind, subject",
    )
    .bind(user_id)
    .bind(until)
    .fetch_all(db)
    .await
}

/// The end of the UTC day containing `now` (ms): "due today".
pub fn end_of_day(now: i64) -> i64 {
    const DAY: i64 = 86_400_000;
    (now.div_euclid(DAY) + 1) * DAY - 1
}

/// Days in a row with practice, and the best run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, sqlx::FromRow)]
pub struct Streak {
    pub current: i64,
    pub best: i64,
    pub last_day: i64,
}

/// The streak as of `now`: a run whose last day is before yesterday has lapsed to 0.
pub async fn streak(db: &Db, user_id: UserId, now: i64) -> Result<Streak, sqlx::Error> {
    let s: Option<Streak> =
        sqlx::query_as("SELECT current, best, last_day FROM streaks WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(db)
            .await?;
    let today = now.div_euclid(86_400_000);
    Ok(match s {
        Some(s) if s.last_day + 1 < today => Streak { current: 0, ..s },
        Some(s) => s,
        None => Streak::default(),
    })
}

/// Counts practice on the day of `now`; the streak grows by one on the first practice of a day
/// that follows a day with practice, and restarts at 1 after a gap.
pub async fn practised(db: &Db, user_id: UserId, now: i64) -> Result<Streak, sqlx::Error> {
    let today = now.div_euclid(86_400_000);
    let old = streak(db, user_id, now).await?;
    let current = if old.last_day == today && old.current > 0 {
        old.current
    } else if old.last_day + 1 == today && old.current > 0 {
        old.current + 1
    } else {
        1
    };
    let new = Streak {
        current,
        best: old.best.max(current),
        last_day: today,
    };
    sqlx::query(
        "INSERT INTO streaks (user_id, current, best, last_day) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE SET current = excluded.current, best = excluded.best,
           last_day = excluded.last_day",
    )
    .bind(user_id)
    .bind(new.current)
    .bind(new.best)
    .bind(new.last_day)
    .execute(db)
    .await?;
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    async fn db_with_user() -> (tempfile::TempDir, Db, UserId) {
        let dir = tempfile::tempdir().unwrap();
        let db = crate::db::open(dir.path().join("t.sqlite")).await.unwrap();
        let id: UserId = sqlx::query_scalar(
            "INSERT INTO users (name, role, created_at) VALUES ('u', 'learner', 0) RETURNING id",
        )
        .fetch_one(&db)
        .await
        .unwrap();
        (dir, db, id)
    }

    #[tokio::test]
    async fn the_streak_grows_by_day_holds_within_a_day_and_restarts_after_a_gap() {
        let (_dir, db, user) = db_with_user().await;
        let day0 = 20_000 * DAY + 5_000;
        assert_eq!(practised(&db, user, day0).await.unwrap().current, 1);
        assert_eq!(
            practised(&db, user, day0 + 3_600_000)
                .await
                .unwrap()
                .current,
            1
        );
        assert_eq!(practised(&db, user, day0 + DAY).await.unwrap().current, 2);
        assert_eq!(
            practised(&db, user, day0 + 2 * DAY).await.unwrap().current,
            3
        );
        // A day missed: shown as lapsed, and the next practice starts again at 1.
        assert_eq!(streak(&db, user, day0 + 4 * DAY).await.unwrap().current, 0);
        let s = practised(&db, user, day0 + 4 * DAY).await.unwrap();
        assert_eq!((s.current, s.best), (1, 3));
    }

    #[tokio::test]
    async fn a_miss_comes_back_sooner_than_a_right_answer() {
        let (_dir, db, user) = db_with_user().await;
        let now = 20_000 * DAY;
        let missed = review(&db, user, Kind::Drill, "s/missed", rating(0.0), now)
            .await
            .unwrap();
        let right = review(&db, user, Kind::Drill, "s/right", rating(1.0), now)
            .await
            .unwrap();
        assert!(missed < right, "{missed} vs {right}");
        assert!(missed <= end_of_day(now), "a miss is due again today");
        let due: Vec<String> = due(&db, user, end_of_day(now))
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.subject)
            .collect();
        assert!(due.contains(&"s/missed".to_string()));
        // Reviewing again updates the one card.
        review(&db, user, Kind::Drill, "s/missed", rating(1.0), missed)
            .await
            .unwrap();
        let cards: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM review_cards")
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(cards, 2);
    }

    async fn stored_stability(db: &Db, user: UserId, subject: &str) -> f64 {
        sqlx::query_scalar("SELECT stability FROM review_cards WHERE user_id = $1 AND subject = $2")
            .bind(user)
            .bind(subject)
            .fetch_one(db)
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_card_worn_down_to_zero_stability_is_reviewed_and_stays_finite() {
        let (_dir, db, user) = db_with_user().await;
        let now = 20_000 * DAY;
        review(&db, user, Kind::Drill, "s/worn", Rating::Again, now)
            .await
            .unwrap();
        // Where many misses in a day lead: stability underflowed to 0 (the forgetting curve is
        // then NaN, and SQLite stores a NaN bind as NULL).
        sqlx::query("UPDATE review_cards SET stability = 0, state = 2 WHERE subject = 's/worn'")
            .execute(&db)
            .await
            .unwrap();
        for (i, r) in [Rating::Good, Rating::Again, Rating::Hard]
            .into_iter()
            .enumerate()
        {
            review(
                &db,
                user,
                Kind::Drill,
                "s/worn",
                r,
                now + 60_000 * (i as i64 + 1),
            )
            .await
            .unwrap();
            let s = stored_stability(&db, user, "s/worn").await;
            assert!(s.is_finite() && s >= MIN_STABILITY, "{s}");
        }
    }

    #[tokio::test]
    async fn hundreds_of_reviews_in_one_day_keep_the_card_in_range() {
        let (_dir, db, user) = db_with_user().await;
        let now = 20_000 * DAY;
        let ratings = [Rating::Again, Rating::Hard, Rating::Good, Rating::Again];
        for i in 0..300 {
            let r = ratings[i % ratings.len()];
            review(&db, user, Kind::Drill, "s/busy", r, now + 1_000 * i as i64)
                .await
                .unwrap();
            let s = stored_stability(&db, user, "s/busy").await;
            assert!(
                (MIN_STABILITY..=MAX_STABILITY).contains(&s),
                "review {i}: {s}"
            );
        }
    }

    #[test]
    fn ratings_follow_the_score() {
        assert_eq!(rating(1.0), Rating::Good);
        assert_eq!(rating(0.75), Rating::Hard);
        assert_eq!(rating(0.2), Rating::Again);
    }
}
