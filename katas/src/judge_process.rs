//! A kata's trusted side as a process of its own: the judge program the grader builds from a
//! published package (its `kata.rs` or generated logic and its `reference.rs`) and runs in the
//! sandbox, so an instructor's case generator, reference and checker never run inside the
//! grader or the server.
//!
//! The protocol is the run protocol's framing turned around: the grader writes [`Request`]s to
//! the judge's stdin and reads one [`Reply`] per request from its stdout, each a message
//! ([`crate::runner::message`]: a little-endian `u32` length, then postcard). The judge holds
//! one grading's cases (made from the seed of its `Prepare`) and answers in order; the grader
//! bounds every reply ([`ReplyReader`]) and how long it waits for one, so a checker that loops,
//! floods or lies about lengths costs the grading, never the grader.

use crate::judge::{CaseResult, JudgeFailure, KataError, Trial, judge_case};
use crate::rank_net::{CaseNet, Posted};
use crate::report::{CaseReport, Outcome, trim};
use crate::spec::{Group, KataSpec, Message, Mismatch};
use crate::wire::bytes;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::time::Duration;

/// The biggest reply the grader reads: a case report is small; `Input` carries one case's
/// input, which the runner protocol bounds the same way.
pub const MAX_REPLY: usize = 64 << 20;

/// What the grader asks the judge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Make one grading's cases from `seed` and the reference's answers; answered with
    /// [`Reply::Prepared`] or [`Reply::Broken`].
    Prepare { seed: u64, case_time_ms: u64 },
    /// Case `index`'s input in the wire format ([`Reply::Input`]).
    Input { index: u32 },
    /// Judge what the learner's program did on case `index` ([`Reply::Judged`] or
    /// [`Reply::Failed`]).
    Judge {
        index: u32,
        #[serde(with = "bytes::result")]
        result: CaseResult,
        time_ms: f64,
    },
    /// A rank kata: open the network of the case whose input is `input`
    /// ([`Reply::NetOpened`]). The grader routes the ranks' traffic; the network's rules and
    /// counters stay here, with the rest of the package's trusted code.
    NetOpen {
        #[serde(with = "serde_bytes")]
        input: Vec<u8>,
    },
    /// [`Request::NetOpen`] on case `index`'s input as this judge made it: the grader need not
    /// carry the input there and back.
    NetOpenCase { index: u32 },
    /// [`CaseNet::post_all`] on network `net`: `rank`'s requests in the order it sent them
    /// (what one read of its stdout brought), and every reply they made ready
    /// ([`Reply::NetPosted`]): replies only ever become ready when a request is posted, so
    /// the grader asks for none on its own.
    NetPost {
        net: u32,
        rank: u32,
        #[serde(with = "bytes::many")]
        requests: Vec<Vec<u8>>,
    },
    /// [`CaseNet::finish`] ([`Reply::NetFinished`]).
    NetFinish {
        net: u32,
        #[serde(with = "bytes::many")]
        outputs: Vec<Vec<u8>>,
    },
    /// [`Request::NetFinish`], the case's output kept here for [`Request::JudgeHeld`] rather
    /// than sent to the grader, which would only send it back: `NetFinished(Ok(empty))`.
    NetFinishHeld {
        net: u32,
        #[serde(with = "bytes::many")]
        outputs: Vec<Vec<u8>>,
    },
    /// [`Request::Judge`] on the output network `net` assembled and kept
    /// ([`Request::NetFinishHeld`]).
    JudgeHeld { index: u32, net: u32, time_ms: f64 },
    /// A custom-input run: admit the learner's `json` as the kata's input and answer it with
    /// the reference ([`Reply::CustomPrepared`], one case that `Input` and `Judge` then name
    /// as #0; [`Reply::InputRefused`]; [`Reply::Broken`] when the reference failed on it).
    Custom { json: String, case_time_ms: u64 },
    /// The learner's answer to the custom case as JSON, once judged ([`Reply::Shown`]).
    LearnerOutput,
    /// The input's format by example, from the cases of the default seed
    /// ([`Reply::Examples`]): what the custom-input form starts from.
    Examples,
}

