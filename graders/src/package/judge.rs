//! [`ProcessJudging`]: one grading's trusted side held by the package's judge, a sandboxed
//! process speaking `katas::judge_process`. The grader only ever reads its replies as bounded,
//! untrusted data: a judge that loops, floods, allocates, forks or dies makes the grading
//! fail as the kata's fault (reported to the instructor), never a learner's verdict, and never
//! holds the grader longer than the bounds below.

use crate::GradeError;
use crate::sandbox::{self, Job, LimitHit, Profile, Sandbox, Watch};
use katas::custom::InputExamples;
use katas::judge::{CaseInfo, CaseResult, JudgeFailure, Judging, KataError};
use katas::judge_process::{self, PreparedCase, Reply, ReplyReader, Request};
use katas::rank_net::{CaseNet, Posted, RankedKata};
use katas::{CaseReport, Limits};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Scope;
use std::time::{Duration, Instant};

/// How long the judge may take to make a grading's cases and the reference's answers.
const PREPARE_WAIT: Duration = Duration::from_secs(60);
/// How long it may take to judge one case (or hand over one input).
const REPLY_WAIT: Duration = Duration::from_secs(10);
/// The most ranks one case's network may have: each is a sandboxed process.
const MAX_RANKS: usize = 64;
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

/// The judge's sandbox: the run profile (no fork, exec, sockets or host files) with room for
/// every case and answer of a grading.
fn limits(kata: &Limits) -> sandbox::Limits {
    sandbox::Limits {
        wall: Duration::from_secs(300),
        cpu: Duration::from_secs(120),
        memory_bytes: (kata.memory_mb << 20).max(512 << 20) * 2,
        address_space_bytes: Some((kata.memory_mb << 20).max(512 << 20) * 8 + (1 << 30)),
        // A rank kata's reference runs its ranks on threads.
        pids: 128,
        stdout_bytes: 1 << 30,
        stderr_bytes: 64 << 10,
        file_bytes: 16 << 20,
        open_files: 64,
    }
}

enum Event {
    Reply(Reply),
    /// The judge ended (or could not start): how, in words for the instructor.
    Ended(Result<String, GradeError>),
}

struct Link {
    requests: Option<Sender<Vec<u8>>>,
    events: Receiver<Event>,
    /// Set once the judge can no longer answer.
    dead: Option<String>,
}

/// The way to the judge process, shared by the grading's judging and its rank networks.
struct Channel {
    link: Mutex<Link>,
    stop: Arc<AtomicBool>,
    /// The first failure of the judge, for the grading to report as the kata's.
    failure: Mutex<Option<String>>,
}

/// One grading's cases and judging, held by the package's judge process.
pub struct ProcessJudging {
    cases: Vec<PreparedCase>,
    /// The package is a rank kata: its networks are [`ProcessJudging::ranked`].
    pub ranked: bool,
    channel: Arc<Channel>,
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
        // Its stdin closes with the link; a judge busy in a loop is stopped at once.
        self.channel.stop.store(true, Ordering::Relaxed);
    }
}

/// What the job thread's pump calls with the judge's stdout.
struct JudgeWatch {
    reader: ReplyReader,
    events: Sender<Event>,
    feed: Option<Receiver<Vec<u8>>>,
    stop: Arc<AtomicBool>,
    started: Instant,
}

