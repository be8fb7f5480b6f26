//! [`JudgeLink`]: the way to one grading's judge process. Requests go out in order and the
//! judge answers them in that order, so each reply is the oldest unanswered request's; a caller
//! either waits for its reply ([`JudgeLink::ask`]) or leaves work to be done with it on the
//! thread that reads the judge ([`JudgeLink::ask_later`]), so a rank kata's traffic is not held
//! up one round trip at a time. Every request is bounded in time by the judge's own watch: a
//! judge that keeps the oldest request waiting too long is stopped, and everything it owes
//! fails with the reason.

use crate::GradeError;
use crate::sandbox::{self, Job, LimitHit, Profile, Sandbox, Watch};
use katas::Limits;
use katas::judge_process::{self, Reply, ReplyReader, Request};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::Scope;
use std::time::{Duration, Instant};

/// Why a request got no reply.
pub(super) enum Unanswered {
    /// The judge's fault, in words for the instructor ("did not answer within 10 s").
    Judge(String),
    /// Ours: the sandbox could not run the judge.
    Ours(GradeError),
}

/// What a reply is handed to.
enum Waiter {
    /// A caller blocked in [`JudgeLink::ask`].
    Caller(Sender<Result<Reply, Unanswered>>),
    /// Work done with it on the thread that reads the judge, under the link's lock: it must
    /// not use the link, nor wait for anything that does.
    Later(Box<dyn FnOnce(Result<Reply, String>) + Send>),
}

impl Waiter {
    fn answer(self, answer: Result<Reply, Unanswered>) {
        match (self, answer) {
            (Waiter::Caller(to), answer) => {
                let _ = to.send(answer);
            }
            (Waiter::Later(then), Ok(reply)) => then(Ok(reply)),
            (Waiter::Later(then), Err(Unanswered::Judge(why))) => then(Err(why)),
            (Waiter::Later(then), Err(Unanswered::Ours(e))) => {
                then(Err(format!("could not run: {e}")))
            }
        }
    }
}

/// A request sent and not yet answered.
struct Asked {
    waiter: Waiter,
    /// When the judge has kept it too long: `wait` after it was sent or, if later, after it
    /// became the oldest.
    due: Instant,
    wait: Duration,
}

struct Link {
    requests: Option<Sender<Vec<u8>>>,
    /// Oldest first.
    pending: VecDeque<Asked>,
    /// Set once the judge can no longer answer: why.
    dead: Option<String>,
}

/// The way to one judge process, shared by the grading's judging and its rank networks.
pub(super) struct JudgeLink {
    link: Mutex<Link>,
    /// Signalled whenever a request is answered or the judge ends.
    answered: Condvar,
    /// Stop the judge now (the grading is over, or it broke the protocol).
    stop: AtomicBool,
    /// The first failure of the judge, for the grading to report as the kata's.
    failure: Mutex<Option<String>>,
}

/// What the job thread's pump calls with the judge's stdout.
struct JudgeWatch {
    reader: ReplyReader,
    link: Arc<JudgeLink>,
    feed: Option<Receiver<Vec<u8>>>,
    started: Instant,
}

impl Watch for JudgeWatch {
    fn on_stdout(&mut self, chunk: &[u8]) {
        for reply in self.reader.push(chunk) {
            self.link.answered(reply);
        }
        if self.reader.broken.is_some() {
            self.link.stop();
        }
    }

    fn deadline(&self) -> Option<Instant> {
        if self.link.stop.load(Ordering::Relaxed) {
            return Some(self.started);
        }
        self.link.lock().pending.front().map(|asked| asked.due)
    }

    fn keeps_stdout(&self) -> bool {
        false
    }