/// A case as the grader sees it, with the answer bound the reference's answer sets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedCase {
    pub name: String,
    pub name_zh: Option<String>,
    pub group: Group,
    /// See [`crate::judge::Judging::answer_bound`].
    pub answer_bound: u64,
}

/// One grading's cases, as the judge made them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prepared {
    pub cases: Vec<PreparedCase>,
    /// The kata is a rank kata ([`KataSpec::ranked`]): its ranks run as processes of their
    /// own, and their traffic is routed through this judge's networks (`Request::Net*`).
    pub ranked: bool,
}

/// What the judge answers, one per request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    Prepared(Prepared),
    Input(#[serde(with = "serde_bytes")] Vec<u8>),
    Judged(JudgedCase),
    /// The kata could not make its cases or encode an input (its own fault).
    Broken(KataError),
    /// The checker failed on a case (its own fault).
    Failed(JudgeFailure),
    NetOpened {
        net: u32,
        ranks: u32,
        traffic_bound: u64,
        #[serde(with = "bytes::many")]
        rank_inputs: Vec<Vec<u8>>,
    },
    NetPosted {
        /// One per request posted, up to the first refused: `Ok(None)`: taken;
        /// `Ok(Some(what))`: the rank waits for a reply; `Err`: the rank broke the network's
        /// rules.
        posted: Vec<Result<Option<String>, String>>,
        /// `(rank, reply)` for every reply ready now ([`CaseNet::reply`]).
        #[serde(with = "bytes::tagged")]
        replies: Vec<(u32, Vec<u8>)>,
    },
    NetFinished(#[serde(with = "bytes::result")] Result<Vec<u8>, String>),
    /// No such network, or its input could not be read.
    NetFailed(String),
    /// The custom input admitted: its one case, and the reference's answer as JSON
    /// ([`crate::shown`], cut to [`crate::custom::MAX_SHOWN_BYTES`]).
    CustomPrepared {
        case: PreparedCase,
        reference: String,
        ranked: bool,
    },
    /// The custom input is not this kata's, in English and 中文: the learner's to fix.
    InputRefused {
        en: String,
        zh: String,
    },
    Shown(Option<String>),
    /// The first sample's input (pretty JSON) and one example per entry point (compact JSON);
    /// see [`crate::custom::sample`] and [`crate::custom::examples`].
    Examples {
        sample: Option<String>,
        examples: Vec<(String, String)>,
    },
}

/// A case's judgement as it crosses: what the checker decided and said. The case's name,
/// group and time are the grader's own ([`JudgedCase::into_report`]). Texts are
/// `(English, 中文)` pairs: the wire format has no optional or flattened fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgedCase {
    pub outcome: Outcome,
    pub input: Option<(String, Option<String>)>,
    /// The mismatch's words, then expected and got.
    pub mismatch: Option<((String, Option<String>), String, String)>,
    pub message: Option<(String, Option<String>)>,
    pub notes: Vec<(String, String)>,
    /// A GPU performance case's device timing, from the learner's timed runs.
    pub device: Option<crate::gpu::DeviceTiming>,
}

impl JudgedCase {
    fn of(report: CaseReport) -> Self {
        let pair = |m: Message| (m.en, m.zh);
        Self {
            outcome: report.outcome,
            input: report.input.map(|en| (en, report.input_zh)),
            mismatch: report
                .mismatch
                .map(|m| (pair(m.message), m.expected, m.got)),
            message: report.message.map(pair),
            notes: report
                .notes
                .into_iter()
                .zip(
                    report
                        .notes_zh
                        .into_iter()
                        .chain(std::iter::repeat(String::new())),
                )
                .collect(),
            device: report.device,
        }
    }

