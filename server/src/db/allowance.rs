//! The per-user submission rate limit, held in the database so that every replica spends the
//! same allowance (GCRA: `per_minute` sustained, `burst` at once). One statement reads and
//! spends, so two replicas admitting the same user at once cannot both take the last unit.
//! It runs in the caller's transaction, so the unit is spent only if what it pays for is
//! written too.

use super::Tx;

/// Spends one submission of `user_id`'s allowance at `now_ms`; `false` (nothing spent) when
/// the user is over the limit.
pub async fn take(
    tx: &mut Tx<'_>,
    user_id: i64,
    now_ms: i64,
    per_minute: u32,
    burst: u32,
) -> Result<bool, sqlx::Error> {
    let interval = 60_000 / i64::from(per_minute.max(1));
    let tolerance = interval * i64::from(burst.max(1) - 1);
    // `CASE` rather than GREATEST/MAX: the one spelling both backends share.
    let spent: Option<i64> = sqlx::query_scalar(
        "INSERT INTO submission_allowance (user_id, tat) VALUES ($1, $2 + $3)
         ON CONFLICT (user_id) DO UPDATE
           SET tat = (CASE WHEN submission_allowance.tat > $2
                      THEN submission_allowance.tat ELSE $2 END) + $3
           WHERE (CASE WHEN submission_allowance.tat > $2
                  THEN submission_allowance.tat ELSE $2 END) - $2 <= $4
         RETURNING tat",
    )
    .bind(user_id)
    .bind(now_ms)
    .bind(interval)
    .bind(tolerance)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(spent.is_some())
}
