//! `infrakata worker --server URL --token T`: the same loop, talking HTTP to the server.

use super::{CheckClaimed, JobSource};
use crate::db::jobs::Claimed;
use crate::db::submissions::State;
use crate::queue::WorkerHello;
use crate::worker_wire::{
    AwaitingExamples, CheckAnswer, CheckBeat, CheckOutcome, Finished, Heartbeat, Measurement,
    Released,
};
use anyhow::Context as _;
use graders::{GradeReport, Measured};
use reqwest::StatusCode;
use std::time::Duration;

#[derive(Debug)]
pub struct RemoteSource {
    client: reqwest::Client,
    server: String,
    token: String,
    hello: WorkerHello,
}

impl RemoteSource {
    pub fn new(server: &str, token: &str, hello: WorkerHello) -> Self {
        Self {
            client: reqwest::Client::new(),
            server: server.trim_end_matches('/').to_string(),
            token: token.to_string(),
            hello,
        }
    }

    /// Posts the hello to `path` and reads what it leased (`None`: nothing, 204).
    async fn lease<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        wait: Duration,
        what: &str,
    ) -> anyhow::Result<Option<T>> {
        let resp = self
            .post(path)
            .json(&self.hello)
            .timeout(wait)
            .send()
            .await
            .context("contacting the server")?;
        match resp.status() {
            StatusCode::NO_CONTENT => Ok(None),
            s if s.is_success() => Ok(Some(resp.json().await?)),
            s => anyhow::bail!(
                "{what} refused: {s} {}",
                resp.text().await.unwrap_or_default()
            ),
        }
    }

    /// Posts `body` as JSON to `path`; whether the server took it (`false`: the lease is lost).
    async fn accepted(&self, path: &str, body: &impl serde::Serialize) -> anyhow::Result<bool> {
        let resp = self.post(path).json(body).send().await?;
        Ok(resp.status().is_success())
    }

    fn post(&self, path: &str) -> reqwest::RequestBuilder {
        self.client
            .post(format!("{}{path}", self.server))
            .bearer_auth(&self.token)
    }
}

impl JobSource for RemoteSource {
    async fn claim(&self) -> anyhow::Result<Option<Claimed>> {
        self.lease("/api/worker/claim", Duration::from_secs(60), "claim")
            .await
    }

    async fn heartbeat(&self, job: &Claimed, stage: State) -> anyhow::Result<bool> {
        let body = Heartbeat {
            submission_id: job.submission_id,
            lease_token: job.lease_token.clone(),
            stage: Some(stage),
        };
        self.accepted(&format!("/api/worker/jobs/{}/heartbeat", job.job_id), &body)
            .await
    }

    async fn finish(&self, job: &Claimed, report: &GradeReport) -> anyhow::Result<bool> {
        let body = Finished {
            lease_token: job.lease_token.clone(),
            report: report.clone(),
        };
        self.accepted(&format!("/api/worker/jobs/{}/result", job.job_id), &body)
            .await
    }

    async fn hand_over(&self, job: &Claimed, report: &GradeReport) -> anyhow::Result<bool> {
        let body = Finished {
            lease_token: job.lease_token.clone(),
            report: report.clone(),
        };
        self.accepted(&format!("/api/worker/jobs/{}/hand-over", job.job_id), &body)
            .await
    }

    async fn measured(&self, job: &Claimed, measured: &Measured) -> anyhow::Result<bool> {
        let body = Measurement {
            lease_token: job.lease_token.clone(),
            measured: measured.clone(),
        };
        self.accepted(&format!("/api/worker/jobs/{}/measured", job.job_id), &body)
            .await
    }

    async fn release(&self, job: &Claimed, error: &str) -> anyhow::Result<()> {
        let body = Released {
            lease_token: job.lease_token.clone(),
            error: error.to_string(),
        };
        self.post(&format!("/api/worker/jobs/{}/release", job.job_id))
            .json(&body)
            .send()
            .await?;
        Ok(())
    }

