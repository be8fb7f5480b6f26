//! Submission events between replicas on PostgreSQL. Events are per process (a broadcast in
//! [`AppState`]); this task forwards the replica's own events with `NOTIFY` and turns other
//! replicas' into local ones, so an SSE stream here hears at once about a verdict a worker gave
//! to another replica, and a claim waiting here wakes for a job queued there. Best effort: a
//! notification lost while the listener reconnects is still seen by the streams' poll
//! (`routes::submissions::CROSS_REPLICA_POLL`) and the claims' 500 ms nap.

use crate::db::users::random_secret;
use crate::domain::{State, SubmissionId, Word as _};
use crate::state::{AppState, Event};
use sqlx::postgres::PgListener;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

const CHANNEL: &str = "infrakata_events";

pub async fn run(url: String, state: AppState) {
    let me = random_secret("replica_");
    let mut local = state.events.subscribe();
    let mut listener = loop {
        match listen(&url).await {
            Ok(l) => break l,
            Err(e) => {
                tracing::warn!("listening for other replicas' events failed: {e}; retrying");
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }
    };
    loop {
        tokio::select! {
            event = local.recv() => match event {
                Ok(e) if !e.remote => {
                    let payload = format!("{me} {} {}", e.submission_id, e.state.name());
                    let sent = sqlx::query("SELECT 1 FROM pg_notify($1, $2)")
                        .bind(CHANNEL)
                        .bind(payload)
                        .execute(&state.db)
                        .await;
                    if let Err(e) = sent {
                        tracing::warn!("telling other replicas about an event failed: {e}");
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            note = listener.recv() => match note {
                Ok(note) => {
                    if let Some(e) = parse(note.payload(), &me) {
                        if e.state == State::Queued {
                            state.jobs_waiting.notify_waiters();
                        }
                        let _ = state.events.send(e);
                    }
                }
                // `recv` reconnects on its next call.
                Err(e) => {
                    tracing::warn!("the event listener lost PostgreSQL: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            },
        }
    }
}

async fn listen(url: &str) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// `"<origin> <submission id> <state>"` from another replica; our own come back too and are
/// dropped.
fn parse(payload: &str, me: &str) -> Option<Event> {
    let mut parts = payload.split(' ');
    let (origin, id, state) = (parts.next()?, parts.next()?, parts.next()?);
    if origin == me {
        return None;
    }
    Some(Event {
        submission_id: SubmissionId(id.parse().ok()?),
        state: State::from_name(state)?,
        remote: true,
    })
}

#[cfg(test)]
mod tests {
    use super::SubmissionId;

    #[test]
    fn payloads_from_others_parse_and_our_own_are_dropped() {
        let e = super::parse("replica_b 42 done", "replica_a").unwrap();
        assert_eq!(
            (e.submission_id, e.state, e.remote),
            (SubmissionId(42), super::State::Done, true)
        );
        assert!(super::parse("replica_a 42 done", "replica_a").is_none());
        assert!(super::parse("replica_b x done", "replica_a").is_none());
        assert!(super::parse("replica_b 42 bogus", "replica_a").is_none());
    }
}