    /// The report of case `case`, judged in `time_ms` (the grader's figure), each text cut
    /// to the report's bound and at most `max_notes` notes kept.
    pub fn into_report(self, case: &PreparedCase, time_ms: f64, max_notes: usize) -> CaseReport {
        let message = |(en, zh): (String, Option<String>)| Message {
            en: trim(&en),
            zh: zh.as_deref().map(trim),
        };
        let notes: Vec<_> = self.notes.into_iter().take(max_notes).collect();
        CaseReport {
            name: case.name.clone(),
            name_zh: case.name_zh.clone(),
            group: case.group,
            outcome: self.outcome,
            time_ms,
            input: self.input.as_ref().map(|(en, _)| trim(en)),
            input_zh: self.input.and_then(|(_, zh)| zh).as_deref().map(trim),
            mismatch: self.mismatch.map(|(m, expected, got)| Mismatch {
                message: message(m),
                expected: trim(&expected),
                got: trim(&got),
            }),
            message: self.message.map(message),
            notes_zh: notes.iter().map(|(_, zh)| trim(zh)).collect(),
            notes: notes.iter().map(|(en, _)| trim(en)).collect(),
            device: self.device,
        }
    }
}

/// The judge program's `main`: answers requests on stdin until it closes. Nothing the judge
/// says decides more than the reports it returns, which the grader reads as untrusted data.
pub fn serve<S: KataSpec>(reference: S::Solution) {
    // A checker's panic is reported as `Failed`; its message must not reach stdout.
    std::panic::set_hook(Box::new(|_| {}));
    let mut stdout = std::io::stdout().lock();
    let mut held = Held::<S>::Nothing;
    let mut nets: Vec<HeldNet> = Vec::new();
    while let Ok(bytes) = crate::runner::read_message() {
        let reply = match crate::wire::decode::<Request>(&bytes) {
            Ok(Request::NetOpenCase { index }) => match input_bytes(&held, index) {
                Ok(input) => open::<S>(&mut nets, &input),
                Err(e) => Reply::NetFailed(e.to_string()),
            },
            Ok(Request::JudgeHeld {
                index,
                net,
                time_ms,
            }) => match kept_output(&mut nets, net) {
                Some(output) => judge(&held, index, Ok(output), time_ms),
                None => Reply::Failed(JudgeFailure::Checker(format!(
                    "#{index} (network #{net} holds no output)"
                ))),
            },
            Ok(request) => match network::<S>(&mut nets, request) {
                Ok(reply) => reply,
                Err(request) => answer::<S>(reference, &mut held, request),
            },
            Err(e) => Reply::Broken(KataError::Encode {
                what: "a request".into(),
                message: e.to_string(),
            }),
        };
        let Ok(bytes) = crate::wire::encode(&reply) else {
            return;
        };
        if stdout
            .write_all(&crate::runner::message(&bytes))
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
    }
}

/// One case's network and which of its ranks have broken its rules: the grader posts a
/// rank's requests without waiting for the outcome of those before, and what a rank sends
/// after a refused request must not reach the network.
struct HeldNet {
    net: Box<dyn CaseNet>,
    refused: Vec<bool>,
    /// The case's output, assembled and kept ([`Request::NetFinishHeld`]) until judged.
    output: Option<Vec<u8>>,
}

/// The output network `net` assembled and kept, taken: each is judged once.
fn kept_output(nets: &mut [HeldNet], net: u32) -> Option<Vec<u8>> {
    nets.get_mut(net as usize)?.output.take()
}

/// The network of the case whose input is `input`, opened and held.
fn open<S: KataSpec>(nets: &mut Vec<HeldNet>, input: &[u8]) -> Reply {
    match S::ranked().map(|r| r.open(input)) {
        None => Reply::NetFailed("not a rank kata".into()),
        Some(Err(e)) => Reply::NetFailed(e),
        Some(Ok(mut net)) => {
            let opened = Reply::NetOpened {
                net: nets.len() as u32,
                ranks: net.ranks() as u32,
                traffic_bound: net.traffic_bound() as u64,
                rank_inputs: net.rank_inputs(),
            };
            let refused = vec![false; net.ranks()];
            nets.push(HeldNet {
                net,
                refused,
                output: None,
            });
            opened
        }
    }
}

