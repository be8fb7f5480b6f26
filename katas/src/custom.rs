//! Custom input: a learner's own input for a kata, written as JSON (the kata's `Input` type as
//! serde sees it), admitted only within the statement's constraints ([`KataSpec::admit`]),
//! answered by the reference on the trusted side, and run as one case through the same session
//! loop as every other run: the runner receives the input's wire bytes instead of a seed.

use crate::catalogue::{CaseInfo, Judging, Prepared};
use crate::evaluate::{CaseResult, JudgeFailure, Trial, panic_message};
use crate::lang::Lang;
use crate::report::CaseReport;
use crate::spec::{Case, Group, KataSpec, Refusal};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The largest custom input accepted, as JSON text.
pub const MAX_INPUT_BYTES: usize = 64 << 10;
/// Outputs shown beside each other are cut to this many bytes.
pub const MAX_SHOWN_BYTES: usize = 16 << 10;
/// The name of the one case of a custom run.
pub use crate::runner::CUSTOM_CASE as CASE_NAME;

/// Why a custom input cannot be run. All but [`CustomError::Reference`] are the learner's input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustomError {
    #[error("the input is {bytes} bytes; the limit is {limit}")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the input is not valid JSON for this kata: {0}")]
    Json(String),
    #[error("{}", .0.en)]
    Refused(Refusal),
    /// The reference failed on an admitted input: the kata's `admit` let through what it
    /// should not have. Our failure.
    #[error("the reference failed on this input (our bug, not yours): {0}")]
    Reference(String),
}

impl CustomError {
    /// Whether the learner's input is at fault (a 422), as opposed to our side.
    pub fn is_input(&self) -> bool {
        !matches!(self, Self::Reference(_))
    }

    /// The message in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (Self::Refused(r), lang) => r.in_lang(lang).to_string(),
            (_, Lang::En) => self.to_string(),
            (Self::TooLarge { bytes, limit }, Lang::Zh) => {
                format!("输入为 {bytes} 字节；上限为 {limit} 字节")
            }
            (Self::Json(why), Lang::Zh) => format!("输入不是此题可用的 JSON：{why}"),
            (Self::Reference(why), Lang::Zh) => {
                format!("参考解在此输入上失败（是我们的问题，不是你的）：{why}")
            }
        }
    }
}

/// A custom input that was admitted and answered by the reference: what a run of it needs.
#[derive(Debug)]
pub struct CustomCase {
    /// The one selected case (index 0).
    pub info: CaseInfo,
    /// The input in the wire format, for the runner.
    pub input: Vec<u8>,
    /// Judges the one case against the reference's answer, with the kata's checker.
    pub judging: Arc<dyn Judging>,
    /// The reference's answer as JSON (cut to [`MAX_SHOWN_BYTES`]).
    pub reference_output: String,
    learner: Arc<Mutex<Option<String>>>,
}

