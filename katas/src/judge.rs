//! The trusted side's primitives, shared by every executor and by the grader: the cases and
//! reference answers of one seed ([`Trial`]), judging one case ([`judge_case`]), one grading's
//! trusted side behind an object-safe trait ([`Judging`], made by [`Prepared`]) and why our side
//! could fail to judge ([`JudgeFailure`]). It imports no executor, session or catalogue, so the
//! modules that use it form no circle.

use crate::panics::{PANICKED, panic_message};
use crate::report::{CaseReport, Outcome, trim};
use crate::spec::{Case, Check, Group, KataSpec, Message};
use crate::wire;
use std::sync::Arc;
use std::time::Duration;

/// A case as the grader sees it: its position, name and group (inputs stay in `katas`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseInfo {
    pub index: usize,
    pub name: String,
    pub name_zh: Option<String>,
    pub group: Group,
}

/// The trusted side of one grading's cases (see [`Kata::prepare`]).
pub trait Judging: Send + Sync + std::fmt::Debug {
    /// The largest encoded answer worth reading for case `index`: twice the reference's plus
    /// 64 KiB. A bigger one cannot be right, so the grader stops reading instead of holding it.
    fn answer_bound(&self, index: usize) -> usize;
    /// Case `index`'s input in the wire format: what a measured run is sent instead of a
    /// seed (see [`crate::runner::RunRequest::inputs`]).
    fn input_bytes(&self, index: usize) -> Result<Vec<u8>, KataError>;
    /// Judges case `index` of this grading's cases. `Err` only when our side failed (the
    /// checker panicked, no usable GPU where it ran): never the learner's verdict.
    fn judge(
        &self,
        index: usize,
        result: CaseResult,
        time_ms: f64,
    ) -> Result<CaseReport, JudgeFailure>;
    /// [`Judging::judge`] on each `(index, result, time_ms)`, in order. A judge in another
    /// process takes them all in one round trip.
    fn judge_all(
        &self,
        answers: Vec<(usize, CaseResult, f64)>,
    ) -> Vec<Result<CaseReport, JudgeFailure>> {
        answers
            .into_iter()
            .map(|(index, result, time_ms)| self.judge(index, result, time_ms))
            .collect()
    }
}

/// Why a kata's own trusted side could not make a grading's cases: the kata is broken (our
/// bug), never the learner's doing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum KataError {
    /// The case generator panicked (its message).
    #[error("generating the cases {0}")]
    Cases(String),
    /// The reference panicked on a case.
    #[error("the reference on case `{case}` {message}")]
    Reference { case: String, message: String },
    /// An input or the reference's answer has no wire encoding.
    #[error("encoding {what}: {message}")]
    Encode { what: String, message: String },
    #[error("#{0} (no such case)")]
    NoSuchCase(usize),
    /// A published package's judge (its trusted side as a sandboxed process,
    /// [`crate::judge_process`]) did not compile, answer or hold together.
    #[error("the package's judge {0}")]
    Judge(String),
    /// A stdin/stdout kata: its programs are judged in the sandbox (`graders::Grader::grade_io`),
    /// never by an in-process judge.
    #[error("`{0}` is a stdin/stdout kata, judged only in the sandbox")]
    NotInProcess(String),
}

/// The trusted half of a run: the cases and the reference's output for each.
#[derive(Debug)]
pub struct Trial<S: KataSpec> {
    pub cases: Vec<Case<S::Input>>,
    pub expected: Vec<S::Output>,
}

impl<S: KataSpec> Trial<S> {
    /// The cases as the session sees them: position, name, group.
    pub fn infos(&self) -> impl Iterator<Item = CaseInfo> + '_ {
        self.cases.iter().enumerate().map(|(index, c)| CaseInfo {
            index,
            name: c.name.clone(),
            name_zh: c.name_zh.clone(),
            group: c.group,
        })
    }

    /// Generates every case for `seed` and runs the (trusted) reference on each. A panic here is
    /// a broken kata, reported as such — never blamed on a solution.
    pub fn prepare(reference: S::Solution, seed: u64) -> Result<Self, KataError> {
        let cases = std::panic::catch_unwind(|| S::cases(seed))
            .map_err(|p| KataError::Cases(panic_message(p.as_ref())))?;
        let mut expected = Vec::with_capacity(cases.len());
        for case in &cases {
            if let Some(out) = S::oracle(&case.input) {
                expected.push(out);
                continue;
            }
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                S::solve(reference, &case.input)
            }))
            .map_err(|p| KataError::Reference {
                case: case.name.clone(),
                message: panic_message(p.as_ref()),
            })?;
            expected.push(out);
        }
        Ok(Self { cases, expected })
    }
}