    fn feed(&mut self) -> Option<Receiver<Vec<u8>>> {
        self.feed.take()
    }
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

impl JudgeLink {
    /// `judge` started in the sandbox on a thread of `scope`, asked nothing yet.
    pub(super) fn spawn<'scope>(
        scope: &'scope Scope<'scope, '_>,
        sandbox: &'scope Sandbox,
        judge: &'scope Path,
        limits_of_kata: &Limits,
    ) -> Arc<JudgeLink> {
        let (requests, feed) = channel();
        let link = Arc::new(JudgeLink {
            link: Mutex::new(Link {
                requests: Some(requests),
                pending: VecDeque::new(),
                dead: None,
            }),
            answered: Condvar::new(),
            stop: AtomicBool::new(false),
            failure: Mutex::new(None),
        });
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
            link: Arc::clone(&link),
            feed: Some(feed),
            started: Instant::now(),
        };
        scope.spawn(move || {
            let ran = sandbox
                .slot()
                .and_then(|mut slot| sandbox.run_in(&mut slot, &job, &mut watch));
            let ended = match ran {
                Ok(outcome) => Ok(ended(&outcome, watch.reader.broken.as_deref())),
                Err(e) => Err(GradeError::from(e)),
            };
            watch.link.ended(ended);
        });
        link
    }

    fn lock(&self) -> MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops the judge: whatever it owes fails once its process has ended.
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Sends `request`, its reply to go to `waiter`; `Err(why)` when the judge can no longer
    /// answer.
    fn send(&self, request: &Request, wait: Duration, waiter: Waiter) -> Result<(), String> {
        let mut link = self.lock();
        if let Some(why) = &link.dead {
            return Err(why.clone());
        }
        let message = judge_process::request_message(request);
        let sent = link.requests.as_ref().map(|r| r.send(message));
        if !matches!(sent, Some(Ok(()))) {
            return Err("ended".into());
        }
        // Under the same lock as the send: the reply cannot be read before its waiter is here.
        link.pending.push_back(Asked {
            waiter,
            due: Instant::now() + wait,
            wait,
        });
        Ok(())
    }

    /// One request and its reply. `Ok(Err(why))`: the judge did not answer in time, or ended.
    pub(super) fn ask(
        &self,
        request: &Request,
        wait: Duration,
    ) -> Result<Result<Reply, String>, GradeError> {
        let (to, reply) = channel();
        if let Err(why) = self.send(request, wait, Waiter::Caller(to)) {
            return Ok(Err(why));
        }
        received(reply.recv())
    }

    /// Every request sent before the first reply is waited for; their replies in order, each
    /// as [`JudgeLink::ask`]'s.
    pub(super) fn ask_all(
        &self,
        requests: Vec<Request>,
        wait: Duration,
    ) -> Vec<Result<Result<Reply, String>, GradeError>> {
        let asked: Vec<_> = requests
            .iter()
            .map(|request| {
                let (to, reply) = channel();
                self.send(request, wait, Waiter::Caller(to)).map(|()| reply)
            })
            .collect();
        asked
            .into_iter()
            .map(|asked| match asked {
                Err(why) => Ok(Err(why)),
                Ok(reply) => received(reply.recv()),
            })
            .collect()
    }

    /// Sends `request` without waiting: `then` gets its reply, or why there is none, on the
    /// thread that reads the judge. `Err(why)` (and `then` is never called) when the judge can
    /// no longer answer.
    pub(super) fn ask_later(
        &self,
        request: &Request,
        wait: Duration,
        then: impl FnOnce(Result<Reply, String>) + Send + 'static,
    ) -> Result<(), String> {
        self.send(request, wait, Waiter::Later(Box::new(then)))
    }

    /// Waits until the judge owes nothing: every request answered, or the judge ended (as it
    /// is once the oldest has waited too long).
    pub(super) fn quiet(&self) {
        let link = self.lock();
        let _quiet = self
            .answered
            .wait_while(link, |l| !l.pending.is_empty() && l.dead.is_none())
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// A reply read from the judge: the oldest request's. It is handed over under the lock
    /// (no waiter touches the link), so [`JudgeLink::quiet`] never sees a request answered
    /// before its waiter has the answer.
    fn answered(&self, reply: Reply) {
        let mut link = self.lock();
        let asked = link.pending.pop_front();
        // The judge works through requests one at a time: each has its wait from the moment
        // it is the oldest, not from when it was sent behind others.
        if let Some(next) = link.pending.front_mut() {
            next.due = next.due.max(Instant::now() + next.wait);
        }
        match asked {
            Some(asked) => asked.waiter.answer(Ok(reply)),
            None => {
                self.failed("answered a request it was never sent".into());
                self.stop();
            }
        }
        drop(link);
        self.answered.notify_all();
    }

    /// The judge's process has ended: every request it owes fails, and so does every later
    /// one.
    fn ended(&self, how: Result<String, GradeError>) {
        let now = Instant::now();
        let mut link = self.lock();
        let why = match (&how, link.pending.front()) {
            (_, Some(oldest)) if oldest.due <= now => {
                format!("did not answer within {} s", oldest.wait.as_secs())
            }
            (Ok(how), _) => how.clone(),
            (Err(e), _) => format!("could not run: {e}"),
        };
        link.requests = None;
        link.dead = Some(why.clone());
        let mut ours = how.err();
        for asked in std::mem::take(&mut link.pending) {
            let unanswered = match ours.take() {
                Some(e) => Unanswered::Ours(e),
                None => Unanswered::Judge(why.clone()),
            };
            asked.waiter.answer(Err(unanswered));
        }
        drop(link);
        self.answered.notify_all();
    }

    /// Records the judge's first failure.
    pub(super) fn failed(&self, why: String) {
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(why);
    }

    /// How the judge first failed, if it did.
    pub(super) fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// `request`'s reply, or why there is none (recorded as the judge's failure).
    pub(super) fn reply(&self, request: &Request, wait: Duration) -> Result<Reply, String> {
        match self.ask(request, wait) {
            Ok(Ok(reply)) => Ok(reply),
            Ok(Err(why)) => Err(self.failed_with(why)),
            Err(e) => Err(self.failed_with(format!("could not run: {e}"))),
        }
    }

    /// Records `why` as the judge's failure; what a grading says of it.
    pub(super) fn failed_with(&self, why: String) -> String {
        let said = format!("the package's judge {why}");
        self.failed(why);
        said
    }

    /// A reply of the wrong kind: the judge's failure.
    pub(super) fn out_of_turn<T>(&self) -> Result<T, String> {
        Err(self.failed_with("answered out of turn".into()))
    }
}

/// What a blocked caller's channel brought.
fn received(
    got: Result<Result<Reply, Unanswered>, std::sync::mpsc::RecvError>,
) -> Result<Result<Reply, String>, GradeError> {
    match got {
        Ok(Ok(reply)) => Ok(Ok(reply)),
        Ok(Err(Unanswered::Judge(why))) => Ok(Err(why)),
        Ok(Err(Unanswered::Ours(e))) => Err(e),
        Err(_) => Ok(Err("ended".into())),
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