impl CustomCase {
    /// The learner's answer as JSON, once judged and if it decoded (cut to [`MAX_SHOWN_BYTES`]).
    pub fn learner_output(&self) -> Option<String> {
        self.learner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// Parses and admits `json` for kata `S`: cheap, no code of anyone's runs.
pub fn parse<S: KataSpec>(json: &str) -> Result<S::Input, CustomError> {
    if json.len() > MAX_INPUT_BYTES {
        return Err(CustomError::TooLarge {
            bytes: json.len(),
            limit: MAX_INPUT_BYTES,
        });
    }
    let input: S::Input =
        serde_json::from_str(json).map_err(|e| CustomError::Json(cut(e.to_string())))?;
    S::admit(&input).map_err(CustomError::Refused)?;
    Ok(input)
}

/// Parses, admits and answers `json` with `reference` (or the kata's oracle).
pub fn prepare<S: KataSpec>(
    reference: S::Solution,
    json: &str,
    limit: Duration,
) -> Result<CustomCase, CustomError> {
    let input = parse::<S>(json)?;
    let expected = match S::oracle(&input) {
        Some(out) => out,
        None => {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| S::solve(reference, &input)))
                .map_err(|p| CustomError::Reference(panic_message(p.as_ref())))?
        }
    };
    let shown = |out: &S::Output| {
        serde_json::to_string(out)
            .map(cut)
            .map_err(|e| CustomError::Reference(e.to_string()))
    };
    let reference_output = shown(&expected)?;
    let wire = crate::wire::encode(&input).map_err(|e| CustomError::Reference(e.to_string()))?;
    let bound = crate::wire::encode(&expected)
        .map(|b| 2 * b.len() + (64 << 10))
        .map_err(|e| CustomError::Reference(e.to_string()))?;
    let trial = Arc::new(Trial::<S> {
        cases: vec![Case::new(CASE_NAME, Group::Sample, input)],
        expected: vec![expected],
    });
    let learner = Arc::new(Mutex::new(None));
    Ok(CustomCase {
        info: CaseInfo {
            index: 0,
            name: CASE_NAME.to_string(),
            group: Group::Sample,
        },
        input: wire,
        judging: Arc::new(Shown::<S> {
            prepared: Prepared::bounded(trial, vec![bound], limit),
            learner: Arc::clone(&learner),
        }),
        reference_output,
        learner,
    })
}

/// The first sample case's input as pretty JSON, when the kata admits it (CPU katas).
pub fn sample<S: KataSpec>(cases: &[Case<S::Input>]) -> Option<String> {
    let first = cases.iter().find(|c| c.group == Group::Sample)?;
    S::admit(&first.input).ok()?;
    serde_json::to_string_pretty(&first.input).ok()
}

/// The one case's judging, keeping the learner's decoded answer to show.
struct Shown<S: KataSpec> {
    prepared: Prepared<S>,
    learner: Arc<Mutex<Option<String>>>,
}

impl<S: KataSpec> std::fmt::Debug for Shown<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shown").finish_non_exhaustive()
    }
}

impl<S: KataSpec> Judging for Shown<S> {
    fn answer_bound(&self, index: usize) -> usize {
        self.prepared.answer_bound(index)
    }

    fn input_bytes(&self, index: usize) -> Result<Vec<u8>, String> {
        self.prepared.input_bytes(index)
    }

    fn judge(
        &self,
        index: usize,
        result: CaseResult,
        time_ms: f64,
    ) -> Result<CaseReport, JudgeFailure> {
        if let Ok(bytes) = &result
            && let Ok(got) = crate::wire::decode::<S::Output>(bytes)
            && let Ok(json) = serde_json::to_string(&got)
        {
            *self.learner.lock().unwrap_or_else(PoisonError::into_inner) = Some(cut(json));
        }
        self.prepared.judge(index, result, time_ms)
    }
}

