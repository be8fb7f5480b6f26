//! A rank kata's run: every rank its own sandboxed process, in a slot of its own, and each
//! case's network (`katas::ranks::CaseNet`, trusted) here between them.
//!
//! A rank process is sent only its own start of each case it takes part in ([`RankRole`]), so
//! it can know only what reaches it through the network. Its requests arrive as frames on its
//! stdout; the [`Router`] posts them to the case's network, writes each reply to the waiting
//! rank's stdin (the job's feed), declares a deadlock when every rank of a case has finished
//! or waits with nothing to give it, and once every rank's result is in, makes the case's one
//! frame for the session, in case order. The counts in that frame are the network's.
//!
//! A process that stops early (a limit, a crash, an exit while it still owes a result) stops
//! the whole run, as the one program of another kata would, and its stop is the run's.

use super::{After, Purpose, READY_BOUND, Sandboxed, job_limits, profile, stop_of};
use crate::GradeError;
use crate::sandbox::{self, Job, Watch};
use katas::rank_net::Wake;
use katas::ranks::{CaseNet, Posted, RankedKata, refusal};
use katas::ranks::{RankCase, RankRole};
use katas::runner::{self, Frame, FrameReader, RunRequest};
use katas::session::{Execution, Executor, Plan, Stop};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// The run's program, kata and purpose are the plain executor's; the account goes there too.
pub(super) struct RankedSandboxed<'r, 'a> {
    pub run: &'r mut Sandboxed<'a>,
    pub ranked: &'a dyn RankedKata,
}

/// One rank process's part of the run, and what its stdout may carry.
struct Part {
    role: RankRole,
    /// Bytes of frames (requests and results) it may write.
    frame_budget: usize,
    /// The largest one frame may be.
    frame_bound: usize,
}

impl Executor for RankedSandboxed<'_, '_> {
    type Error = GradeError;

