//! The remote worker protocol's bodies (JSON), shared by the server's side
//! (`routes::worker_api`) and the worker's (`worker::remote`), so neither imports the other.
//! The hello a worker opens with is `queue::WorkerHello`.

use crate::db::submissions::State;
use crate::domain::SubmissionId;
use crate::services::publishing_function::Sandboxed;
use graders::{GradeReport, Measured};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Heartbeat {
    #[schema(value_type = i64)]
    pub submission_id: SubmissionId,
    pub lease_token: String,
    pub stage: Option<State>,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Finished {
    pub lease_token: String,
    /// The report `infrakata grade --json` prints (see README).
    #[schema(value_type = Object)]
    pub report: GradeReport,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Measurement {
    pub lease_token: String,
    /// `{"figure": Performance}` or `{"missing": why}`.
    #[schema(value_type = Object)]
    pub measured: Measured,
}

/// The stored function versions whose custom-input examples no judge has made yet: a worker
/// makes them where no replica runs a grader (`worker::examples`).
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AwaitingExamples {
    /// Content hashes, the live versions first.
    pub content_hashes: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Released {
    pub lease_token: String,
    pub error: String,
}

/// How a worker's run of a package's sandbox checks ended (`db::package_checks`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    /// The checks ran (`publishing_function::Sandboxed`); a failing row is the package's.
    Checked(Sandboxed),
    /// The worker could not run them: ours, not the package's.
    Failed { error: String },
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CheckAnswer {
    pub lease_token: String,
    /// `{"checked": {"checks": [...], "passed": bool, "input_examples": string|null}}` or
    /// `{"failed": {"error": string}}`.
    #[schema(value_type = Object)]
    pub outcome: CheckOutcome,
}

/// A worker renewing its lease on a check while it runs it.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CheckBeat {
    pub lease_token: String,
}

#[derive(Debug, Serialize, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CheckLease {
    /// The lease token the claim returned.
    pub lease: String,
}
