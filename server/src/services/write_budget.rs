//! Every write that would otherwise store rows without bound spends a unit of the writer's
//! budget for its kind ([`Write`]), in the same transaction as the rows it pays for: a refused
//! write answers 429 and stores nothing, and a write that fails spends nothing.
//!
//! Writes with no budget are bounded otherwise: a draft or a saved language overwrites one row,
//! an opened hint is one row per hint of a kata, an answer fills its attempt once, an
//! interview's hints stop at the kata's count, a cancel or a finish changes a row once, and a
//! log-in beyond a user's 20 sessions ends the oldest (`db::sessions`). Sign-ups are throttled
//! per address (`login_throttle`). Staff are budgeted where a write costs the service work: a
//! kata upload is unpacked and linted whether or not it passes, so its unit is spent before
//! that work, in a transaction of its own; so is a rejudge, whose jobs the workers then grade.
//! Workers are not budgeted.

use crate::db::Tx;
use crate::db::allowance::{self, Budget, Write};
use crate::domain::UserId;
use crate::error::AppError;
use crate::state::ServerConfig;

/// The budget `config` gives writes of `kind`.
pub fn budget(config: &ServerConfig, kind: Write) -> Budget {
    match kind {
        Write::Submission => {
            Budget::per_minute(config.submissions_per_minute, config.submission_burst)
        }
        Write::DrillAttempt => config.drill_attempt_budget,
        Write::Interview => config.interview_budget,
        Write::KataUpload => config.kata_upload_budget,
        Write::Rejudge => config.rejudge_budget,
    }
}

/// Spends one unit of `user_id`'s budget for `kind` in `tx`; the 429 when none is left.
pub async fn spend(
    tx: &mut Tx<'_>,
    config: &ServerConfig,
    user_id: UserId,
    kind: Write,
) -> Result<(), AppError> {
    let budget = budget(config, kind);
    if allowance::take(tx, user_id, kind, crate::db::now_ms(), budget).await? {
        Ok(())
    } else {
        // A unit comes back at most one interval after a refusal (GCRA): a safe Retry-After.
        let secs = u64::try_from(budget.every.as_millis().div_ceil(1000)).unwrap_or(u64::MAX);
        Err(refusal(config, kind, budget).retry_after(secs.max(1)))
    }
}

fn refusal(config: &ServerConfig, kind: Write, budget: Budget) -> AppError {
    let burst = budget.burst;
    let (en, zh) = match kind {
        Write::Submission => {
            // Worded as it always was: in the units the configuration is given in.
            let per_minute = config.submissions_per_minute;
            return AppError::TooManyRequests(format!(
                "too many submissions: at most {per_minute} a minute (bursts of {burst}); try again shortly"
            ))
            .zh(format!(
                "提交太频繁了：每分钟最多 {per_minute} 次（连续最多 {burst} 次），请稍后再试"
            ));
        }
        Write::DrillAttempt => ("drill attempts started", "开始概念题作答"),
        Write::Interview => ("interviews started", "开始面试"),
        Write::KataUpload => ("kata packages uploaded", "上传题目包"),
        Write::Rejudge => ("rejudges started", "开始重新评测"),
    };
    let (rate_en, rate_zh) = rate(budget);
    AppError::TooManyRequests(format!(
        "too many {en}: at most {rate_en} ({burst} at once); try again later"
    ))
    .zh(format!(
        "{zh}太频繁了：{rate_zh}（连续最多 {burst} 次），请稍后再试"
    ))
}

/// The sustained rate in words, in the unit that reads best.
fn rate(budget: Budget) -> (String, String) {
    let every_ms = budget.every.as_millis().max(1);
    if every_ms <= 60_000 {
        let n = 60_000 / every_ms;
        (format!("{n} a minute"), format!("每分钟最多 {n} 次"))
    } else if every_ms <= 3_600_000 {
        let n = 3_600_000 / every_ms;
        (format!("{n} an hour"), format!("每小时最多 {n} 次"))
    } else {
        let hours = every_ms.div_ceil(3_600_000);
        (
            format!("one every {hours} hours"),
            format!("每 {hours} 小时最多 1 次"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::num::NonZeroU32;
    use std::time::Duration;

    #[test]
    fn rates_read_in_the_unit_that_fits() {
        let b = |secs| Budget {
            burst: NonZeroU32::new(2).unwrap(),
            every: Duration::from_secs(secs),
        };
        assert_eq!(rate(b(1)).0, "60 a minute");
        assert_eq!(rate(b(360)).0, "10 an hour");
        assert_eq!(rate(b(360)).1, "每小时最多 10 次");
        assert_eq!(rate(b(3 * 3600)).0, "one every 3 hours");
    }
}
