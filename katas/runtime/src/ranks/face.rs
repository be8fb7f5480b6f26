//! [`RankedKata`] for a [`RankedSpec`]: the grader's copy of a case's network, in wire bytes.

use super::{Network, RankedSpec};
use crate::rank_net::{CaseNet, Posted, RankedKata, refusal};
use std::marker::PhantomData;

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
        let starts = S::rank_inputs(&input)
            .iter()
            .map(|i| crate::wire::encode(i).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Box::new(Open::<S> {
            input,
            net,
            ranks: starts.len(),
            starts,
        }))
    }
}

struct Open<S: RankedSpec> {
    input: S::Input,
    net: S::Net,
    ranks: usize,
    /// Every rank's start, encoded once; handed over by `rank_inputs`.
    starts: Vec<Vec<u8>>,
}

impl<S: RankedSpec> CaseNet for Open<S> {
    fn ranks(&self) -> usize {
        self.ranks
    }

    fn rank_inputs(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.starts)
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
