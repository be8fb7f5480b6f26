//! Interview mode's rules, shared by the API (`routes::interviews`) and the pages
//! (`pages::interviews`): which kata and drill items an interview draws, starting it, its report
//! (the best submit in the window less the hints' cost, each item's outcome and time, what to
//! review next) and finishing it once.

use crate::db::allowance::Write;
use crate::db::drills as attempts;
use crate::db::interviews::{self, Interview};
use crate::db::{Db, now_ms, progress};
use crate::domain::InterviewId;
use crate::domain::UserId;
use crate::domain::Word as _;
use crate::error::AppError;
use crate::services::drills::{catalogue, draw, store_attempts};
use crate::services::write_budget;
use crate::state::AppState;
use katas::{Difficulty, Kata, KataKind, Verdict};
use katas_drills::{Graded, Text};
use serde::{Deserialize, Serialize};

/// Length of an interview unless the learner picks another (minutes).
pub const DEFAULT_MINUTES: u32 = 45;
/// Drill items asked beside the kata.
pub const ITEMS: usize = 5;
/// Share of the kata's credit each hint costs.
pub const HINT_COST: f64 = 0.1;

/// The kata that suits the learner, drawn at random from the listed CPU katas they have not
/// solved within their difficulty band: the hardest difficulty among the katas they solved and
/// the one above it (a learner who solved none: the easiest). When no unsolved kata lies in the
/// band, the unsolved ones of the nearest difficulty outside it; when every one is solved, any.
/// Which katas are listed is `services::catalogue`'s rule (a learner's view: staff previews of
/// unlisted katas are never drawn).
async fn pick_kata(state: &AppState, user_id: UserId) -> Result<&'static dyn Kata, AppError> {
    let solved = progress::solved(&state.db, user_id).await?;
    let listed = crate::services::catalogue::listing(state, false).await?;
    let cpu: Vec<&'static dyn Kata> = listed
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| k.meta().kind == KataKind::Cpu)
        .collect();
    let hardest = crate::services::catalogue::every_kata(state)
        .await?
        .iter()
        .filter(|k| solved.contains(k.meta().slug.as_str()))
        .map(|k| k.meta().difficulty)
        .max();
    let unsolved: Vec<&'static dyn Kata> = cpu
        .iter()
        .copied()
        .filter(|k| !solved.contains(k.meta().slug.as_str()))
        .collect();
    let pool = if unsolved.is_empty() {
        cpu
    } else {
        let distance = |k: &&'static dyn Kata| band_distance(hardest, k.meta().difficulty);
        let nearest = unsolved.iter().map(distance).min().unwrap_or(0);
        unsolved
            .into_iter()
            .filter(|k| distance(k) == nearest)
            .collect()
    };
    if pool.is_empty() {
        return Err(AppError::Internal(anyhow::anyhow!(
            "the catalogue lists no CPU kata"
        )));
    }
    Ok(pool[fastrand::usize(..pool.len())])
}

/// How far `difficulty` lies outside the band of a learner whose hardest solve is `hardest`:
/// 0 inside it (that difficulty and the next; the easiest for a learner with none), else the
/// number of steps to its nearest edge.
fn band_distance(hardest: Option<Difficulty>, difficulty: Difficulty) -> usize {
    let rank = |d: Difficulty| match d {
        Difficulty::Easy => 0usize,
        Difficulty::Medium => 1,
        Difficulty::Hard => 2,
    };
    let (low, high) = match hardest {
        None => (0, 0),
        Some(h) => (rank(h), rank(h) + 1),
    };
    let d = rank(difficulty);
    low.saturating_sub(d) + d.saturating_sub(high)
}

/// Drill items on the kata's topics: linked to the kata first, then sharing a topic, then any.
fn pick_items(kata: &dyn Kata) -> Vec<(String, String)> {
    let served = catalogue();
    let meta = kata.meta();
    let mut tiers: [Vec<(String, String)>; 3] = Default::default();
    for set in served.sets() {
        for item in &set.items {
            let tier = if item.katas.contains(&meta.slug) {
                0
            } else if item.tags.iter().any(|t| meta.topics.contains(t)) {
                1
            } else {
                2
            };
            tiers[tier].push((set.slug.clone(), item.id.clone()));
        }
    }
    let mut out = Vec::new();
    for mut tier in tiers {
        fastrand::shuffle(&mut tier);
        out.extend(tier);
    }
    out.truncate(ITEMS);
    out
}