    fn execute(&mut self, plan: &Plan<'_>) -> Result<Execution, GradeError> {
        let slug = &self.run.kata.meta.slug;
        let ours = |what: &str, e: String| GradeError::Internal(format!("{slug}: {what}: {e}"));
        // A case whose input cannot be had is the kata's fault; a network that cannot open
        // on it, ours.
        let unreadable = std::cell::RefCell::new(None);
        let input = |index: usize| match plan.custom {
            Some(bytes) => Ok(bytes.to_vec()),
            None => self.run.judging.input_bytes(index).map_err(|e| {
                let said = e.to_string();
                unreadable.borrow_mut().get_or_insert(e);
                said
            }),
        };
        let cases: Vec<usize> = plan.selected.iter().map(|c| c.index).collect();
        let mut nets = Vec::with_capacity(cases.len());
        let mut starts = Vec::with_capacity(cases.len());
        for net in self.ranked.open_cases(&cases, &input) {
            let mut net = match (net, unreadable.borrow_mut().take()) {
                (Ok(net), _) => net,
                (Err(_), Some(e)) => return Err(GradeError::kata(slug)(e)),
                (Err(e), None) => return Err(ours("a case's network", e)),
            };
            starts.push(net.rank_inputs());
            nets.push(net);
        }
        let processes = starts.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let parts: Vec<Part> = (0..processes)
            .map(|p| self.part(plan, &nets, &mut starts, p))
            .collect();
        drop(starts);
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).expect("the OS random source works");
        let measured = matches!(self.run.purpose, Purpose::Measure { .. });
        let output_budget = (plan.limits.output_kb as usize) << 10;
        let (feeds, receivers): (Vec<_>, Vec<_>) = (0..processes).map(|_| channel()).unzip();
        let cases = plan.selected.iter().map(|c| c.index as u32).zip(nets);
        let mut router = Router::new(cases, feeds);
        // A network in another process answers posts later: `true` says its answers are in,
        // `false` that the run is over.
        let (wakes_in, wakes) = channel::<bool>();
        let waker = wakes_in.clone();
        router.wake_with(Arc::new(move || {
            let _ = waker.send(true);
        }));
        let router = Mutex::new(router);
        let slots = self.run.sandbox.slots(processes)?;
        let started = Instant::now();
        let (profile, env, argv) = profile(self.run.purpose, self.run.binary, self.run.gpu, false);
        let ran: Vec<Result<Ran, GradeError>> = std::thread::scope(|s| {
            let settler = &router;
            s.spawn(move || {
                while let Ok(true) = wakes.recv() {
                    let over = wakes.try_iter().any(|more| !more);
                    lock(settler).answered(Instant::now());
                    if over {
                        break;
                    }
                }
            });
            let handles: Vec<_> = slots
                .into_iter()
                .zip(parts)
                .zip(receivers)
                .enumerate()
                .map(|(p, ((mut slot, part), feed))| {
                    let (router, profile, env, argv) = (&router, profile.clone(), &env, &argv);
                    let sandbox = self.run.sandbox;
                    let binary = self.run.binary;
                    s.spawn(move || -> Result<Ran, GradeError> {
                        let request = RunRequest {
                            seed: 0,
                            cases: Vec::new(),
                            nonce,
                            custom: None,
                            inputs: None,
                            rank: Some(part.role),
                        };
                        let job = Job {
                            profile,
                            argv: argv.clone(),
                            env: env.clone(),
                            cwd: PathBuf::from("/tmp"),
                            stdin: request.to_stdin().map_err(|e| {
                                GradeError::Internal(format!("encoding the request: {e}"))
                            })?,
                            limits: job_limits(
                                plan,
                                binary,
                                false,
                                measured,
                                part.frame_budget + output_budget,
                            )?,
                        };
                        let mut watch = RankWatch {
                            rank: p,
                            router,
                            plan,
                            started,
                            reader: FrameReader::with_bound(nonce, part.frame_bound),
                            feed: Some(feed),
                            output_budget,
                            printed_too_much: false,
                        };
                        let outcome = sandbox.run_in(&mut slot, &job, &mut watch);
                        let outcome = match outcome {
                            Ok(o) => o,
                            Err(e) => {
                                lock(router).halt = true;
                                return Err(e.into());
                            }
                        };
                        let oversized = watch.reader.oversized;
                        let printed_too_much = watch.printed_too_much;
                        let (_, printed, head) = watch.reader.finish();
                        let stop = if let Some(case) = oversized {
                            Stop::Oversized {
                                case,
                                bound_bytes: part.frame_bound,
                            }
                        } else if printed_too_much {
                            Stop::Printed
                        } else {
                            stop_of(&outcome)
                        };
                        lock(router).ended(p, &stop);
                        Ok(Ran {
                            outcome,
                            stop,
                            printed,
                            head,
                        })
                    })
                })
                .collect();
            let ran = handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(GradeError::Internal(
                            "a rank's runner thread panicked".into(),
                        ))
                    })
                })
                .collect();
            let _ = wakes_in.send(false);
            ran
        });
        let ran = ran.into_iter().collect::<Result<Vec<Ran>, GradeError>>()?;
        let router = router.into_inner().unwrap_or_else(PoisonError::into_inner);
        let (after, stop) = combine(ran, router.stop, measured, output_budget);
        self.run.after = Some(after);
        Ok(Execution {
            started,
            frames: router.frames,
            stop,
        })
    }
}

impl RankedSandboxed<'_, '_> {
    /// Rank `p`'s cases, its starts moved out of `starts` (a ring's are megabytes: no copy),
    /// and the bounds on what its stdout may carry.
    fn part(
        &self,
        plan: &Plan<'_>,
        nets: &[Box<dyn CaseNet>],
        starts: &mut [Vec<Vec<u8>>],
        p: usize,
    ) -> Part {
        let mut part = Part {
            role: RankRole {
                rank: p as u32,
                cases: Vec::new(),
            },
            frame_budget: READY_BOUND,
            frame_bound: READY_BOUND,
        };
        for ((c, net), start) in plan.selected.iter().zip(nets).zip(starts) {
            let ranks = start.len() as u32;
            let Some(input) = start.get_mut(p) else {
                continue;
            };
            part.role.cases.push(RankCase {
                case: c.index as u32,
                ranks,
                input: std::mem::take(input),
            });
            let (traffic, answer) = (net.traffic_bound(), self.run.judging.answer_bound(c.index));
            part.frame_budget += traffic + answer;
            part.frame_bound = part.frame_bound.max(traffic).max(answer);
        }
        part
    }
}

