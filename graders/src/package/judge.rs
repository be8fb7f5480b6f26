//! [`ProcessJudging`]: one grading's trusted side held by the package's judge, a sandboxed
//! process speaking `katas::judge_process`. The grader only ever reads its replies as bounded,
//! untrusted data: a judge that loops, floods, allocates, forks or dies makes the grading
//! fail as the kata's fault (reported to the instructor), never a learner's verdict, and never
//! holds the grader longer than the bounds below.

use super::judge_link::JudgeLink;
use super::judge_net::{HeldOutputs, ProcessRanked};
use crate::GradeError;
use crate::sandbox::Sandbox;
use katas::custom::InputExamples;
use katas::judge::{CaseInfo, CaseResult, JudgeFailure, Judging, KataError};
use katas::judge_process::{self, PreparedCase, Reply, Request};
use katas::{CaseReport, KataKind, KataMeta, Limits};
use std::path::Path;
use std::sync::Arc;
use std::thread::Scope;
use std::time::Duration;

/// How long the judge may take to make a grading's cases and the reference's answers.
const PREPARE_WAIT: Duration = Duration::from_secs(60);
/// How long it may take to judge one case (or hand over one input).
const REPLY_WAIT: Duration = Duration::from_secs(10);
/// The most cases one grading may have: each is a run, a frame and a report.
const MAX_CASES: usize = 4096;
/// The most notes a case report keeps from a judge.
const MAX_NOTES: usize = 16;
/// The most input examples (one per entry point) kept from a judge.
const MAX_EXAMPLES: usize = 16;

/// JSON a judge shows (an answer, an example), held to what a page shows whatever it sent.
fn shown(json: String) -> String {
    katas::custom::cut(json)
}

/// One grading's cases and judging, held by the package's judge process.
pub struct ProcessJudging {
    cases: Vec<PreparedCase>,
    /// The package is a rank kata: its networks are [`ProcessJudging::ranked`].
    pub ranked: bool,
    /// A GPU kata: its judge may say the program found no usable device.
    on_device: bool,
    link: Arc<JudgeLink>,
    /// A rank kata's cases whose output the judge kept.
    held: HeldOutputs,
}

impl std::fmt::Debug for ProcessJudging {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessJudging")
            .field("cases", &self.cases.len())
            .finish_non_exhaustive()
    }
}

impl Drop for ProcessJudging {
    fn drop(&mut self) {
        // A judge busy in a loop is stopped at once.
        self.link.stop();
    }
}

