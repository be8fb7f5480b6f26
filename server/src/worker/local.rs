//! The built-in workers' source: the queue functions called directly.

use super::{CheckClaimed, JobSource};
use crate::db::jobs::Claimed;
use crate::db::package_checks;
use crate::db::submissions::State;
use crate::queue::{self, WorkerHello};
use crate::state::AppState;
use crate::worker_wire::CheckOutcome;
use graders::{GradeReport, Measured};
use std::time::Duration;

#[derive(Debug)]
pub struct LocalSource {
    pub state: AppState,
    pub hello: WorkerHello,
}

impl JobSource for LocalSource {
    async fn claim(&self) -> anyhow::Result<Option<Claimed>> {
        Ok(queue::claim(&self.state, &self.hello, true, Duration::from_secs(5)).await?)
    }

    async fn heartbeat(&self, job: &Claimed, stage: State) -> anyhow::Result<bool> {
        Ok(queue::heartbeat(
            &self.state,
            job.job_id,
            job.submission_id,
            &job.lease_token,
            Some(stage),
        )
        .await?)
    }

    async fn finish(&self, job: &Claimed, report: &GradeReport) -> anyhow::Result<bool> {
        Ok(queue::finish(&self.state, job.job_id, &job.lease_token, report).await?)
    }

    async fn hand_over(&self, job: &Claimed, report: &GradeReport) -> anyhow::Result<bool> {
        Ok(queue::hand_over(&self.state, job.job_id, &job.lease_token, report).await?)
    }

    async fn measured(&self, job: &Claimed, measured: &Measured) -> anyhow::Result<bool> {
        Ok(queue::measured(&self.state, job.job_id, &job.lease_token, measured).await?)
    }

    async fn release(&self, job: &Claimed, error: &str) -> anyhow::Result<()> {
        queue::release(&self.state, job.job_id, &job.lease_token, error).await?;
        Ok(())
    }

    async fn claim_check(&self) -> anyhow::Result<Option<CheckClaimed>> {
        Ok(queue::claim_check(&self.state, &self.hello).await?)
    }

    async fn check_archive(&self, check: &CheckClaimed) -> anyhow::Result<Vec<u8>> {
        package_checks::archive(&self.state.db, check.id, &check.lease_token)
            .await?
            .ok_or_else(|| anyhow::anyhow!("check {} is no longer this worker's", check.id))
    }

    async fn renew_check(&self, check: &CheckClaimed) -> anyhow::Result<bool> {
        let lease_ms = crate::services::package_checks::RENEWED_LEASE_MS;
        Ok(package_checks::renew(&self.state.db, check.id, &check.lease_token, lease_ms).await?)
    }

    async fn answer_check(
        &self,
        check: &CheckClaimed,
        outcome: &CheckOutcome,
    ) -> anyhow::Result<bool> {
        let json = serde_json::to_string(outcome)?;
        Ok(package_checks::answer(&self.state.db, check.id, &check.lease_token, &json).await?)
    }

    async fn package(&self, content_hash: &str) -> anyhow::Result<Vec<u8>> {
        crate::db::kata_packages::archive(&self.state.db, content_hash)
            .await?
            .ok_or_else(|| anyhow::anyhow!("no package is stored as {content_hash}"))
    }
}
