//! Workers seen by the server, with their advertised capabilities.

use super::{Db, now_ms};
use crate::domain::JobKind;
use serde::{Deserialize, Serialize};

/// What a worker can grade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Capabilities {
    pub cores: u32,
    /// Job kinds it accepts: `cpu`, and `gpu` when it has a device (`gpu` below). A kind this
    /// server does not know is a malformed hello (400), never silently dropped.
    pub kinds: Vec<JobKind>,
    /// Its GPU, when the probe found one (absent in what older workers send).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    // `graders` stays free of utoipa: its GPU description is an object here (name, compute
    // capability, memory, driver).
    #[schema(value_type = Option<Object>)]
    pub gpu: Option<graders::gpu::GpuInfo>,
    /// Grades stdin/stdout katas published to the service, fetching each version's package by
    /// hash. Workers from before such katas say nothing (`false`): they are never given one.
    #[serde(default)]
    pub packages: bool,
    /// Grades function katas built from their published packages (their judge a sandboxed
    /// process, their figure against their own reference). Workers from before say nothing
    /// (`false`): they are never given such a job, verdict or measurement.
    #[serde(default)]
    pub function_packages: bool,
    /// Grades GPU katas built from their packages too (their library linking the runtime's
    /// CUDA calls). Workers from before say nothing (`false`): a GPU job whose version is
    /// stored goes only to a worker that says so.
    #[serde(default)]
    pub gpu_packages: bool,
    /// Runs an upload's sandbox checks for a replica that cannot (`db::package_checks`): a
    /// GPU kata's only with a GPU. Workers from before say nothing (`false`) and are never
    /// asked, nor counted as able to.
    #[serde(default)]
    pub package_checks: bool,
    /// Renews the lease on a check it runs while it runs it (`POST
    /// /api/worker/checks/{id}/heartbeat`), so its lease is short and a worker that stops is
    /// taken over within a minute. Workers from before say nothing (`false`) and get the long
    /// lease they need without renewing.
    #[serde(default)]
    pub renews_checks: bool,
    /// The versions its build grades from its own code (each compiled kata's content and
    /// grading hash): a job whose version is not stored as a package goes to it only when its
    /// version is one of these, so a rolling deploy never grades one build's version with
    /// another's code. Workers from before say nothing (`None`) and take such jobs as they did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiled: Option<Vec<String>>,
}

impl Capabilities {
    /// Whether this worker runs the sandbox checks of a function package, a GPU kata's
    /// (`gpu`) or a CPU kata's.
    pub fn checks(&self, gpu: bool) -> bool {
        self.package_checks && self.function_packages && (!gpu || self.runs_gpu_checks())
    }

    /// Whether it runs a GPU kata's checks: it has a device and grades GPU packages.
    pub fn runs_gpu_checks(&self) -> bool {
        self.gpu.is_some() && self.gpu_packages
    }

    /// The kinds of published package this worker grades.
    pub fn package_kinds(&self) -> super::jobs::PackageKinds {
        super::jobs::PackageKinds {
            io: self.packages,
            function: self.function_packages,
            gpu: self.gpu_packages,
        }
    }
}

/// A worker seen this recently counts as connected (remote workers long-poll every ≤ 60 s;
/// built-in ones every 5 s).
pub const CONNECTED_MS: i64 = 60_000;

pub async fn seen(
    db: &Db,
    id: &str,
    name: &str,
    caps: &Capabilities,
    builtin: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO workers (id, name, capabilities, builtin, last_seen) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, capabilities = excluded.capabilities,
           last_seen = excluded.last_seen",
    )
    .bind(id)
    .bind(name)
    .bind(serde_json::to_string(caps).map_err(|e| sqlx::Error::Encode(Box::new(e)))?)
    .bind(i64::from(builtin))
    .bind(now_ms())
    .execute(db)
    .await?;
    Ok(())
}

/// A worker as the admin page lists it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub id: String,
    pub name: String,
    pub capabilities: Option<Capabilities>,
    pub builtin: bool,
    pub last_seen: i64,
}

/// Every worker ever seen, most recently seen first.
pub async fn list(db: &Db) -> Result<Vec<Seen>, sqlx::Error> {
    // Flags are 0/1 integers on both backends (`Any` decodes no SQLite boolean).
    let rows: Vec<(String, String, String, i64, i64)> = sqlx::query_as(
        "SELECT id, name, capabilities, builtin, last_seen FROM workers ORDER BY last_seen DESC",
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, caps, builtin, last_seen)| Seen {
            id,
            name,
            capabilities: serde_json::from_str(&caps).ok(),
            builtin: builtin != 0,
            last_seen,
        })
        .collect())
}

/// Whether a worker advertising `kind` was seen within the last [`CONNECTED_MS`].
pub async fn kind_connected(db: &Db, kind: JobKind) -> Result<bool, sqlx::Error> {
    able_connected(db, kind, Held::Unknown).await
}

/// How a job's version is held, for which workers can grade it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held<'a> {
    /// Stored as a package: a GPU job's then goes only to a worker grading GPU packages.
    Stored,
    /// Not stored, with its content and grading hashes: a worker whose hello names the
    /// versions compiled into it must name one of them ([`Capabilities::compiled`]).
    Unstored([&'a str; 2]),
    /// No version recorded (work from before versions).
    Unknown,
}

/// [`kind_connected`], of a worker that would also take a job whose version is `held` so.
pub async fn able_connected(db: &Db, kind: JobKind, held: Held<'_>) -> Result<bool, sqlx::Error> {
    let able = |c: &Capabilities| {
        c.kinds.contains(&kind)
            && match (held, &c.compiled) {
                (Held::Stored, _) => kind != JobKind::Gpu || c.gpu_packages,
                (Held::Unstored(hashes), Some(compiled)) => {
                    compiled.iter().any(|h| hashes.contains(&&**h))
                }
                _ => true,
            }
    };
    any_connected(db, able).await
}

/// Whether a worker that would run the sandbox checks of a function package (a GPU kata's:
/// `gpu`) was seen within the last [`CONNECTED_MS`].
pub async fn checker_connected(db: &Db, gpu: bool) -> Result<bool, sqlx::Error> {
    any_connected(db, |c| c.checks(gpu)).await
}

/// Whether a worker seen within the last [`CONNECTED_MS`] has capabilities that `able` takes
/// (one whose capabilities cannot be read never does).
async fn any_connected(db: &Db, able: impl Fn(&Capabilities) -> bool) -> Result<bool, sqlx::Error> {
    let caps: Vec<String> =
        sqlx::query_scalar("SELECT capabilities FROM workers WHERE last_seen >= $1")
            .bind(now_ms() - CONNECTED_MS)
            .fetch_all(db)
            .await?;
    Ok(caps
        .iter()
        .any(|c| serde_json::from_str::<Capabilities>(c).is_ok_and(|c| able(&c))))
}