impl ProcessJudging {
    /// Starts `judge` (the judge program of a package of `meta`) in the sandbox on a thread of
    /// `scope` and asks it for the cases of `seed`. `Err(GradeError::Kata)` when the package
    /// could not make them.
    pub fn start<'scope>(
        scope: &'scope Scope<'scope, '_>,
        sandbox: &'scope Sandbox,
        judge: &'scope Path,
        meta: &KataMeta,
        seed: u64,
    ) -> Result<Self, GradeError> {
        let (slug, limits_of_kata) = (meta.slug.as_str(), &meta.limits);
        let mut judging = Self::spawn(scope, sandbox, judge, limits_of_kata);
        judging.on_device = meta.kind == KataKind::Gpu;
        let prepare = Request::Prepare {
            seed,
            case_time_ms: limits_of_kata.case_time_ms,
        };
        let broken = |why: String| GradeError::kata(slug)(KataError::Judge(why));
        match judging.link.ask(&prepare, PREPARE_WAIT)? {
            Ok(Reply::Prepared(prepared)) if prepared.cases.len() > MAX_CASES => Err(broken(
                format!("made {} cases (at most {MAX_CASES})", prepared.cases.len()),
            )),
            Ok(Reply::Prepared(prepared)) => {
                judging.cases = prepared.cases;
                judging.ranked = prepared.ranked;
                Ok(judging)
            }
            Ok(Reply::Broken(e)) => Err(GradeError::kata(slug)(e)),
            Ok(_) => Err(broken("answered out of turn".into())),
            Err(why) => Err(broken(why)),
        }
    }

    /// As [`ProcessJudging::start`], for a custom-input run: the judge admits the learner's
    /// `json` and answers it with the reference. `Ok(Err(refusal))`: the input is not this
    /// kata's (the learner's to fix); otherwise the one case and the reference's answer.
    pub fn start_custom<'scope>(
        scope: &'scope Scope<'scope, '_>,
        sandbox: &'scope Sandbox,
        judge: &'scope Path,
        slug: &str,
        limits_of_kata: &Limits,
        json: &str,
    ) -> Result<Result<(Self, String), katas::Message>, GradeError> {
        let mut judging = Self::spawn(scope, sandbox, judge, limits_of_kata);
        let request = Request::Custom {
            json: json.to_string(),
            case_time_ms: limits_of_kata.case_time_ms,
        };
        let broken = |why: String| GradeError::kata(slug)(KataError::Judge(why));
        match judging.link.ask(&request, PREPARE_WAIT)? {
            Ok(Reply::CustomPrepared {
                case,
                reference,
                ranked,
            }) => {
                judging.cases = vec![case];
                judging.ranked = ranked;
                Ok(Ok((judging, shown(reference))))
            }
            Ok(Reply::InputRefused { en, zh }) => Ok(Err(katas::Message::new(
                katas::report::trim(&en),
                katas::report::trim(&zh),
            ))),
            Ok(Reply::Broken(e)) => Err(GradeError::kata(slug)(e)),
            Ok(_) => Err(broken("answered out of turn".into())),
            Err(why) => Err(broken(why)),
        }
    }

    /// What the custom-input form starts from, as the judge makes it from the default seed's
    /// cases. `Err(GradeError::Kata)` when it cannot.
    pub fn examples(
        sandbox: &Sandbox,
        judge: &Path,
        slug: &str,
        limits_of_kata: &Limits,
    ) -> Result<InputExamples, GradeError> {
        let broken = |why: String| GradeError::kata(slug)(KataError::Judge(why));
        std::thread::scope(|s| {
            let judging = Self::spawn(s, sandbox, judge, limits_of_kata);
            match judging.link.ask(&Request::Examples, PREPARE_WAIT)? {
                Ok(Reply::Examples { sample, examples }) => Ok(InputExamples {
                    sample: sample.map(shown),
                    examples: examples
                        .into_iter()
                        .take(MAX_EXAMPLES)
                        .map(|(entry, json)| (katas::report::trim(&entry), shown(json)))
                        .collect(),
                }),
                Ok(Reply::Broken(e)) => Err(GradeError::kata(slug)(e)),
                Ok(_) => Err(broken("answered out of turn".into())),
                Err(why) => Err(broken(why)),
            }
        })
    }

    /// The learner's answer to a custom input as JSON, once judged; `None` when it gave none
    /// that decodes (or the judge cannot say).
    pub fn learner_output(&self) -> Option<String> {
        match self.link.reply(&Request::LearnerOutput, REPLY_WAIT) {
            Ok(Reply::Shown(shown_output)) => shown_output.map(shown),
            _ => None,
        }
    }

    /// `judge` started in the sandbox on a thread of `scope`, asked nothing yet.
    fn spawn<'scope>(
        scope: &'scope Scope<'scope, '_>,
        sandbox: &'scope Sandbox,
        judge: &'scope Path,
        limits_of_kata: &Limits,
    ) -> Self {
        Self {
            cases: Vec::new(),
            ranked: false,
            on_device: false,
            link: JudgeLink::spawn(scope, sandbox, judge, limits_of_kata),
            held: HeldOutputs::default(),
        }
    }

    /// The cases as the session sees them.
    pub fn case_list(&self) -> Vec<CaseInfo> {
        self.cases
            .iter()
            .enumerate()
            .map(|(index, c)| CaseInfo {
                index,
                name: c.name.clone(),
                name_zh: c.name_zh.clone(),
                group: c.group,
            })
            .collect()
    }

    fn failed(&self, index: usize, why: String) -> JudgeFailure {
        let name = self.cases.get(index).map_or("?", |c| c.name.as_str());
        self.link.failed(format!("failed on case `{name}`: {why}"));
        JudgeFailure::Checker(format!("{name} (the package's judge {why})"))
    }

    /// How the judge first failed this grading, if it did: the package's fault. A rank
    /// kata's posts still out are waited for first (bounded: a judge that keeps one too long
    /// is stopped), so a judge that hung is not taken for ranks that ran out of time.
    pub fn failure(&self) -> Option<KataError> {
        self.link.quiet();
        self.link.failure().map(KataError::Judge)
    }

    /// A rank kata's networks, held by the judge: the grader's router posts the ranks'
    /// traffic to them as it does to a catalogue kata's.
    pub fn ranked(&self) -> Option<ProcessRanked> {
        self.ranked.then(|| ProcessRanked {
            link: Arc::clone(&self.link),
            held: Arc::clone(&self.held),
        })
    }
}

