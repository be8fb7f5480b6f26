//! The durable job queue. A job is leased to one worker at a time; the lease is renewed by
//! heartbeats and carries a token. Only the current token's holder can finish the job, so a
//! worker that vanished and comes back late cannot overwrite the regrade: each submission is
//! graded exactly once from the learner's point of view. After `MAX_ATTEMPTS` leases that
//! expired or failed on our side, the job ends as `internal_error` with the last message.

use super::submissions;
use super::users::random_secret;
use super::{Db, Dialect, dialect, now_ms};
use crate::domain::{JobKind, JobPhase, Slug, Stored, SubmissionId};
use graders::{GradeReport, Measured};
use katas::{Mode, Verdict};

pub const MAX_ATTEMPTS: i64 = 3;

/// A job as handed to a worker: everything needed to grade it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Claimed {
    pub job_id: i64,
    pub submission_id: SubmissionId,
    pub lease_token: String,
    pub kata: Slug,
    pub mode: Mode,
    pub source: String,
    pub attempt: i64,
    /// How long the lease lasts without a heartbeat; workers beat at a third of it.
    pub lease_ms: i64,
    /// A custom-input run's input (JSON): the program runs on it instead of the samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_input: Option<String>,
    /// Judge it, or measure an accepted submit whose verdict is published.
    #[serde(default)]
    pub phase: JobPhase,
    /// The content hash of the stored package the submission was written for (a version
    /// published to the service, or a build's kata stored when that build started): the
    /// worker grades against exactly that version, fetched by hash unless it is the worker's own
    /// build's. `None` for a version whose files are not stored (an older build's, from before
    /// every kata's were), which the worker grades as its build has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// That version's grading hash (its files less the statements): a version graded exactly
    /// as the worker's own build grades the kata (a statement fix of it) is graded the build's
    /// way too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grading: Option<String>,
    /// A rejudge's job (`db::rejudges`): the submission graded again against the rejudge's
    /// candidate version (`package` names it); its result goes to the rejudge, never to the
    /// submission or its learner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejudge: Option<i64>,
}

/// Submissions whose jobs ran out of attempts; returned so the caller can publish events.
async fn fail_exhausted(db: &Db) -> Result<Vec<SubmissionId>, sqlx::Error> {
    let now = now_ms();
    type Exhausted = (
        i64,
        SubmissionId,
        Slug,
        Stored<Mode>,
        Option<String>,
        Option<i64>,
    );
    let rows: Vec<Exhausted> = sqlx::query_as(
        "SELECT j.id, j.submission_id, s.kata, s.mode, j.last_error, j.rejudge_id FROM jobs j
         JOIN submissions s ON s.id = j.submission_id
         WHERE j.state = 'leased' AND j.lease_expires_at < $1 AND j.attempts >= $2",
    )
    .bind(now)
    .bind(MAX_ATTEMPTS)
    .fetch_all(db)
    .await?;
    let mut failed = Vec::new();
    for (job_id, submission_id, kata, mode, last_error, rejudge) in rows {
        let why = last_error.unwrap_or_else(|| "its worker stopped answering".into());
        let message = katas::Message::new(
            format!("grading failed {MAX_ATTEMPTS} times on our side: {why}"),
            format!("评测在我们这边失败了 {MAX_ATTEMPTS} 次（不是你的问题）：{why}"),
        );
        if finish_with(
            db,
            job_id,
            None,
            &GradeReport::internal_error(&kata, mode.0, message),
        )
        .await?
            // A rejudge's failure is recorded in the rejudge; the learner's submission is done.
            && rejudge.is_none()
        {
            failed.push(submission_id);
        }
    }
    Ok(failed)
}

/// Claim order within a kind: interactive runs first, then submits, then rejudges; oldest first
/// within one priority.
pub fn priority(mode: Mode) -> i64 {
    match mode {
        Mode::Run => 0,
        Mode::Submit => 1,
    }
}