/// A network request answered, or the request given back when it is none.
fn network<S: KataSpec>(nets: &mut Vec<HeldNet>, request: Request) -> Result<Reply, Request> {
    let no_net = |net: u32| Reply::NetFailed(format!("no network #{net}"));
    Ok(match request {
        Request::NetOpen { input } => open::<S>(nets, &input),
        Request::NetPost {
            net,
            rank,
            requests,
        } => match nets.get_mut(net as usize) {
            Some(held) if held.refused.get(rank as usize) == Some(&true) => Reply::NetPosted {
                posted: vec![Err(format!(
                    "rank {rank} already broke the network's rules"
                ))],
                replies: Vec::new(),
            },
            Some(HeldNet {
                net: n, refused, ..
            }) => {
                let posted: Vec<_> = n
                    .post_all(rank as usize, &requests)
                    .into_iter()
                    .map(|posted| {
                        posted.map(|p| match p {
                            Posted::Taken => None,
                            Posted::Waits(what) => Some(what),
                        })
                    })
                    .collect();
                if posted.last().is_some_and(Result::is_err)
                    && let Some(r) = refused.get_mut(rank as usize)
                {
                    *r = true;
                }
                let replies = (0..n.ranks())
                    .filter_map(|r| Some((r as u32, n.reply(r)?)))
                    .collect();
                Reply::NetPosted { posted, replies }
            }
            None => no_net(net),
        },
        Request::NetFinish { net, outputs } => match nets.get(net as usize) {
            Some(held) => Reply::NetFinished(held.net.finish(&outputs)),
            None => no_net(net),
        },
        Request::NetFinishHeld { net, outputs } => match nets.get_mut(net as usize) {
            Some(held) => Reply::NetFinished(held.net.finish(&outputs).map(|output| {
                held.output = Some(output);
                Vec::new()
            })),
            None => no_net(net),
        },
        other => return Err(other),
    })
}

/// What the judge holds between requests: one grading's cases, or one custom input's.
enum Held<S: KataSpec> {
    Nothing,
    Graded(Trial<S>, Duration),
    #[cfg(feature = "custom")]
    Custom(crate::custom::CustomCase),
}

fn answer<S: KataSpec>(reference: S::Solution, held: &mut Held<S>, request: Request) -> Reply {
    match request {
        Request::Prepare { seed, case_time_ms } => match Trial::<S>::prepare(reference, seed) {
            Ok(made) => {
                let cases = made
                    .cases
                    .iter()
                    .zip(&made.expected)
                    .map(|(case, expected)| PreparedCase {
                        name: case.name.clone(),
                        name_zh: case.name_zh.clone(),
                        group: case.group,
                        answer_bound: crate::wire::encode(expected)
                            .map_or(0, |b| b.len() as u64 * 2 + (64 << 10)),
                    })
                    .collect();
                *held = Held::Graded(made, Duration::from_millis(case_time_ms));
                Reply::Prepared(Prepared {
                    cases,
                    ranked: S::ranked().is_some(),
                })
            }
            Err(e) => Reply::Broken(e),
        },
        Request::Input { index } => input(held, index),
        Request::NetOpen { .. }
        | Request::NetOpenCase { .. }
        | Request::NetPost { .. }
        | Request::NetFinish { .. }
        | Request::NetFinishHeld { .. }
        | Request::JudgeHeld { .. } => Reply::NetFailed("answered elsewhere".into()),
        Request::Judge {
            index,
            result,
            time_ms,
        } => judge(held, index, result, time_ms),
        Request::Custom { json, case_time_ms } => custom::<S>(reference, held, &json, case_time_ms),
        Request::LearnerOutput => Reply::Shown(match held {
            #[cfg(feature = "custom")]
            Held::Custom(case) => case.learner_output(),
            _ => None,
        }),
        Request::Examples => examples::<S>(reference),
    }
}

