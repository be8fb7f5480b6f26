//! Per-user write budgets, held in the database so that every replica spends the same
//! allowance (GCRA: `burst` writes at once, then one more every `every`), one budget per user
//! and [`Write`] kind. One statement reads and spends, so two replicas admitting the same user
//! at once cannot both take the last unit. It runs in the caller's transaction, so the unit is
//! spent only if what it pays for is written too.

use super::Tx;
use crate::domain::UserId;
use std::num::NonZeroU32;
use std::time::Duration;

/// A kind of write that stores rows without another bound, each with its own budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    /// A submission or a custom-input run (each a row and a job).
    Submission,
    /// A drill attempt started outside an interview.
    DrillAttempt,
    /// An interview started (its row and its drill attempts).
    Interview,
    /// A kata package uploaded by staff: unpacked and linted before anything is stored, and
    /// stored as a version when it passes.
    KataUpload,
    /// A rejudge started by staff: up to 5,000 jobs graded again.
    Rejudge,
}

impl Write {
    /// The stored `kind`: never renamed, or budgets in use would start afresh.
    fn stored(self) -> &'static str {
        match self {
            Self::Submission => "submission",
            Self::DrillAttempt => "drill_attempt",
            Self::Interview => "interview",
            Self::KataUpload => "kata_upload",
            Self::Rejudge => "rejudge",
        }
    }
}

/// `burst` writes at once, then one more every `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub burst: NonZeroU32,
    pub every: Duration,
}

impl Budget {
    /// `per_minute` sustained, `burst` at once.
    pub fn per_minute(per_minute: NonZeroU32, burst: NonZeroU32) -> Self {
        Self {
            burst,
            every: Duration::from_millis(60_000 / u64::from(per_minute.get())),
        }
    }

    /// `per_hour` sustained, `burst` at once.
    pub fn per_hour(per_hour: NonZeroU32, burst: NonZeroU32) -> Self {
        Self {
            burst,
            every: Duration::from_millis(3_600_000 / u64::from(per_hour.get())),
        }
    }

    fn interval_ms(self) -> i64 {
        i64::try_from(self.every.as_millis()).unwrap_or(i64::MAX / 4)
    }
}

/// Spends one unit of `user_id`'s `kind` budget at `now_ms`; `false` (nothing spent) when the
/// user is over it.
pub async fn take(
    tx: &mut Tx<'_>,
    user_id: UserId,
    kind: Write,
    now_ms: i64,
    budget: Budget,
) -> Result<bool, sqlx::Error> {
    let interval = budget.interval_ms();
    let tolerance = interval.saturating_mul(i64::from(budget.burst.get() - 1));
    // `CASE` rather than GREATEST/MAX: the one spelling both backends share.
    let spent: Option<i64> = sqlx::query_scalar(
        "INSERT INTO write_allowance (user_id, kind, tat) VALUES ($1, $2, $3 + $4)
         ON CONFLICT (user_id, kind) DO UPDATE
           SET tat = (CASE WHEN write_allowance.tat > $3
                      THEN write_allowance.tat ELSE $3 END) + $4
           WHERE (CASE WHEN write_allowance.tat > $3
                  THEN write_allowance.tat ELSE $3 END) - $3 <= $5
         RETURNING tat",
    )
    .bind(user_id)
    .bind(kind.stored())
    .bind(now_ms)
    .bind(interval)
    .bind(tolerance)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(spent.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    async fn db_with_users() -> (tempfile::TempDir, Db, UserId, UserId) {
        let dir = tempfile::tempdir().unwrap();
        let db = crate::db::open(dir.path().join("t.sqlite")).await.unwrap();
        let mut ids = Vec::new();
        for name in ["a", "b"] {
            let id: UserId = sqlx::query_scalar(
                "INSERT INTO users (name, role, created_at) VALUES ($1, 'learner', 0) RETURNING id",
            )
            .bind(name)
            .fetch_one(&db)
            .await
            .unwrap();
            ids.push(id);
        }
        (dir, db, ids[0], ids[1])
    }

    async fn spend(db: &Db, user: UserId, kind: Write, at: i64, budget: Budget) -> bool {
        let mut tx = db.begin().await.unwrap();
        let taken = take(&mut tx, user, kind, at, budget).await.unwrap();
        tx.commit().await.unwrap();
        taken
    }

    fn three_then_one_a_second() -> Budget {
        Budget {
            burst: NonZeroU32::new(3).unwrap(),
            every: Duration::from_secs(1),
        }
    }

    #[tokio::test]
    async fn a_burst_then_one_per_interval_per_user_and_kind() {
        let (_dir, db, a, b) = db_with_users().await;
        let budget = three_then_one_a_second();
        let t0 = 1_000_000;
        for _ in 0..3 {
            assert!(spend(&db, a, Write::DrillAttempt, t0, budget).await);
        }
        assert!(!spend(&db, a, Write::DrillAttempt, t0, budget).await);
        // Other users and other kinds have budgets of their own.
        assert!(spend(&db, b, Write::DrillAttempt, t0, budget).await);
        assert!(spend(&db, a, Write::Interview, t0, budget).await);
        // One interval later, one more; a refusal spent nothing.
        assert!(spend(&db, a, Write::DrillAttempt, t0 + 1_000, budget).await);
        assert!(!spend(&db, a, Write::DrillAttempt, t0 + 1_000, budget).await);
        // A long pause refills the burst, and no more.
        let later = t0 + 60_000;
        for _ in 0..3 {
            assert!(spend(&db, a, Write::DrillAttempt, later, budget).await);
        }
        assert!(!spend(&db, a, Write::DrillAttempt, later, budget).await);
    }

    #[tokio::test]
    async fn a_unit_taken_in_a_rolled_back_transaction_is_not_spent() {
        let (_dir, db, a, _) = db_with_users().await;
        let budget = Budget {
            burst: NonZeroU32::new(1).unwrap(),
            every: Duration::from_secs(3600),
        };
        let mut tx = db.begin().await.unwrap();
        assert!(take(&mut tx, a, Write::Interview, 0, budget).await.unwrap());
        tx.rollback().await.unwrap();
        assert!(spend(&db, a, Write::Interview, 0, budget).await);
        assert!(!spend(&db, a, Write::Interview, 0, budget).await);
    }

    #[test]
    fn rates_convert_to_intervals() {
        let n = |v| NonZeroU32::new(v).unwrap();
        assert_eq!(
            Budget::per_minute(n(30), n(10)).every,
            Duration::from_secs(2)
        );
        assert_eq!(
            Budget::per_hour(n(10), n(3)).every,
            Duration::from_secs(360)
        );
    }
}