impl Watch for JudgeWatch {
    fn on_stdout(&mut self, chunk: &[u8]) {
        for reply in self.reader.push(chunk) {
            let _ = self.events.send(Event::Reply(reply));
        }
        if self.reader.broken.is_some() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    fn deadline(&self) -> Option<Instant> {
        self.stop.load(Ordering::Relaxed).then_some(self.started)
    }

    fn keeps_stdout(&self) -> bool {
        false
    }

    fn feed(&mut self) -> Option<Receiver<Vec<u8>>> {
        self.feed.take()
    }
}

impl ProcessJudging {
    /// Starts `judge` (a package's judge program) in the sandbox on a thread of `scope` and asks
    /// it for the cases of `seed`. `Err(GradeError::Kata)` when the package could not make them.
    pub fn start<'scope>(
        scope: &'scope Scope<'scope, '_>,
        sandbox: &'scope Sandbox,
        judge: &'scope Path,
        slug: &str,
        limits_of_kata: &Limits,
        seed: u64,
    ) -> Result<Self, GradeError> {
        let mut judging = Self::spawn(scope, sandbox, judge, limits_of_kata);
        let prepare = Request::Prepare {
            seed,
            case_time_ms: limits_of_kata.case_time_ms,
        };
        let broken = |why: String| GradeError::kata(slug)(KataError::Judge(why));
        match judging.channel.ask(&prepare, PREPARE_WAIT)? {
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
        match judging.channel.ask(&request, PREPARE_WAIT)? {
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
            match judging.channel.ask(&Request::Examples, PREPARE_WAIT)? {
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
        match self.channel.reply(&Request::LearnerOutput) {
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
        let (requests, feed) = channel();
        let (events_in, events) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            profile: Profile::Run {
                program: judge.to_path_buf(),
            },
            argv: vec!["/prog".to_string()],
            env: Vec::new(),
            cwd: "/tmp".into(),
            stdin: Vec::new(),
            limits: limits(limits_of_kata),
        };
        let mut watch = JudgeWatch {
            reader: ReplyReader::default(),
            events: events_in.clone(),
            feed: Some(feed),
            stop: stop.clone(),
            started: Instant::now(),
        };
        scope.spawn(move || {
            let ended = sandbox
                .slot()
                .and_then(|mut slot| sandbox.run_in(&mut slot, &job, &mut watch))
                .map(|outcome| ended(&outcome, watch.reader.broken.as_deref()))
                .map_err(GradeError::from);
            let _ = events_in.send(Event::Ended(ended));
        });
        Self {
            cases: Vec::new(),
            ranked: false,
            channel: Arc::new(Channel {
                link: Mutex::new(Link {
                    requests: Some(requests),
                    events,
                    dead: None,
                }),
                stop,
                failure: Mutex::new(None),
            }),
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
        self.channel
            .failed(format!("failed on case `{name}`: {why}"));
        JudgeFailure::Checker(format!("{name} (the package's judge {why})"))
    }

    /// How the judge first failed this grading, if it did: the package's fault.
    pub fn failure(&self) -> Option<KataError> {
        self.channel
            .failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .map(KataError::Judge)
    }

    /// A rank kata's networks, held by the judge: the grader's router posts the ranks'
    /// traffic to them as it does to a catalogue kata's.
    pub fn ranked(&self) -> Option<ProcessRanked> {
        self.ranked.then(|| ProcessRanked {
            channel: Arc::clone(&self.channel),
        })
    }
}

impl Channel {
    /// One request and its reply. `Ok(Err(why))`: the judge did not answer in time, or ended.
    fn ask(&self, request: &Request, wait: Duration) -> Result<Result<Reply, String>, GradeError> {
        let mut link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(why) = &link.dead {
            return Ok(Err(why.clone()));
        }
        let sent = link
            .requests
            .as_ref()
            .is_some_and(|r| r.send(judge_process::request_message(request)).is_ok());
        let answer = if sent {
            match link.events.recv_timeout(wait) {
                Ok(Event::Reply(reply)) => return Ok(Ok(reply)),
                Ok(Event::Ended(Err(e))) => return Err(e),
                Ok(Event::Ended(Ok(how))) => how,
                Err(RecvTimeoutError::Timeout) => {
                    format!("did not answer within {} s", wait.as_secs())
                }
                Err(RecvTimeoutError::Disconnected) => "ended".to_string(),
            }
        } else {
            "ended".to_string()
        };
        // Whatever it does next is not waited for.
        self.stop.store(true, Ordering::Relaxed);
        link.requests = None;
        link.dead = Some(answer.clone());
        Ok(Err(answer))
    }

    /// Records the judge's first failure.
    fn failed(&self, why: String) {
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(why);
    }

    /// `request`'s reply, or why there is none (recorded as the judge's failure).
    fn reply(&self, request: &Request) -> Result<Reply, String> {
        match self.ask(request, REPLY_WAIT) {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(why)) => {
                self.failed(why.clone());
                Err(format!("the package's judge {why}"))
            }
            Err(e) => {
                let why = format!("could not run: {e}");
                self.failed(why.clone());
                Err(format!("the package's judge {why}"))
            }
        }
    }

    /// A reply of the wrong kind: the judge's failure.
    fn out_of_turn<T>(&self) -> Result<T, String> {
        self.failed("answered out of turn".into());
        Err("the package's judge answered out of turn".into())
    }
}

/// A rank kata's networks in the package's judge.
#[derive(Clone)]
pub struct ProcessRanked {
    channel: Arc<Channel>,
}

impl std::fmt::Debug for ProcessRanked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProcessRanked")
    }
}

impl RankedKata for ProcessRanked {
    fn open(&self, input: &[u8]) -> Result<Box<dyn CaseNet>, String> {
        let request = Request::NetOpen {
            input: input.to_vec(),
        };
        match self.channel.reply(&request)? {
            Reply::NetOpened {
                net,
                ranks,
                traffic_bound,
                rank_inputs,
            } if rank_inputs.len() == ranks as usize && ranks as usize <= MAX_RANKS => {
                Ok(Box::new(ProcessNet {
                    channel: Arc::clone(&self.channel),
                    net,
                    ranks: ranks as usize,
                    traffic_bound: (traffic_bound as usize).min(judge_process::MAX_REPLY),
                    rank_inputs: Some(rank_inputs),
                    ready: vec![VecDeque::new(); ranks as usize],
                }))
            }
            Reply::NetFailed(why) => {
                self.channel
                    .failed(format!("could not open a network: {why}"));
                Err(why)
            }
            _ => self.channel.out_of_turn(),
        }
    }
}

/// One case's network in the package's judge.
struct ProcessNet {
    channel: Arc<Channel>,
    net: u32,
    ranks: usize,
    traffic_bound: usize,
    rank_inputs: Option<Vec<Vec<u8>>>,
    /// The replies the judge said are ready, per rank, not yet given.
    ready: Vec<VecDeque<Vec<u8>>>,
}

impl CaseNet for ProcessNet {
    fn ranks(&self) -> usize {
        self.ranks
    }

