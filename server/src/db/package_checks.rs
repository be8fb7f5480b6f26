//! A package's sandbox checks handed to a worker (`package_checks`): queued by the replica that
//! took the upload when it cannot run them itself, claimed under a lease by a worker able to,
//! answered with the outcome, and deleted by the replica once it has read it or given up.

use super::users::random_secret;
use super::{Db, Dialect, dialect, now_ms};

/// A check as a worker claims it (the body of `POST /api/worker/checks/claim`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct Claimed {
    pub id: i64,
    pub slug: String,
    /// What the archive must hash to: the worker checks exactly the files the replica read.
    pub content_hash: String,
    pub gpu: bool,
    pub lease_token: String,
}

/// Queues the checks of the candidate `archive`; its id. Checks whose replica stopped while it
/// waited are removed first.
pub async fn queue(
    db: &Db,
    slug: &str,
    content_hash: &str,
    gpu: bool,
    archive: &[u8],
) -> Result<i64, sqlx::Error> {
    remove_abandoned(db).await?;
    sqlx::query_scalar(
        "INSERT INTO package_checks (slug, content_hash, gpu, archive, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(slug)
    .bind(content_hash)
    .bind(i64::from(gpu))
    .bind(archive)
    .bind(now_ms())
    .fetch_one(db)
    .await
}

async fn remove_abandoned(db: &Db) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM package_checks WHERE created_at <= $1")
        .bind(now_ms() - ABANDONED_MS)
        .execute(db)
        .await?;
    Ok(())
}

/// A check queued longer ago than this has no replica waiting for it any more (the replica
/// gives up sooner: `services::package_checks`): never claimed, and removed at the next queueing.
pub const ABANDONED_MS: i64 = 60 * 60 * 1000;

/// The SQL condition "check `package_checks` is waiting for a worker" (`$1`: now): never
/// claimed, or its worker's lease ran out before it answered; and someone still waits for it.
fn claimable() -> String {
    format!(
        "outcome IS NULL AND (worker_id IS NULL OR lease_expires_at < $1)
         AND created_at > $1 - {ABANDONED_MS}"
    )
}

/// Whether a check waits that a worker (with a GPU, or not) could claim.
pub async fn waiting(db: &Db, gpu: bool) -> Result<bool, sqlx::Error> {
    let sql = format!(
        "SELECT id FROM package_checks WHERE {} AND gpu <= $2 LIMIT 1",
        claimable()
    );
    let found: Option<i64> = sqlx::query_scalar(&sql)
        .bind(now_ms())
        .bind(i64::from(gpu))
        .fetch_optional(db)
        .await?;
    Ok(found.is_some())
}

/// Leases the oldest waiting check that `worker_id` can run (a GPU kata's only when it has a
/// GPU) for `lease_ms`.
pub async fn claim(
    db: &Db,
    worker_id: &str,
    gpu: bool,
    lease_ms: i64,
) -> Result<Option<Claimed>, sqlx::Error> {
    // One statement picks and leases, as `jobs::claim_for` does: two workers never get one check.
    let skip_locked = match dialect(db) {
        Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        Dialect::Sqlite => "",
    };
    let sql = format!(
        "UPDATE package_checks SET worker_id = $3, lease_token = $4, lease_expires_at = $5
         WHERE id = (SELECT id FROM package_checks WHERE {claimable} AND gpu <= $2
           ORDER BY id LIMIT 1{skip_locked})
         RETURNING id, slug, content_hash, gpu",
        claimable = claimable()
    );
    let now = now_ms();
    let token = random_secret("check_");
    let row: Option<(i64, String, String, i64)> = sqlx::query_as(&sql)
        .bind(now)
        .bind(i64::from(gpu))
        .bind(worker_id)
        .bind(&token)
        .bind(now + lease_ms)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|(id, slug, content_hash, gpu)| Claimed {
        id,
        slug,
        content_hash,
        gpu: gpu != 0,
        lease_token: token,
    }))
}

/// Extends the lease on check `id` to `lease_ms` from now if `lease_token` still holds it and
/// the check is unanswered; whether it did.
pub async fn renew(
    db: &Db,
    id: i64,
    lease_token: &str,
    lease_ms: i64,
) -> Result<bool, sqlx::Error> {
    let renewed = sqlx::query(
        "UPDATE package_checks SET lease_expires_at = $1
         WHERE id = $2 AND lease_token = $3 AND outcome IS NULL",
    )
    .bind(now_ms() + lease_ms)
    .bind(id)
    .bind(lease_token)
    .execute(db)
    .await?;
    Ok(renewed.rows_affected() == 1)
}

/// The candidate archive of check `id`, to the worker holding its lease.
pub async fn archive(db: &Db, id: i64, lease_token: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT archive FROM package_checks WHERE id = $1 AND lease_token = $2
           AND outcome IS NULL",
    )
    .bind(id)
    .bind(lease_token)
    .fetch_optional(db)
    .await
}

/// Stores the outcome of check `id` if `lease_token` still holds its lease; whether it did.
pub async fn answer(
    db: &Db,
    id: i64,
    lease_token: &str,
    outcome: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE package_checks SET outcome = $1
         WHERE id = $2 AND lease_token = $3 AND outcome IS NULL",
    )
    .bind(outcome)
    .bind(id)
    .bind(lease_token)
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The outcome of check `id` once a worker wrote it.
pub async fn outcome(db: &Db, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar::<_, Option<String>>("SELECT outcome FROM package_checks WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
        .map(Option::flatten)
}

/// Whether check `id` is still waiting for a worker to claim it.
pub async fn unclaimed(db: &Db, id: i64) -> Result<bool, sqlx::Error> {
    let sql = format!(
        "SELECT id FROM package_checks WHERE id = $2 AND {}",
        claimable()
    );
    let found: Option<i64> = sqlx::query_scalar(&sql)
        .bind(now_ms())
        .bind(id)
        .fetch_optional(db)
        .await?;
    Ok(found.is_some())
}

/// Forgets check `id`: its outcome was read, or nobody waits for it any more.
pub async fn remove(db: &Db, id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM package_checks WHERE id = $1")
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// A check no worker has answered yet, as `/admin` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    pub slug: String,
    pub gpu: bool,
    /// The worker holding its lease, if one does.
    pub worker_id: Option<String>,
    pub created_at: i64,
}

/// The checks not answered yet whose replica still waits, oldest first.
pub async fn pending(db: &Db) -> Result<Vec<Pending>, sqlx::Error> {
    // slug, gpu, worker, its lease's end, queued at.
    type Row = (String, i64, Option<String>, Option<i64>, i64);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT slug, gpu, worker_id, lease_expires_at, created_at FROM package_checks
         WHERE outcome IS NULL AND created_at > $1 ORDER BY id",
    )
    .bind(now_ms() - ABANDONED_MS)
    .fetch_all(db)
    .await?;
    let now = now_ms();
    Ok(rows
        .into_iter()
        .map(|(slug, gpu, worker_id, lease, created_at)| Pending {
            slug,
            gpu: gpu != 0,
            // A lease that ran out is held by nobody.
            worker_id: worker_id.filter(|_| lease.is_some_and(|l| l >= now)),
            created_at,
        })
        .collect())
}