/// What one rank process did.
struct Ran {
    outcome: sandbox::Outcome,
    stop: Stop,
    printed: usize,
    head: Vec<u8>,
}

/// The run's account from every process's: the run's stop is the first early one's; CPU adds
/// up, memory and wall are the largest; every process's stderr is kept for the instruction
/// counts it carries when measured.
fn combine(
    ran: Vec<Ran>,
    early: Option<Stop>,
    measured: bool,
    output_budget: usize,
) -> (After, Stop) {
    let printed: usize = ran.iter().map(|r| r.printed).sum();
    let stderr_bytes: usize = if measured {
        0
    } else {
        ran.iter().map(|r| r.outcome.stderr.len()).sum()
    };
    let stop = match early {
        Some(stop) => stop,
        None if printed + stderr_bytes > output_budget => Stop::Printed,
        None => ran.first().map_or(Stop::Exited(0), |r| r.stop.clone()),
    };
    let blamed = ran.iter().position(|r| r.stop == stop).unwrap_or(0);
    let head = ran
        .iter()
        .map(|r| r.head.as_slice())
        .find(|h| !h.is_empty())
        .unwrap_or_default()
        .to_vec();
    let reports: Vec<Vec<u8>> = ran.iter().map(|r| r.outcome.stderr.clone()).collect();
    let first = &ran[blamed].outcome;
    let outcome = sandbox::Outcome {
        status: first.status,
        wall: ran.iter().map(|r| r.outcome.wall).max().unwrap_or_default(),
        cpu: ran.iter().map(|r| r.outcome.cpu).sum(),
        peak_memory_bytes: ran
            .iter()
            .map(|r| r.outcome.peak_memory_bytes)
            .max()
            .unwrap_or_default(),
        limit: first.limit,
        stdout: Vec::new(),
        stderr: if measured {
            Vec::new()
        } else {
            reports.concat()
        },
    };
    let after = After {
        outcome,
        stop: stop.clone(),
        printed,
        head,
        stderr_bytes,
        reports,
    };
    (after, stop)
}

/// One rank process's watch: its frames go to the router, its replies come from it.
struct RankWatch<'r, 'p> {
    rank: usize,
    router: &'r Mutex<Router>,
    plan: &'p Plan<'p>,
    started: Instant,
    reader: FrameReader,
    feed: Option<Receiver<Vec<u8>>>,
    output_budget: usize,
    printed_too_much: bool,
}

impl Watch for RankWatch<'_, '_> {
    fn on_stdout(&mut self, chunk: &[u8]) {
        self.reader.push(chunk);
        let frames = self.reader.take_frames();
        if !frames.is_empty() {
            lock(self.router).take_all(self.rank, frames, Instant::now());
        }
        if self.reader.other_bytes > self.output_budget || self.reader.oversized.is_some() {
            self.printed_too_much = true;
        }
    }

    fn deadline(&self) -> Option<Instant> {
        if self.printed_too_much {
            return Some(self.started);
        }
        let router = lock(self.router);
        if router.halt {
            return Some(self.started);
        }
        Some(self.plan.deadline(self.started, router.last_frame))
    }

    fn keeps_stdout(&self) -> bool {
        false
    }

    fn feed(&mut self) -> Option<Receiver<Vec<u8>>> {
        self.feed.take()
    }
}

/// Every case's network and what each rank has done in it; the frames for the session.
struct Router {
    cases: Vec<CaseRun>,
    feeds: Vec<Sender<Vec<u8>>>,
    /// The catalogue each process said it was built with.
    ready: Vec<Option<String>>,
    frames: Vec<(Frame, Instant)>,
    /// The next case (in plan order) whose frame the session has not had.
    next: usize,
    last_frame: Option<Instant>,
    /// Stop every process now: one has stopped early, or our side failed.
    halt: bool,
    /// The stop of the first process that stopped early.
    stop: Option<Stop>,
}