/// The priority of a rejudge's jobs (`db::rejudges`): after every run and submit.
pub const REJUDGE_PRIORITY: i64 = 2;

/// Whether job `job_id` is a rejudge's (whose progress is no learner's business).
pub async fn is_rejudge(db: &Db, job_id: i64) -> Result<bool, sqlx::Error> {
    let rejudge: Option<Option<i64>> =
        sqlx::query_scalar("SELECT rejudge_id FROM jobs WHERE id = $1")
            .bind(job_id)
            .fetch_optional(db)
            .await?;
    Ok(matches!(rejudge, Some(Some(_))))
}
/// A measurement comes after every verdict (and is claimed by measuring loops only).
pub const MEASURE_PRIORITY: i64 = 3;

/// Leases the first waiting job of `phase` and one of `kinds` (by priority, then age) to
/// `worker_id`. Also returns the submissions that were just failed for running out of
/// attempts.
pub async fn claim(
    db: &Db,
    worker_id: &str,
    kinds: &[JobKind],
    phase: JobPhase,
    lease_ms: i64,
) -> Result<(Option<Claimed>, Vec<SubmissionId>), sqlx::Error> {
    claim_for(
        db,
        worker_id,
        kinds,
        phase,
        lease_ms,
        PackageKinds::ALL,
        None,
    )
    .await
}

/// Which kinds of published package a worker grades, as its hello says
/// ([`super::workers::Capabilities`]): a job graded against a package of another kind is never
/// given to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackageKinds {
    /// Stdin/stdout katas.
    pub io: bool,
    /// Function katas built from their files.
    pub function: bool,
    /// GPU katas among those (a GPU job whose version is stored).
    pub gpu: bool,
}

impl PackageKinds {
    pub const ALL: Self = Self {
        io: true,
        function: true,
        gpu: true,
    };
    pub const NONE: Self = Self {
        io: false,
        function: false,
        gpu: false,
    };

    /// The condition on a job's package `p` (and the job, `jobs`) under which this worker may
    /// not take the job. A package stored before kinds were recorded (NULL) goes only to a
    /// worker grading both kinds.
    fn refused(self) -> Option<String> {
        let by_kind = match (self.io, self.function) {
            (true, true) => None,
            (true, false) => Some("COALESCE(p.kind, '') <> 'io'"),
            (false, true) => Some("COALESCE(p.kind, '') <> 'function'"),
            (false, false) => Some("1 = 1"),
        };
        let gpu = (!self.gpu).then(|| format!("jobs.kind = '{}'", JobKind::Gpu.as_str()));
        match (by_kind, gpu) {
            (None, None) => None,
            (Some(kind), None) => Some(kind.to_string()),
            (None, Some(gpu)) => Some(gpu),
            (Some(kind), Some(gpu)) => Some(format!("({kind} OR {gpu})")),
        }
    }
}

