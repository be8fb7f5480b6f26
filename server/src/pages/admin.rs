//! `/admin`: for instructors and admins — the workers with when each was last seen and what it
//! can grade, the queue, and each kata package's static check (`katas::lint`).

use super::form::{Button, CsrfForm};
use super::{Layout, render};
use crate::auth::Staff;
use crate::db::submissions::State as SubState;
use crate::db::{now_ms, package_checks, queue_state, workers};
use crate::domain::{JobKind, SubmissionId};
use crate::error::AppError;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};

#[derive(Debug)]
struct WorkerRow {
    name: String,
    id: String,
    builtin: bool,
    cores: String,
    kinds: String,
    /// Its GPU (name, compute capability, memory, driver); empty for CPU-only workers.
    gpu: String,
    last_seen: String,
    /// Seen within two long polls: it is asking for work.
    live: bool,
}

#[derive(Debug)]
struct PackageRow {
    slug: String,
    title: String,
    findings: Vec<String>,
}

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    layout: Layout,
    workers: Vec<WorkerRow>,
    queued: i64,
    grading: i64,
    /// GPU jobs waiting and no GPU worker connected: the instructor should start one.
    gpu_connected: bool,
    gpu_queued: i64,
    pending: Vec<PendingRow>,
    /// Package checks that replicas left to workers, not answered yet.
    checks: Vec<CheckRow>,
    packages: Vec<PackageRow>,
}

#[derive(Debug)]
struct CheckRow {
    kata: String,
    needs: &'static str,
    state: String,
    waited: String,
}

#[derive(Debug)]
struct PendingRow {
    id: SubmissionId,
    kata: String,
    kind: String,
    state: String,
    user: String,
    attempts: i64,
    waited: String,
}