/// What the untrusted side produced for one case: encoded output bytes or a panic message.
pub type CaseResult = Result<Vec<u8>, String>;

/// Why the trusted side could not judge a case: never the learner's doing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum JudgeFailure {
    /// The kata's checker panicked on this case (our bug; the same again would fail again).
    #[error("the checker itself failed on case `{0}` (our bug, not yours)")]
    Checker(String),
    /// What this case needs is missing where it ran (no usable GPU): another machine can.
    #[error("no usable GPU where this ran (our side, not yours), case `{case}`: {why}")]
    Unavailable { case: String, why: String },
}

/// Trusted half of one case: a decoded output is checked, a panic message becomes a runtime
/// error, and an answer that arrived after the limit is a time-out whatever it says.
pub fn judge_case<S: KataSpec>(
    case: &Case<S::Input>,
    expected: &S::Output,
    result: CaseResult,
    ms: f64,
    limit: Duration,
) -> Result<CaseReport, JudgeFailure> {
    let bytes = match result {
        Ok(bytes) => bytes,
        Err(message) => {
            let report = case_report(
                case,
                Outcome::RuntimeError,
                ms,
                None,
                Some(runtime_error(&trim(&message))),
                Vec::new(),
            );
            return Ok(with_input::<S>(case, report));
        }
    };
    // A case that answered just after its limit is still a time-out; checking it anyway would
    // make the verdict depend on how quickly this thread got scheduled.
    if ms > limit.as_secs_f64() * 1e3 {
        let why = Message::new(
            format!("took {ms:.0} ms; the limit is {} ms", limit.as_millis()),
            format!("用时 {ms:.0} ms；限制为 {} ms", limit.as_millis()),
        );
        return Ok(with_input::<S>(
            case,
            case_report(
                case,
                Outcome::TimeLimitExceeded,
                ms,
                None,
                Some(why),
                Vec::new(),
            ),
        ));
    }
    let got: S::Output = match wire::decode(&bytes) {
        Ok(got) => got,
        Err(e) => {
            let report = case_report(
                case,
                Outcome::WrongAnswer,
                ms,
                None,
                Some(Message::new(e.to_string(), format!("答案无法解码：{e}"))),
                Vec::new(),
            );
            return Ok(with_input::<S>(case, report));
        }
    };
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        S::check(&case.input, expected, &got)
    }));
    let Ok(checked) = checked else {
        return Err(JudgeFailure::Checker(case.name.clone()));
    };
    Ok(match checked {
        Check::Pass { notes } => case_report(case, Outcome::Passed, ms, None, None, notes),
        Check::PassTimed { notes, timing } => {
            let mut report = case_report(case, Outcome::Passed, ms, None, None, notes);
            report.device = Some(timing);
            report
        }
        Check::KernelRejected(log) => {
            // NVRTC's own words.
            case_report(
                case,
                Outcome::CompileError,
                ms,
                None,
                Some(Message::verbatim(log)),
                Vec::new(),
            )
        }
        Check::Unavailable(why) => {
            return Err(JudgeFailure::Unavailable {
                case: case.name.clone(),
                why,
            });
        }
        Check::Fail(mut m) => {
            m.expected = trim(&m.expected);
            m.got = trim(&m.got);
            with_input::<S>(
                case,
                case_report(case, Outcome::WrongAnswer, ms, Some(m), None, Vec::new()),
            )
        }
    })
}

fn case_report<I>(
    case: &Case<I>,
    outcome: Outcome,
    time_ms: f64,
    mismatch: Option<crate::spec::Mismatch>,
    message: Option<Message>,
    notes: Vec<Message>,
) -> CaseReport {
    CaseReport {
        name: case.name.clone(),
        name_zh: case.name_zh.clone(),
        group: case.group,
        outcome,
        time_ms,
        input: None,
        input_zh: None,
        mismatch,
        message,
        notes_zh: notes
            .iter()
            .map(|n| n.in_lang(crate::Lang::Zh).to_string())
            .collect(),
        notes: notes.into_iter().map(|n| n.en).collect(),
        device: None,
    }
}