fn input<S: KataSpec>(held: &Held<S>, index: u32) -> Reply {
    input_bytes(held, index).map_or_else(Reply::Broken, Reply::Input)
}

/// Case `index`'s input in the wire format.
fn input_bytes<S: KataSpec>(held: &Held<S>, index: u32) -> Result<Vec<u8>, KataError> {
    match held {
        Held::Graded(trial, _) => match trial.cases.get(index as usize) {
            Some(case) => crate::wire::encode(&case.input).map_err(|e| KataError::Encode {
                what: format!("case #{index}"),
                message: e.to_string(),
            }),
            None => Err(KataError::NoSuchCase(index as usize)),
        },
        #[cfg(feature = "custom")]
        Held::Custom(case) => case.judging.input_bytes(index as usize),
        Held::Nothing => Err(KataError::NoSuchCase(index as usize)),
    }
}

fn judge<S: KataSpec>(held: &Held<S>, index: u32, result: CaseResult, time_ms: f64) -> Reply {
    let no_case = || Reply::Failed(JudgeFailure::Checker(format!("#{index} (no such case)")));
    let judged = match held {
        Held::Graded(trial, limit) => {
            let i = index as usize;
            let (Some(case), Some(expected)) = (trial.cases.get(i), trial.expected.get(i)) else {
                return no_case();
            };
            judge_case::<S>(case, expected, result, time_ms, *limit)
        }
        #[cfg(feature = "custom")]
        Held::Custom(case) if index == 0 => case.judging.judge(0, result, time_ms),
        _ => return no_case(),
    };
    match judged {
        Ok(report) => Reply::Judged(JudgedCase::of(report)),
        Err(failure) => Reply::Failed(failure),
    }
}

#[cfg(feature = "custom")]
fn custom<S: KataSpec>(
    reference: S::Solution,
    held: &mut Held<S>,
    json: &str,
    case_time_ms: u64,
) -> Reply {
    use crate::custom::CustomError;
    match crate::custom::prepare::<S>(reference, json, Duration::from_millis(case_time_ms)) {
        Ok(case) => {
            let prepared = PreparedCase {
                name: case.info.name.clone(),
                name_zh: case.info.name_zh.clone(),
                group: case.info.group,
                answer_bound: case.judging.answer_bound(0) as u64,
            };
            let reference = case.reference_output.clone();
            *held = Held::Custom(case);
            Reply::CustomPrepared {
                case: prepared,
                reference,
                ranked: S::ranked().is_some(),
            }
        }
        Err(CustomError::Reference(why)) => Reply::Broken(KataError::Reference {
            case: crate::custom::CASE_NAME.into(),
            message: why,
        }),
        Err(refused) => Reply::InputRefused {
            en: refused.message(crate::Lang::En),
            zh: refused.message(crate::Lang::Zh),
        },
    }
}

#[cfg(not(feature = "custom"))]
fn custom<S: KataSpec>(_: S::Solution, _: &mut Held<S>, _: &str, _: u64) -> Reply {
    Reply::Broken(KataError::Judge(NO_CUSTOM.into()))
}

#[cfg(feature = "custom")]
fn examples<S: KataSpec>(reference: S::Solution) -> Reply {
    match Trial::<S>::prepare(reference, crate::DEFAULT_SEED) {
        Ok(trial) => Reply::Examples {
            sample: crate::custom::sample::<S>(&trial.cases),
            examples: crate::custom::examples::<S>(&trial.cases),
        },
        Err(e) => Reply::Broken(e),
    }
}

#[cfg(not(feature = "custom"))]
fn examples<S: KataSpec>(_: S::Solution) -> Reply {
    Reply::Broken(KataError::Judge(NO_CUSTOM.into()))
}