pub async fn show(
    State(state): State<AppState>,
    Staff(viewer): Staff,
) -> Result<Response, AppError> {
    let now = now_ms();
    let t = super::i18n::Text::of(viewer.lang);
    let fresh_ms = 2 * state.config.long_poll.as_millis() as i64 + 5_000;
    let workers = workers::list(&state.db)
        .await?
        .into_iter()
        .map(|w| WorkerRow {
            cores: w
                .capabilities
                .as_ref()
                .map_or("?".into(), |c| c.cores.to_string()),
            kinds: w.capabilities.as_ref().map_or("?".into(), |c| {
                let kinds: Vec<&str> = c.kinds.iter().map(|k| k.as_str()).collect();
                kinds.join(", ")
            }),
            gpu: w
                .capabilities
                .as_ref()
                .and_then(|c| c.gpu.as_ref())
                .map_or(String::new(), ToString::to_string),
            last_seen: t.ago(w.last_seen, now),
            live: now - w.last_seen < fresh_ms,
            name: w.name,
            id: w.id,
            builtin: w.builtin,
        })
        .collect();
    let (queued, grading) = queue_state::counts(&state.db).await?;
    let gpu_connected = workers::kind_connected(&state.db, JobKind::Gpu).await?;
    let gpu_queued = queue_state::queued_of_kind(&state.db, JobKind::Gpu).await?;
    let pending = queue_state::pending(&state.db, 200)
        .await?
        .into_iter()
        .map(|p| PendingRow {
            id: p.submission_id,
            kata: p.kata.to_string(),
            kind: p.kind.0.as_str().to_string(),
            state: t.job_state_label(p.state.0).to_string(),
            user: p.user_name,
            attempts: p.attempts,
            waited: t.ago(p.created_at, now),
        })
        .collect();
    let checks = package_checks::pending(&state.db)
        .await?
        .into_iter()
        .map(|c| CheckRow {
            kata: c.slug,
            needs: if c.gpu {
                t.publishing.needs_gpu
            } else {
                t.publishing.needs_sandbox
            },
            state: c.worker_id.map_or_else(
                || t.publishing.waiting_for_worker.to_string(),
                |w| t.publishing.checked_by(&w),
            ),
            waited: t.ago(c.created_at, now),
        })
        .collect();
    // Lint reads each package folder from disk.
    let titles = crate::services::catalogue::served_titles(&state, viewer.lang).await?;
    let published = crate::services::packages::live_katas(&state.db).await?;
    let packages = tokio::task::spawn_blocking(move || {
        let compiled = katas::builtin::all().iter().map(|k| PackageRow {
            slug: k.meta().slug.clone(),
            title: titles.of(&k.meta().slug),
            findings: build_findings(*k)
                .into_iter()
                .map(|f| format!("{}: {}", f.file, f.problem))
                .collect(),
        });
        // A published package passed every check, in the sandbox, before it went live.
        let published = published
            .iter()
            .filter(|k| katas::builtin::find(&k.meta().slug).is_none())
            .map(|k| PackageRow {
                slug: k.meta().slug.clone(),
                title: titles.of(&k.meta().slug),
                findings: Vec::new(),
            });
        compiled.chain(published).collect::<Vec<_>>()
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?;
    render(&AdminPage {
        layout: Layout::new(&viewer, "admin"),
        workers,
        queued,
        grading,
        gpu_connected,
        gpu_queued,
        pending,
        checks,
        packages,
    })
}

/// The static check of a kata of the build: on its folder in the checkout while that is there
/// (an instructor editing it sees the findings before a rebuild), otherwise on the files
/// embedded in the binary — a binary run away from its checkout would otherwise find every
/// file missing.
fn build_findings(kata: &dyn katas::Kata) -> Vec<katas::lint::Finding> {
    if kata.dir().is_dir() {
        return katas::lint::lint(kata.dir());
    }
    embedded_findings(&kata.meta().slug)
}

fn embedded_findings(slug: &str) -> Vec<katas::lint::Finding> {
    let unreadable = |why: String| {
        vec![katas::lint::Finding {
            file: String::new(),
            problem: format!("the package embedded in this binary could not be read: {why}"),
        }]
    };
    let Some(package) = graders::package::builtin(slug) else {
        return unreadable("not in the catalogue".into());
    };
    let written = tempfile::tempdir().and_then(|dir| {
        package.files.write_into(&dir.path().join(slug))?;
        Ok(dir)
    });
    match written {
        Ok(dir) => katas::lint::lint(&dir.path().join(slug)),
        Err(e) => unreadable(e.to_string()),
    }
}

/// `POST /admin/submissions/{id}/cancel|requeue`: end a job that is not done (it is not graded
/// and not an attempt), or put it back in the queue with fresh attempts.
pub async fn act(
    State(state): State<AppState>,
    _: Staff,
    Path((id, action)): Path<(SubmissionId, String)>,
    _: CsrfForm<Button>,
) -> Result<Response, AppError> {
    let done = match action.as_str() {
        "cancel" => {
            let message = katas::Message::new(
                "An administrator cancelled this submission before it was graded. It does not \
                 count as an attempt.",
                "管理员在评测之前取消了这次提交。它不算一次尝试。",
            );
            queue_state::withdraw(
                &state.db,
                id,
                queue_state::Withdrawn::Cancelled,
                &message,
                false,
            )
            .await?
        }
        "requeue" => {
            let again = queue_state::requeue(&state.db, id).await?;
            state.jobs_waiting.notify_waiters();
            again
        }
        other => return Err(AppError::NotFound(format!("no admin action `{other}`"))),
    };
    if !done {
        return Err(AppError::Conflict(format!(
            "submission {id} has no job waiting or being graded"
        )));
    }
    state.publish(
        id,
        if action == "cancel" {
            SubState::Done
        } else {
            SubState::Queued
        },
    );
    Ok(Redirect::to("/admin").into_response())
}

#[cfg(test)]
mod tests {
    use super::embedded_findings;

    #[test]
    fn the_build_s_packages_are_linted_from_their_embedded_files_away_from_the_checkout() {
        assert!(
            !katas::lint::lint(std::path::Path::new("/nonexistent/fast-power")).is_empty(),
            "a missing folder has findings"
        );
        for kata in katas::builtin::all() {
            let slug = &kata.meta().slug;
            let findings = embedded_findings(slug);
            assert!(findings.is_empty(), "{slug}: {findings:?}");
        }
    }
}
