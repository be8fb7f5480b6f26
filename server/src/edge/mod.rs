//! The HTTP edge: our own accept loop in front of the router. `axum::serve` has no header-read
//! timeout, no idle timeout and no connection cap, so 20 000 half-open connections used to take
//! every file descriptor and the service stopped answering. Here every connection:
//!
//! - is admitted by [`Connections`] (at most `max_connections`; at the cap a new connection
//!   replaces the one that has waited longest for a request head, else the oldest event stream,
//!   or is answered 503 and closed when every connection is answering an ordinary request),
//! - must deliver each request head within `header_read_timeout` (hyper's timer, which also
//!   closes a keep-alive connection idle that long),
//! - is closed after `idle_timeout` without a byte moving either way ([`activity`]),
//! - carries its peer address as [`axum::extract::ConnectInfo`] (the log-in throttle's key).
//!
//! A failed `accept` (EMFILE when something else holds the descriptors) is logged and retried
//! after a pause: the loop itself never ends. HTTP/1.1 only.
//!
//! # Threat model
//!
//! Anyone can open connections and send requests. Each limit lives in one place:
//!
//! | attack | limit | where |
//! |---|---|---|
//! | half-open connections (slowloris), idle keep-alive | header-read timeout (10 s) | `edge::serve` (hyper's timer) |
//! | a stalled body, a client that stops reading | idle timeout (60 s); handler timeout → 408 (60 s) | `edge::activity`; `TimeoutLayer` in `app::router` |
//! | descriptor exhaustion | connection cap (¾ of `RLIMIT_NOFILE`), longest-waiting evicted, else the oldest event stream, 503 when all answer ordinary requests; EMFILE retried, never fatal | `edge::connections`, `edge::serve` |
//! | large bodies | 512 KiB (`app::BODY_LIMIT`; a package upload 4 MiB on its own route) | `DefaultBodyLimit` in `app::router` |
//! | accounts holding every connection with streams | SSE streams: 8 per user, 32 per address, at most half the connection cap in all → 429 (pages, health and workers keep the other half) | `stream_limit`, `routes::submissions::events`, `edge::connections` |
//! | password guessing | failed log-ins: 5 per account, then 1/min; 20 per address, then 1/10 s → 429 + `Retry-After` | `login_throttle`, `pages::accounts::login` |
//! | session rows from repeated log-ins | 20 live sessions per user; a new log-in ends the oldest | `db::sessions::create` |
//! | open redirect after log-in | same-origin paths only | `pages::next` |
//! | submission floods | 30 a minute per user, bursts of 10 → 429 + `Retry-After` | `services::write_budget`, `db::allowance` |
//! | drill-attempt and interview floods | per user: drill attempts 60 a minute, bursts of 20; interviews 10 an hour, 3 at once; at most 100 unanswered attempts → 429 + `Retry-After` (one interval, an upper bound), nothing stored | `services::write_budget`, `services::drills::store_attempts` |
//!
//! Behind a reverse proxy every client has the proxy's address: the per-address log-in limit then
//! counts everyone together (no `X-Forwarded-For` is trusted).

mod activity;
mod connections;

use activity::Activity;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use connections::{Connections, Ticket};
use http_body_util::BodyExt as _;
use hyper::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tower::ServiceExt as _;

/// The edge's limits (part of [`crate::state::ServerConfig`]).
#[derive(Debug, Clone)]
pub struct EdgeConfig {
    /// A request head (request line and headers) must arrive within this, counted from the
    /// connection opening or from the end of the previous response — so it is also how long an
    /// idle keep-alive connection is kept. Default 10 s.
    pub header_read_timeout: Duration,
    /// A connection on which no byte moves either way for this long is closed: a stalled body
    /// upload, a client that stopped reading. Longer than a worker's long poll and the SSE
    /// keep-alive (15 s). Default 60 s.
    pub idle_timeout: Duration,
    /// A handler (reading the request body included) must answer within this, else 408. An SSE
    /// stream, once answered, is not limited by it. Longer than a worker's long poll. Default 60 s.
    pub request_timeout: Duration,
    /// Connections open at once. Default: three quarters of the open-file limit
    /// (`RLIMIT_NOFILE`), keeping at least 256 descriptors for the database, the sandbox and the
    /// workers, between 32 and 16 384.
    pub max_connections: usize,
}