/// [`claim`] for a worker that grades only the kinds of published package in `packages` and,
/// when `compiled` names them, only the unstored versions its build has compiled in
/// ([`super::workers::Capabilities::compiled`]).
pub async fn claim_for(
    db: &Db,
    worker_id: &str,
    kinds: &[JobKind],
    phase: JobPhase,
    lease_ms: i64,
    packages: PackageKinds,
    compiled: Option<&[String]>,
) -> Result<(Option<Claimed>, Vec<SubmissionId>), sqlx::Error> {
    let exhausted = fail_exhausted(db).await?;
    if kinds.is_empty() {
        return Ok((None, exhausted));
    }
    let kinds_list: Vec<String> = (0..kinds.len()).map(|i| format!("${}", i + 7)).collect();
    // One statement picks and leases, so two claimers never get the same job. SQLite runs
    // writes one at a time; PostgreSQL locks the picked row and lets every other claimer skip
    // it for the next one instead of waiting.
    let skip_locked = match dialect(db) {
        Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        Dialect::Sqlite => "",
    };
    // A measurement is taken only while no learner's verdict of the kinds this loop serves
    // waits: in a burst the cores go to verdicts, and the figures follow once the queue is
    // clear. A rejudge's jobs do not hold figures back (an instructor's 5,000 would).
    let verdicts_first = match phase {
        JobPhase::Measure => format!(
            " AND NOT EXISTS (SELECT 1 FROM jobs w WHERE w.phase = 'verdict'
                 AND w.state = 'queued' AND w.rejudge_id IS NULL AND w.kind IN ({kinds}))",
            kinds = kinds_list.join(", ")
        ),
        JobPhase::Verdict => String::new(),
    };
    // A job is graded against its submission's version, a rejudge's against its candidate.
    let packaged_only_if_able = match packages.refused() {
        None => String::new(),
        Some(refused) => format!(
            " AND NOT EXISTS (SELECT 1 FROM submissions s
                 JOIN kata_versions v ON v.slug = s.kata AND v.number = s.kata_version
                 JOIN kata_packages p ON p.content_hash = v.content_hash
               WHERE s.id = jobs.submission_id AND jobs.rejudge_id IS NULL AND {refused})
              AND NOT EXISTS (SELECT 1 FROM rejudges r
                 JOIN kata_versions v ON v.slug = r.slug AND v.number = r.version
                 JOIN kata_packages p ON p.content_hash = v.content_hash
               WHERE r.id = jobs.rejudge_id AND {refused})"
        ),
    };
    let compiled_only = compiled.map_or(String::new(), |hashes| {
        unstored_only_if_compiled(kinds.len() + 7, hashes.len())
    });
    let sql = format!(
        "UPDATE jobs SET state = 'leased', worker_id = $1, lease_token = $2,
           lease_expires_at = $3, attempts = attempts + 1
         WHERE id = (SELECT id FROM jobs WHERE phase = $6 AND kind IN ({kinds})
             AND (state = 'queued'
               OR (state = 'leased' AND lease_expires_at < $4 AND attempts < $5))\
               {verdicts_first}{packaged_only_if_able}{compiled_only}
           ORDER BY priority, id LIMIT 1{skip_locked})
         RETURNING id",
        kinds = kinds_list.join(", ")
    );
    let now = now_ms();
    let token = random_secret("lease_");
    let mut q = sqlx::query_scalar::<_, i64>(&sql)
        .bind(worker_id)
        .bind(&token)
        .bind(now + lease_ms)
        .bind(now)
        .bind(MAX_ATTEMPTS)
        .bind(Stored(phase));
    for k in kinds {
        q = q.bind(Stored(*k));
    }
    for hash in compiled.unwrap_or_default() {
        q = q.bind(hash);
    }
    let Some(job_id) = q.fetch_optional(db).await? else {
        return Ok((None, exhausted));
    };
    type Job = (
        SubmissionId,
        Slug,
        Stored<Mode>,
        String,
        i64,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<i64>,
    );
    // A submission is graded against the version it was written for; a rejudge's job against
    // the rejudge's candidate.
    let (submission_id, kata, mode, source, attempt, custom_input, package, grading, rejudge): Job =
        sqlx::query_as(&format!(
            "SELECT s.id, s.kata, s.mode, s.source, j.attempts, s.custom_input,
                CASE WHEN {packaged} THEN v.content_hash END,
                CASE WHEN {packaged} THEN v.grading_hash END,
                j.rejudge_id
               FROM jobs j JOIN submissions s ON s.id = j.submission_id
               LEFT JOIN rejudges r ON r.id = j.rejudge_id
               LEFT JOIN kata_versions v ON v.slug = COALESCE(r.slug, s.kata)
                 AND v.number = COALESCE(r.version, s.kata_version)
              WHERE j.id = $1",
            packaged = super::kata_packages::PACKAGED
        ))
        .bind(job_id)
        .fetch_one(db)
        .await?;
    let claimed = Claimed {
        job_id,
        submission_id,
        lease_token: token,
        kata,
        mode: mode.0,
        source,
        attempt,
        lease_ms,
        custom_input,
        phase,
        package,
        grading,
        rejudge,
    };
    Ok((Some(claimed), exhausted))
}

