//! Simulated ranks for the distributed katas.
//!
//! A rank kata ([`RankedSpec`]) says what one rank is given, what it may ask of the network and
//! how the network answers ([`Network`]: the kata's trusted rules, which also count the
//! traffic). A rank only ever talks to the network through its [`Link`], which runs one of two
//! ways:
//!
//! - **Threads**, for `cargo test -p katas` and the grader's own reference runs: one thread per
//!   rank and the network in a shared [`World`], whose waits notice a deadlock instead of
//!   hanging.
//! - **Processes**, in the sandbox: every rank is its own sandboxed process holding only its
//!   own input, and the network lives in the grader ([`CaseNet`]), which routes each
//!   request and reply. A rank can then know only what it was sent, and the counts come from
//!   the trusted side, not from the program's memory.
//!
//! A deadlock is declared when every rank is either finished or waiting on a condition that was
//! false on the current state. Every state change clears the waiting marks, so a rank counts as
//! waiting only once it has looked at the state as it is now — no false alarms from a wake-up
//! that has not been scheduled yet.

mod face;
mod net;
mod process;

pub use crate::rank_net::{CaseNet, Posted, RankCase, RankRole, RankedKata, refusal};
pub use face::Ranked;
pub use net::{Link, Network, RankedSpec, Wake, simulate};
pub use process::serve_rank;

use crate::panics::{SOLUTION_THREAD_PREFIX, learner_panic_message};
use std::fmt::{Display, Write as _};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Runs `body(rank)` for every rank on its own thread and collects the results in rank order.
/// If any rank panics, the error is that panic's message, prefixed with its rank — a rank that
/// panicked for its own reason wins over the deadlocks its exit then caused in the others. A
/// deadlock message lists what every blocked rank was waiting for, whichever rank reports it.
pub fn run_ranks<T: Send>(n: usize, body: impl Fn(usize) -> T + Sync) -> Result<Vec<T>, String> {
    let panics: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let results = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .map(|rank| {
                let body = &body;
                let panics = &panics;
                std::thread::Builder::new()
                    .name(format!("{SOLUTION_THREAD_PREFIX}-rank-{rank}"))
                    .spawn_scoped(scope, move || {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(rank)))
                            .map_err(|p| {
                                let msg =
                                    format!("rank {rank} {}", learner_panic_message(p.as_ref()));
                                lock(panics).push(msg);
                            })
                            .ok()
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().ok().flatten(),
                Err(e) => {
                    lock(&panics).push(format!("could not start a rank thread: {e}"));
                    None
                }
            })
            .collect::<Vec<Option<T>>>()
    });
    // A rank that panicked releases the others into a deadlock; report the cause.
    let panics = lock(&panics);
    if let Some(first) = panics
        .iter()
        .find(|m| !m.contains("deadlock"))
        .or(panics.first())
    {
        return Err(first.clone());
    }
    results
        .into_iter()
        .collect::<Option<Vec<T>>>()
        .ok_or_else(|| "a rank ended without a result".to_string())
}

/// State shared by `n` ranks, with deadlock-aware waiting.
#[derive(Debug)]
pub struct World<T> {
    inner: Mutex<Inner<T>>,
    /// `wake[r]`: rank r waits on its own condition variable, so that a change only one rank
    /// can use wakes only that rank (see [`World::update_for`]).
    wake: Vec<Condvar>,
}

#[derive(Debug)]
struct Inner<T> {
    state: T,
    waiting: Vec<bool>,
    /// What each rank last waited for, for the deadlock message.
    waiting_on: Vec<String>,
    finished: Vec<bool>,
    deadlock: Option<String>,
}

impl<T> World<T> {
    pub fn new(ranks: usize, state: T) -> Self {
        Self {
            inner: Mutex::new(Inner {
                state,
                waiting: vec![false; ranks],
                waiting_on: vec![String::new(); ranks],
                finished: vec![false; ranks],
                deadlock: None,
            }),
            wake: (0..ranks).map(|_| Condvar::new()).collect(),
        }
    }

    fn wake_all(&self) {
        self.wake.iter().for_each(Condvar::notify_all);
    }

    pub fn ranks(&self) -> usize {
        lock(&self.inner).waiting.len()
    }

    /// Changes the shared state and wakes every waiting rank.
    pub fn update<R>(&self, change: impl FnOnce(&mut T) -> R) -> R {
        let mut inner = lock(&self.inner);
        let out = change(&mut inner.state);
        inner.waiting.iter_mut().for_each(|w| *w = false);
        drop(inner);
        self.wake_all();
        out
    }

    /// Changes state that only `rank`'s waits look at (its own mailbox, say) and wakes that rank
    /// alone. The other ranks' waiting marks stay valid, because no condition of theirs changed,
    /// so deadlock detection is as exact as with [`World::update`], without waking every rank
    /// for every message.
    pub fn update_for<R>(&self, rank: usize, change: impl FnOnce(&mut T) -> R) -> R {
        let mut inner = lock(&self.inner);
        let out = change(&mut inner.state);
        inner.waiting[rank] = false;
        drop(inner);
        self.wake[rank].notify_one();
        out
    }

