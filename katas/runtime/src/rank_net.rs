//! What the grader and a rank kata's processes share about the ranks, with no other module of
//! ours beneath it: a rank's part of a run ([`RankRole`], sent in its request) and one case's
//! network behind an object-safe face ([`CaseNet`]) that speaks wire bytes, so the grader can
//! route any rank kata's traffic without knowing its types. `katas::ranks` implements both.

use serde::{Deserialize, Serialize};

/// One rank's part of a run (see `runner::RunRequest::rank`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankRole {
    pub rank: u32,
    pub cases: Vec<RankCase>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankCase {
    /// The case's index, as in `runner::RunRequest::cases`.
    pub case: u32,
    /// How many ranks the case has.
    pub ranks: u32,
    /// This rank's start, in the wire format.
    #[serde(with = "serde_bytes")]
    pub input: Vec<u8>,
}

/// A rank kata as the grader sees it (`KataSpec::ranked`).
pub trait RankedKata: Send + Sync + std::fmt::Debug {
    /// The network of the case whose input is `input` (wire bytes). `Err` only when the input
    /// cannot be read, which is our failure.
    fn open(&self, input: &[u8]) -> Result<Box<dyn CaseNet>, String>;
    /// The networks of the grading's cases `cases`, in order; `input(case)` is a case's input
    /// in wire bytes, `Err` when it cannot be had (the reason, kept by the caller). A network
    /// in another process opens every case from the inputs its judge made, in one round trip.
    fn open_cases(
        &self,
        cases: &[usize],
        input: &dyn Fn(usize) -> Result<Vec<u8>, String>,
    ) -> Vec<Result<Box<dyn CaseNet>, String>> {
        cases.iter().map(|&case| self.open(&input(case)?)).collect()
    }
}

/// What became of a rank's request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Posted {
    /// Taken; the rank goes on without a reply.
    Taken,
    /// Taken; the rank waits for a reply, to do what the text says (for a deadlock message).
    Waits(String),
}

/// How a network whose posts are answered later ([`CaseNet::send_all`]) says that outcomes are
/// waiting in [`CaseNet::answers`]. It is called on another thread, which must not be made to
/// wait for the network.
pub type Wake = std::sync::Arc<dyn Fn() + Send + Sync>;

/// One case's network, trusted, in the grader.
pub trait CaseNet: Send {
    fn ranks(&self) -> usize;
    /// Every rank's start in wire bytes, rank 0 first; handed over once (later calls: none).
    fn rank_inputs(&mut self) -> Vec<Vec<u8>>;
    /// See [`RankedSpec::traffic_bound`].
    fn traffic_bound(&self) -> usize;
    /// `rank`'s request, in wire bytes. `Err`: the rank broke the network's rules (or sent
    /// bytes that are no request), and fails with the message.
    fn post(&mut self, rank: usize, request: &[u8]) -> Result<Posted, String>;
    /// `rank`'s requests in the order it sent them, each as [`CaseNet::post`], up to and
    /// including the first refused (the rank has failed: the rest are never posted). A network
    /// in another process takes them in one round trip.
    fn post_all(&mut self, rank: usize, requests: &[Vec<u8>]) -> Vec<Result<Posted, String>> {
        let mut posted = Vec::with_capacity(requests.len());
        for request in requests {
            let one = self.post(rank, request);
            let refused = one.is_err();
            posted.push(one);
            if refused {
                break;
            }
        }
        posted
    }
    /// [`CaseNet::post_all`] without waiting for a network in another process: `None` when
    /// the outcome comes later, through [`CaseNet::answers`], once the [`Wake`] given to
    /// [`CaseNet::wake_with`] is called. A network in this process answers at once.
    fn send_all(
        &mut self,
        rank: usize,
        requests: &[Vec<u8>],
    ) -> Option<Vec<Result<Posted, String>>> {
        Some(self.post_all(rank, requests))
    }
    /// The outcomes [`CaseNet::send_all`] left for later that have come since the last call,
    /// in the order their requests were sent: `(rank, outcomes)`, each as `post_all`'s. The
    /// replies they made ready are [`CaseNet::reply`]'s by then.
    fn answers(&mut self) -> Vec<(usize, Vec<Result<Posted, String>>)> {
        Vec::new()
    }
    /// How to say that [`CaseNet::answers`] has outcomes; until it is given, `send_all` waits
    /// as `post_all` does.
    fn wake_with(&mut self, _wake: Wake) {}
    /// The reply owed to `rank`, encoded for its stdin, once it can be given.
    fn reply(&mut self, rank: usize) -> Option<Vec<u8>>;
    /// The output of the case, in wire bytes, from every rank's result in wire bytes; empty
    /// when the network keeps it where the case is judged (a grading's case whose network is
    /// in the package's judge).
    fn finish(&self, outputs: &[Vec<u8>]) -> Result<Vec<u8>, String>;
}

/// A reply that fails the waiting rank with `message` (a deadlock, the case stopped): the
/// encoding of an `Err` does not depend on the reply's type.
pub fn refusal(message: &str) -> Vec<u8> {
    crate::wire::encode(&Err::<(), &str>(message)).expect("a string encodes")
}