/// The condition under which a worker whose build has compiled in the versions named by
/// parameters `$first`.. (`count` content or grading hashes) may take a job: the version the
/// job is graded against is stored as a package (any worker builds it from its files), or it
/// is one of those. A version neither stored nor compiled in waits for a worker that has it,
/// rather than being graded against this build's kata of that name.
fn unstored_only_if_compiled(first: usize, count: usize) -> String {
    let compiled_in = if count == 0 {
        // `IN ()` is no SQL.
        "1 = 0".to_string()
    } else {
        let list = (first..first + count)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!("(v.content_hash IN ({list}) OR COALESCE(v.grading_hash, '') IN ({list}))")
    };
    let foreign = format!(
        "NOT {packaged} AND NOT {compiled_in}",
        packaged = super::kata_packages::PACKAGED
    );
    format!(
        " AND NOT EXISTS (SELECT 1 FROM submissions s
             JOIN kata_versions v ON v.slug = s.kata AND v.number = s.kata_version
           WHERE s.id = jobs.submission_id AND jobs.rejudge_id IS NULL AND {foreign})
          AND NOT EXISTS (SELECT 1 FROM rejudges r
             JOIN kata_versions v ON v.slug = r.slug AND v.number = r.version
           WHERE r.id = jobs.rejudge_id AND {foreign})"
    )
}

/// Renews the lease; `false` if the caller no longer holds it.
pub async fn heartbeat(
    db: &Db,
    job_id: i64,
    token: &str,
    lease_ms: i64,
) -> Result<bool, sqlx::Error> {
    let renewed = sqlx::query(
        "UPDATE jobs SET lease_expires_at = $1 WHERE id = $2 AND lease_token = $3 AND state = 'leased'",
    )
    .bind(now_ms() + lease_ms)
    .bind(job_id)
    .bind(token)
    .execute(db)
    .await?
    .rows_affected();
    Ok(renewed == 1)
}

/// Stores the report if `token` still holds the lease (`None`: the sweeper ends a job whose
/// last allowed lease expired).
/// `false` means the result came too late and was dropped.
pub async fn finish_with(
    db: &Db,
    job_id: i64,
    token: Option<&str>,
    report: &GradeReport,
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let done = match token {
        Some(token) => sqlx::query(
            "UPDATE jobs SET state = 'done' WHERE id = $1 AND lease_token = $2 AND state = 'leased'",
        )
        .bind(job_id)
        .bind(token),
        // The sweeper's path: any replica may run it, and only the first to commit changes the
        // row; a holder that renewed its lease in the meantime keeps the job.
        None => sqlx::query(
            "UPDATE jobs SET state = 'done' WHERE id = $1 AND state = 'leased'
               AND lease_expires_at < $2 AND attempts >= $3",
        )
        .bind(job_id)
        .bind(now_ms())
        .bind(MAX_ATTEMPTS),
    }
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if done != 1 {
        return Ok(false);
    }
    let (submission_id, rejudge): (SubmissionId, Option<i64>) =
        sqlx::query_as("SELECT submission_id, rejudge_id FROM jobs WHERE id = $1")
            .bind(job_id)
            .fetch_one(&mut *tx)
            .await?;
    if let Some(rejudge) = rejudge {
        super::rejudges::record(&mut tx, rejudge, submission_id, report).await?;
        tx.commit().await?;
        return Ok(true);
    }
    // A published verdict is final: when measuring then fails on our side, the learner keeps
    // it and learns why there is no figure.
    let report = match submissions::published_verdict(&mut tx, submission_id).await? {
        Some(mut published) if report.verdict == Verdict::InternalError => {
            published.performance_missing = Some(
                report
                    .message
                    .as_ref()
                    .map_or_else(|| "measuring failed on our side".into(), |m| m.en.clone()),
            );
            published
        }
        _ => report.clone(),
    };
    submissions::record(&mut tx, submission_id, &report).await?;
    tx.commit().await?;
    Ok(true)
}