/// A judge linked against a library without custom input (the grader links them all with it).
#[cfg(not(feature = "custom"))]
const NO_CUSTOM: &str = "was built without custom input (`katas` feature `custom`)";

/// The grader's side of the judge's stdout: replies as they arrive, each bounded.
#[derive(Debug, Default)]
pub struct ReplyReader {
    buffer: Vec<u8>,
    /// Set once the judge said something that is not a bounded, well-formed reply; nothing it
    /// says after that is read.
    pub broken: Option<String>,
}

impl ReplyReader {
    /// Takes a chunk of stdout; returns the replies it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Reply> {
        if self.broken.is_some() {
            return Vec::new();
        }
        self.buffer.extend_from_slice(chunk);
        let mut replies = Vec::new();
        while let Some(head) = self.buffer.get(..4) {
            let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
            if len > MAX_REPLY {
                self.broken = Some(format!("a reply of {len} bytes (the bound is {MAX_REPLY})"));
                self.buffer = Vec::new();
                break;
            }
            if self.buffer.len() < 4 + len {
                break;
            }
            let reply = crate::wire::decode::<Reply>(&self.buffer[4..4 + len]);
            self.buffer.drain(..4 + len);
            match reply {
                Ok(reply) => replies.push(reply),
                Err(e) => {
                    self.broken = Some(format!("a malformed reply: {e}"));
                    self.buffer = Vec::new();
                    break;
                }
            }
        }
        replies
    }
}

