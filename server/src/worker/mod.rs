//! A grading worker: claims a job, grades it with the one grading path (`graders::Grader`,
//! taken as an `Arc<dyn graders::Grade>` so the service's tests can script it), heartbeats
//! while it works, reports the result. The built-in workers and `infrakata worker`
//! run this same loop; only the [`JobSource`] differs (direct calls vs HTTP).

mod checks;
mod examples;
mod local;
mod packages;
mod remote;

pub use examples::fill as fill_examples;
pub use local::LocalSource;
pub use remote::RemoteSource;

use crate::db::jobs::Claimed;
use crate::db::package_checks::Claimed as CheckClaimed;
use crate::db::submissions::State;
use crate::db::workers::Capabilities;
use crate::domain::{JobKind, JobPhase};
use crate::services::packages::Stored;
use crate::worker_wire::CheckOutcome;
use graders::{Grade, GradeReport, Measured, Stage};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Where jobs come from and results go.
pub trait JobSource: Send + Sync + 'static {
    /// Waits a while for a job; `Ok(None)` when none came.
    fn claim(&self) -> impl Future<Output = anyhow::Result<Option<Claimed>>> + Send;
    /// `Ok(false)`: the lease is lost; stop working on the job.
    fn heartbeat(
        &self,
        job: &Claimed,
        stage: State,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    fn finish(
        &self,
        job: &Claimed,
        report: &GradeReport,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    /// The verdict of an accepted submit, whose instruction count becomes a measurement job of
    /// its own: this worker is done with the job. `Ok(false)`: the lease is lost.
    fn hand_over(
        &self,
        job: &Claimed,
        report: &GradeReport,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    /// A measurement job's figure. `Ok(false)`: the lease is lost.
    fn measured(
        &self,
        job: &Claimed,
        measured: &Measured,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    fn release(
        &self,
        job: &Claimed,
        error: &str,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
    /// Takes, without waiting, a package's sandbox checks that a replica left to a worker
    /// like this one (`db::package_checks`); `Ok(None)` when none waits.
    fn claim_check(&self) -> impl Future<Output = anyhow::Result<Option<CheckClaimed>>> + Send;
    /// The candidate archive of a claimed check.
    fn check_archive(
        &self,
        check: &CheckClaimed,
    ) -> impl Future<Output = anyhow::Result<Vec<u8>>> + Send;
    /// Renews the lease on a claimed check while it runs. `Ok(false)`: the lease is lost.
    fn renew_check(
        &self,
        check: &CheckClaimed,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    /// What the checks found. `Ok(false)`: the lease is lost.
    fn answer_check(
        &self,
        check: &CheckClaimed,
        outcome: &CheckOutcome,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send;
    /// The archive of the stored package `content_hash` (a job's `Claimed::package`).
    fn package(&self, content_hash: &str) -> impl Future<Output = anyhow::Result<Vec<u8>>> + Send;
}

/// Heartbeats come at a third of the lease, so one lost beat never costs the job.
fn heartbeat_every(job: &Claimed) -> Duration {
    Duration::from_millis((job.lease_ms / 3).max(100) as u64)
}

/// What worker loop `slot` of this process can grade: always `cpu`; `gpu` too when the probe
/// finds a device — on slot 0 only, so one GPU job at a time runs on the device and its timings
/// are not disturbed by another's kernels.
pub fn capabilities(slot: usize) -> Capabilities {
    static SAID: std::sync::Once = std::sync::Once::new();
    let probed = graders::gpu::probe();
    SAID.call_once(|| match &probed {
        Ok(info) => tracing::info!("GPU found: {info}; GPU jobs run one at a time"),
        Err(why) => tracing::info!("no GPU jobs here: {why}"),
    });
    let gpu = probed.ok().filter(|_| slot == 0);
    let mut kinds = vec![JobKind::Cpu];
    if gpu.is_some() {
        kinds.push(JobKind::Gpu);
    }
    Capabilities {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        kinds,
        gpu,
        packages: true,
        function_packages: true,
        gpu_packages: true,
        package_checks: true,
        renews_checks: true,
        compiled: Some(compiled_versions()),
    }
}

/// What the measuring loop of a worker process takes: CPU measurement jobs only (a GPU kata's
/// device timings come with its verdict).
pub fn measuring_capabilities() -> Capabilities {
    Capabilities {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        kinds: vec![JobKind::Cpu],
        gpu: None,
        packages: true,
        function_packages: true,
        gpu_packages: true,
        package_checks: true,
        renews_checks: true,
        compiled: Some(compiled_versions()),
    }
}

/// The versions this build grades from its own code: each compiled kata's content hash and
/// grading hash (a statement fix of it grades the same).
fn compiled_versions() -> Vec<String> {
    katas::builtin::all()
        .iter()
        .flat_map(|kata| [kata.package().content_hash, kata.package().grading_hash])
        .map(String::from)
        .collect()
}

/// Runs jobs until the source fails for good.
pub async fn run(source: Arc<impl JobSource>, grader: Arc<dyn Grade>) {
    loop {
        // A replica's upload waits on a package's checks: they go before the next job.
        match source.claim_check().await {
            Ok(Some(check)) => {
                if let Err(e) = checks::run(&source, &grader, &check).await {
                    tracing::warn!(
                        check = check.id,
                        "answering a package's checks failed: {e:#}"
                    );
                }
                continue;
            }
            Ok(None) => {}
            Err(e) => tracing::debug!("claiming a package's checks failed: {e:#}"),
        }
        let job = match source.claim().await {
            Ok(Some(job)) => job,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!("claiming a job failed: {e:#}; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(e) = work(&source, &grader, &job).await {
            tracing::warn!(job = job.job_id, "reporting a job failed: {e:#}");
        }
    }
}

/// How a job ended on this worker.
enum Graded {
    /// The whole report: the job is done.
    Report(Box<GradeReport>),
    /// An accepted submit's verdict, published; its measurement is queued as a job of its own.
    HandedOver,
    /// A measurement job's figure.
    Measured(Measured),
}

/// A verdict job: judges; an accepted CPU submit's verdict is then handed over and its
/// instruction count queued as a measurement job, so this loop is free for the next verdict.
/// A GPU kata's figure (device timings from the judging run) comes with its verdict. A
/// measurement job: the figure only.
async fn grade(
    source: &Arc<impl JobSource>,
    grader: &Arc<dyn Grade>,
    job: &Claimed,
    progress: impl Fn(Stage) + Send + Sync + 'static,
) -> Result<Result<Graded, graders::GradeError>, tokio::task::JoinError> {
    let progress = Arc::new(progress);
    let (grader, owned) = (Arc::clone(grader), job.clone());
    if let Some(hash) = stored_package(job) {
        return graded_package(source, grader, job, hash, progress).await;
    }
    if job.phase == JobPhase::Measure {
        return Ok(tokio::task::spawn_blocking(move || {
            grader.measure_submission(&owned.kata, &owned.source, &*progress)
        })
        .await?
        .map(Graded::Measured));
    }
    if let Some(input) = job.custom_input.clone() {
        // A custom-input run owes no measurement: its report is final when it returns.
        return Ok(tokio::task::spawn_blocking(move || {
            grader.custom(&owned.kata, &owned.source, &input, &*progress)
        })
        .await?
        .map(|r| Graded::Report(Box::new(r))));
    }
    let judged = tokio::task::spawn_blocking(move || {
        grader.judge(&owned.kata, &owned.source, owned.mode, &*progress)
    })
    .await?;
    let judged = match judged {
        Ok(judged) => judged,
        Err(e) => return Ok(Err(e)),
    };
    // A rejudge against the build's own version: its result is only compared with the
    // submission's, so no figure is owed and no verdict is published to the learner.
    if job.rejudge.is_some() {
        return Ok(Ok(Graded::Report(Box::new(judged.report))));
    }
    if judged.owes_instruction_count() {
        // The lease may have moved on; either way this worker is done with the job.
        if let Ok(false) | Err(_) = source.hand_over(job, &judged.report).await {
            tracing::info!(
                job = job.job_id,
                "verdict not handed over: the lease had moved on"
            );
        }
        return Ok(Ok(Graded::HandedOver));
    }
    // Anything else is final with its verdict (a GPU kata's device timings included).
    Ok(Ok(Graded::Report(Box::new(judged.report))))
}

/// The stored package `job` is graded from: the version it names, unless this build grades
/// that version as it is — its own package of the kata, or a statement fix of it (the same files
/// but the statements) — which it does from its own files without fetching any (and banks its
/// reference counts between figures).
fn stored_package(job: &Claimed) -> Option<&str> {
    let hash = job.package.as_deref()?;
    let own = graders::package::builtin(&job.kata).is_some_and(|p| {
        p.content_hash == hash || job.grading.as_ref() == Some(&p.files.grading_hash())
    });
    (!own).then_some(hash)
}

async fn prepare_next_figure(grader: &Arc<dyn Grade>, job: &Claimed) {
    let (grader, slug) = (Arc::clone(grader), job.kata.clone());
    match tokio::task::spawn_blocking(move || grader.prepare_next_figure(&slug)).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::warn!(kata = %job.kata, "preparing the next figure: {e}"),
        Err(panic) => tracing::warn!(kata = %job.kata, "preparing the next figure: {panic}"),
    }
}

/// [`grade`] for a version published to the service as a package, the version the job names:
/// a stdin/stdout kata's verdict is final, and so is a function kata's custom-input run; a
/// function kata's accepted submit is handed over to be measured against that version's
/// reference, as a catalogue kata's is (a rejudge's never: its result is only compared).
async fn graded_package(
    source: &Arc<impl JobSource>,
    grader: Arc<dyn Grade>,
    job: &Claimed,
    hash: &str,
    progress: Arc<impl Fn(Stage) + Send + Sync + 'static>,
) -> Result<Result<Graded, graders::GradeError>, tokio::task::JoinError> {
    let package = match packages::package(&**source, hash).await {
        Ok(package) => package,
        Err(e) => {
            return Ok(Err(graders::GradeError::Unavailable(format!(
                "fetching the package {hash}: {e:#}"
            ))));
        }
    };
    let owned = job.clone();
    let graded = tokio::task::spawn_blocking(move || match (&*package, owned.phase) {
        // A custom-input run owes no measurement: its report is final when it returns.
        (Stored::Function(package), JobPhase::Verdict) if owned.custom_input.is_some() => {
            let input = owned.custom_input.as_deref().unwrap_or_default();
            grader
                .custom_package(package, &owned.source, input, &*progress)
                .map(|r| Graded::Report(Box::new(r)))
        }
        (Stored::Function(package), JobPhase::Measure) => grader
            .measure_package(package, &owned.source, &*progress)
            .map(Graded::Measured),
        (Stored::Io(package), JobPhase::Measure) => Err(graders::GradeError::Internal(format!(
            "`{}` is a stdin/stdout kata: its verdicts owe no figure",
            package.slug()
        ))),
        (Stored::Io(package), JobPhase::Verdict) => grader
            .judge_io(package, &owned.source, owned.mode, &*progress)
            .map(|r| Graded::Report(Box::new(r))),
        (Stored::Function(package), JobPhase::Verdict) => grader
            .judge_package(package, &owned.source, owned.mode, &*progress)
            .map(|r| Graded::Report(Box::new(r))),
    })
    .await?;
    match graded {
        Ok(Graded::Report(report)) if report.awaits_figure() && job.rejudge.is_none() => {
            // The lease may have moved on; either way this worker is done with the job.
            if let Ok(false) | Err(_) = source.hand_over(job, &report).await {
                tracing::info!(
                    job = job.job_id,
                    "verdict not handed over: the lease had moved on"
                );
            }
            Ok(Ok(Graded::HandedOver))
        }
        graded => Ok(graded),
    }
}

async fn work(
    source: &Arc<impl JobSource>,
    grader: &Arc<dyn Grade>,
    job: &Claimed,
) -> anyhow::Result<()> {
    let (stage_tx, mut stage_rx) = watch::channel(State::Compiling);
    let beats = {
        let source = Arc::clone(source);
        let job = job.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(heartbeat_every(&job));
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    changed = stage_rx.changed() => if changed.is_err() { return },
                }
                let stage = *stage_rx.borrow();
                if let Ok(false) = source.heartbeat(&job, stage).await {
                    return;
                }
            }
        })
    };
    let progress = move |stage: Stage| {
        let state = match stage {
            Stage::Queued | Stage::Compiling => State::Compiling,
            Stage::Running => State::Running,
            Stage::Measuring => State::Measuring,
            Stage::Done => return,
        };
        let _ = stage_tx.send(state);
    };
    let graded = grade(source, grader, job, progress).await;
    beats.abort();
    match graded {
        Ok(Ok(Graded::Report(report))) => {
            if !source.finish(job, &report).await? {
                tracing::info!(job = job.job_id, "result dropped: the lease had moved on");
            }
        }
        Ok(Ok(Graded::HandedOver)) => {}
        Ok(Ok(Graded::Measured(measured))) => {
            if !source.measured(job, &measured).await? {
                tracing::info!(job = job.job_id, "figure dropped: the lease had moved on");
            }
            // Only the measuring loop gets here, so no verdict waits for this: the next
            // figure for this kata then counts only the learner. (A package's figures are
            // never banked: each version is counted against its own reference.)
            if stored_package(job).is_none() {
                prepare_next_figure(grader, job).await;
            }
        }
        // Transient trouble on this host: another attempt (here or on another worker) may
        // succeed, up to the queue's bound.
        Ok(Err(e)) if e.is_retryable() => source.release(job, &e.to_string()).await?,
        // Ours and deterministic (a kata whose checker fails, a broken toolchain): retrying
        // would fail the same way, so the submission ends now in our state, not the learner's.
        Ok(Err(e)) => {
            let report = graders::GradeReport::internal_error(
                &job.kata,
                job.mode,
                katas::Message::new(
                    format!("grading failed on our side ({e}); this does not count against you"),
                    format!("评测在我们这边失败了（{e}）；这不算你的失败"),
                ),
            );
            if !source.finish(job, &report).await? {
                tracing::info!(job = job.job_id, "result dropped: the lease had moved on");
            }
        }
        Err(panic) => {
            source
                .release(job, &format!("the grader panicked: {panic}"))
                .await?
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_slot_takes_gpu_jobs() {
        for slot in 1..3 {
            let caps = capabilities(slot);
            assert_eq!(caps.kinds, [JobKind::Cpu]);
            assert_eq!(caps.gpu, None);
        }
        let first = capabilities(0);
        assert!(first.kinds.contains(&JobKind::Cpu));
        assert_eq!(
            first.kinds.contains(&JobKind::Gpu),
            graders::gpu::probe().is_ok()
        );
        assert_eq!(first.gpu, graders::gpu::probe().ok());
    }
}