/// Publishes the verdict of a leased job whose performance figure is still being measured;
/// returns the submission, or `None` if `token` no longer holds the lease.
pub async fn publish_verdict(
    db: &Db,
    job_id: i64,
    token: &str,
    report: &GradeReport,
) -> Result<Option<SubmissionId>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let submission_id: Option<SubmissionId> = sqlx::query_scalar(
        "SELECT submission_id FROM jobs WHERE id = $1 AND lease_token = $2 AND state = 'leased'",
    )
    .bind(job_id)
    .bind(token)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(submission_id) = submission_id else {
        return Ok(None);
    };
    submissions::record_verdict(&mut tx, submission_id, report).await?;
    tx.commit().await?;
    Ok(Some(submission_id))
}

/// Publishes the verdict of an accepted submit and turns its job into a measurement: queued
/// again at [`MEASURE_PRIORITY`] with fresh attempts, for a measuring loop on any worker. The
/// verdict is final from here; the measurement only adds the figure. Returns the submission, or
/// `None` if `token` no longer holds the lease.
pub async fn hand_over_to_measure(
    db: &Db,
    job_id: i64,
    token: &str,
    report: &GradeReport,
) -> Result<Option<SubmissionId>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let submission_id: Option<SubmissionId> = sqlx::query_scalar(
        "UPDATE jobs SET phase = 'measure', state = 'queued', priority = $1, worker_id = NULL,
           lease_token = NULL, lease_expires_at = NULL, attempts = 0, last_error = NULL
         WHERE id = $2 AND lease_token = $3 AND state = 'leased' AND phase = 'verdict'
         RETURNING submission_id",
    )
    .bind(MEASURE_PRIORITY)
    .bind(job_id)
    .bind(token)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(submission_id) = submission_id else {
        return Ok(None);
    };
    submissions::record_verdict(&mut tx, submission_id, report).await?;
    tx.commit().await?;
    Ok(Some(submission_id))
}

/// Ends a measurement job: adds its figure (or why there is none) to the published verdict.
/// Returns the submission, or `None` if `token` no longer holds the lease.
pub async fn finish_measurement(
    db: &Db,
    job_id: i64,
    token: &str,
    measured: &Measured,
) -> Result<Option<SubmissionId>, sqlx::Error> {
    let mut tx = db.begin().await?;
    let submission_id: Option<SubmissionId> = sqlx::query_scalar(
        "UPDATE jobs SET state = 'done'
         WHERE id = $1 AND lease_token = $2 AND state = 'leased' AND phase = 'measure'
         RETURNING submission_id",
    )
    .bind(job_id)
    .bind(token)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(submission_id) = submission_id else {
        return Ok(None);
    };
    let Some(mut report) = submissions::published_verdict(&mut tx, submission_id).await? else {
        return Err(sqlx::Error::Protocol(format!(
            "submission {submission_id} has a measurement job but no published verdict"
        )));
    };
    measured.apply_to(&mut report);
    submissions::record(&mut tx, submission_id, &report).await?;
    tx.commit().await?;
    Ok(Some(submission_id))
}

/// A worker could not grade (our failure, e.g. its sandbox broke): give the job back for
/// another attempt, keeping the reason.
pub async fn release(db: &Db, job_id: i64, token: &str, error: &str) -> Result<bool, sqlx::Error> {
    let released = sqlx::query(
        "UPDATE jobs SET lease_expires_at = 0, last_error = $1 WHERE id = $2 AND lease_token = $3 AND state = 'leased'",
    )
    .bind(error)
    .bind(job_id)
    .bind(token)
    .execute(db)
    .await?
    .rows_affected();
    Ok(released == 1)
}
