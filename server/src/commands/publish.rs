//! `infrakata kata publish DIR --server URL --token TOKEN`: packs the folder (plain files only,
//! under the same limits the service applies), sends it to `POST /api/katas/{slug}/versions`
//! and prints the service's verification table. The service verifies; this command only packs
//! and reports, so what it prints is exactly what the upload page shows.

use crate::cli::Service;
use crate::services::publishing::Placement;
use crate::table;
use anyhow::{Context as _, bail};
use katas::Lang;
use katas::archive::PackageFiles;
use serde::Deserialize;
use std::path::Path;
use std::process::ExitCode;

#[derive(Debug, Deserialize)]
struct Report {
    checks: Vec<Check>,
    version: Option<i64>,
    new: bool,
    #[serde(default = "yes")]
    live: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
struct Check {
    check: String,
    passed: bool,
    detail: String,
    detail_zh: String,
}

pub fn run(
    dir: &Path,
    service: &Service,
    slug: Option<String>,
    placement: Placement,
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    // The widest bounds (a stdin/stdout package's): the service holds each kind to its own.
    let files = PackageFiles::read_dir(dir, &katas::io::limits())
        .with_context(|| format!("reading the package in {}", dir.display()))?;
    let slug = match slug {
        Some(slug) => slug,
        None => {
            let toml = files
                .text(katas::layout::META_FILE)
                .with_context(|| format!("{} has no kata.toml; pass --slug", dir.display()))?;
            // Named without its folder: a package's folder may be called anything until it is
            // published under its slug.
            katas::KataMeta::parse(toml, Path::new(katas::layout::META_FILE))?.slug
        }
    };
    let server = service.server.trim_end_matches('/');
    let token = service.token.as_str();
    let mut url = format!("{server}/api/katas/{slug}/versions");
    let query: Vec<&str> = [
        (placement.unlisted, "unlisted=true"),
        (placement.candidate, "candidate=true"),
    ]
    .into_iter()
    .filter_map(|(on, word)| on.then_some(word))
    .collect();
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }
    let archive = files.to_tar_gz();
    let base = server.to_string();
    let response = super::runtime()?.block_on(async {
        let client = reqwest::Client::new();
        let response = client
            .post(&url)
            .bearer_auth(token)
            .header(reqwest::header::CONTENT_TYPE, "application/gzip")
            .body(archive)
            .send()
            .await
            .with_context(|| format!("sending the package to {url}"))?;
        let (mut status, mut body) = answer(response, &url).await?;
        // A package whose programs run in the sandbox may take longer than one request: the
        // service answers "checking" and where its report will be.
        let mut said = false;
        while status == reqwest::StatusCode::ACCEPTED {
            if !said {
                eprintln!("{slug}: the service is checking the package in the sandbox…");
                said = true;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            let report = format!("{base}{}", body["report"].as_str().unwrap_or_default());
            let response = client
                .get(&report)
                .bearer_auth(token)
                .send()
                .await
                .with_context(|| format!("asking {report} for the report"))?;
            (status, body) = answer(response, &report).await?;
        }
        anyhow::Ok((status, body))
    })?;
    let (status, body) = response;
    if !(status.is_success() || status == reqwest::StatusCode::UNPROCESSABLE_ENTITY) {
        let error = body["error"].as_str().unwrap_or("no reason given");
        bail!("{url} refused the request ({status}): {error}");
    }
    let report: Report = serde_json::from_value(body).context("the service's report")?;
    let rows: Vec<Vec<String>> = report
        .checks
        .iter()
        .map(|c| {
            let (ok, no, detail) = match lang {
                Lang::Zh => ("通过", "未通过", &c.detail_zh),
                _ => ("ok", "refused", &c.detail),
            };
            vec![
                c.check.clone(),
                if c.passed { ok } else { no }.to_string(),
                detail.clone(),
            ]
        })
        .collect();
    let header = match lang {
        Lang::Zh => ["检查", "结果", "说明"],
        _ => ["check", "result", "detail"],
    };
    print!("{}", table::render(&header, &rows));
    match (report.version, lang) {
        (Some(v), Lang::Zh) if !report.live => {
            println!("{slug} 第 {v} 版已发布为候选版本（尚未上线）")
        }
        (Some(v), _) if !report.live => {
            println!("{slug} version {v} published as a candidate (not live)")
        }
        (Some(v), Lang::Zh) if report.new => println!("{slug} 第 {v} 版已发布并上线"),
        (Some(v), Lang::Zh) => println!("{slug} 的这份文件已是第 {v} 版，现已上线"),
        (Some(v), _) if report.new => println!("{slug} version {v} published and live"),
        (Some(v), _) => println!("{slug}: these files are version {v}, live again"),
        (None, Lang::Zh) => println!("{slug}：题目包未通过检查，服务上没有任何改变"),
        (None, _) => println!("{slug}: the package was refused; nothing changed on the service"),
    }
    Ok(if report.version.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A response's status and JSON body.
pub(super) async fn answer(
    response: reqwest::Response,
    url: &str,
) -> anyhow::Result<(reqwest::StatusCode, serde_json::Value)> {
    let status = response.status();
    let body = response
        .json()
        .await
        .with_context(|| format!("reading the answer of {url} ({status})"))?;
    Ok((status, body))
}
