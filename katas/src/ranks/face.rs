//! The grader's side of a run whose ranks are processes: one case's network behind an
//! object-safe face ([`CaseNet`]) that speaks wire bytes, so the grader can route any rank
//! kata's traffic without knowing its types.

use super::{Network, RankedSpec};
use std::marker::PhantomData;

/// A rank kata as the grader sees it (`KataSpec::ranked`).
pub trait RankedKata: Send + Sync + std::fmt::Debug {
    /// The network of the case whose input is `input` (wire bytes). `Err` only when the input
    /// cannot be read, which is our failure.
    fn open(&self, input: &[u8]) -> Result<Box<dyn CaseNet>, String>;
}

/// What became of a rank's request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Posted {
    /// Taken; the rank goes on without a reply.
    Taken,
    /// Taken; the rank waits for a reply, to do what the text says (for a deadlock message).
    Waits(String),
}

/// One case's network, trusted, in the grader.
pub trait CaseNet: Send {
    fn ranks(&self) -> usize;
    /// Every rank's start in wire bytes, rank 0 first.
    fn rank_inputs(&self) -> Result<Vec<Vec<u8>>, String>;
    /// See [`RankedSpec::traffic_bound`].
    fn traffic_bound(&self) -> usize;
    /// `rank`'s request, in wire bytes. `Err`: the rank broke the network's rules (or sent
    /// bytes that are no request), and fails with the message.
    fn post(&mut self, rank: usize, request: &[u8]) -> Result<Posted, String>;
    /// The reply owed to `rank`, encoded for its stdin, once it can be given.
    fn reply(&mut self, rank: usize) -> Option<Vec<u8>>;
    /// The output of the case, in wire bytes, from every rank's result in wire bytes.
    fn finish(&self, outputs: &[Vec<u8>]) -> Result<Vec<u8>, String>;
}

/// A reply that fails the waiting rank with `message` (a deadlock, the case stopped): the
/// encoding of an `Err` does not depend on the reply's type.
pub fn refusal(message: &str) -> Vec<u8> {
    crate::wire::encode(&Err::<(), &str>(message)).expect("a string encodes")
}

/// [`RankedKata`] for a [`RankedSpec`]: `Some(&Ranked::<Self>::FACE)` in the kata's
/// `KataSpec::ranked`.
pub struct Ranked<S>(PhantomData<fn() -> S>);

impl<S> Ranked<S> {
    pub const FACE: Self = Self(PhantomData);
}

impl<S> std::fmt::Debug for Ranked<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ranked")
    }
}

impl<S: RankedSpec> RankedKata for Ranked<S> {
    fn open(&self, input: &[u8]) -> Result<Box<dyn CaseNet>, String> {
        let input: S::Input = crate::wire::decode(input).map_err(|e| e.to_string())?;
        let net = S::network(&input);
        let ranks = S::rank_inputs(&input).len();
        Ok(Box::new(Open::<S> { input, net, ranks }))
    }
}

struct Open<S: RankedSpec> {
    input: S::Input,
    net: S::Net,
    ranks: usize,
}

impl<S: RankedSpec> CaseNet for Open<S> {
    fn ranks(&self) -> usize {
        self.ranks
    }

    fn rank_inputs(&self) -> Result<Vec<Vec<u8>>, String> {
        S::rank_inputs(&self.input)
            .iter()
            .map(|i| crate::wire::encode(i).map_err(|e| e.to_string()))
            .collect()
    }

    fn traffic_bound(&self) -> usize {
        S::traffic_bound(&self.input)
    }

    fn post(&mut self, rank: usize, request: &[u8]) -> Result<Posted, String> {
        let request: <S::Net as Network>::Request = crate::wire::decode(request)
            .map_err(|_| format!("rank {rank} sent a request the network cannot read"))?;
        let posted = if <S::Net as Network>::awaits(&request) {
            Posted::Waits(self.net.waits_to(&request, rank))
        } else {
            Posted::Taken
        };
        self.net.post(rank, request)?;
        Ok(posted)
    }

    fn reply(&mut self, rank: usize) -> Option<Vec<u8>> {
        let reply = self.net.reply(rank)?;
        Some(crate::wire::encode(&reply).unwrap_or_else(|e| refusal(&e.to_string())))
    }

    fn finish(&self, outputs: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let outputs = outputs
            .iter()
            .enumerate()
            .map(|(rank, bytes)| {
                crate::wire::decode::<S::RankOutput>(bytes)
                    .map_err(|_| format!("rank {rank}'s result could not be read"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let output = S::assemble(&self.input, &self.net, outputs);
        crate::wire::encode(&output).map_err(|e| e.to_string())
    }
}
