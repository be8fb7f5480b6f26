//! An instructor's view of one kata, per version: attempts, learners, accept rate, the verdicts,
//! the case learners most often fail first, and how long learners take to their first accept.
//!
//! Attempts are graded `submit`s: withdrawn submissions and custom-input runs are not attempts
//! (as in `progress`). Work from before versions were recorded is grouped under `None`.

use super::Db;
use std::collections::BTreeMap;

/// One version's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionStats {
    /// `None`: submissions from before versions were recorded.
    pub version: Option<i64>,
    pub attempts: i64,
    pub learners: i64,
    pub accepted: i64,
    /// Finished attempts by verdict, most frequent first.
    pub verdicts: Vec<(String, i64)>,
    /// The case most often the first to fail, and how many attempts failed there first.
    pub first_failing: Option<(String, i64)>,
    /// Median over learners whose first accepted submit is of this version: from their first
    /// submission of the kata to that accept.
    pub median_ms_to_first_accept: Option<i64>,
}

impl VersionStats {
    /// Accepted attempts over attempts (0 without attempts).
    pub fn accept_rate(&self) -> f64 {
        if self.attempts == 0 {
            0.0
        } else {
            self.accepted as f64 / self.attempts as f64
        }
    }
}

/// What counts as an attempt at `$1`.
const ATTEMPTS: &str =
    "kata = $1 AND mode = 'submit' AND withdrawn IS NULL AND custom_input IS NULL";

/// Every version of `kata` that has attempts, newest first (work without a version last).
pub async fn for_kata(db: &Db, kata: &str) -> Result<Vec<VersionStats>, sqlx::Error> {
    let totals: Vec<(Option<i64>, i64, i64, i64)> = sqlx::query_as(&format!(
        "SELECT kata_version, COUNT(*), COUNT(DISTINCT user_id),
           SUM(CASE WHEN verdict = 'accepted' THEN 1 ELSE 0 END)
         FROM submissions WHERE {ATTEMPTS} GROUP BY kata_version"
    ))
    .bind(kata)
    .fetch_all(db)
    .await?;
    let verdicts: Vec<(Option<i64>, String, i64)> = sqlx::query_as(&format!(
        "SELECT kata_version, verdict, COUNT(*) FROM submissions
         WHERE {ATTEMPTS} AND verdict IS NOT NULL GROUP BY kata_version, verdict"
    ))
    .bind(kata)
    .fetch_all(db)
    .await?;
    // The first case of each attempt that neither passed nor was skipped.
    let first_failing: Vec<(Option<i64>, String, i64)> = sqlx::query_as(
        "SELECT s.kata_version, c.name, COUNT(*) FROM submissions s
         JOIN case_results c ON c.submission_id = s.id
         WHERE s.kata = $1 AND s.mode = 'submit' AND s.withdrawn IS NULL
           AND s.custom_input IS NULL
           AND c.position = (SELECT MIN(f.position) FROM case_results f
             WHERE f.submission_id = s.id AND f.outcome NOT IN ('passed', 'not_run'))
         GROUP BY s.kata_version, c.name",
    )
    .bind(kata)
    .fetch_all(db)
    .await?;
    let to_accept = first_accepts(db, kata).await?;

    let mut out: Vec<VersionStats> = totals
        .into_iter()
        .map(|(version, attempts, learners, accepted)| {
            let mut v: Vec<(String, i64)> = verdicts
                .iter()
                .filter(|r| r.0 == version)
                .map(|r| (r.1.clone(), r.2))
                .collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let first_failing = first_failing
                .iter()
                .filter(|r| r.0 == version)
                .max_by(|a, b| a.2.cmp(&b.2).then(b.1.cmp(&a.1)))
                .map(|r| (r.1.clone(), r.2));
            VersionStats {
                version,
                attempts,
                learners,
                accepted,
                verdicts: v,
                first_failing,
                median_ms_to_first_accept: to_accept.get(&version).and_then(|d| median(d)),
            }
        })
        .collect();
    out.sort_by_key(|v| std::cmp::Reverse(v.version));
    Ok(out)
}

/// Per version, each learner's time from their first submission of the kata to their first
/// accepted attempt (counted under that attempt's version).
async fn first_accepts(
    db: &Db,
    kata: &str,
) -> Result<BTreeMap<Option<i64>, Vec<i64>>, sqlx::Error> {
    let rows: Vec<(i64, Option<i64>, i64, i64)> = sqlx::query_as(&format!(
        "SELECT a.user_id, a.kata_version, a.created_at,
           (SELECT MIN(f.created_at) FROM submissions f WHERE f.user_id = a.user_id AND f.kata = $1)
         FROM submissions a
         WHERE {ATTEMPTS} AND verdict = 'accepted'
           AND a.id = (SELECT MIN(b.id) FROM submissions b
             WHERE b.user_id = a.user_id AND b.kata = $1 AND b.mode = 'submit'
               AND b.verdict = 'accepted' AND b.withdrawn IS NULL AND b.custom_input IS NULL)"
    ))
    .bind(kata)
    .fetch_all(db)
    .await?;
    let mut by_version: BTreeMap<Option<i64>, Vec<i64>> = BTreeMap::new();
    for (_, version, accepted_at, first_at) in rows {
        by_version
            .entry(version)
            .or_default()
            .push(accepted_at - first_at);
    }
    Ok(by_version)
}

fn median(values: &[i64]) -> Option<i64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[n / 2]),
        n => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2),
    }
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[5]), Some(5));
        assert_eq!(median(&[9, 1, 5]), Some(5));
        assert_eq!(median(&[1, 3, 10, 100]), Some(6));
    }
}