/// `text` cut to [`MAX_SHOWN_BYTES`] on a character boundary, marked when cut.
fn cut(mut text: String) -> String {
    if text.len() > MAX_SHOWN_BYTES {
        let mut end = MAX_SHOWN_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str(" …");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KataKind;

    fn cpu_katas() -> impl Iterator<Item = &'static dyn crate::Kata> {
        crate::catalogue::all()
            .iter()
            .copied()
            .filter(|k| k.meta().kind == KataKind::Cpu)
    }

    #[test]
    fn every_cpu_kata_offers_and_admits_its_first_sample() {
        let mut seen = 0;
        for kata in cpu_katas() {
            let slug = &kata.meta().slug;
            let sample = kata
                .sample_input()
                .unwrap_or_else(|| panic!("{slug}: no sample"));
            let case = kata
                .custom(&sample)
                .unwrap_or_else(|e| panic!("{slug}: {e}"));
            assert!(!case.reference_output.is_empty(), "{slug}");
            assert_eq!(case.info.name, CASE_NAME);
            seen += 1;
        }
        assert_eq!(seen, 5, "the five CPU katas");
    }

    #[test]
    fn gpu_katas_say_custom_input_is_not_offered() {
        for kata in crate::catalogue::all()
            .iter()
            .filter(|k| k.meta().kind == KataKind::Gpu)
        {
            assert_eq!(kata.sample_input(), None);
            let err = kata.check_custom("{}").unwrap_err();
            assert_eq!(err, CustomError::Refused(Refusal::not_offered()));
        }
    }

    fn refusal(slug: &str, json: &str) -> CustomError {
        let kata = crate::catalogue::find(slug).expect("kata");
        let err = kata.check_custom(json).expect_err(json);
        assert!(err.is_input(), "{slug}: {err}");
        assert!(!err.message(Lang::Zh).is_empty());
        err
    }

    #[test]
    fn out_of_constraint_inputs_are_refused_with_the_kata_message() {
        let cases = [
            ("fast-power", r#"{"PowMod":[[2,10,0]]}"#, "modulus 0"),
            ("fast-power", r#"{"Power":[]}"#, "number of queries"),
            (
                "ring-allreduce",
                r#"{"ranks":17,"len":1,"values":{"Seeded":1}}"#,
                "N (ranks) is 17",
            ),
            (
                "ring-allreduce",
                r#"{"ranks":2,"len":1,"values":{"Listed":[[1.0],[1.5]]}}"#,
                "integers in [-1000, 1000]",
            ),
            (
                "tp-split",
                r#"{"Column":{"ranks":2,"x":{"rows":1,"cols":2,"data":[1,2]},"w":{"rows":3,"cols":1,"data":[1,2,3]},"bias":[0]}}"#,
                "x.cols = w.rows",
            ),
            (
                "view-contiguous",
                r#"{"storage_len":4,"layout":{"shape":[2,3],"strides":[3,1],"offset":0},"ops":[]}"#,
                "reaches outside",
            ),
            (
                "view-contiguous",
                r#"{"storage_len":6,"layout":{"shape":[2,3],"strides":[3,1],"offset":0},"ops":[{"Permute":[0,0]}]}"#,
                "operation 0",
            ),
            (
                "graph-fusion",
                r#"{"Fuse":{"nodes":[{"op":"Input","inputs":[],"shape":[2,3]},{"op":"MatMul","inputs":[0,0],"shape":[2,3]}]}}"#,
                "node 1",
            ),
            (
                "graph-fusion",
                r#"{"Fold":{"linear":{"out_features":1,"in_features":1,"weight":[1],"bias":[0]},"bn":{"gamma":[1],"beta":[0],"running_mean":[0],"running_var":[-1],"eps":0.001}}}"#,
                "running_var",
            ),
        ];
        for (slug, json, says) in cases {
            let err = refusal(slug, json);
            assert!(matches!(err, CustomError::Refused(_)), "{slug}: {err}");
            assert!(err.to_string().contains(says), "{slug}: {err}");
        }
    }

    #[test]
    fn bad_json_and_oversized_inputs_are_refused_before_admitting() {
        assert!(matches!(
            refusal("fast-power", "{not json"),
            CustomError::Json(_)
        ));
        assert!(matches!(
            refusal("fast-power", r#"{"Cube":[1]}"#),
            CustomError::Json(_)
        ));
        let big = format!(
            r#"{{"Power":[{}]}}"#,
            "[1.0,1],".repeat(MAX_INPUT_BYTES / 4)
        );
        assert!(matches!(
            refusal("fast-power", &big),
            CustomError::TooLarge { .. }
        ));
    }

    #[test]
    fn the_learner_output_is_kept_when_judged() {
        let kata = crate::catalogue::find("fast-power").expect("kata");
        let case = kata.custom(r#"{"PowMod":[[3,4,7]]}"#).expect("admitted");
        assert_eq!(case.reference_output, r#"{"PowMod":[4]}"#);
        let wrong = crate::wire::encode(&serde_json::json!(null)).ok();
        assert!(wrong.is_some());
        let report = case
            .judging
            .judge(0, Err("panicked: boom".into()), 1.0)
            .expect("judged");
        assert_eq!(report.outcome, crate::Outcome::RuntimeError);
        assert_eq!(case.learner_output(), None);
    }
}