struct CaseRun {
    case: u32,
    net: Box<dyn CaseNet>,
    /// What each waiting rank waits to do.
    waiting: Vec<Option<String>>,
    /// Each rank's result, or its failure (a panic, a broken rule), prefixed with its rank.
    results: Vec<Option<Result<Vec<u8>, String>>>,
    /// The rank failures, in the order they came.
    failures: Vec<String>,
    /// Each rank's posts sent to a network in another process and not yet answered: while
    /// one is out, the rank is neither waiting nor done.
    in_flight: Vec<usize>,
    frame: Option<Frame>,
    /// Its frame is made (and handed to the session once those before it are).
    finished: bool,
}

impl CaseRun {
    /// Rank `p`'s outcomes of one post, in order; the message it fails with when one was
    /// refused.
    fn posted(&mut self, p: usize, outcomes: Vec<Result<Posted, String>>) -> Option<String> {
        let mut refused = None;
        for posted in outcomes {
            match posted {
                Ok(Posted::Taken) => {}
                Ok(Posted::Waits(what)) if self.results[p].is_none() => {
                    self.waiting[p] = Some(what)
                }
                Ok(Posted::Waits(_)) => {}
                Err(msg) => {
                    let msg = format!("rank {p} panicked: {msg}");
                    self.failures.push(msg.clone());
                    self.results[p] = Some(Err(msg.clone()));
                    self.waiting[p] = None;
                    refused = Some(msg);
                }
            }
        }
        refused
    }
}

impl Router {
    fn new(
        cases: impl Iterator<Item = (u32, Box<dyn CaseNet>)>,
        feeds: Vec<Sender<Vec<u8>>>,
    ) -> Self {
        let cases = cases
            .map(|(case, net)| {
                let ranks = net.ranks();
                CaseRun {
                    case,
                    net,
                    waiting: vec![None; ranks],
                    results: vec![None; ranks],
                    failures: Vec::new(),
                    in_flight: vec![0; ranks],
                    frame: None,
                    finished: false,
                }
            })
            .collect();
        Self {
            cases,
            ready: vec![None; feeds.len()],
            feeds,
            frames: Vec::new(),
            next: 0,
            last_frame: None,
            halt: false,
            stop: None,
        }
    }

    /// The frames one read of rank process `p`'s stdout brought, in order: requests it sent
    /// one after another for one case are posted together ([`CaseNet::post_all`], one round
    /// trip to a network in another process).
    fn take_all(&mut self, p: usize, frames: Vec<Frame>, now: Instant) {
        let mut requests: Option<(u32, Vec<Vec<u8>>)> = None;
        for frame in frames {
            match (frame, &mut requests) {
                (Frame::Request { case, bytes }, Some((same, batch))) if *same == case => {
                    batch.push(bytes)
                }
                (Frame::Request { case, bytes }, _) => {
                    if let Some((case, batch)) = requests.replace((case, vec![bytes])) {
                        self.post(p, case, &batch, now);
                    }
                }
                (other, _) => {
                    if let Some((case, batch)) = requests.take() {
                        self.post(p, case, &batch, now);
                    }
                    self.take(p, other, now);
                }
            }
        }
        if let Some((case, batch)) = requests {
            self.post(p, case, &batch, now);
        }
    }

    /// Gives every network in another process the way to say its answers are in.
    fn wake_with(&mut self, wake: Wake) {
        for run in &mut self.cases {
            run.net.wake_with(Arc::clone(&wake));
        }
    }

    /// Rank `p`'s requests in case `case`, in the order it sent them.
    fn post(&mut self, p: usize, case: u32, requests: &[Vec<u8>], now: Instant) {
        let Some(run) = self.case_of(case, p) else {
            return;
        };
        match run.net.send_all(p, requests) {
            Some(outcomes) => {
                if let Some(msg) = run.posted(p, outcomes) {
                    // Its next wait ends at once, so it moves on to its next case.
                    let _ = self.feeds[p].send(runner::message(&refusal(&msg)));
                }
            }
            None => run.in_flight[p] += 1,
        }
        self.settle(now);
    }

