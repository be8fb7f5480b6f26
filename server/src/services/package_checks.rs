//! An upload's sandbox checks run by a worker, for a replica that cannot run them: it has no
//! grader (no sandbox here), or the kata is a GPU kata and its grader found no device — the
//! topology the service is built for, GPUs on worker nodes. The replica does everything that
//! runs no package code (archive, `kata.toml`, lint, the package read), queues the candidate's
//! canonical archive (`db::package_checks`) and waits; a worker able to — one that grades
//! function packages, with a GPU for a GPU kata — claims it, checks the archive against its
//! content hash, runs `publishing_function::sandboxed` (what the replica would have run) and
//! answers. The replica then publishes or refuses exactly as it would have, so a refusal still
//! changes nothing.

use super::publishing::{Check, StoredPackage, fail, pass};
use super::publishing_function::Candidate;
use crate::db::kata_versions::Published;
use crate::db::{package_checks, workers};
use crate::error::AppError;
use crate::state::AppState;
use crate::worker_wire::CheckOutcome;
use std::time::Duration;
use tokio::time::Instant;

/// How long a worker that renews its lease (`Capabilities::renews_checks`) holds a check past
/// its last renewal before another may take it over.
pub const RENEWED_LEASE_MS: i64 = 60 * 1000;
/// How long a worker from before renewals holds a check: a GPU kata's first build on a fresh
/// worker takes minutes.
pub const LEASE_MS: i64 = 15 * 60 * 1000;
/// A check nobody holds this long — never claimed since it was queued, or unclaimed again since
/// its worker's lease ran out — is given up: the workers that were connected have gone.
const CLAIM_WAIT: Duration = Duration::from_secs(120);
/// The longest the replica waits for an answer (under the hour after which an upload's report
/// counts as abandoned: `services::uploads`).
const ANSWER_WAIT: Duration = Duration::from_secs(30 * 60);
const POLL: Duration = Duration::from_millis(250);

/// The rest of `candidate`'s verification, on a worker: the version to publish when every
/// check passed; `None` with the refusal recorded in `checks` otherwise, including when no
/// worker able to run them is connected or none answers in time.
pub(super) async fn on_worker(
    state: &AppState,
    candidate: Candidate,
    checks: &mut Vec<Check>,
) -> Result<Option<(Published, Option<StoredPackage>)>, AppError> {
    let gpu = candidate.gpu();
    if !workers::checker_connected(&state.db, gpu).await? {
        checks.push(nobody_to_check(gpu));
        return Ok(None);
    }
    let id = package_checks::queue(
        &state.db,
        &candidate.package.meta.slug,
        &candidate.content_hash,
        gpu,
        &candidate.archive,
    )
    .await?;
    // Built-in workers waiting for a job look again at once.
    state.jobs_waiting.notify_waiters();
    let answered = answer(state, id).await;
    package_checks::remove(&state.db, id).await?;
    match answered? {
        Some(CheckOutcome::Checked(ran)) => {
            checks.push(pass(
                "worker",
                format!("run in the sandbox of a worker{}", where_gpu(gpu).0),
                format!("在工作节点{}的沙箱中运行", where_gpu(gpu).1),
            ));
            Ok(candidate.finish(ran, checks))
        }
        Some(CheckOutcome::Failed { error }) => {
            checks.push(fail(
                "worker",
                format!(
                    "the worker running the checks failed (ours, not the package's): {error}; \
                     nothing changed, upload it again"
                ),
                format!("运行检查的工作节点出了故障（是我们的问题，不是题目包的）：{error}；服务上没有任何改变，请重新上传"),
            ));
            Ok(None)
        }
        None => {
            checks.push(fail(
                "worker",
                "no worker finished the checks in time (the workers that could run them \
                 stopped, or are all busy): nothing changed, upload it again"
                    .into(),
                "没有工作节点及时完成检查（能运行检查的工作节点已停止或都在忙）：服务上没有任何改变，请重新上传"
                    .into(),
            ));
            Ok(None)
        }
    }
}

/// The answer to check `id`, or `None` when nobody held it for [`CLAIM_WAIT`] on end (none
/// claimed it, or none took it over from a worker that stopped) or none answered within
/// [`ANSWER_WAIT`].
async fn answer(state: &AppState, id: i64) -> Result<Option<CheckOutcome>, AppError> {
    let started = Instant::now();
    let mut unheld_since = Some(started);
    loop {
        if let Some(json) = package_checks::outcome(&state.db, id).await? {
            return serde_json::from_str(&json)
                .map(Some)
                .map_err(|e| AppError::Internal(e.into()));
        }
        let now = Instant::now();
        if now - started > ANSWER_WAIT {
            return Ok(None);
        }
        if package_checks::unclaimed(&state.db, id).await? {
            if now - *unheld_since.get_or_insert(now) > CLAIM_WAIT {
                return Ok(None);
            }
        } else {
            unheld_since = None;
        }
        tokio::time::sleep(POLL).await;
    }
}

fn where_gpu(gpu: bool) -> (&'static str, &'static str) {
    if gpu {
        (
            " with a GPU, since this replica's grader has none",
            "（有 GPU；本副本的评测器没有）",
        )
    } else {
        (
            ", since this replica runs no grader",
            "（本副本没有评测器）",
        )
    }
}

/// The refusal when no worker that could run the checks is connected.
fn nobody_to_check(gpu: bool) -> Check {
    if gpu {
        fail(
            "gpu",
            "verifying a GPU kata runs its solutions on a device: this replica's grader found \
             none usable, and no worker with a GPU is connected to run them; publish it when \
             one is"
                .into(),
            "验证 GPU 题要在设备上运行它的各个解答：这个副本的评测器找不到可用的 GPU，也没有连接着的带 GPU \
             的工作节点可以运行；请在有这样的工作节点连接时再发布"
                .into(),
        )
    } else {
        fail(
            "sandbox",
            "this replica runs no grader (the sandbox is not available here) and no worker is \
             connected to run the package's solutions in its sandbox: publish it when one is, \
             or through a replica where the sandbox is available"
                .into(),
            "这个副本没有评测器（这里无法使用沙箱），也没有连接着的工作节点可以在沙箱中运行题目包的解答：\
             请在有工作节点连接时再发布，或通过可以使用沙箱的副本发布"
                .into(),
        )
    }
}