/// Starts an interview of `minutes` for the user: the kata and its drill attempts, paid from
/// the learner's interview budget (its attempts spend none of the drill-attempt budget). One
/// transaction spends the unit and stores it all, so a refusal stores nothing.
pub async fn start_interview(
    state: &AppState,
    user_id: UserId,
    minutes: u32,
) -> Result<InterviewId, AppError> {
    if !(1..=180).contains(&minutes) {
        return Err(
            AppError::BadRequest("an interview lasts 1 to 180 minutes".into())
                .zh("面试时长为 1 到 180 分钟"),
        );
    }
    let kata = pick_kata(state, user_id).await?;
    let drawn = pick_items(kata)
        .iter()
        .map(|(set, item)| draw(set, item))
        .collect::<Result<Vec<_>, _>>()?;
    let now = now_ms();
    let mut tx = state.db.begin().await?;
    write_budget::spend(&mut tx, &state.config, user_id, Write::Interview).await?;
    let id = interviews::create(
        &mut tx,
        user_id,
        &kata.meta().slug,
        now,
        now + i64::from(minutes) * 60_000,
    )
    .await?;
    store_attempts(&mut tx, user_id, &drawn, Some(id)).await?;
    tx.commit().await?;
    Ok(id)
}

/// How one drill item of an interview went (stored in the report as the snake_case word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemOutcome {
    Right,
    Partly,
    Wrong,
    Unanswered,
}

impl ItemOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Right => "right",
            Self::Partly => "partly",
            Self::Wrong => "wrong",
            Self::Unanswered => "unanswered",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportItem {
    pub set: String,
    pub item: String,
    pub prompt: Text,
    pub outcome: ItemOutcome,
    pub score: f64,
    /// From the previous answer (or the start) to this one.
    pub time_ms: Option<i64>,
    pub explanation: Option<Text>,
}

/// The kata's part of a report, kept in the stored report as one word: `none` (no submit in
/// the window), `pending` (not graded yet) or the verdict's name. Any other word is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum KataOutcome {
    None,
    Pending,
    Graded(Verdict),
}

impl KataOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Pending => "pending",
            Self::Graded(v) => v.as_str(),
        }
    }
}

impl TryFrom<String> for KataOutcome {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "none" => Ok(Self::None),
            "pending" => Ok(Self::Pending),
            w => Verdict::from_name(w)
                .map(Self::Graded)
                .ok_or_else(|| format!("unknown kata outcome `{}`", w.escape_debug())),
        }
    }
}

