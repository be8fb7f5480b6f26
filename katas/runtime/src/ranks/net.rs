//! What a rank kata declares ([`RankedSpec`], [`Network`]) and the rank's handle on the network
//! ([`Link`]), whichever way the ranks run.

use super::{FinishGuard, World, process, run_ranks};
use crate::spec::KataSpec;
use serde::{Serialize, de::DeserializeOwned};
use std::sync::{Arc, Mutex, PoisonError};

/// Whose waits a change of the network may have answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    Nobody,
    Rank(usize),
    Everyone,
}

/// A kata's simulated network for one case: its rules and its counters. Trusted: on the
/// service it runs in the grader, never in the learner's process, so what it counts is what
/// the ranks really sent.
pub trait Network: Send + 'static {
    type Request: Serialize + DeserializeOwned + Send;
    type Reply: Serialize + DeserializeOwned + Send;

    /// Whether a rank that made `request` waits for a reply (a receive does, a send does not).
    fn awaits(request: &Self::Request) -> bool;

    /// What `rank`, about to wait on `request`, waits to do, for a deadlock message ("receive
    /// from rank 2"). Asked just before the request is posted.
    fn waits_to(&self, request: &Self::Request, rank: usize) -> String;

    /// Takes `rank`'s request. `Err` when the request breaks the network's rules; the rank then
    /// fails with that message.
    fn post(&mut self, rank: usize, request: Self::Request) -> Result<Wake, String>;

    /// The reply owed to `rank`'s waiting request, once it can be given (`Err`: the rank fails
    /// with the message).
    fn reply(&mut self, rank: usize) -> Option<Result<Self::Reply, String>>;
}

/// A kata whose learner code runs as several simulated ranks.
pub trait RankedSpec: KataSpec {
    type Net: Network;
    /// What one rank starts with: its part of the input and nothing of the others'.
    type RankInput: Serialize + DeserializeOwned + Send;
    /// What one rank ends with.
    type RankOutput: Serialize + DeserializeOwned + Send;

    fn network(input: &Self::Input) -> Self::Net;

    /// Every rank's start, rank 0 first; its length is the number of ranks (at least one).
    fn rank_inputs(input: &Self::Input) -> Vec<Self::RankInput>;

    /// The request bytes one rank may send for `input` before the run is stopped: what the
    /// grader may have to hold for it. Generous: a wrong solution that sends too much must
    /// reach the checker's explanation, not this bound.
    fn traffic_bound(input: &Self::Input) -> usize;

    /// Runs the learner's code as one rank.
    fn run_rank(
        solution: Self::Solution,
        link: Link<Self::Net>,
        input: Self::RankInput,
    ) -> Self::RankOutput;

    /// The case's output from every rank's result and the network's counters. Trusted.
    fn assemble(
        input: &Self::Input,
        net: &Self::Net,
        outputs: Vec<Self::RankOutput>,
    ) -> Self::Output;
}

/// One rank's handle on the network. Kata communicators wrap it; learners never see it.
pub struct Link<N: Network> {
    rank: usize,
    size: usize,
    via: Via<N>,
}

enum Via<N: Network> {
    Threads(Arc<World<N>>),
    Process(process::Channel),
}

impl<N: Network> std::fmt::Debug for Link<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl<N: Network> Link<N> {
    pub(super) fn process(rank: usize, size: usize, channel: process::Channel) -> Self {
        Self {
            rank,
            size,
            via: Via::Process(channel),
        }
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Makes `request` of the network; returns its reply when the request waits for one.
    /// Panics, as the rank's failure, when the network refuses the request, when a reply is
    /// an error (a deadlock, a mismatch) or when the grader has stopped the case.
    pub fn call(&mut self, request: N::Request) -> Option<N::Reply> {
        let rank = self.rank;
        let awaits = N::awaits(&request);
        match &mut self.via {
            Via::Threads(world) => {
                let posted = world.change(|net| {
                    let what = awaits.then(|| net.waits_to(&request, rank));
                    match net.post(rank, request) {
                        Ok(wake) => (Ok(what), wake),
                        Err(msg) => (Err(msg), Wake::Everyone),
                    }
                });
                let what = match posted {
                    Ok(what) => what?,
                    Err(msg) => panic!("{msg}"),
                };
                match world.wait_for_own(rank, what, |net| net.reply(rank)) {
                    Ok(reply) => Some(reply),
                    Err(msg) => panic!("{msg}"),
                }
            }
            Via::Process(channel) => {
                channel.send(&request);
                awaits.then(|| channel.receive::<N::Reply>())
            }
        }
    }
}

/// Runs every rank of `input` on its own thread, the network shared in a [`World`], and
/// assembles the output. `Err` carries the first rank's panic (a deadlock included), prefixed
/// with its rank.
pub fn simulate<S: RankedSpec>(
    solution: S::Solution,
    input: &S::Input,
) -> Result<S::Output, String> {
    let starts: Vec<Mutex<Option<S::RankInput>>> = S::rank_inputs(input)
        .into_iter()
        .map(|i| Mutex::new(Some(i)))
        .collect();
    let size = starts.len();
    let world = Arc::new(World::new(size, S::network(input)));
    let outputs = run_ranks(size, |rank| {
        let _done = FinishGuard::new(&*world, rank);
        let start = starts[rank]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .expect("each rank starts once");
        let link = Link {
            rank,
            size,
            via: Via::Threads(Arc::clone(&world)),
        };
        S::run_rank(solution, link, start)
    })?;
    Ok(world.read(|net| S::assemble(input, net, outputs)))
}