/// `request` as one message on the judge's stdin.
pub fn request_message(request: &Request) -> Vec<u8> {
    // Every field of a request has an encoding.
    crate::runner::message(&crate::wire::encode(request).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_read_in_any_chunking_and_bounded() {
        let replies = [
            Reply::Input(vec![1, 2, 3]),
            Reply::Broken(KataError::NoSuchCase(4)),
        ];
        let stream: Vec<u8> = replies
            .iter()
            .flat_map(|r| crate::runner::message(&crate::wire::encode(r).unwrap()))
            .collect();
        for split in 0..stream.len() {
            let mut reader = ReplyReader::default();
            let mut got = reader.push(&stream[..split]);
            got.extend(reader.push(&stream[split..]));
            assert_eq!(got, replies, "split at {split}");
        }
        let mut reader = ReplyReader::default();
        assert!(reader.push(&u32::MAX.to_le_bytes()).is_empty());
        assert!(reader.broken.as_deref().unwrap().contains("bound"));
        assert!(reader.push(&stream).is_empty(), "nothing is read after");
    }

    #[test]
    fn a_rank_s_posts_after_a_refused_one_never_reach_the_network() {
        use crate::problems::ring_allreduce::{Input, RingRequest, Spec, Values};
        let input = Input {
            ranks: 2,
            len: 1,
            values: Values::Listed(vec![vec![1.0], vec![2.0]]),
        };
        let mut nets = Vec::new();
        let open = Request::NetOpen {
            input: crate::wire::encode(&input).unwrap(),
        };
        assert!(matches!(
            network::<Spec>(&mut nets, open),
            Ok(Reply::NetOpened { net: 0, .. })
        ));
        let send = crate::wire::encode(&RingRequest::Send(vec![5.0])).unwrap();
        let post = |rank, requests| Request::NetPost {
            net: 0,
            rank,
            requests,
        };
        let Ok(Reply::NetPosted { posted, .. }) =
            network::<Spec>(&mut nets, post(0, vec![vec![0xff; 3], send.clone()]))
        else {
            panic!("a post is answered");
        };
        assert!(posted.len() == 1 && posted[0].is_err(), "{posted:?}");
        // Sent before the grader knew of the refusal: refused without being posted.
        let Ok(Reply::NetPosted { posted, replies }) =
            network::<Spec>(&mut nets, post(0, vec![send]))
        else {
            panic!("a post is answered");
        };
        assert!(
            posted[0].as_ref().is_err_and(|e| e.contains("already")),
            "{posted:?}"
        );
        let recv = crate::wire::encode(&RingRequest::Recv).unwrap();
        let Ok(Reply::NetPosted {
            posted,
            replies: after,
        }) = network::<Spec>(&mut nets, post(1, vec![recv]))
        else {
            panic!("a post is answered");
        };
        assert!(
            replies.is_empty() && after.is_empty(),
            "rank 1 got nothing from rank 0"
        );
        assert!(
            matches!(posted[..], [Ok(Some(_))]),
            "rank 1 waits: {posted:?}"
        );
    }

    #[test]
    fn a_kept_output_is_judged_once_and_never_sent_back() {
        use crate::problems::ring_allreduce::{Input, Output, Spec, Values};
        let input = Input {
            ranks: 1,
            len: 2,
            values: Values::Listed(vec![vec![1.0, 2.0]]),
        };
        let mut nets = Vec::new();
        let open = Request::NetOpen {
            input: crate::wire::encode(&input).unwrap(),
        };
        assert!(network::<Spec>(&mut nets, open).is_ok());
        let result = crate::wire::encode(&crate::wire::Floats(vec![1.0, 2.0])).unwrap();
        let finish = Request::NetFinishHeld {
            net: 0,
            outputs: vec![result],
        };
        assert_eq!(
            network::<Spec>(&mut nets, finish),
            Ok(Reply::NetFinished(Ok(Vec::new()))),
            "the grader is sent no output"
        );
        let kept = kept_output(&mut nets, 0).expect("the network kept its output");
        let output: Output = crate::wire::decode(&kept).unwrap();
        assert_eq!(output.ranks[0].data, vec![1.0, 2.0]);
        assert!(kept_output(&mut nets, 0).is_none(), "taken once");
        assert!(kept_output(&mut nets, 9).is_none(), "no such network");
    }

    #[test]
    fn byte_strings_cross_as_bytes_and_come_back_whole() {
        let requests = [
            Request::NetOpen { input: vec![7; 3] },
            Request::NetPost {
                net: 1,
                rank: 2,
                requests: vec![vec![0, 255, 9], Vec::new()],
            },
            Request::NetFinish {
                net: 1,
                outputs: vec![vec![1], Vec::new(), vec![2, 3]],
            },
            Request::NetFinishHeld {
                net: 2,
                outputs: vec![vec![6, 7]],
            },
            Request::JudgeHeld {
                index: 3,
                net: 2,
                time_ms: 0.5,
            },
            Request::Judge {
                index: 0,
                result: Ok(vec![4, 5]),
                time_ms: 1.5,
            },
            Request::Judge {
                index: 1,
                result: Err("panicked".into()),
                time_ms: 0.0,
            },
        ];
        for request in requests {
            let bytes = crate::wire::encode(&request).unwrap();
            assert_eq!(crate::wire::decode::<Request>(&bytes).unwrap(), request);
        }
        let replies = [
            Reply::NetPosted {
                posted: vec![Ok(None), Ok(Some("recv".into())), Err("no".into())],
                replies: vec![(0, vec![1, 2]), (3, Vec::new())],
            },
            Reply::NetOpened {
                net: 0,
                ranks: 2,
                traffic_bound: 10,
                rank_inputs: vec![vec![1], vec![2]],
            },
            Reply::NetFinished(Ok(vec![8])),
        ];
        for reply in replies {
            let bytes = crate::wire::encode(&reply).unwrap();
            assert_eq!(crate::wire::decode::<Reply>(&bytes).unwrap(), reply);
        }
        // The same bytes as a plain sequence of `u8`s: only the work per byte changed.
        let plain = crate::wire::encode(&(1u32, 2u32, vec![vec![0u8, 255, 9]])).unwrap();
        let post = Request::NetPost {
            net: 1,
            rank: 2,
            requests: vec![vec![0, 255, 9]],
        };
        assert_eq!(crate::wire::encode(&post).unwrap()[1..], plain[..]);
    }
}
