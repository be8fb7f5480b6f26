//! The drill rules the API (`routes::drills`) and the pages (`pages::drills`, `pages::interviews`,
//! `pages::drill_stats`) share: the drill sets served (built in until an instructor reloads
//! them), drawing an item with a secret seed, starting attempts within the open-attempt bound,
//! answering once (the first answer stands; results withheld while an interview runs), and
//! solved katas entering the review queue.

use crate::db::allowance::Write;
use crate::db::drills::{self, Attempt};
use crate::db::review::{self, Kind};
use crate::db::{Db, Tx, now_ms};
use crate::domain::InterviewId;
use crate::domain::UserId;
use crate::error::AppError;
use crate::services::write_budget;
use crate::state::AppState;
use katas_drills::{AnswerSpec, DrillError, Drills, Graded, Key, Presented, Response};
use std::sync::{Arc, LazyLock, PoisonError, RwLock};

/// The drill sets being served: the ones built in until an instructor reloads them from disk.
/// Process-wide, like the kata catalogue; an attempt keeps its own key, so a reload never
/// changes an attempt in progress.
static SERVED: LazyLock<RwLock<Arc<Drills>>> =
    LazyLock::new(|| RwLock::new(Arc::new(Drills::builtin().clone())));

pub fn catalogue() -> Arc<Drills> {
    SERVED
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// Reads and validates `dir` the way the build does, a set's katas being any of `known` (the
/// katas served: the build's and the published); serves it only when every set is valid.
pub fn reload(dir: &std::path::Path, known: &[String]) -> Result<Arc<Drills>, DrillError> {
    let drills = Arc::new(Drills::load_dir(dir, known)?);
    *SERVED.write().unwrap_or_else(PoisonError::into_inner) = drills.clone();
    Ok(drills)
}

pub fn kind_of(spec: &AnswerSpec) -> &'static str {
    match spec {
        AnswerSpec::Numeric { .. } => "numeric",
        AnswerSpec::Choice {
            multiple: false, ..
        } => "single_choice",
        AnswerSpec::Choice { multiple: true, .. } => "multiple_choice",
        AnswerSpec::Ordering { .. } => "ordering",
        AnswerSpec::Matching { .. } => "matching",
        AnswerSpec::Predict { .. } => "predict",
    }
}

/// The refusal for an answer after the interview's clock ran out (or it was finished).
pub fn interview_over() -> AppError {
    AppError::Conflict("the interview is over: its answers are locked".into())
        .zh("面试已经结束：答案已锁定")
}

fn already_answered(id: i64) -> AppError {
    AppError::Conflict(format!(
        "drill attempt {id} is already answered; start a new one"
    ))
    .zh(format!("第 {id} 次作答已经提交过了；请重新开始一次"))
}
pub(crate) fn not_found(e: DrillError) -> AppError {
    match e {
        DrillError::NoSuchSet(_) | DrillError::NoSuchItem { .. } => {
            AppError::NotFound(e.to_string())
        }
        other => AppError::Internal(other.into()),
    }
}

fn secret_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the OS random source works");
    u64::from_le_bytes(bytes)
}

/// Unanswered attempts one learner may hold, whatever their budget: an interview's attempts
/// are paid for by the interview, and a budget refills, so this is the bound on open rows.
pub const MAX_OPEN_ATTEMPTS: i64 = 100;

/// An attempt drawn but not yet stored: what the learner is shown and the key kept from them.
pub struct Drawn {
    set: String,
    item: String,
    shown: Presented,
    presented: String,
    key: String,
}

/// Without the key: it leaves the server only once answered, logs included.
impl std::fmt::Debug for Drawn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Drawn")
            .field("set", &self.set)
            .field("item", &self.item)
            .finish_non_exhaustive()
    }
}

/// Draws an attempt's parameters and shuffle with a secret seed; 404 for an unknown item.
pub fn draw(set: &str, item: &str) -> Result<Drawn, AppError> {
    let (shown, key) = catalogue()
        .start(set, item, secret_seed())
        .map_err(not_found)?;
    Ok(Drawn {
        set: set.to_string(),
        item: item.to_string(),
        presented: serde_json::to_string(&shown).map_err(|e| AppError::Internal(e.into()))?,
        key: serde_json::to_string(&key).map_err(|e| AppError::Internal(e.into()))?,
        shown,
    })
}

/// Stores drawn attempts (an interview's, if `interview_id` is given) in `tx`; 429 when the
/// learner would then hold more than [`MAX_OPEN_ATTEMPTS`] unanswered.
pub async fn store_attempts(
    tx: &mut Tx<'_>,
    user_id: UserId,
    drawn: &[Drawn],
    interview_id: Option<InterviewId>,
) -> Result<Vec<i64>, AppError> {
    let open = drills::open_count(tx, user_id).await?;
    if open + drawn.len() as i64 > MAX_OPEN_ATTEMPTS {
        return Err(AppError::TooManyRequests(format!(
            "you have {open} unanswered drill attempts (at most {MAX_OPEN_ATTEMPTS}); answer some first"
        ))
        .zh(format!(
            "你有 {open} 道未作答的概念题（最多 {MAX_OPEN_ATTEMPTS} 道），请先回答其中一些"
        )));
    }
    let mut ids = Vec::with_capacity(drawn.len());
    for d in drawn {
        let id = drills::create(
            tx,
            user_id,
            &d.set,
            &d.item,
            &d.presented,
            &d.key,
            interview_id,
        )
        .await?;
        ids.push(id);
    }
    Ok(ids)
}

