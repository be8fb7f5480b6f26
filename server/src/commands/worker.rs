//! `infrakata worker`: a remote worker pulling jobs from a server over HTTP.

use crate::domain::JobPhase;
use crate::queue::WorkerHello;
use crate::worker::{self, RemoteSource};
use anyhow::Context as _;
use graders::{Grade, Grader, GraderConfig};
use std::process::ExitCode;
use std::sync::Arc;

pub fn run(server: &str, token: &str, parallel: Option<usize>) -> anyhow::Result<ExitCode> {
    super::init_tracing();
    let grader = Grader::new(GraderConfig::for_checkout()).context("starting the grader")?;
    tracing::info!("sandbox: {}", grader.describe());
    let grader: Arc<dyn Grade> = Arc::new(grader);
    let parallel = parallel.unwrap_or_else(super::cores).max(1);
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    super::runtime()?.block_on(async move {
        let mut loops = Vec::new();
        for i in 0..parallel {
            let hello = WorkerHello {
                worker_id: format!("{}-{}-{i}", host.trim(), std::process::id()),
                name: format!("{} #{i}", host.trim()),
                capabilities: worker::capabilities(i),
                phase: JobPhase::Verdict,
            };
            let source = Arc::new(RemoteSource::new(server, token, hello));
            loops.push(tokio::spawn(worker::run(source, Arc::clone(&grader))));
        }
        // Measurements have a loop of their own: no verdict waits behind one.
        let hello = WorkerHello {
            worker_id: format!("{}-{}-measuring", host.trim(), std::process::id()),
            name: format!("{} measuring", host.trim()),
            capabilities: worker::measuring_capabilities(),
            phase: JobPhase::Measure,
        };
        let source = Arc::new(RemoteSource::new(server, token, hello));
        loops.push(tokio::spawn(worker::run(source, Arc::clone(&grader))));
        tracing::info!("{parallel} worker loop(s) and one measuring loop pulling from {server}");
        for l in loops {
            l.await?;
        }
        Ok(ExitCode::SUCCESS)
    })
}