fn with_input<S: KataSpec>(case: &Case<S::Input>, mut report: CaseReport) -> CaseReport {
    let described = S::describe(&case.input);
    report.input = Some(trim(&described.en));
    report.input_zh = described.zh.as_deref().map(trim);
    report
}

/// A frame's failure text as the learner reads it: a panic keeps its own words after a
/// prefix of ours, with the line of their code it came from when the runner knew it
/// ([`learner_panic_message`]); anything else came from the runner (ours, English only).
fn runtime_error(text: &str) -> Message {
    let Some(said) = text.strip_prefix(PANICKED) else {
        return Message::verbatim(text);
    };
    let located = said
        .strip_prefix('[')
        .and_then(|rest| rest.split_once("] "))
        .and_then(|(at, said)| {
            let mut parts = at.rsplitn(3, ':');
            let (column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
            Some((file, line, column, said))
        });
    match located {
        Some((file, line, column, said)) => Message::new(
            format!("panicked at {file}, line {line}, column {column}: {said}"),
            format!("程序在 {file} 第 {line} 行第 {column} 列 panic：{said}"),
        ),
        None => Message::new(text, format!("程序 panic：{said}")),
    }
}

/// One grading's trusted side for a kata of spec `S` (what [`Kata::prepare`] returns).
pub(crate) struct Prepared<S: KataSpec> {
    trial: Arc<Trial<S>>,
    bounds: Vec<usize>,
    limit: std::time::Duration,
}

impl<S: KataSpec> Prepared<S> {
    /// Judging with the given answer bounds, one per case.
    #[cfg(feature = "custom")]
    pub(crate) fn bounded(
        trial: Arc<Trial<S>>,
        bounds: Vec<usize>,
        limit: std::time::Duration,
    ) -> Self {
        Self {
            trial,
            bounds,
            limit,
        }
    }

    /// For an in-process run, whose answers are never read from a stream: no answer bounds.
    pub(crate) fn unbounded(trial: Arc<Trial<S>>, limit: std::time::Duration) -> Self {
        Self {
            trial,
            bounds: Vec::new(),
            limit,
        }
    }
}

impl<S: KataSpec> std::fmt::Debug for Prepared<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("cases", &self.trial.cases.len())
            .finish_non_exhaustive()
    }
}

impl<S: KataSpec> Judging for Prepared<S> {
    fn answer_bound(&self, index: usize) -> usize {
        self.bounds.get(index).copied().unwrap_or(64 << 10)
    }

    fn input_bytes(&self, index: usize) -> Result<Vec<u8>, KataError> {
        let case = self
            .trial
            .cases
            .get(index)
            .ok_or(KataError::NoSuchCase(index))?;
        crate::wire::encode(&case.input).map_err(|e| KataError::Encode {
            what: format!("case #{index}"),
            message: e.to_string(),
        })
    }

    fn judge(
        &self,
        index: usize,
        result: CaseResult,
        time_ms: f64,
    ) -> Result<CaseReport, JudgeFailure> {
        let (Some(case), Some(expected)) =
            (self.trial.cases.get(index), self.trial.expected.get(index))
        else {
            return Err(JudgeFailure::Checker(format!("#{index} (no such case)")));
        };
        judge_case::<S>(case, expected, result, time_ms, self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::runtime_error;
    use crate::Lang;

    #[test]
    fn a_panic_names_the_learners_line_in_both_languages() {
        let m = runtime_error("panicked: [solution.rs:3:6] index out of bounds: the len is 0");
        assert_eq!(
            m.in_lang(Lang::En),
            "panicked at solution.rs, line 3, column 6: index out of bounds: the len is 0"
        );
        assert_eq!(
            m.in_lang(Lang::Zh),
            "程序在 solution.rs 第 3 行第 6 列 panic：index out of bounds: the len is 0"
        );
        // Without a location, or with text that only looks like one, the words stay as said.
        let plain = runtime_error("panicked: [not a place] boom");
        assert_eq!(plain.in_lang(Lang::En), "panicked: [not a place] boom");
        assert_eq!(
            runtime_error("the program exited").in_lang(Lang::Zh),
            "the program exited"
        );
    }
}