    async fn claim_check(&self) -> anyhow::Result<Option<CheckClaimed>> {
        if !self.hello.capabilities.checks(false) {
            return Ok(None);
        }
        self.lease(
            "/api/worker/checks/claim",
            Duration::from_secs(30),
            "check claim",
        )
        .await
    }

    async fn check_archive(&self, check: &CheckClaimed) -> anyhow::Result<Vec<u8>> {
        let url = format!("/api/worker/checks/{}/archive", check.id);
        let request = self
            .client
            .get(format!("{}{url}", self.server))
            .query(&[("lease", &check.lease_token)]);
        self.bounded(request, &format!("check {}", check.id)).await
    }

    async fn renew_check(&self, check: &CheckClaimed) -> anyhow::Result<bool> {
        let body = CheckBeat {
            lease_token: check.lease_token.clone(),
        };
        self.accepted(&format!("/api/worker/checks/{}/heartbeat", check.id), &body)
            .await
    }

    async fn answer_check(
        &self,
        check: &CheckClaimed,
        outcome: &CheckOutcome,
    ) -> anyhow::Result<bool> {
        let body = CheckAnswer {
            lease_token: check.lease_token.clone(),
            outcome: outcome.clone(),
        };
        self.accepted(&format!("/api/worker/checks/{}/outcome", check.id), &body)
            .await
    }

    async fn package(&self, content_hash: &str) -> anyhow::Result<Vec<u8>> {
        let request = self.client.get(format!(
            "{}/api/worker/packages/{content_hash}",
            self.server
        ));
        self.bounded(request, &format!("package {content_hash}"))
            .await
    }
}

impl RemoteSource {
    /// The stored versions whose custom-input examples no judge has made yet (`super::examples`).
    pub async fn awaiting_examples(&self) -> anyhow::Result<Vec<String>> {
        let request = self
            .client
            .get(format!("{}/api/worker/examples", self.server));
        let resp = self
            .taken(request, "asking for versions without examples")
            .await?;
        Ok(resp.json::<AwaitingExamples>().await?.content_hashes)
    }

    /// Stores what the judge of `content_hash` made (`json`: `katas::custom::InputExamples`).
    pub async fn store_examples(&self, content_hash: &str, json: String) -> anyhow::Result<()> {
        let request = self
            .client
            .put(format!(
                "{}/api/worker/examples/{content_hash}",
                self.server
            ))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(json);
        self.taken(request, &format!("storing the examples of {content_hash}"))
            .await?;
        Ok(())
    }

    /// The answer to `request`, sent with the worker token; `Err` unless the server took it
    /// (`what` says what was asked).
    async fn taken(
        &self,
        request: reqwest::RequestBuilder,
        what: &str,
    ) -> anyhow::Result<reqwest::Response> {
        let resp = request
            .bearer_auth(&self.token)
            .send()
            .await
            .context("contacting the server")?;
        let status = resp.status();
        if !status.is_success() {
            let said = resp.text().await.unwrap_or_default();
            anyhow::bail!("{what} refused: {status} {said}");
        }
        Ok(resp)
    }

    /// The body of `request` (a package's archive), read in chunks under the largest
    /// package's bound: a replica's answer is not trusted to be small.
    async fn bounded(
        &self,
        request: reqwest::RequestBuilder,
        what: &str,
    ) -> anyhow::Result<Vec<u8>> {
        let limit = katas::io::limits().archive_bytes;
        let mut resp = self.taken(request, &format!("fetching {what}")).await?;
        let mut archive = Vec::new();
        while let Some(chunk) = resp.chunk().await? {
            anyhow::ensure!(
                archive.len() + chunk.len() <= limit,
                "{what} is over {limit} bytes"
            );
            archive.extend_from_slice(&chunk);
        }
        Ok(archive)
    }
}
