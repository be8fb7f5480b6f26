//! [`ProcessRanked`]: a rank kata's networks held by the package's judge. The grader's router
//! posts the ranks' traffic to them as it does to a catalogue kata's; once the router gives a
//! network its [`Wake`], posts go out without waiting ([`CaseNet::send_all`]) and their
//! outcomes come back through [`CaseNet::answers`], in the order they were sent.

use super::judge_link::JudgeLink;
use katas::judge_process::{self, Reply, Request};
use katas::rank_net::{CaseNet, Posted, RankedKata, Wake};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How long the judge may take to post one read of a rank's requests, open or finish a network.
const NET_WAIT: Duration = Duration::from_secs(10);
/// The most ranks one case's network may have: each is a sandboxed process.
const MAX_RANKS: usize = 64;

/// A rank kata's networks in the package's judge.
#[derive(Clone)]
pub struct ProcessRanked {
    pub(super) link: Arc<JudgeLink>,
    pub(super) held: HeldOutputs,
}

/// The grading's cases whose output the judge assembled and kept (case index → network):
/// judged there ([`Request::JudgeHeld`]) without the output crossing to the grader and back.
pub(super) type HeldOutputs = Arc<Mutex<HashMap<usize, u32>>>;

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
        self.opened(self.link.reply(&request, NET_WAIT), None)
    }

    fn open_cases(
        &self,
        cases: &[usize],
        _input: &dyn Fn(usize) -> Result<Vec<u8>, String>,
    ) -> Vec<Result<Box<dyn CaseNet>, String>> {
        let requests = cases
            .iter()
            .map(|&index| Request::NetOpenCase {
                index: index as u32,
            })
            .collect();
        self.link
            .ask_all(requests, NET_WAIT)
            .into_iter()
            .zip(cases)
            .map(|(reply, &case)| {
                let reply = match reply {
                    Ok(Ok(reply)) => Ok(reply),
                    Ok(Err(why)) => Err(self.link.failed_with(why)),
                    Err(e) => Err(self.link.failed_with(format!("could not run: {e}"))),
                };
                self.opened(reply, Some(case))
            })
            .collect()
    }
}

impl ProcessRanked {
    /// The network the judge opened, from its reply; `case`: the grading's case it is for,
    /// whose output the judge then keeps.
    fn opened(
        &self,
        reply: Result<Reply, String>,
        case: Option<usize>,
    ) -> Result<Box<dyn CaseNet>, String> {
        match reply? {
            Reply::NetOpened {
                net,
                ranks,
                traffic_bound,
                rank_inputs,
            } if rank_inputs.len() == ranks as usize && ranks as usize <= MAX_RANKS => {
                Ok(Box::new(ProcessNet {
                    link: Arc::clone(&self.link),
                    net,
                    ranks: ranks as usize,
                    traffic_bound: (traffic_bound as usize).min(judge_process::MAX_REPLY),
                    rank_inputs: Some(rank_inputs),
                    inbox: Arc::new(Mutex::new(Inbox {
                        ready: vec![VecDeque::new(); ranks as usize],
                        answers: Vec::new(),
                    })),
                    wake: None,
                    held: case.map(|case| (case, Arc::clone(&self.held))),
                }))
            }
            Reply::NetFailed(why) => {
                self.link.failed(format!("could not open a network: {why}"));
                Err(why)
            }
            _ => self.link.out_of_turn(),
        }
    }
}

type Outcomes = Vec<Result<Posted, String>>;

/// What the judge has said of a network's posts and the router has not taken yet.
struct Inbox {
    /// The replies the judge said are ready, per rank, not yet given.
    ready: Vec<VecDeque<Vec<u8>>>,
    /// Outcomes of posts sent without waiting, in the order sent.
    answers: Vec<(usize, Outcomes)>,
}

/// One case's network in the package's judge.
struct ProcessNet {
    link: Arc<JudgeLink>,
    net: u32,
    ranks: usize,
    traffic_bound: usize,
    rank_inputs: Option<Vec<Vec<u8>>>,
    inbox: Arc<Mutex<Inbox>>,
    wake: Option<Wake>,
    /// The grading's case this network is for, and where to say its output is kept.
    held: Option<(usize, HeldOutputs)>,
}

