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
    let grader = Arc::new(grader);
    prepare_katas_meanwhile(Arc::clone(&grader));
    let grader: Arc<dyn Grade> = grader;
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
        loops.push(tokio::spawn(worker::run(
            Arc::clone(&source),
            Arc::clone(&grader),
        )));
        // Where no replica runs a grader, the custom-input examples are made here.
        loops.push(tokio::spawn(worker::fill_examples(source, grader)));
        tracing::info!("{parallel} worker loop(s) and one measuring loop pulling from {server}");
        for l in loops {
            l.await?;
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// Builds the programs of the build's own katas on a thread of their own while jobs are
/// already taken: a learner's first verdict on a kata then finds them built.
pub(super) fn prepare_katas_meanwhile(grader: Arc<Grader>) {
    std::thread::spawn(move || {
        let started = std::time::Instant::now();
        let failed = grader.prepare_builtin();
        for (slug, e) in &failed {
            tracing::warn!("kata `{slug}` could not be prepared: {e}");
        }
        tracing::info!(
            "the build's katas prepared in {:.1} s ({} failed)",
            started.elapsed().as_secs_f64(),
            failed.len()
        );
    });
}
