//! What every handler and the built-in workers share.

use crate::db::Db;
use crate::db::submissions::State;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
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
        }
    }
}

/// A submission moved on; SSE streams and long polls listen for these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub submission_id: i64,
    pub state: State,
}

#[derive(Debug, Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<ServerConfig>,
    pub events: broadcast::Sender<Event>,
    /// Woken when a job is queued or released, so waiting claims look again at once.
    pub jobs_waiting: Arc<Notify>,
    /// Per-user submission rate limit (GCRA, in memory: a restart forgives everyone).
    pub submission_limit: Arc<DefaultKeyedRateLimiter<i64>>,
}

impl AppState {
    pub fn new(db: Db, config: ServerConfig) -> Self {
        let quota =
            Quota::per_minute(config.submissions_per_minute).allow_burst(config.submission_burst);
        Self {
            submission_limit: Arc::new(RateLimiter::keyed(quota)),
            db,
            config: Arc::new(config),
            events: broadcast::channel(1024).0,
            jobs_waiting: Arc::new(Notify::new()),
        }
    }

    pub fn publish(&self, submission_id: i64, state: State) {
        // No listener is fine: the state is in the database either way.
        let _ = self.events.send(Event {
            submission_id,
            state,
        });
    }

    pub fn lease_ms(&self) -> i64 {
        self.config.lease.as_millis() as i64
    }
}