impl Judging for ProcessJudging {
    fn answer_bound(&self, index: usize) -> usize {
        self.cases
            .get(index)
            .map_or(64 << 10, |c| c.answer_bound as usize)
            .min(judge_process::MAX_REPLY)
    }

    fn input_bytes(&self, index: usize) -> Result<Vec<u8>, KataError> {
        let request = Request::Input {
            index: index as u32,
        };
        match self.link.ask(&request, REPLY_WAIT) {
            Ok(Ok(Reply::Input(bytes))) => Ok(bytes),
            Ok(Ok(Reply::Broken(e))) => Err(e),
            Ok(Ok(_)) => Err(KataError::Judge("answered out of turn".into())),
            Ok(Err(why)) => Err(KataError::Judge(why)),
            Err(e) => Err(KataError::Judge(format!("could not run: {e}"))),
        }
    }

    fn judge(
        &self,
        index: usize,
        result: CaseResult,
        time_ms: f64,
    ) -> Result<CaseReport, JudgeFailure> {
        let request = self.judge_request(index, result, time_ms);
        self.judged(index, time_ms, self.link.ask(&request, REPLY_WAIT))
    }

    /// Every case's request goes out before the first reply is waited for: one round trip to
    /// the judge for the grading, not one per case.
    fn judge_all(
        &self,
        answers: Vec<(usize, CaseResult, f64)>,
    ) -> Vec<Result<CaseReport, JudgeFailure>> {
        let times: Vec<(usize, f64)> = answers.iter().map(|(i, _, ms)| (*i, *ms)).collect();
        let requests = answers
            .into_iter()
            .map(|(index, result, time_ms)| self.judge_request(index, result, time_ms))
            .collect();
        self.link
            .ask_all(requests, REPLY_WAIT)
            .into_iter()
            .zip(times)
            .map(|(reply, (index, time_ms))| self.judged(index, time_ms, reply))
            .collect()
    }
}

impl ProcessJudging {
    /// What asks the judge to judge case `index`: its output as the program gave it, or, for
    /// a rank kata's case whose network assembled it, the output the judge kept.
    fn judge_request(&self, index: usize, result: CaseResult, time_ms: f64) -> Request {
        let kept = match &result {
            Ok(bytes) if bytes.is_empty() => self
                .held
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&index),
            _ => None,
        };
        let index = index as u32;
        match kept {
            Some(net) => Request::JudgeHeld {
                index,
                net,
                time_ms,
            },
            None => Request::Judge {
                index,
                result,
                time_ms,
            },
        }
    }

    /// Case `index`'s report from the judge's reply to its `Judge` request.
    fn judged(
        &self,
        index: usize,
        time_ms: f64,
        reply: Result<Result<Reply, String>, GradeError>,
    ) -> Result<CaseReport, JudgeFailure> {
        match reply {
            Ok(Ok(Reply::Judged(judged))) => match self.cases.get(index) {
                Some(case) => Ok(judged.into_report(case, time_ms, MAX_NOTES)),
                None => Err(self.failed(index, "judged a case it never made".into())),
            },
            // A GPU kata's program found no usable device: our side's failure, not the
            // package's. Only a program on a device can find none.
            Ok(Ok(Reply::Failed(JudgeFailure::Unavailable { case, why }))) if self.on_device => {
                Err(JudgeFailure::Unavailable {
                    case: katas::report::trim(&case),
                    why: katas::report::trim(&why),
                })
            }
            Ok(Ok(Reply::Failed(failure))) => Err(self.failed(index, format!("said: {failure}"))),
            Ok(Ok(_)) => Err(self.failed(index, "answered out of turn".into())),
            Ok(Err(why)) => Err(self.failed(index, why)),
            Err(e) => Err(self.failed(index, format!("could not run: {e}"))),
        }
    }
}
