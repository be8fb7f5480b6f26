//! Starting the service: database, catalogue sync, HTTP server, built-in workers. Used by
//! `infrakata serve` and by the integration tests (on port 0 with a fresh database file).

use crate::db;
use crate::domain::JobPhase;
use crate::error::AppError;
use crate::grader_slot::GraderSlot;
use crate::queue::WorkerHello;
use crate::state::{AppState, ServerConfig};
use crate::worker::{self, LocalSource};
use crate::{auth, pages, routes};
use anyhow::Context as _;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::task::JoinHandle;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

/// Largest request body accepted (a 64 KiB source plus JSON escaping).
pub const BODY_LIMIT: usize = 512 << 10;

/// Scripts and styles only from our own files (no inline script anywhere), no framing, no
/// plugins, forms and fetches to ourselves only.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The whole HTTP surface: the JSON API and the pages, behind the layers every response
/// passes (HTML errors outside `/api/`, the CSRF cookie, body and time limits, security headers).
pub fn router(state: AppState) -> Router {
    let header = |name, value: &'static str| {
        SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
    };
    let request_timeout = state.config.edge.request_timeout;
    routes::router()
        .merge(pages::router())
        .fallback(|| async {
            AppError::NotFound("nothing here: check the address".into())
                .zh("这里什么也没有：请检查地址")
        })
        .layer(middleware::from_fn_with_state(
            state.clone(),
            pages::html_errors,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            auth::csrf_cookie,
        ))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // A request body trickled in byte by byte cannot hold a handler for longer than this.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            request_timeout,
        ))
        .layer(header(CONTENT_SECURITY_POLICY, CSP))
        .layer(header(X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header(X_FRAME_OPTIONS, "DENY"))
        .layer(header(REFERRER_POLICY, "same-origin"))
        .with_state(state)
}

#[derive(Debug, Clone)]
pub struct AppConfig {
    pub addr: SocketAddr,
    /// A SQLite file or a PostgreSQL URL.
    pub db: db::Location,
    /// Built-in workers (each grades one submission at a time).
    pub workers: usize,
    pub server: ServerConfig,
}

/// A running service.
#[derive(Debug)]
pub struct App {
    pub addr: SocketAddr,
    pub state: AppState,
    tasks: Vec<JoinHandle<()>>,
}

impl App {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops serving (open connections are dropped) and the built-in workers (their leases
    /// expire and other workers retry).
    pub fn stop(self) {
        for t in self.tasks {
            t.abort();
        }
    }
}

/// Runs `workers` verdict loops and a measuring loop once the grader is ready (none without a
/// grader), for as long as this task runs: aborting it ends them.
async fn built_in_workers(state: AppState, workers: usize) {
    let Some(grader) = state.grader.get().await else {
        return;
    };
    let mut loops = tokio::task::JoinSet::new();
    let hello = |id: String, name: String, capabilities, phase| {
        Arc::new(LocalSource {
            state: state.clone(),
            hello: WorkerHello {
                worker_id: format!("builtin-{}-{id}", std::process::id()),
                name,
                capabilities,
                phase,
            },
        })
    };
    for i in 0..workers {
        let source = hello(
            i.to_string(),
            format!("built-in #{i}"),
            worker::capabilities(i),
            JobPhase::Verdict,
        );
        loops.spawn(worker::run(source, Arc::clone(&grader)));
    }
    // Measurements have a loop of their own: no verdict waits behind one.
    let source = hello(
        "measuring".into(),
        "built-in measuring".into(),
        worker::measuring_capabilities(),
        JobPhase::Measure,
    );
    loops.spawn(worker::run(source, grader));
    while loops.join_next().await.is_some() {}
}

/// Opens the database, syncs the catalogue, binds, and starts serving, and grading once the
/// grader is ready. No grader (`None`) runs no built-in worker: jobs wait for remote workers.
pub async fn start(config: AppConfig, grader: GraderSlot) -> anyhow::Result<App> {
    let edge = config.server.edge.clone();
    // A worker's long poll must end before its connection is taken for idle or timed out.
    anyhow::ensure!(
        edge.idle_timeout > config.server.long_poll
            && edge.request_timeout > config.server.long_poll,
        "the idle and request timeouts ({:?}, {:?}) must exceed the workers' long poll ({:?})",
        edge.idle_timeout,
        edge.request_timeout,
        config.server.long_poll
    );
    anyhow::ensure!(
        edge.request_timeout > config.server.publish_wait,
        "the request timeout ({:?}) must exceed the wait for an upload's checks ({:?})",
        edge.request_timeout,
        config.server.publish_wait
    );
    let db = db::open(config.db.clone())
        .await
        .with_context(|| format!("opening the database {}", config.db))?;
    let synced = db::katas::sync(&db)
        .await
        .context("syncing the catalogue")?;
    if let db::katas::Synced::Older { stored } = synced {
        tracing::warn!(
            ours = db::katas::GENERATION,
            stored,
            "a newer catalogue is listed: serving without changing the listing"
        );
    }
    let state = AppState::new(db, config.server.clone(), grader.clone());
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("binding {}", config.addr))?;
    let addr = listener.local_addr()?;
    let router = router(state.clone());
    let mut tasks = vec![
        tokio::spawn(crate::edge::serve(listener, router, edge)),
        tokio::spawn(crate::queue::expire_waiting(state.clone())),
        tokio::spawn(crate::services::examples::fill(
            state.db.clone(),
            grader.clone(),
        )),
    ];
    if let db::Location::Postgres(url) = &config.db {
        tasks.push(tokio::spawn(crate::cross_replica::run(
            url.clone(),
            state.clone(),
        )));
    }
    if config.workers > 0 {
        tasks.push(tokio::spawn(built_in_workers(
            state.clone(),
            config.workers,
        )));
    }
    Ok(App { addr, state, tasks })
}