impl ProcessNet {
    fn request(&self, rank: usize, requests: &[Vec<u8>]) -> Request {
        Request::NetPost {
            net: self.net,
            rank: rank as u32,
            requests: requests.to_vec(),
        }
    }
}

/// The outcomes of `sent` requests from the judge's `reply`, its ready replies put in `inbox`.
/// A judge that answers for more requests than were sent, or for none, or stops before a
/// refused one, answered out of turn.
fn outcomes(link: &JudgeLink, inbox: &mut Inbox, sent: usize, reply: Reply) -> Outcomes {
    let Reply::NetPosted { posted, replies } = reply else {
        return vec![link.out_of_turn()];
    };
    let complete = posted.last().is_some_and(Result::is_err) || posted.len() == sent;
    if posted.is_empty() || posted.len() > sent || !complete {
        return vec![link.out_of_turn()];
    }
    for (rank, reply) in replies {
        if let Some(ready) = inbox.ready.get_mut(rank as usize) {
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
        let mut posted = self.post_all(rank, &[request.to_vec()]);
        posted.pop().unwrap_or_else(|| self.link.out_of_turn())
    }

    /// One round trip for all of them: the judge posts them in order and stops at the first
    /// refused.
    fn post_all(&mut self, rank: usize, requests: &[Vec<u8>]) -> Outcomes {
        match self.link.reply(&self.request(rank, requests), NET_WAIT) {
            Ok(reply) => {
                let mut inbox = self.inbox.lock().unwrap_or_else(PoisonError::into_inner);
                outcomes(&self.link, &mut inbox, requests.len(), reply)
            }
            Err(why) => vec![Err(why)],
        }
    }

    fn send_all(&mut self, rank: usize, requests: &[Vec<u8>]) -> Option<Outcomes> {
        let Some(wake) = self.wake.clone() else {
            return Some(self.post_all(rank, requests));
        };
        let (link, inbox, sent) = (
            Arc::clone(&self.link),
            Arc::clone(&self.inbox),
            requests.len(),
        );
        let then = move |reply: Result<Reply, String>| {
            let mut held = inbox.lock().unwrap_or_else(PoisonError::into_inner);
            let outcomes = match reply {
                Ok(reply) => outcomes(&link, &mut held, sent, reply),
                Err(why) => vec![Err(link.failed_with(why))],
            };
            held.answers.push((rank, outcomes));
            drop(held);
            wake();
        };
        match self
            .link
            .ask_later(&self.request(rank, requests), NET_WAIT, then)
        {
            Ok(()) => None,
            Err(why) => Some(vec![Err(self.link.failed_with(why))]),
        }
    }

    fn answers(&mut self) -> Vec<(usize, Outcomes)> {
        let mut inbox = self.inbox.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut inbox.answers)
    }

    fn wake_with(&mut self, wake: Wake) {
        self.wake = Some(wake);
    }

    fn reply(&mut self, rank: usize) -> Option<Vec<u8>> {
        let mut inbox = self.inbox.lock().unwrap_or_else(PoisonError::into_inner);
        inbox.ready.get_mut(rank)?.pop_front()
    }

    /// A grading's case: the judge keeps the output it assembles, and the case's frame
    /// carries none (see [`HeldOutputs`]).
    fn finish(&self, outputs: &[Vec<u8>]) -> Result<Vec<u8>, String> {
        let (net, outputs) = (self.net, outputs.to_vec());
        let request = match self.held {
            Some(_) => Request::NetFinishHeld { net, outputs },
            None => Request::NetFinish { net, outputs },
        };
        let output = match self.link.reply(&request, NET_WAIT)? {
            Reply::NetFinished(output) => output?,
            _ => return self.link.out_of_turn(),
        };
        if let Some((case, held)) = &self.held {
            if !output.is_empty() {
                return self.link.out_of_turn();
            }
            held.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(*case, net);
        }
        Ok(output)
    }
}
