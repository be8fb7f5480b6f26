//! The two rules about submissions: what may be stored and queued (`enqueue`), and who may see
//! one (`visible`).

use crate::db::allowance::Write;
use crate::db::submissions::{self, State, Submission};
use crate::domain::{JobKind, Slug};
use crate::domain::{SubmissionId, UserId};
use crate::error::AppError;
use crate::state::AppState;
use katas::{Mode, Verdict};

/// The refusal for someone else's (or no) submission `id`.
pub fn not_yours(id: SubmissionId) -> AppError {
    AppError::NotFound(format!("no submission {id} of yours")).zh(format!("你没有第 {id} 号提交"))
}

/// The refusal for a kata the catalogue does not have (`slug` as the learner wrote it).
pub fn unknown_kata(slug: &str) -> AppError {
    // Every caller echoes what the client sent; a megabyte path stays a short message.
    let slug = truncated(slug);
    AppError::NotFound(format!("unknown kata `{slug}`")).zh(format!("没有名为 `{slug}` 的题目"))
}
/// Stores a submission with its job and wakes the workers. Refuses an over-long source (413),
/// an unknown kata (404) and a user over the rate limit (429) before storing anything.
pub async fn enqueue(
    state: &AppState,
    user_id: UserId,
    slug: &str,
    source: &str,
    mode: Mode,
) -> Result<SubmissionId, AppError> {
    store(state, user_id, slug, source, mode, None).await
}

/// A custom-input run: queued like a `run` (highest priority), after the kata admitted the
/// input. Refuses input over 64 KiB (413), JSON that is not this kata's input and input out of
/// the statement's constraints (422, the kata's message in `lang`), GPU katas (422).
pub async fn enqueue_custom(
    state: &AppState,
    user_id: UserId,
    slug: &str,
    source: &str,
    input: &str,
    lang: katas::Lang,
) -> Result<SubmissionId, AppError> {
    store(state, user_id, slug, source, Mode::Run, Some((input, lang))).await
}

async fn store(
    state: &AppState,
    user_id: UserId,
    slug: &str,
    source: &str,
    mode: Mode,
    custom: Option<(&str, katas::Lang)>,
) -> Result<SubmissionId, AppError> {
    if source.len() > graders::MAX_SOURCE_BYTES {
        return Err(AppError::TooLarge(format!(
            "the source is {} bytes; the limit is {} (64 KiB)",
            source.len(),
            graders::MAX_SOURCE_BYTES
        ))
        .zh(format!(
            "源代码有 {} 字节，上限是 {}（64 KiB）",
            source.len(),
            graders::MAX_SOURCE_BYTES
        )));
    }
    let unknown = || unknown_kata(slug);
    let slug = Slug::parse(slug).map_err(|_| unknown())?;
    let kata = super::catalogue::find(state, slug.as_str()).await?;
    super::catalogue::check_submittable(state, slug.as_str(), user_id).await?;
    if let Some((input, lang)) = custom {
        match kata.check_custom(input) {
            Ok(()) => {}
            // `error` in the request's language, and `error_zh` as every refusal a learner
            // can meet carries it (the page shows the one in its own language).
            Err(e @ katas::custom::CustomError::TooLarge { .. }) => {
                return Err(AppError::TooLarge(e.message(lang)).zh(e.message(katas::Lang::Zh)));
            }
            Err(e) => {
                return Err(AppError::Unprocessable(e.message(lang)).zh(e.message(katas::Lang::Zh)));
            }
        }
    }
    // Checked last: a malformed request does not use up the learner's allowance. One
    // transaction spends the unit and writes the submission: a failed write spends nothing.
    let mut tx = state.db.begin().await?;
    crate::services::write_budget::spend(&mut tx, &state.config, user_id, Write::Submission)
        .await?;
    let kind = JobKind::from(kata.meta().kind);
    let input = custom.map(|(input, _)| input);
    let id = submissions::insert(&mut tx, user_id, &slug, kind, mode, source, input).await?;
    tx.commit().await?;
    state.jobs_waiting.notify_waiters();
    state.publish(id, State::Queued);
    Ok(id)
}

/// Submission `id` if `user_id` may see it: their own, or someone else's accepted submit once
/// they have solved that kata themselves. To anyone else it does not exist (404).
pub async fn visible(
    state: &AppState,
    user_id: UserId,
    id: SubmissionId,
) -> Result<Submission, AppError> {
    let missing =
        || AppError::NotFound(format!("no submission {id}")).zh(format!("没有第 {id} 号提交"));
    let s = submissions::get(&state.db, id).await?.ok_or_else(missing)?;
    if s.user_id == user_id {
        return Ok(s);
    }
    let accepted_submit = s.mode == Mode::Submit && s.verdict == Some(Verdict::Accepted);
    if accepted_submit && crate::db::progress::has_solved(&state.db, user_id, &s.kata).await? {
        Ok(s)
    } else {
        Err(missing())
    }
}

/// An attacker's text echoed in an error stays short.
pub(crate) fn truncated(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Cancels the learner's own submission while no worker has taken it (withdrawn, not an
/// attempt). Shared by the API and the submission page's form.
pub async fn cancel_own(
    state: &AppState,
    user_id: UserId,
    id: SubmissionId,
) -> Result<(), AppError> {
    let s = visible(state, user_id, id).await?;
    if s.user_id != user_id {
        return Err(not_yours(id));
    }
    let message = katas::Message::new(
        "You cancelled this submission while it waited for a worker. It was not graded and does \
         not count as an attempt.",
        "你在这次提交等待 worker 时取消了它。它没有被评测，也不算一次尝试。",
    );
    if !crate::db::queue_state::withdraw(
        &state.db,
        id,
        crate::db::queue_state::Withdrawn::Cancelled,
        &message,
        true,
    )
    .await?
    {
        return Err(AppError::Conflict(format!(
            "submission {id} can no longer be cancelled: a worker has taken it or it is done"
        ))
        .zh(format!(
            "第 {id} 号提交已无法取消：评测节点已经接手，或者它已经结束"
        )));
    }
    state.publish(id, State::Done);
    Ok(())
}