    fn rank_inputs(&mut self) -> Vec<Vec<u8>> {
        self.rank_inputs.take().unwrap_or_default()
    }

    fn traffic_bound(&self) -> usize {
        self.traffic_bound
    }

    fn post(&mut self, rank: usize, request: &[u8]) -> Result<Posted, String> {
        let mut posted = self.post_all(rank, std::slice::from_ref(&request.to_vec()));
        posted.pop().unwrap_or_else(|| self.channel.out_of_turn())
    }

    /// One round trip for all of them: the judge posts them in order and stops at the first
    /// refused. A judge that answers for more requests than were sent, or for none, answered
    /// out of turn.
    fn post_all(&mut self, rank: usize, requests: &[Vec<u8>]) -> Vec<Result<Posted, String>> {
        let request = Request::NetPost {
            net: self.net,
            rank: rank as u32,
            requests: requests.to_vec(),
        };
        let reply = match self.channel.reply(&request) {
            Ok(reply) => reply,
            Err(why) => return vec![Err(why)],
        };
        let Reply::NetPosted { posted, replies } = reply else {
            return vec![self.channel.out_of_turn()];
        };
        let complete = posted.last().is_some_and(Result::is_err) || posted.len() == requests.len();
        if posted.is_empty() || posted.len() > requests.len() || !complete {
            return vec![self.channel.out_of_turn()];
        }
        for (rank, reply) in replies {
            if let Some(ready) = self.ready.get_mut(rank as usize) {
                ready.push_back(reply);
            }
        }
        posted
            .into_iter()
            .map(|posted| match posted {
                // The rank broke the network's rules: its failure, in the network's words.
                Err(why) => Err(katas::report::trim(&why)),
                Ok(None) => Ok(Posted::Taken),
                Ok(Some(what)) => Ok(Posted::Waits(katas::report::trim(&what))),
            })
            .collect()
    }

    fn reply(&mut self, rank: usize) -> Option<Vec<u8>> {
        self.ready.get_mut(rank)?.pop_front()
    }

    fn finish(&self, outputs: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let request = Request::NetFinish {
            net: self.net,
            outputs: outputs.to_vec(),
        };
        match self.channel.reply(&request)? {
            Reply::NetFinished(output) => output,
            _ => self.channel.out_of_turn(),
        }
    }
}

/// How the judge's process ended, for the instructor.
fn ended(outcome: &sandbox::Outcome, broken: Option<&str>) -> String {
    if let Some(broken) = broken {
        return format!("said {broken}");
    }
    let said = String::from_utf8_lossy(&outcome.stderr);
    let said = katas::report::trim(said.trim());
    let how = match outcome.limit {
        Some(LimitHit::Memory) => "ran out of memory".to_string(),
        Some(LimitHit::Cpu) => "ran out of CPU time".to_string(),
        Some(LimitHit::Wall | LimitHit::Deadline) => "ran out of time".to_string(),
        Some(LimitHit::Stdout) => "printed too much".to_string(),
        Some(limit) => format!("was stopped by the sandbox's {limit:?} limit"),
        None => format!("ended ({:?})", outcome.status),
    };
    if said.is_empty() {
        how
    } else {
        format!("{how}: {said}")
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
        match self.channel.ask(&request, REPLY_WAIT) {
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
        let request = Request::Judge {
            index: index as u32,
            result,
            time_ms,
        };
        match self.channel.ask(&request, REPLY_WAIT) {
            Ok(Ok(Reply::Judged(judged))) => match self.cases.get(index) {
                Some(case) => Ok(judged.into_report(case, time_ms, MAX_NOTES)),
                None => Err(self.failed(index, "judged a case it never made".into())),
            },
            Ok(Ok(Reply::Failed(failure))) => Err(self.failed(index, format!("said: {failure}"))),
            Ok(Ok(_)) => Err(self.failed(index, "answered out of turn".into())),
            Ok(Err(why)) => Err(self.failed(index, why)),
            Err(e) => Err(self.failed(index, format!("could not run: {e}"))),
        }
    }
}