    /// Takes the outcomes networks in another process have sent since the last call. A rank
    /// that has already failed in the case is not failed again; one that has already given
    /// its result is not sent a refusal it would read in its next case.
    fn answered(&mut self, now: Instant) {
        for run in self.cases.iter_mut().filter(|c| !c.finished) {
            for (p, outcomes) in run.net.answers() {
                let Some(out) = run.in_flight.get_mut(p) else {
                    continue;
                };
                *out = out.saturating_sub(1);
                if matches!(run.results[p], Some(Err(_))) {
                    continue;
                }
                let in_case = run.results[p].is_none();
                if let Some(msg) = run.posted(p, outcomes)
                    && in_case
                {
                    let _ = self.feeds[p].send(runner::message(&refusal(&msg)));
                }
            }
        }
        self.settle(now);
    }

    /// A frame from rank process `p`. Frames a rank had no business sending (for a case it is
    /// not in, or after its result) change nothing.
    fn take(&mut self, p: usize, frame: Frame, now: Instant) {
        match frame {
            Frame::Ready { catalogue } => {
                if self.ready[p].is_none() {
                    self.ready[p] = Some(catalogue);
                    self.all_ready(now);
                }
                return;
            }
            Frame::Request { case, bytes } => {
                return self.post(p, case, &[bytes], now);
            }
            Frame::Output { case, bytes } => {
                let Some(run) = self.case_of(case, p) else {
                    return;
                };
                run.results[p] = Some(Ok(bytes));
                run.waiting[p] = None;
            }
            Frame::Panicked { case, message } => {
                let Some(run) = self.case_of(case, p) else {
                    return;
                };
                let msg = format!("rank {p} {message}");
                run.failures.push(msg.clone());
                run.results[p] = Some(Err(msg));
                run.waiting[p] = None;
            }
        }
        self.settle(now);
    }

    /// The running case `case` if rank `p` takes part in it and still owes its result.
    fn case_of(&mut self, case: u32, p: usize) -> Option<&mut CaseRun> {
        self.cases
            .iter_mut()
            .find(|c| c.case == case)
            .filter(|c| !c.finished && c.results.get(p).is_some_and(Option::is_none))
    }

    fn all_ready(&mut self, now: Instant) {
        if self.ready.iter().any(Option::is_none) {
            return;
        }
        let first = self.ready[0].clone().unwrap_or_default();
        // A process built from another catalogue is what the session must see.
        let catalogue = self
            .ready
            .iter()
            .flatten()
            .find(|c| **c != first)
            .cloned()
            .unwrap_or(first);
        self.frames.push((Frame::Ready { catalogue }, now));
    }

    /// Gives every reply that can be given, declares deadlocks, finishes the cases whose
    /// ranks are all done and hands the session their frames in order.
    fn settle(&mut self, now: Instant) {
        for run in self.cases.iter_mut().filter(|c| !c.finished) {
            for q in 0..run.waiting.len() {
                if run.waiting[q].is_some()
                    && let Some(reply) = run.net.reply(q)
                {
                    run.waiting[q] = None;
                    let _ = self.feeds[q].send(runner::message(&reply));
                }
            }
            let quiet = run.in_flight.iter().all(|n| *n == 0);
            let done = quiet && run.results.iter().all(Option::is_some);
            let stuck = quiet
                && run
                    .waiting
                    .iter()
                    .zip(&run.results)
                    .all(|(w, r)| w.is_some() || r.is_some());
            if !done && stuck {
                let msg = deadlock(run);
                for q in 0..run.waiting.len() {
                    if run.waiting[q].take().is_some() {
                        let _ = self.feeds[q].send(runner::message(&refusal(&msg)));
                    }
                }
            }
            if done {
                run.frame = Some(finish(run));
                run.finished = true;
            }
        }
        while let Some(frame) = self.cases.get_mut(self.next).and_then(|c| c.frame.take()) {
            self.frames.push((frame, now));
            self.last_frame = Some(now);
            self.next += 1;
        }
    }

