//! The session's rules with a scripted executor and a scripted judge: which case a stop is
//! blamed on, what is not run, how times are measured, how our failures are escalated or
//! reported, and the catalogue check. No solution, thread or sandbox runs.

use super::*;
use crate::report::Outcome;
use crate::spec::Group;
use std::time::{Duration, Instant};

/// Hands back frames arriving at fixed offsets from the start, and a fixed stop.
struct Scripted {
    frames: Vec<(Frame, u64)>,
    stop: Stop,
}

impl Executor for Scripted {
    type Error = String;
    fn execute(&mut self, _: &Plan<'_>) -> Result<Execution, String> {
        let started = Instant::now();
        Ok(Execution {
            started,
            frames: self
                .frames
                .drain(..)
                .map(|(f, ms)| (f, started + Duration::from_millis(ms)))
                .collect(),
            stop: self.stop.clone(),
        })
    }
}

struct Broken;

impl Executor for Broken {
    type Error = String;
    fn execute(&mut self, _: &Plan<'_>) -> Result<Execution, String> {
        Err("no sandbox".into())
    }
}

/// Passes an answer equal to `[index]`, fails any other, reports a panic as a runtime error,
/// and fails to judge the cases listed in `broken` (our side).
#[derive(Debug, Default)]
struct Judge {
    broken: Vec<usize>,
}

impl Judging for Judge {
    fn answer_bound(&self, _: usize) -> usize {
        64
    }
    fn input_bytes(&self, index: usize) -> Result<Vec<u8>, crate::judge::KataError> {
        Ok(vec![index as u8])
    }
    fn judge(
        &self,
        index: usize,
        result: crate::judge::CaseResult,
        time_ms: f64,
    ) -> Result<CaseReport, JudgeFailure> {
        if self.broken.contains(&index) {
            return Err(JudgeFailure::Checker(format!("case{index}")));
        }
        let outcome = match result {
            Ok(bytes) if bytes == [index as u8] => Outcome::Passed,
            Ok(_) => Outcome::WrongAnswer,
            Err(_) => Outcome::RuntimeError,
        };
        Ok(CaseReport {
            name: format!("case{index}"),
            name_zh: None,
            group: Group::Sample,
            outcome,
            time_ms,
            input: Some(format!("input {index}")),
            input_zh: None,
            mismatch: None,
            message: None,
            notes: Vec::new(),
            notes_zh: Vec::new(),
            device: None,
        })
    }
}

fn cases(n: usize) -> Vec<CaseInfo> {
    (0..n)
        .map(|index| CaseInfo {
            index,
            name: format!("case{index}"),
            name_zh: None,
            group: Group::Sample,
        })
        .collect()
}

fn plan<'a>(selected: &'a [CaseInfo], limits: &'a Limits, failures: Failures) -> Plan<'a> {
    Plan {
        seed: 1,
        selected,
        limits,
        slowdown: 1,
        failures,
        custom: None,
    }
}

fn ready(at: u64) -> (Frame, u64) {
    (
        Frame::Ready {
            catalogue: crate::CATALOGUE_HASH.to_string(),
        },
        at,
    )
}

fn answer(case: u32, at: u64) -> (Frame, u64) {
    (
        Frame::Output {
            case,
            bytes: vec![case as u8],
        },
        at,
    )
}

fn outcomes(judged: &Judged) -> Vec<Outcome> {
    judged.cases.iter().map(|c| c.outcome).collect()
}

#[test]
fn every_answer_is_judged_in_order_timed_from_the_frame_before_it() {
    let selected = cases(3);
    let limits = Limits::default();
    let mut executor = Scripted {
        frames: vec![ready(100), answer(0, 110), answer(1, 140), answer(2, 145)],
        stop: Stop::Exited(0),
    };
    let judged = run(
        &mut executor,
        &Judge::default(),
        &plan(&selected, &limits, Failures::Escalate),
    )
    .unwrap();
    assert_eq!(outcomes(&judged), [Outcome::Passed; 3]);
    assert!(judged.stopped.is_none());
    let times: Vec<f64> = judged.cases.iter().map(|c| c.time_ms.round()).collect();
    // Set-up before `Ready` is not the first case's time.
    assert_eq!(times, [10.0, 30.0, 5.0]);
}

#[test]
fn a_slowdown_shrinks_reported_times() {
    let selected = cases(1);
    let limits = Limits::default();
    let mut executor = Scripted {
        frames: vec![ready(0), answer(0, 400)],
        stop: Stop::Exited(0),
    };
    let mut p = plan(&selected, &limits, Failures::Escalate);
    p.slowdown = 40;
    let judged = run(&mut executor, &Judge::default(), &p).unwrap();
    assert_eq!(judged.cases[0].time_ms.round(), 10.0);
}

