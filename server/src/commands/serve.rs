//! `infrakata serve`: the web service with its built-in grading workers.

use crate::app::{self, AppConfig};
use crate::cli::EdgeArgs;
use crate::db::Location;
use crate::grader_slot::GraderSlot;
use crate::state::ServerConfig;
use graders::{Grade, Grader, GraderConfig};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

pub fn run(
    addr: SocketAddr,
    db: Location,
    workers: Option<usize>,
    worker_token: Option<String>,
    secure_cookies: bool,
    max_queue_wait: Duration,
    edge: EdgeArgs,
) -> anyhow::Result<ExitCode> {
    super::init_tracing();
    super::runtime()?.block_on(async move {
        let workers = workers.unwrap_or_else(super::cores);
        tracing::info!(
            "preparing the grader (the first start builds the kata library); serving meanwhile"
        );
        let grader = GraderSlot::preparing(move || prepare_grader(workers));
        let mut server = ServerConfig {
            secure_cookies,
            max_queue_wait,
            ..ServerConfig::default()
        };
        if let Some(token) = worker_token {
            server.worker_token = token;
        }
        if let Some(n) = edge.max_connections {
            server.edge.max_connections = n;
        }
        if let Some(s) = edge.header_read_timeout {
            server.edge.header_read_timeout = Duration::from_secs(s);
        }
        if let Some(s) = edge.idle_timeout {
            server.edge.idle_timeout = Duration::from_secs(s);
        }
        let token = server.worker_token.clone();
        let config = AppConfig {
            addr,
            db,
            workers,
            server,
        };
        // Registered before serving: once connections have taken every descriptor, setting up
        // the signal handler would fail and end the process.
        let mut interrupt =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
        let app = app::start(config, grader).await?;
        println!("InfraKata is serving on {}", app.url());
        println!(
            "remote workers: infrakata worker --server {} --token {token}",
            app.url()
        );
        interrupt.recv().await;
        app.stop();
        Ok(ExitCode::SUCCESS)
    })
}

/// This replica's grader, or none where the sandbox is unavailable. Even with no built-in
/// workers a replica verifies a package in the sandbox before publishing it, so it prepares the
/// grader wherever the sandbox is available.
fn prepare_grader(workers: usize) -> Option<Arc<dyn Grade>> {
    let started = std::time::Instant::now();
    match Grader::new(GraderConfig::for_checkout()) {
        Ok(grader) => {
            tracing::info!(
                "grader ready in {:.1} s; sandbox: {}",
                started.elapsed().as_secs_f64(),
                grader.describe()
            );
            let grader = Arc::new(grader);
            if workers > 0 {
                super::worker::prepare_katas_meanwhile(Arc::clone(&grader));
            }
            Some(grader)
        }
        Err(e) if workers == 0 => {
            tracing::warn!(
                "no sandbox here: packages cannot be published through this replica: {e}"
            );
            None
        }
        Err(e) => {
            tracing::warn!(
                "built-in workers disabled, submissions wait for a remote worker, and \
                 packages cannot be published through this replica: {e}"
            );
            None
        }
    }
}