    /// Process `p` has ended with `stop`. If it still owed a result, or stopped on a limit,
    /// the run is over.
    fn ended(&mut self, p: usize, stop: &Stop) {
        let owes = self
            .cases
            .iter()
            .skip(self.next)
            .any(|c| c.results.get(p).is_some_and(Option::is_none));
        if (owes || *stop != Stop::Exited(0)) && !self.halt {
            self.halt = true;
            self.stop = Some(stop.clone());
        }
    }
}

/// The message every waiting rank of a deadlocked case gets, as a deadlock among threads reads.
fn deadlock(run: &CaseRun) -> String {
    let blocked: Vec<String> = run
        .waiting
        .iter()
        .enumerate()
        .filter_map(|(r, w)| w.as_ref().map(|w| format!("rank {r} waits to {w}")))
        .collect();
    let finished = run.results.iter().filter(|r| r.is_some()).count();
    format!(
        "deadlock: {}; {finished} rank(s) already returned",
        blocked.join(", ")
    )
}

/// The case's frame once every rank is done: the first failure that is not a deadlock (the
/// cause, not what it caused), else the network's output from every rank's result.
fn finish(run: &CaseRun) -> Frame {
    let case = run.case;
    if let Some(first) = run
        .failures
        .iter()
        .find(|m| !m.contains("deadlock"))
        .or(run.failures.first())
    {
        return Frame::Panicked {
            case,
            message: first.clone(),
        };
    }
    let outputs: Vec<Vec<u8>> = run
        .results
        .iter()
        .map(|r| match r {
            Some(Ok(bytes)) => bytes.clone(),
            _ => Vec::new(),
        })
        .collect();
    match run.net.finish(&outputs) {
        Ok(bytes) => Frame::Output { case, bytes },
        Err(message) => Frame::Panicked { case, message },
    }
}