impl Default for EdgeConfig {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(60),
            max_connections: max_connections_for_fd_limit(),
        }
    }
}

/// Sized from the soft open-file limit: the rest of the process needs descriptors too.
pub fn max_connections_for_fd_limit() -> usize {
    use nix::sys::resource::{Resource, getrlimit};
    let soft = getrlimit(Resource::RLIMIT_NOFILE).map_or(1024, |(soft, _)| soft);
    let reserve = (soft / 4).max(256);
    soft.saturating_sub(reserve).clamp(32, 16_384) as usize
}

/// What a connection refused at the cap reads before it is closed.
const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\
content-type: text/plain\r\ncontent-length: 36\r\n\r\ntoo many connections: retry shortly\n";

/// Serves `router` on `listener` until the task is aborted; aborting also drops every open
/// connection (they live in this task's [`JoinSet`]).
pub async fn serve(listener: TcpListener, router: Router, config: EdgeConfig) {
    let connections = Arc::new(Connections::new(config.max_connections));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout);
    let mut open = JoinSet::new();
    let mut last_complaint: Option<Instant> = None;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            Some(_) = open.join_next(), if !open.is_empty() => continue,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                accept_failed(&e, &mut last_complaint).await;
                continue;
            }
        };
        // Server-sent events are small writes close together: without this, Nagle holds the
        // next one until the client acknowledges the last, which a delayed ACK makes ~40 ms.
        let _ = stream.set_nodelay(true);
        let Some(ticket) = connections.admit() else {
            // Best effort: the socket buffer of a fresh connection takes these bytes at once.
            let _ = stream.try_write(FULL);
            continue;
        };
        open.spawn(connection(
            stream,
            peer,
            ticket,
            router.clone(),
            http.clone(),
            config.idle_timeout,
        ));
    }
}

/// A connection that failed before we saw it is the client's business; anything else (EMFILE,
/// ENFILE, ENOBUFS) is ours: say so (at most once a second) and give descriptors a moment to
/// come back.
async fn accept_failed(e: &std::io::Error, last_complaint: &mut Option<Instant>) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    if last_complaint.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
        tracing::error!("accepting a connection failed (retrying): {e}");
        *last_complaint = Some(Instant::now());
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    ticket: Ticket,
    router: Router,
    http: http1::Builder,
    idle_timeout: Duration,
) {
    let close = ticket.close_signal();
    let ticket = Arc::new(ticket);
    let (io, activity): (_, Activity) = activity::watch(stream);
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        // Until the response body is finished this connection is busy, not a candidate for
        // eviction (an SSE stream stays busy for its whole life).
        let busy = ticket.request_started();
        let response = router.clone().oneshot(req.map(Body::new));
        async move {
            let response = response.await?;
            if is_event_stream(&response) {
                busy.streaming();
            }
            Ok::<_, Infallible>(response.map(move |body| {
                Body::new(body.map_frame(move |frame| {
                    let _still_busy = &busy;
                    frame
                }))
            }))
        }
    });
    let served = http.serve_connection(TokioIo::new(io), service);
    tokio::select! {
        result = served => {
            if let Err(e) = result {
                tracing::debug!("connection from {peer} ended: {e}");
            }
        }
        () = close.notified() => tracing::debug!("connection from {peer} evicted at the cap"),
        () = activity.idle_for(idle_timeout) => tracing::debug!("connection from {peer} idle"),
    }
}

fn is_event_stream<B>(response: &hyper::Response<B>) -> bool {
    response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_refusal_is_a_well_formed_response() {
        let text = std::str::from_utf8(super::FULL).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{text}"
        );
    }
}