impl From<KataOutcome> for String {
    fn from(o: KataOutcome) -> Self {
        o.as_str().into()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    pub kata: String,
    pub kata_title: String,
    /// The kata's best submit in the window: its verdict (or none, or pending), cases passed
    /// of total.
    pub kata_verdict: KataOutcome,
    pub kata_passed: i64,
    pub kata_total: i64,
    pub kata_time_ms: Option<i64>,
    pub hints_used: i64,
    pub kata_score: f64,
    pub items: Vec<ReportItem>,
    /// 0–100: the kata and each item weigh the same.
    pub score: f64,
    /// What to review next: the kata if not accepted, the sets of items not fully right.
    pub review_next: Vec<String>,
}

pub async fn build_report(db: &Db, i: &Interview) -> Result<Report, AppError> {
    let end = i.finished_at.unwrap_or(i.ends_at).min(i.ends_at);
    let best = interviews::best_submit(db, i.user_id, &i.kata, i.started_at, end).await?;
    let (verdict, passed, total, at) = best.map_or((KataOutcome::None, 0, 0, None), |b| {
        (
            b.verdict
                .map_or(KataOutcome::Pending, |v| KataOutcome::Graded(v.0)),
            b.passed.unwrap_or(0),
            b.total.unwrap_or(0),
            Some(b.created_at),
        )
    });
    let accepted = verdict == KataOutcome::Graded(Verdict::Accepted);
    let base = if accepted {
        1.0
    } else if total > 0 {
        passed as f64 / total as f64
    } else {
        0.0
    };
    let kata_score = (base - HINT_COST * i.hints_used as f64).max(0.0);
    let mut items = Vec::new();
    let mut previous = i.started_at;
    let mut list = attempts::of_interview(db, i.id).await?;
    list.sort_by_key(|a| a.answered_at.unwrap_or(i64::MAX));
    for a in list {
        let shown: katas_drills::Presented =
            serde_json::from_str(&a.presented).map_err(|e| AppError::Internal(e.into()))?;
        let graded: Option<Graded> = a
            .result
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| AppError::Internal(e.into()))?;
        let key: katas_drills::Key =
            serde_json::from_str(&a.answer_key).map_err(|e| AppError::Internal(e.into()))?;
        let time_ms = a.answered_at.map(|t| {
            let spent = t - previous;
            previous = t;
            spent
        });
        let (outcome, score) = match &graded {
            None => (ItemOutcome::Unanswered, 0.0),
            Some(g) if g.correct => (ItemOutcome::Right, 1.0),
            Some(g) if g.score > 0.0 => (ItemOutcome::Partly, g.score),
            Some(_) => (ItemOutcome::Wrong, 0.0),
        };
        items.push(ReportItem {
            set: a.drill_set.clone(),
            item: a.item.clone(),
            prompt: shown.prompt,
            outcome,
            score,
            time_ms,
            explanation: Some(key.explanation),
        });
    }
    let total_score = (kata_score + items.iter().map(|r| r.score).sum::<f64>())
        / (items.len() + 1) as f64
        * 100.0;
    let mut review_next = Vec::new();
    if !accepted {
        review_next.push(format!("kata {}", i.kata));
    }
    for r in items.iter().filter(|r| r.score < 1.0) {
        let line = format!("drill set {}", r.set);
        if !review_next.contains(&line) {
            review_next.push(line);
        }
    }
    Ok(Report {
        kata_title: crate::db::katas::title(db, i.kata.as_str())
            .await?
            .unwrap_or_else(|| i.kata.to_string()),
        kata: i.kata.to_string(),
        kata_verdict: verdict,
        kata_passed: passed,
        kata_total: total,
        kata_time_ms: at.map(|t| t - i.started_at),
        hints_used: i.hints_used,
        kata_score,
        items,
        score: total_score,
        review_next,
    })
}

/// Finishes the interview (now, or because its clock ran out) and keeps its report; returns
/// the stored report either way.
pub async fn finish_interview(db: &Db, i: &Interview) -> Result<Report, AppError> {
    if let Some(r) = &i.report {
        let stored: Report = serde_json::from_str(r).map_err(|e| AppError::Internal(e.into()))?;
        if stored.kata_verdict != KataOutcome::Pending {
            return Ok(stored);
        }
        // The last submit was still queued when the clock stopped: its verdict belongs to the
        // interview, so the report is rebuilt until it lands rather than saying "pending" for good.
        let fresh = build_report(db, i).await?;
        if fresh.kata_verdict != KataOutcome::Pending {
            let text = serde_json::to_string(&fresh).map_err(|e| AppError::Internal(e.into()))?;
            interviews::settle_report(db, i.id, i.user_id, &text).await?;
        }
        return Ok(fresh);
    }
    let now = now_ms();
    let closing = Interview {
        finished_at: Some(now.min(i.ends_at)),
        ..i.clone()
    };
    let report = build_report(db, &closing).await?;
    let text = serde_json::to_string(&report).map_err(|e| AppError::Internal(e.into()))?;
    if !interviews::finish(db, i.id, i.user_id, &text, now.min(i.ends_at)).await? {
        // Finished concurrently: the first report stands.
        let stored = interviews::get(db, i.id, i.user_id)
            .await?
            .and_then(|i| i.report)
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("interview {} lost", i.id)))?;
        return serde_json::from_str(&stored).map_err(|e| AppError::Internal(e.into()));
    }
    Ok(report)
}

/// The user's own interview, finished first if its clock has run out.
pub async fn own_interview(
    db: &Db,
    id: InterviewId,
    user_id: UserId,
) -> Result<(Interview, Option<Report>), AppError> {
    let i = interviews::get(db, id, user_id).await?.ok_or_else(|| {
        AppError::NotFound(format!("no interview {id} of yours"))
            .zh(format!("你没有第 {id} 号面试"))
    })?;
    if i.report.is_some() || !i.open(now_ms()) {
        let r = finish_interview(db, &i).await?;
        let i = interviews::get(db, id, user_id).await?.unwrap_or(i);
        return Ok((i, Some(r)));
    }
    Ok((i, None))
}