fn lock(router: &Mutex<Router>) -> MutexGuard<'_, Router> {
    router.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use katas::problems::ring_allreduce::{Input, RingRequest, Spec, Values};
    use katas::ranks::Ranked;
    use std::collections::VecDeque;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn ring_net(vectors: Vec<Vec<f32>>) -> Box<dyn CaseNet> {
        let input = Input {
            ranks: vectors.len(),
            len: vectors[0].len(),
            values: Values::Listed(vectors),
        };
        Ranked::<Spec>::FACE
            .open(&katas::wire::encode(&input).unwrap())
            .unwrap()
    }

    fn ring(vectors: Vec<Vec<f32>>) -> (Router, Vec<Receiver<Vec<u8>>>) {
        route(ring_net(vectors))
    }

    fn route(net: Box<dyn CaseNet>) -> (Router, Vec<Receiver<Vec<u8>>>) {
        let (feeds, replies): (Vec<_>, Vec<_>) = (0..net.ranks()).map(|_| channel()).unzip();
        (Router::new(std::iter::once((7, net)), feeds), replies)
    }

    fn request(r: &RingRequest) -> Frame {
        Frame::Request {
            case: 7,
            bytes: katas::wire::encode(r).unwrap(),
        }
    }

    /// The reply a rank reads, as the runner's `read_message` would take it off stdin.
    fn reply(from: &Receiver<Vec<u8>>) -> Result<Vec<f32>, String> {
        let bytes = from.try_recv().expect("a reply was sent");
        let reply: Result<katas::wire::Floats, String> = katas::wire::decode(&bytes[4..]).unwrap();
        reply.map(|floats| floats.0)
    }

    #[test]
    fn a_message_reaches_the_right_neighbour_and_the_counts_are_the_routers() {
        let (mut router, replies) = ring(vec![vec![1.0, 2.0], vec![10.0, 20.0]]);
        let now = Instant::now();
        router.take(1, request(&RingRequest::Recv), now);
        assert!(replies[1].try_recv().is_err(), "nothing to receive yet");
        router.take(0, request(&RingRequest::Send(vec![1.0, 2.0])), now);
        assert_eq!(reply(&replies[1]), Ok(vec![1.0, 2.0]));
        router.take(1, request(&RingRequest::Send(vec![11.0, 22.0])), now);
        router.take(0, request(&RingRequest::Recv), now);
        assert_eq!(reply(&replies[0]), Ok(vec![11.0, 22.0]));
        for p in 0..2 {
            let bytes = katas::wire::encode(&katas::wire::Floats(vec![11.0, 22.0])).unwrap();
            router.take(p, Frame::Output { case: 7, bytes }, now);
        }
        let Some((Frame::Output { bytes, .. }, _)) = router.frames.last() else {
            panic!("the case has its frame: {:?}", router.frames);
        };
        let out: katas::problems::ring_allreduce::Output = katas::wire::decode(bytes).unwrap();
        assert_eq!(out.ranks[1].elements_received, 2);
        assert_eq!(out.ranks[0].messages_sent, 1);
    }

    #[test]
    fn requests_read_together_are_posted_in_order_and_none_after_a_refused_one() {
        let (mut router, replies) = ring(vec![vec![1.0, 2.0], vec![10.0, 20.0]]);
        let now = Instant::now();
        let garbage = Frame::Request {
            case: 7,
            bytes: vec![0xff; 3],
        };
        router.take_all(
            0,
            vec![
                request(&RingRequest::Send(vec![1.0, 2.0])),
                garbage,
                request(&RingRequest::Send(vec![3.0, 4.0])),
            ],
            now,
        );
        assert!(reply(&replies[0]).is_err(), "rank 0 is told it failed");
        router.take(1, request(&RingRequest::Recv), now);
        assert_eq!(reply(&replies[1]), Ok(vec![1.0, 2.0]));
        // The send after the refused request never reached the network: rank 1 waits alone.
        router.take(1, request(&RingRequest::Recv), now);
        let deadlock = reply(&replies[1]).expect_err("nothing more was sent");
        assert!(deadlock.contains("rank 0"), "{deadlock}");
    }

    /// A network in "another process": what is sent waits until the test releases it.
    struct Deferred {
        net: Box<dyn CaseNet>,
        sent: VecDeque<(usize, Vec<Vec<u8>>)>,
        released: Arc<AtomicUsize>,
    }

    impl CaseNet for Deferred {
        fn ranks(&self) -> usize {
            self.net.ranks()
        }
        fn rank_inputs(&mut self) -> Vec<Vec<u8>> {
            self.net.rank_inputs()
        }
        fn traffic_bound(&self) -> usize {
            self.net.traffic_bound()
        }
        fn post(&mut self, _: usize, _: &[u8]) -> Result<Posted, String> {
            unreachable!("the router sends without waiting")
        }
        fn send_all(
            &mut self,
            rank: usize,
            requests: &[Vec<u8>],
        ) -> Option<Vec<Result<Posted, String>>> {
            self.sent.push_back((rank, requests.to_vec()));
            None
        }
        fn answers(&mut self) -> Vec<(usize, Vec<Result<Posted, String>>)> {
            let mut answers = Vec::new();
            while self.released.load(Ordering::Relaxed) > 0
                && let Some((rank, requests)) = self.sent.pop_front()
            {
                self.released.fetch_sub(1, Ordering::Relaxed);
                answers.push((rank, self.net.post_all(rank, &requests)));
            }
            answers
        }
        fn reply(&mut self, rank: usize) -> Option<Vec<u8>> {
            self.net.reply(rank)
        }
        fn finish(&self, outputs: &[Vec<u8>]) -> Result<Vec<u8>, String> {
            self.net.finish(outputs)
        }
    }

    fn deferred_ring(vectors: Vec<Vec<f32>>) -> (Router, Vec<Receiver<Vec<u8>>>, Arc<AtomicUsize>) {
        let released = Arc::new(AtomicUsize::new(0));
        let net = Box::new(Deferred {
            net: ring_net(vectors),
            sent: VecDeque::new(),
            released: Arc::clone(&released),
        });
        let (router, replies) = route(net);
        (router, replies, released)
    }

    #[test]
    fn a_post_still_out_is_no_deadlock_and_its_answer_is_taken_in_order() {
        let (mut router, replies, released) = deferred_ring(vec![vec![1.0, 2.0], vec![10.0, 20.0]]);
        let now = Instant::now();
        router.take(0, request(&RingRequest::Recv), now);
        released.store(1, Ordering::Relaxed);
        router.answered(now);
        router.take(1, request(&RingRequest::Send(vec![1.0, 2.0])), now);
        let bytes = katas::wire::encode(&katas::wire::Floats(vec![11.0, 22.0])).unwrap();
        router.take(
            1,
            Frame::Output {
                case: 7,
                bytes: bytes.clone(),
            },
            now,
        );
        assert!(
            replies[0].try_recv().is_err(),
            "rank 1's send is still out: no deadlock yet"
        );
        released.store(1, Ordering::Relaxed);
        router.answered(now);
        assert_eq!(reply(&replies[0]), Ok(vec![1.0, 2.0]));
        router.take(0, Frame::Output { case: 7, bytes }, now);
        assert!(
            matches!(router.frames.last(), Some((Frame::Output { .. }, _))),
            "{:?}",
            router.frames
        );
    }

    #[test]
    fn a_refusal_answered_after_the_rank_s_result_fails_it_without_a_stray_reply() {
        let (mut router, replies, released) = deferred_ring(vec![vec![1.0], vec![2.0]]);
        let now = Instant::now();
        router.take(
            1,
            Frame::Request {
                case: 7,
                bytes: vec![0xff; 3],
            },
            now,
        );
        let bytes = katas::wire::encode(&katas::wire::Floats(vec![3.0])).unwrap();
        router.take(
            1,
            Frame::Output {
                case: 7,
                bytes: bytes.clone(),
            },
            now,
        );
        router.take(0, Frame::Output { case: 7, bytes }, now);
        assert!(router.frames.is_empty(), "rank 1's request is still out");
        released.store(1, Ordering::Relaxed);
        router.answered(now);
        assert!(
            replies[1].try_recv().is_err(),
            "rank 1 has moved on: nothing for it to read"
        );
        assert!(
            matches!(
                router.frames.last(),
                Some((Frame::Panicked { message, .. }, _)) if message.starts_with("rank 1 panicked")
            ),
            "{:?}",
            router.frames
        );
    }

    #[test]
    fn ranks_that_all_wait_are_told_of_the_deadlock_and_a_panic_is_the_cause() {
        let (mut router, replies) = ring(vec![vec![1.0], vec![2.0], vec![3.0]]);
        let now = Instant::now();
        router.take(0, request(&RingRequest::Recv), now);
        router.take(
            1,
            Frame::Panicked {
                case: 7,
                message: "panicked: index out of bounds".into(),
            },
            now,
        );
        assert!(replies[0].try_recv().is_err(), "rank 2 may still send");
        router.take(2, request(&RingRequest::Recv), now);
        for p in [0, 2] {
            let told = reply(&replies[p]).unwrap_err();
            assert!(told.starts_with("deadlock: rank 0 waits to receive from rank 2, rank 2 waits to receive from rank 1"), "{told}");
            router.take(
                p,
                Frame::Panicked {
                    case: 7,
                    message: format!("panicked: {told}"),
                },
                now,
            );
        }
        assert!(matches!(
            router.frames.last(),
            Some((Frame::Panicked { message, .. }, _)) if message == "rank 1 panicked: index out of bounds"
        ));
    }

    #[test]
    fn a_process_that_ends_owing_a_result_stops_the_run() {
        let (mut router, _replies) = ring(vec![vec![1.0], vec![2.0]]);
        router.ended(1, &Stop::Exited(0));
        assert!(router.halt);
        assert_eq!(router.stop, Some(Stop::Exited(0)));
    }
}