#[test]
fn a_stop_is_blamed_on_the_first_case_without_an_answer_and_the_rest_are_not_run() {
    let selected = cases(4);
    let limits = Limits::default();
    let mut executor = Scripted {
        frames: vec![ready(0), answer(0, 1)],
        stop: Stop::Deadline,
    };
    let judged = run(
        &mut executor,
        &Judge::default(),
        &plan(&selected, &limits, Failures::Escalate),
    )
    .unwrap();
    assert_eq!(
        outcomes(&judged),
        [
            Outcome::Passed,
            Outcome::TimeLimitExceeded,
            Outcome::NotRun,
            Outcome::NotRun
        ]
    );
    let (_, why) = Stop::Deadline.verdict(&limits);
    assert_eq!(judged.stopped.as_ref(), Some(&why));
    assert_eq!(judged.cases[1].message.as_ref(), Some(&why));
    // The blamed case keeps its input, so the learner sees what it was stuck on.
    assert_eq!(judged.cases[1].input.as_deref(), Some("input 1"));
    assert!(judged.cases[2].input.is_none());
}

#[test]
fn a_panic_is_the_cases_own_answer_and_a_wrong_one_is_judged_wrong() {
    let selected = cases(3);
    let limits = Limits::default();
    let mut executor = Scripted {
        frames: vec![
            ready(0),
            (
                Frame::Panicked {
                    case: 0,
                    message: "panicked: boom".into(),
                },
                1,
            ),
            (
                Frame::Output {
                    case: 1,
                    bytes: vec![9],
                },
                2,
            ),
            answer(2, 3),
        ],
        stop: Stop::Exited(0),
    };
    let judged = run(
        &mut executor,
        &Judge::default(),
        &plan(&selected, &limits, Failures::Escalate),
    )
    .unwrap();
    assert_eq!(
        outcomes(&judged),
        [Outcome::RuntimeError, Outcome::WrongAnswer, Outcome::Passed]
    );
}

#[test]
fn only_selected_cases_are_judged_whatever_else_the_program_sends() {
    let all = cases(3);
    let selected = [all[0].clone(), all[2].clone()];
    let limits = Limits::default();
    let mut executor = Scripted {
        frames: vec![ready(0), answer(2, 1), answer(1, 2), answer(0, 3)],
        stop: Stop::Exited(0),
    };
    let judged = run(
        &mut executor,
        &Judge::default(),
        &plan(&selected, &limits, Failures::Escalate),
    )
    .unwrap();
    let names: Vec<&str> = judged.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["case0", "case2"]);
    assert_eq!(outcomes(&judged), [Outcome::Passed; 2]);
}

#[test]
fn our_failure_escalates_for_a_grader_and_is_reported_for_a_local_run() {
    let selected = cases(3);
    let limits = Limits::default();
    let frames = || vec![ready(0), answer(0, 1), answer(1, 2), answer(2, 3)];
    let judge = Judge { broken: vec![1] };
    let escalated = run(
        &mut Scripted {
            frames: frames(),
            stop: Stop::Exited(0),
        },
        &judge,
        &plan(&selected, &limits, Failures::Escalate),
    );
    assert!(matches!(
        escalated,
        Err(SessionError::Judge(JudgeFailure::Checker(case))) if case == "case1"
    ));
    let reported = run(
        &mut Scripted {
            frames: frames(),
            stop: Stop::Exited(0),
        },
        &judge,
        &plan(&selected, &limits, Failures::Report),
    )
    .unwrap();
    assert_eq!(
        outcomes(&reported),
        [Outcome::Passed, Outcome::InternalError, Outcome::Passed]
    );
    let said = reported.cases[1].message.as_ref().unwrap();
    assert!(said.in_lang(crate::Lang::En).contains("not yours"));
}

#[test]
fn a_runner_from_another_catalogue_is_refused_before_anything_is_judged() {
    let selected = cases(1);
    let limits = Limits::default();
    let mut executor = Scripted {
        frames: vec![
            (
                Frame::Ready {
                    catalogue: "another".into(),
                },
                0,
            ),
            answer(0, 1),
        ],
        stop: Stop::Exited(0),
    };
    let judged = run(
        &mut executor,
        &Judge::default(),
        &plan(&selected, &limits, Failures::Report),
    );
    assert!(matches!(judged, Err(SessionError::Catalogue { runner }) if runner == "another"));
}

#[test]
fn an_executor_failure_is_ours_not_a_verdict() {
    let selected = cases(1);
    let limits = Limits::default();
    let judged = run(
        &mut Broken,
        &Judge::default(),
        &plan(&selected, &limits, Failures::Report),
    );
    assert!(matches!(judged, Err(SessionError::Executor(e)) if e == "no sandbox"));
}

#[test]
fn every_stop_has_a_verdict_and_words_in_both_languages() {
    let limits = Limits::default();
    let stops = [
        Stop::Exited(0),
        Stop::Exited(3),
        Stop::Deadline,
        Stop::Cpu,
        Stop::Memory,
        Stop::AllocationFailed,
        Stop::Threads,
        Stop::Printed,
        Stop::Oversized {
            case: 2,
            bound_bytes: 1 << 20,
        },
        Stop::FileSize,
        Stop::Signaled(11),
        Stop::Vanished,
        Stop::NotStarted("no slot".into()),
    ];
    for stop in stops {
        let (outcome, why) = stop.verdict(&limits);
        assert_ne!(outcome, Outcome::Passed, "{stop:?}");
        assert_ne!(
            why.in_lang(crate::Lang::En),
            why.in_lang(crate::Lang::Zh),
            "{stop:?}"
        );
    }
    assert_eq!(
        Stop::NotStarted(String::new()).verdict(&limits).0,
        Outcome::InternalError
    );
}