/// Starts an attempt paid from the learner's drill-attempt budget: the unit is spent and the
/// attempt stored in one transaction, so a refusal (404, 429) stores nothing.
pub async fn start_attempt(
    state: &AppState,
    user_id: UserId,
    set: &str,
    item: &str,
) -> Result<(i64, Presented), AppError> {
    let drawn = draw(set, item)?;
    let mut tx = state.db.begin().await?;
    write_budget::spend(&mut tx, &state.config, user_id, Write::DrillAttempt).await?;
    let ids = store_attempts(&mut tx, user_id, std::slice::from_ref(&drawn), None).await?;
    tx.commit().await?;
    Ok((ids[0], drawn.shown))
}

/// The learner's own attempt.
pub async fn own_attempt(db: &Db, id: i64, user_id: UserId) -> Result<Attempt, AppError> {
    drills::get(db, id, user_id).await?.ok_or_else(|| {
        AppError::NotFound(format!("no drill attempt {id} of yours"))
            .zh(format!("你没有第 {id} 次概念题作答"))
    })
}

pub(crate) fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, AppError> {
    serde_json::from_str(text).map_err(|e| AppError::Internal(e.into()))
}

/// Whether the attempt belongs to an interview whose clock has run out (or that was finished).
pub async fn interview_closed(db: &Db, a: &Attempt) -> Result<bool, AppError> {
    let Some(iid) = a.interview_id else {
        return Ok(false);
    };
    let i = crate::db::interviews::by_id(db, iid).await?;
    Ok(i.is_none_or(|i| !i.open(now_ms())))
}

/// Whether the attempt's result is withheld: during an interview, results wait for the report.
pub async fn result_withheld(db: &Db, a: &Attempt) -> Result<bool, AppError> {
    if a.interview_id.is_some() {
        return Ok(!interview_closed(db, a).await?);
    }
    // The same item answered outside a running interview would reveal what the interview withholds.
    Ok(crate::db::interviews::holds_item(db, a.user_id, &a.drill_set, &a.item, now_ms()).await?)
}

/// Grades and stores an answer, updates the review card and the streak. A response that cannot
/// be graded is a 400 and leaves the attempt open; a second answer is a 409. No write budget:
/// it fills a budgeted attempt once, and the card and streak are one row per item and learner.
pub async fn answer_attempt(
    db: &Db,
    user_id: UserId,
    id: i64,
    response: &Response,
) -> Result<(Graded, i64), AppError> {
    let a = own_attempt(db, id, user_id).await?;
    if interview_closed(db, &a).await? {
        return Err(interview_over());
    }
    if a.answered_at.is_some() {
        return Err(already_answered(id));
    }
    let key: Key = parse(&a.answer_key)?;
    let graded =
        katas_drills::grade(&key, response).map_err(|e| AppError::BadRequest(e.en).zh(e.zh))?;
    let response_json =
        serde_json::to_string(response).map_err(|e| AppError::Internal(e.into()))?;
    let result = serde_json::to_string(&graded).map_err(|e| AppError::Internal(e.into()))?;
    if !drills::record(
        db,
        id,
        user_id,
        &response_json,
        &result,
        graded.score,
        graded.correct,
    )
    .await?
    {
        return Err(already_answered(id));
    }
    let now = now_ms();
    let subject = format!("{}/{}", a.drill_set, a.item);
    let due = review::review(
        db,
        user_id,
        Kind::Drill,
        &subject,
        review::rating(graded.score),
        now,
    )
    .await?;
    review::practised(db, user_id, now).await?;
    Ok((graded, due))
}

/// Puts every solved kata without a card into the review queue, dated by its first accepted
/// submit (solved katas enter the queue without touching the grading path).
pub async fn sync_solved_katas(db: &Db, user_id: UserId) -> Result<(), sqlx::Error> {
    let solved: Vec<(String, i64)> = sqlx::query_as(
        "SELECT kata, MIN(created_at) FROM submissions
         WHERE user_id = $1 AND mode = 'submit' AND verdict = 'accepted'
           AND kata NOT IN (SELECT subject FROM review_cards WHERE user_id = $2 AND kind = 'kata')
         GROUP BY kata",
    )
    .bind(user_id)
    .bind(user_id)
    .fetch_all(db)
    .await?;
    for (kata, at) in solved {
        review::review(db, user_id, Kind::Kata, &kata, rs_fsrs::Rating::Good, at).await?;
    }
    Ok(())
}
