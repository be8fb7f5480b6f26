//! `infrakata serve`: the web service with its built-in grading workers.

use crate::app::{self, AppConfig};
use crate::state::ServerConfig;
use graders::{Grader, GraderConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

pub fn run(
    addr: SocketAddr,
    db_path: PathBuf,
    workers: Option<usize>,
    worker_token: Option<String>,
    secure_cookies: bool,
) -> anyhow::Result<ExitCode> {
    super::init_tracing();
    super::runtime()?.block_on(async move {
        let workers = workers.unwrap_or_else(super::cores);
        let grader = if workers == 0 {
            None
        } else {
            tracing::info!("preparing the grader (the first start builds the kata library)…");
            match tokio::task::spawn_blocking(|| Grader::new(GraderConfig::for_checkout())).await? {
                Ok(grader) => {
                    tracing::info!("sandbox: {}", grader.describe());
                    Some(Arc::new(grader))
                }
                Err(e) => {
                    tracing::warn!(
                        "built-in workers disabled, submissions wait for a remote worker: {e}"
                    );
                    None
                }
            }
        };
        let mut server = ServerConfig {
            secure_cookies,
            ..ServerConfig::default()
        };
        if let Some(token) = worker_token {
            server.worker_token = token;
        }
        let token = server.worker_token.clone();
        let config = AppConfig {
            addr,
            db_path,
            workers,
            server,
        };
        let app = app::start(config, grader).await?;
        println!("InfraKata is serving on {}", app.url());
        println!(
            "remote workers: infrakata worker --server {} --token {token}",
            app.url()
        );
        tokio::signal::ctrl_c().await?;
        app.stop();
        Ok(ExitCode::SUCCESS)
    })
}
