//! Failed log-ins per account name and per client address, held in the database so that every
//! replica spends the same budget ([`crate::login_throttle`] decides what to count). Each row is
//! a leaky bucket: `empty_at` is when it will have drained; one statement reads and fills, so
//! two replicas cannot both take a bucket's last place.

use super::Db;

/// Which budget a bucket belongs to (the `scope` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Account,
    Address,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Self::Account => "account",
            Self::Address => "address",
        }
    }
}

/// Adds one failure to `subject`'s bucket at `now_ms` (each drains in `every_ms`) unless more
/// than `slack_ms` is already waiting; then nothing changes and the answer is how long until
/// the failure would be let in.
pub async fn reserve(
    db: &Db,
    scope: Scope,
    subject: &str,
    now_ms: i64,
    every_ms: i64,
    slack_ms: i64,
) -> Result<Result<(), i64>, sqlx::Error> {
    // `CASE` rather than GREATEST/MAX: the one spelling both backends share.
    let filled: Option<i64> = sqlx::query_scalar(
        "INSERT INTO login_failures (scope, subject, empty_at) VALUES ($1, $2, $3 + $4)
         ON CONFLICT (scope, subject) DO UPDATE
           SET empty_at = (CASE WHEN login_failures.empty_at > $3
                           THEN login_failures.empty_at ELSE $3 END) + $4
           WHERE (CASE WHEN login_failures.empty_at > $3
                  THEN login_failures.empty_at ELSE $3 END) - $3 <= $5
         RETURNING empty_at",
    )
    .bind(scope.as_str())
    .bind(subject)
    .bind(now_ms)
    .bind(every_ms)
    .bind(slack_ms)
    .fetch_optional(db)
    .await?;
    if filled.is_some() {
        return Ok(Ok(()));
    }
    let empty_at: Option<i64> =
        sqlx::query_scalar("SELECT empty_at FROM login_failures WHERE scope = $1 AND subject = $2")
            .bind(scope.as_str())
            .bind(subject)
            .fetch_optional(db)
            .await?;
    let wait = empty_at.map_or(0, |t| t - (now_ms + slack_ms));
    Ok(Err(wait.max(1)))
}

/// Takes one failure back out of `subject`'s bucket (a reservation that was not a failure). A
/// bucket drained below `now` reads as empty, so it need not be clamped here.
pub async fn refund(
    db: &Db,
    scope: Scope,
    subject: &str,
    every_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE login_failures SET empty_at = empty_at - $3 WHERE scope = $1 AND subject = $2",
    )
    .bind(scope.as_str())
    .bind(subject)
    .bind(every_ms)
    .execute(db)
    .await?;
    Ok(())
}

/// Forgets every bucket that has drained by `now_ms` (it reads the same as no row).
pub async fn prune(db: &Db, now_ms: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM login_failures WHERE empty_at <= $1")
        .bind(now_ms)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}
