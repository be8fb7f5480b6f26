//! `infrakata kata rejudge` and `infrakata kata live`: the instructor's "make live" flow from a
//! terminal, over the service's API (`POST /api/katas/{slug}/rejudges`, its difference at
//! `GET …/rejudges/{id}`, then `POST /api/katas/{slug}/live`). The service grades and decides;
//! these commands only ask and print, so what they show is what the rejudge page shows.

use super::publish::answer;
use crate::cli::Service;
use crate::table;
use anyhow::{Context as _, bail};
use katas::Lang;
use serde::Deserialize;
use serde_json::json;
use std::process::ExitCode;
use std::time::Duration;

/// `GET /api/katas/{slug}/rejudges/{id}`, as far as this command reads it.
#[derive(Debug, Deserialize)]
struct Difference {
    total: usize,
    done: usize,
    changed: usize,
    rows: Vec<Row>,
}

#[derive(Debug, Deserialize)]
struct Row {
    submission: i64,
    learner: String,
    version: Option<i64>,
    before: Option<String>,
    first_failed_before: Option<String>,
    after: Option<String>,
    first_failed_after: Option<String>,
    changed: bool,
}

pub fn rejudge(
    slug: &str,
    version: i64,
    all: bool,
    service: &Service,
    lang: Lang,
) -> anyhow::Result<ExitCode> {
    let base = service.server.trim_end_matches('/');
    let start = format!("{base}/api/katas/{slug}/rejudges");
    let scope = if all { "all" } else { "accepted" };
    let difference = super::runtime()?.block_on(async {
        let client = reqwest::Client::new();
        let response = client
            .post(&start)
            .bearer_auth(&service.token)
            .json(&json!({ "version": version, "scope": scope }))
            .send()
            .await
            .with_context(|| format!("asking {start} for a rejudge"))?;
        let (status, body) = answer(response, &start).await?;
        if !status.is_success() {
            bail!(
                "{start} refused the rejudge ({status}): {}",
                error_of(&body)
            );
        }
        let at = format!("{base}{}", body["rejudge"].as_str().unwrap_or_default());
        let mut said = None;
        loop {
            let response = client
                .get(&at)
                .bearer_auth(&service.token)
                .send()
                .await
                .with_context(|| format!("asking {at} for the difference"))?;
            let (status, body) = answer(response, &at).await?;
            if !status.is_success() {
                bail!("{at} answered {status}: {}", error_of(&body));
            }
            let difference: Difference =
                serde_json::from_value(body).context("the service's difference")?;
            if difference.done >= difference.total {
                return anyhow::Ok(difference);
            }
            if said != Some(difference.done) {
                eprintln!(
                    "{slug}: {} of {} submissions graded again…",
                    difference.done, difference.total
                );
                said = Some(difference.done);
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })?;
    print_difference(slug, version, &difference, lang);
    Ok(ExitCode::SUCCESS)
}

fn print_difference(slug: &str, version: i64, d: &Difference, lang: Lang) {
    let zh = lang == Lang::Zh;
    let case = |verdict: &Option<String>, failed: &Option<String>| {
        let verdict = verdict.as_deref().unwrap_or("-");
        match failed {
            Some(case) => format!("{verdict} @ {case}"),
            None => verdict.to_string(),
        }
    };
    let rows: Vec<Vec<String>> = d
        .rows
        .iter()
        .map(|r| {
            vec![
                r.submission.to_string(),
                r.learner.clone(),
                r.version.map_or_else(|| "-".into(), |v| v.to_string()),
                case(&r.before, &r.first_failed_before),
                case(&r.after, &r.first_failed_after),
                match (r.changed, zh) {
                    (true, true) => "变化".into(),
                    (true, false) => "changed".into(),
                    (false, _) => String::new(),
                },
            ]
        })
        .collect();
    let header = if zh {
        ["提交", "学员", "版本", "原结果", "候选版本", ""]
    } else {
        [
            "submission",
            "learner",
            "version",
            "before",
            "candidate",
            "",
        ]
    };
    print!("{}", table::render(&header, &rows));
    if zh {
        println!(
            "{slug} 第 {version} 版：重新评测 {} 份提交，{} 份的结果或首个失败用例会改变。上线：infrakata kata live {slug} --version {version}",
            d.total, d.changed
        );
    } else {
        println!(
            "{slug} version {version}: {} submissions graded again, {} would change. To make it live: infrakata kata live {slug} --version {version}",
            d.total, d.changed
        );
    }
}

pub fn make_live(slug: &str, version: i64, service: &Service) -> anyhow::Result<ExitCode> {
    let url = format!(
        "{}/api/katas/{slug}/live",
        service.server.trim_end_matches('/')
    );
    let (status, body) = super::runtime()?.block_on(async {
        let response = reqwest::Client::new()
            .post(&url)
            .bearer_auth(&service.token)
            .json(&json!({ "version": version }))
            .send()
            .await
            .with_context(|| format!("asking {url} to make version {version} live"))?;
        answer(response, &url).await
    })?;
    if !status.is_success() {
        bail!("{url} refused ({status}): {}", error_of(&body));
    }
    println!("{slug} version {version} is live");
    Ok(ExitCode::SUCCESS)
}

fn error_of(body: &serde_json::Value) -> &str {
    body["error"].as_str().unwrap_or("no reason given")
}
