//! What every handler and the built-in workers share.

use crate::db::Db;
use crate::db::allowance::Budget;
use crate::db::submissions::State;
use crate::domain::SubmissionId;
use crate::edge::EdgeConfig;
use crate::login_throttle::{FailureQuota, LoginThrottle};
use crate::stream_limit::{StreamLimit, StreamQuota};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, broadcast};

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// How long a worker holds a job without a heartbeat.
    pub lease: Duration,
    /// Secret remote workers present (`Authorization: Bearer …`).
    pub worker_token: String,
    /// How long a worker's claim waits for a job before answering "none".
    pub long_poll: Duration,
    /// Mark cookies `Secure` (browsers then send them over HTTPS only): set when served behind TLS.
    pub secure_cookies: bool,
    /// Submissions a user may make per minute, sustained…
    pub submissions_per_minute: NonZeroU32,
    /// …and at once.
    pub submission_burst: NonZeroU32,
    /// Drill attempts a user may start outside interviews: 20 at once, then 60 a minute.
    pub drill_attempt_budget: Budget,
    /// Interviews a user may start: 3 at once, then 10 an hour.
    pub interview_budget: Budget,
    /// Kata packages a staff member may upload: 10 at once, then 30 an hour.
    pub kata_upload_budget: Budget,
    /// Rejudges a staff member may start (each up to 5,000 jobs): 3 at once, then 10 an hour.
    pub rejudge_budget: Budget,
    /// Live event streams (SSE) one user may hold at once…
    pub event_streams_per_user: usize,
    /// …and one client address (an IPv6 /64), whatever accounts it uses. In all, streams may
    /// hold at most half of `edge.max_connections`.
    pub event_streams_per_address: usize,
    /// Failed log-ins per account name: 5 at once, then one a minute.
    pub login_failures_per_account: FailureQuota,
    /// Failed log-ins per client address (an IPv6 /64): 20 at once, then one every 10 s.
    pub login_failures_per_address: FailureQuota,
    /// New accounts per client address (an IPv6 /64): 5 at once, then one every 10 minutes.
    pub sign_ups_per_address: FailureQuota,
    /// Timeouts and the connection cap of the HTTP server.
    pub edge: EdgeConfig,
    /// How long a submission may wait in the queue for a worker that can grade it (a GPU kata
    /// with no GPU worker connected) before it ends, withdrawn, as not graded.
    pub max_queue_wait: Duration,
    /// How long an upload's request waits for its checks before answering "checking" (the
    /// report then comes at the upload's address): under the edge's request timeout; zero
    /// answers "checking" at once.
    pub publish_wait: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            lease: Duration::from_secs(30),
            worker_token: crate::db::users::random_secret("wk_"),
            long_poll: Duration::from_secs(20),
            secure_cookies: false,
            submissions_per_minute: NonZeroU32::new(30).expect("non-zero"),
            submission_burst: NonZeroU32::new(10).expect("non-zero"),
            drill_attempt_budget: Budget::per_minute(non_zero(60), non_zero(20)),
            interview_budget: Budget::per_hour(non_zero(10), non_zero(3)),
            kata_upload_budget: Budget::per_hour(non_zero(30), non_zero(10)),
            rejudge_budget: Budget::per_hour(non_zero(10), non_zero(3)),
            event_streams_per_user: 8,
            event_streams_per_address: 32,
            login_failures_per_account: FailureQuota {
                burst: 5,
                every: Duration::from_secs(60),
            },
            login_failures_per_address: FailureQuota {
                burst: 20,
                every: Duration::from_secs(10),
            },
            sign_ups_per_address: FailureQuota {
                burst: 5,
                every: Duration::from_secs(600),
            },
            edge: EdgeConfig::default(),
            max_queue_wait: Duration::from_secs(15 * 60),
            publish_wait: Duration::from_secs(40),
        }
    }
}

fn non_zero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).expect("non-zero")
}

/// A submission moved on; SSE streams and long polls listen for these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub submission_id: SubmissionId,
    pub state: State,
    /// Heard from another replica (`cross_replica`), so not forwarded again.
    pub remote: bool,
}

#[derive(Debug, Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<ServerConfig>,
    pub events: broadcast::Sender<Event>,
    /// Woken when a job is queued or released, so waiting claims look again at once.
    pub jobs_waiting: Arc<Notify>,
    pub event_streams: Arc<StreamLimit>,
    pub login_throttle: Arc<LoginThrottle>,
    /// The grader of this replica's built-in workers, which also verifies a package before it
    /// is published; absent on a replica that only serves (remote workers), and perhaps still
    /// being prepared just after start.
    pub grader: crate::grader_slot::GraderSlot,
}

impl AppState {
    pub fn new(db: Db, config: ServerConfig, grader: crate::grader_slot::GraderSlot) -> Self {
        Self {
            event_streams: Arc::new(StreamLimit::new(StreamQuota {
                per_user: config.event_streams_per_user,
                per_address: config.event_streams_per_address,
                total: (config.edge.max_connections / 2).max(1),
            })),
            login_throttle: Arc::new(LoginThrottle::new(
                db.clone(),
                config.login_failures_per_account,
                config.login_failures_per_address,
                config.sign_ups_per_address,
            )),
            db,
            config: Arc::new(config),
            events: broadcast::channel(1024).0,
            jobs_waiting: Arc::new(Notify::new()),
            grader,
        }
    }

    pub fn publish(&self, submission_id: SubmissionId, state: State) {
        // No listener is fine: the state is in the database either way.
        let _ = self.events.send(Event {
            submission_id,
            state,
            remote: false,
        });
    }

    pub fn lease_ms(&self) -> i64 {
        self.config.lease.as_millis() as i64
    }
}
