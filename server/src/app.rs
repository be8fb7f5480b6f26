//! Starting the service: database, catalogue sync, HTTP server, built-in workers. Used by
//! `infrakata serve` and by the integration tests (on port 0 with a fresh database file).

use crate::db;
use crate::queue::WorkerHello;
use crate::routes;
use crate::state::{AppState, ServerConfig};
use crate::worker::{self, LocalSource};
use anyhow::Context as _;
use graders::Grader;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::task::JoinHandle;

#[derive(Debug, Clone)]
pub struct AppConfig {
    pub addr: SocketAddr,
    pub db_path: PathBuf,
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

/// Opens the database, syncs the catalogue, binds, and starts serving and grading.
/// `grader: None` runs no built-in worker: jobs wait for remote workers.
pub async fn start(config: AppConfig, grader: Option<Arc<Grader>>) -> anyhow::Result<App> {
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
    let db = db::open(&config.db_path)
        .await
        .with_context(|| format!("opening the database {}", config.db_path.display()))?;
    db::katas::sync(&db)
        .await
        .context("syncing the catalogue")?;
    let state = AppState::new(db, config.server.clone());
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("binding {}", config.addr))?;
    let addr = listener.local_addr()?;
    let router = routes::router(state.clone());
    let mut tasks = vec![
        tokio::spawn(crate::edge::serve(listener, router, edge)),
        tokio::spawn(crate::queue::expire_waiting(state.clone())),
    ];
    if let Some(grader) = grader {
        for i in 0..config.workers {
            let source = Arc::new(LocalSource {
                state: state.clone(),
                hello: WorkerHello {
                    worker_id: format!("builtin-{}-{i}", std::process::id()),
                    name: format!("built-in #{i}"),
                    capabilities: worker::capabilities(i),
                },
            });
            let grader = Arc::clone(&grader);
            tasks.push(tokio::spawn(worker::run(source, grader)));
        }
    }
    Ok(App { addr, state, tasks })
}