    /// Changes the shared state and wakes whom the change says it may concern: [`Wake::Rank`]
    /// is [`World::update_for`], [`Wake::Everyone`] is [`World::update`].
    pub fn change<R>(&self, change: impl FnOnce(&mut T) -> (R, Wake)) -> R {
        let mut inner = lock(&self.inner);
        let (out, wake) = change(&mut inner.state);
        match wake {
            Wake::Nobody => {}
            Wake::Rank(r) => {
                inner.waiting[r] = false;
                drop(inner);
                self.wake[r].notify_one();
            }
            Wake::Everyone => {
                inner.waiting.iter_mut().for_each(|w| *w = false);
                drop(inner);
                self.wake_all();
            }
        }
        out
    }

    /// Reads the shared state without waking anyone.
    pub fn read<R>(&self, look: impl FnOnce(&T) -> R) -> R {
        look(&lock(&self.inner).state)
    }

    /// Waits until `ready` returns `Some`, which it computes from (and may change) the state.
    /// Panics with `what` in the message if every rank is stuck. `what` is only formatted when
    /// the rank actually has to wait (`format_args!` costs nothing on the fast path).
    pub fn wait_for<R>(
        &self,
        rank: usize,
        what: impl Display,
        ready: impl FnMut(&mut T) -> Option<R>,
    ) -> R {
        self.wait(rank, what, true, ready)
    }

    /// [`World::wait_for`] for a `ready` whose change to the state only `rank` itself looks at
    /// (taking a message from its own mailbox): no other rank is woken when it succeeds.
    pub fn wait_for_own<R>(
        &self,
        rank: usize,
        what: impl Display,
        ready: impl FnMut(&mut T) -> Option<R>,
    ) -> R {
        self.wait(rank, what, false, ready)
    }

    fn wait<R>(
        &self,
        rank: usize,
        what: impl Display,
        others_care: bool,
        mut ready: impl FnMut(&mut T) -> Option<R>,
    ) -> R {
        let mut inner = lock(&self.inner);
        loop {
            if let Some(msg) = &inner.deadlock {
                let msg = msg.clone();
                drop(inner);
                panic!("{msg}");
            }
            if let Some(out) = ready(&mut inner.state) {
                if others_care {
                    inner.waiting.iter_mut().for_each(|w| *w = false);
                    drop(inner);
                    self.wake_all();
                }
                return out;
            }
            inner.waiting[rank] = true;
            // Rewritten in place: the string keeps its capacity, so a rank that waits at every
            // step allocates once, not once per message.
            let waiting_on = &mut inner.waiting_on[rank];
            waiting_on.clear();
            write!(waiting_on, "{what}").expect("writing to a String cannot fail");
            let stuck = inner
                .waiting
                .iter()
                .zip(&inner.finished)
                .all(|(&w, &f)| w || f);
            if stuck {
                let blocked: Vec<String> = (0..inner.waiting.len())
                    .filter(|&r| !inner.finished[r])
                    .map(|r| format!("rank {r} waits to {}", inner.waiting_on[r]))
                    .collect();
                let finished = inner.finished.iter().filter(|&&f| f).count();
                let msg = format!(
                    "deadlock: {}; {finished} rank(s) already returned",
                    blocked.join(", ")
                );
                inner.deadlock = Some(msg.clone());
                drop(inner);
                self.wake_all();
                panic!("{msg}");
            }
            inner = self.wake[rank]
                .wait(inner)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Marks `rank` as done (returned or panicked) so the others stop waiting on it.
    pub fn finish(&self, rank: usize) {
        let mut inner = lock(&self.inner);
        inner.finished[rank] = true;
        drop(inner);
        self.wake_all();
    }

    /// Takes the final state once every rank is done.
    pub fn into_state(self) -> T {
        self.inner
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .state
    }
}

/// Marks its rank finished when dropped, including while unwinding from a panic.
#[derive(Debug)]
pub struct FinishGuard<'w, T> {
    world: &'w World<T>,
    rank: usize,
}

impl<'w, T> FinishGuard<'w, T> {
    pub fn new(world: &'w World<T>, rank: usize) -> Self {
        Self { world, rank }
    }
}

impl<T> Drop for FinishGuard<'_, T> {
    fn drop(&mut self) {
        self.world.finish(self.rank);
    }
}

/// Ranks panic while holding no lock, but a poisoned lock must not hide the first panic.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_where_everyone_receives_first_is_a_deadlock() {
        let world = World::new(3, vec![0u32; 3]);
        let err = run_ranks(3, |rank| {
            let _done = FinishGuard::new(&world, rank);
            world.wait_for(rank, "receive", |boxes| (boxes[rank] > 0).then_some(()));
        })
        .unwrap_err();
        assert!(err.contains("deadlock"), "{err}");
    }

    #[test]
    fn passing_a_token_around_completes() {
        let n = 5;
        let world = World::new(n, vec![0u32; n]);
        let out = run_ranks(n, |rank| {
            let _done = FinishGuard::new(&world, rank);
            if rank != 0 {
                world.wait_for(rank, "receive", |b| (b[rank] > 0).then_some(()));
            }
            world.update(|b| b[(rank + 1) % n] += 1);
            rank
        })
        .unwrap();
        assert_eq!(out, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn the_first_panic_is_reported_not_the_deadlocks_it_caused() {
        let world = World::new(2, 0u32);
        let err = run_ranks(2, |rank| {
            let _done = FinishGuard::new(&world, rank);
            if rank == 0 {
                panic!("index out of bounds");
            }
            world.wait_for(rank, "receive", |s| (*s > 0).then_some(()));
        })
        .unwrap_err();
        assert!(
            err.starts_with("rank 0 panicked: index out of bounds"),
            "{err}"
        );
    }
}
