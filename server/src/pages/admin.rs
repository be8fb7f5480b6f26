//! `/admin`: for instructors and admins — the workers with when each was last seen and what it
//! can grade, the queue, and each kata package's static check (`katas::lint`).

use super::view;
use super::{Layout, render};
use crate::auth::Viewer;
use crate::db::users::Role;
use crate::db::{jobs, now_ms, workers};
use crate::domain::JobKind;
use crate::error::AppError;
use crate::state::AppState;
use askama::Template;
use axum::extract::State;
use axum::response::Response;

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
    packages: Vec<PackageRow>,
}

pub async fn show(State(state): State<AppState>, viewer: Viewer) -> Result<Response, AppError> {
    let user = viewer.require()?;
    if !matches!(user.role, Role::Instructor | Role::Admin) {
        return Err(AppError::Forbidden(
            "This page is for instructors and admins.".into(),
        ));
    }
    let now = now_ms();
    let fresh_ms = 2 * state.config.long_poll.as_millis() as i64 + 5_000;
    let workers = workers::list(&state.db)
        .await?
        .into_iter()
        .map(|w| WorkerRow {
            cores: w
                .capabilities
                .as_ref()
                .map_or("?".into(), |c| c.cores.to_string()),
            kinds: w
                .capabilities
                .as_ref()
                .map_or("?".into(), |c| c.kinds.join(", ")),
            gpu: w
                .capabilities
                .as_ref()
                .and_then(|c| c.gpu.as_ref())
                .map_or(String::new(), ToString::to_string),
            last_seen: view::ago(w.last_seen, now),
            live: now - w.last_seen < fresh_ms,
            name: w.name,
            id: w.id,
            builtin: w.builtin,
        })
        .collect();
    let (queued, grading) = jobs::counts(&state.db).await?;
    let gpu_connected = workers::kind_connected(&state.db, JobKind::Gpu).await?;
    let gpu_queued = jobs::queued_of_kind(&state.db, JobKind::Gpu).await?;
    // Lint reads each package folder from disk.
    let packages = tokio::task::spawn_blocking(|| {
        katas::catalogue::all()
            .iter()
            .map(|k| PackageRow {
                slug: k.meta().slug.clone(),
                title: k.meta().title.clone(),
                findings: katas::lint::lint(k.dir())
                    .into_iter()
                    .map(|f| format!("{}: {}", f.file, f.problem))
                    .collect(),
            })
            .collect::<Vec<_>>()
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
        packages,
    })
}
