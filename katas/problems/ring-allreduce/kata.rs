//! Cases and checker for `ring-allreduce`: N simulated ranks on a one-way ring sum their vectors.
//!
//! Each rank gets a [`RingComm`] that can only send to its right neighbour and receive from its
//! left one. The ring itself ([`Wires`]) is the kata's trusted side: it carries the messages and
//! counts every message and element each rank sends and receives. On the service every rank is
//! its own sandboxed process holding only its own vector, and the ring lives in the grader
//! (see `katas::ranks`): a rank can know only what reached it in messages, and the counts are
//! the grader's. Under `cargo test -p katas` the ranks are threads of one process and a message
//! is an owned buffer that moves from sender to receiver, as a zero-copy transport hands over
//! registered buffers.
//!
//! The checker judges the final vectors against an exact integer oracle, and the counters
//! against the volume a ring all-reduce needs: at most what the ring sends, and at least what a
//! rank must receive to know the sum at all. The lower bound is what catches, among threads, a
//! solution that passes data behind the communicator's back; among processes there is no back
//! to pass it behind.

use katas::ranks::{Link, Network, Ranked, RankedKata, RankedSpec, Wake};
use katas::wire::Floats;
use katas::{Case, Check, Group, KataSpec, Message, Refusal};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The learner's function: all-reduce (sum) `data` across the ring, in place.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    pub ring_allreduce: fn(&mut RingComm, &mut [f32]),
}

/// Per-message latency of the α-β cost model, in seconds (5 µs).
pub const ALPHA_S: f64 = 5e-6;
/// Link bandwidth of the α-β cost model, in bytes per second (25 GB/s); β = 1 / this.
pub const LINK_BYTES_PER_S: f64 = 25e9;
/// Input values are integers in `-MAX_ABS_VALUE..=MAX_ABS_VALUE`.
pub const MAX_ABS_VALUE: i32 = 1000;
/// The most ranks any case uses.
pub const MAX_RANKS: usize = 16;

/// The ring: the messages in flight and what each rank has sent and received so far. Trusted.
#[derive(Debug)]
pub struct Wires {
    /// `inbox[r]`: messages from rank `r - 1` that rank `r` has not received yet, oldest first.
    inbox: Vec<VecDeque<Vec<f32>>>,
    messages_sent: Vec<u64>,
    elements_sent: Vec<u64>,
    messages_received: Vec<u64>,
    elements_received: Vec<u64>,
}

impl Wires {
    fn new(n: usize) -> Self {
        Self {
            inbox: vec![VecDeque::new(); n],
            messages_sent: vec![0; n],
            elements_sent: vec![0; n],
            messages_received: vec![0; n],
            elements_received: vec![0; n],
        }
    }
}

/// What a rank asks of the ring.
#[derive(Debug, Serialize, Deserialize)]
pub enum RingRequest {
    /// Send this buffer to the right neighbour.
    Send(#[serde(with = "katas::wire::floats")] Vec<f32>),
    /// Take the oldest message from the left neighbour, waiting for one.
    Recv,
}

impl Network for Wires {
    type Request = RingRequest;
    type Reply = Floats;

    fn awaits(request: &RingRequest) -> bool {
        matches!(request, RingRequest::Recv)
    }

    fn waits_to(&self, _: &RingRequest, rank: usize) -> String {
        let size = self.inbox.len();
        format!("receive from rank {}", (rank + size - 1) % size)
    }

    fn post(&mut self, rank: usize, request: RingRequest) -> Result<Wake, String> {
        let RingRequest::Send(message) = request else {
            return Ok(Wake::Nobody);
        };
        let right = (rank + 1) % self.inbox.len();
        self.messages_sent[rank] += 1;
        self.elements_sent[rank] += message.len() as u64;
        self.inbox[right].push_back(message);
        // Only `right`'s receive can have become ready.
        Ok(Wake::Rank(right))
    }

    fn reply(&mut self, rank: usize) -> Option<Result<Floats, String>> {
        let message = self.inbox[rank].pop_front()?;
        self.messages_received[rank] += 1;
        self.elements_received[rank] += message.len() as u64;
        Some(Ok(Floats(message)))
    }
}

/// One rank's end of the ring: it sends to rank `(r + 1) % N` and receives from `(r + N - 1) % N`.
pub struct RingComm {
    link: Link<Wires>,
}

impl std::fmt::Debug for RingComm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RingComm")
            .field("rank", &self.link.rank())
            .field("size", &self.link.size())
            .finish_non_exhaustive()
    }
}

impl RingComm {
    /// This rank's index, `0..size()`.
    pub fn rank(&self) -> usize {
        self.link.rank()
    }

    /// The number of ranks N on the ring.
    pub fn size(&self) -> usize {
        self.link.size()
    }

    /// Sends `message` to the right neighbour, rank `(rank + 1) % size`. The buffer itself
    /// travels: the receiver owns it from then on (it may add into it and send it on). Never
    /// blocks; messages arrive in the order they were sent. With one rank, the right neighbour
    /// is itself.
    pub fn send(&mut self, message: Vec<f32>) {
        self.link.call(RingRequest::Send(message));
    }

    /// Takes the oldest message not yet received from the left neighbour,
    /// rank `(rank + size - 1) % size`, waiting until one arrives; the buffer is now this rank's.
    /// If every rank is waiting or finished, no message can ever come: the run stops with a
    /// deadlock error.
    pub fn recv(&mut self) -> Vec<f32> {
        self.link
            .call(RingRequest::Recv)
            .expect("a receive always has a reply")
            .0
    }
}

/// The values each rank starts with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Values {
    /// `vectors[r]` is rank r's vector.
    Listed(Vec<Vec<f32>>),
    /// Integers drawn uniformly from `-MAX_ABS_VALUE..=MAX_ABS_VALUE` by `fastrand` with this
    /// seed, rank 0's vector first.
    Seeded(u64),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Input {
    /// N, the number of ranks.
    pub ranks: usize,
    /// M, the length of every rank's vector.
    pub len: usize,
    pub values: Values,
}

impl Input {
    fn listed(vectors: Vec<Vec<f32>>) -> Self {
        Self {
            ranks: vectors.len(),
            len: vectors.first().map_or(0, Vec::len),
            values: Values::Listed(vectors),
        }
    }

    /// Every rank's starting vector, rank 0 first.
    pub fn vectors(&self) -> Vec<Vec<f32>> {
        match &self.values {
            Values::Listed(v) => v.clone(),
            Values::Seeded(seed) => {
                let mut rng = fastrand::Rng::with_seed(*seed);
                (0..self.ranks)
                    .map(|_| (0..self.len).map(|_| random_value(&mut rng)).collect())
                    .collect()
            }
        }
    }
}

fn random_value(rng: &mut fastrand::Rng) -> f32 {
    rng.i32(-MAX_ABS_VALUE..=MAX_ABS_VALUE) as f32
}

/// What one rank ended with, as its communicator measured it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankResult {
    /// The rank's vector after `ring_allreduce` returned.
    #[serde(with = "katas::wire::floats")]
    pub data: Vec<f32>,
    pub messages_sent: u64,
    pub elements_sent: u64,
    pub messages_received: u64,
    pub elements_received: u64,
    /// Messages (and their elements) still in this rank's inbox once every rank returned.
    pub unreceived_messages: u64,
    pub unreceived_elements: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output {
    pub ranks: Vec<RankResult>,
}

/// Runs `allreduce` on one thread per rank, rank r starting from `vectors[r]`, and reports what
/// every rank ended with. `Err` carries the first rank panic (a deadlock included), prefixed
/// with its rank.
pub fn simulate(
    vectors: Vec<Vec<f32>>,
    allreduce: fn(&mut RingComm, &mut [f32]),
) -> Result<Vec<RankResult>, String> {
    let input = Input::listed(vectors);
    let solution = Solution {
        ring_allreduce: allreduce,
    };
    katas::ranks::simulate::<Spec>(solution, &input).map(|out| out.ranks)
}

/// The most elements one rank may send: 2·ceil(M/N)·(N−1) — N−1 chunks in each phase, no chunk
/// longer than ceil(M/N).
pub fn max_elements_per_rank(ranks: usize, len: usize) -> u64 {
    2 * len.div_ceil(ranks) as u64 * (ranks as u64 - 1)
}

/// The fewest elements a rank must receive to end with the sum: M when N ≥ 2, else 0. Each of
/// its M sums needs the other ranks' values at that index, they can only reach it from its left
/// neighbour, and one element of a message carries one number.
pub fn min_elements_received(ranks: usize, len: usize) -> u64 {
    if ranks < 2 { 0 } else { len as u64 }
}

/// The most messages one rank may send: 2(N−1).
pub fn max_messages_per_rank(ranks: usize) -> u64 {
    2 * (ranks as u64 - 1)
}

/// α-β model time in seconds for `steps` messages carrying `bytes` bytes in all.
pub fn model_time_s(steps: u64, bytes: u64) -> f64 {
    steps as f64 * ALPHA_S + bytes as f64 / LINK_BYTES_PER_S
}

/// The bandwidth lower bound of any all-reduce, in bytes per rank: 2(N−1)/N·M·4.
pub fn lower_bound_bytes(ranks: usize, len: usize) -> f64 {
    2.0 * (ranks as f64 - 1.0) / ranks as f64 * len as f64 * 4.0
}

fn duration(seconds: f64) -> String {
    if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else if seconds >= 1e-6 || seconds == 0.0 {
        format!("{:.1} µs", seconds * 1e6)
    } else {
        format!("{:.2} ns", seconds * 1e9)
    }
}

fn ratio(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// Up to 8 elements of `v`, starting a little before index `at` so that it is visible.
fn preview_at(v: &[f32], at: usize) -> String {
    const SHOWN: usize = 8;
    let start = at.saturating_sub(3).min(v.len().saturating_sub(SHOWN));
    let end = (start + SHOWN).min(v.len());
    let items: Vec<String> = v[start..end].iter().map(|x| format!("{x}")).collect();
    let (head, tail) = (
        if start > 0 { "…, " } else { "" },
        if end < v.len() { ", …" } else { "" },
    );
    if start == 0 && end == v.len() {
        format!("[{}]", items.join(", "))
    } else {
        format!(
            "[{head}{}{tail}] (indices {start}..{end} of {})",
            items.join(", "),
            v.len()
        )
    }
}

fn list(v: &[f32]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
    format!("[{}]", items.join(", "))
}

fn preview(v: &[f32]) -> String {
    preview_at(v, 0)
}

#[derive(Debug)]
pub struct Spec;

impl KataSpec for Spec {
    type Solution = Solution;
    type Input = Input;
    type Output = Output;

    /// Custom input: 1 ≤ N ≤ 16 ranks, M elements per rank with N·M ≤ 65 536 (the statement
    /// allows more; custom runs stay small), listed integers in [−1000, 1000], one vector of
    /// length M per rank.
    fn admit(input: &Input) -> Result<(), Refusal> {
        katas::spec::within(("N (ranks)", "N（rank 数）"), input.ranks, 1, 16)?;
        katas::spec::at_most(
            ("N·M (elements in all)", "N·M（元素总数）"),
            input.ranks.saturating_mul(input.len),
            1 << 16,
        )?;
        let Values::Listed(vectors) = &input.values else {
            return Ok(());
        };
        if vectors.len() != input.ranks {
            return Err(Refusal::new(
                format!("{} vectors listed for {} ranks", vectors.len(), input.ranks),
                format!(
                    "列出了 {} 个向量，但有 {} 个 rank",
                    vectors.len(),
                    input.ranks
                ),
            ));
        }
        for (r, v) in vectors.iter().enumerate() {
            if v.len() != input.len {
                return Err(Refusal::new(
                    format!(
                        "rank {r}'s vector has {} values; M is {}",
                        v.len(),
                        input.len
                    ),
                    format!("rank {r} 的向量有 {} 个值；M 为 {}", v.len(), input.len),
                ));
            }
            let bound = MAX_ABS_VALUE as f32;
            if let Some(x) = v
                .iter()
                .find(|x| x.fract() != 0.0 || x.abs() > bound || !x.is_finite())
            {
                return Err(Refusal::new(
                    format!("rank {r} holds {x}: values are integers in [-1000, 1000]"),
                    format!("rank {r} 含有 {x}：取值须为 [-1000, 1000] 内的整数"),
                ));
            }
        }
        Ok(())
    }

    fn cases(seed: u64) -> Vec<Case<Input>> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let counting = |n: usize, m: usize, scale: f32| -> Vec<Vec<f32>> {
            (0..n)
                .map(|r| {
                    let factor = scale.powi(r as i32);
                    (1..=m).map(|i| i as f32 * factor).collect()
                })
                .collect()
        };
        let mut cases = vec![
            Case::new(
                "2 ranks, 4 elements",
                Group::Sample,
                Input::listed(counting(2, 4, 10.0)),
            )
            .zh("2 个 rank，4 个元素"),
            Case::new(
                "3 ranks, 6 elements",
                Group::Sample,
                Input::listed(counting(3, 6, 10.0)),
            )
            .zh("3 个 rank，6 个元素"),
            Case::new(
                "4 ranks, 10 elements (10 is not a multiple of 4)",
                Group::Sample,
                Input::listed(
                    (0..4)
                        .map(|r| (1..=10).map(|i| (100 * r + i) as f32).collect())
                        .collect(),
                ),
            )
            .zh("4 个 rank，10 个元素（10 不是 4 的倍数）"),
        ];
        let edges: [(&str, &str, usize, usize); 12] = [
            ("1 rank: nothing to send", "1 个 rank：无需发送", 1, 5),
            ("1 rank, empty vector", "1 个 rank，空向量", 1, 0),
            ("4 ranks, empty vector", "4 个 rank，空向量", 4, 0),
            ("2 ranks, 1 element", "2 个 rank，1 个元素", 2, 1),
            ("3 ranks, 1 element", "3 个 rank，1 个元素", 3, 1),
            (
                "8 ranks, 3 elements: vector shorter than N",
                "8 个 rank，3 个元素：向量比 N 短",
                8,
                3,
            ),
            (
                "5 ranks, 7 elements: remainder 2",
                "5 个 rank，7 个元素：余数为 2",
                5,
                7,
            ),
            (
                "6 ranks, 11 elements: remainder N - 1",
                "6 个 rank，11 个元素：余数为 N - 1",
                6,
                11,
            ),
            ("7 ranks, 13 elements", "7 个 rank，13 个元素", 7, 13),
            ("16 ranks, 1 element", "16 个 rank，1 个元素", 16, 1),
            ("16 ranks, 5 elements", "16 个 rank，5 个元素", 16, 5),
            ("16 ranks, 17 elements", "16 个 rank，17 个元素", 16, 17),
        ];
        for (name, name_zh, n, m) in edges {
            let vectors = (0..n)
                .map(|_| (0..m).map(|_| random_value(&mut rng)).collect())
                .collect();
            cases.push(Case::new(name, Group::Edge, Input::listed(vectors)).zh(name_zh));
        }
        for i in 0..12 {
            let ranks = rng.usize(1..=8);
            let len = match i % 3 {
                0 => rng.usize(0..=3 * ranks),
                1 => rng.usize(0..=500),
                _ => rng.usize(500..=4000),
            };
            let input = Input {
                ranks,
                len,
                values: Values::Seeded(rng.u64(..)),
            };
            cases.push(
                Case::new(
                    format!(
                        "random #{i}: {ranks} rank{}, {len} element{}",
                        if ranks == 1 { "" } else { "s" },
                        if len == 1 { "" } else { "s" }
                    ),
                    Group::Random,
                    input,
                )
                .zh(format!("随机 #{i}：{ranks} 个 rank，{len} 个元素")),
            );
        }
        // The 2-rank case comes first: its chunks are the longest (M/2), so a solution that
        // spends O(chunk) per element stops there, tens of times over the limit on each rank.
        let large: [(&str, &str, usize, usize); 3] = [
            (
                "2 ranks, 1 310 720 elements: bandwidth-bound",
                "2 个 rank，1 310 720 个元素：受带宽限制",
                2,
                5 << 18,
            ),
            (
                "8 ranks, 2^19 elements: bandwidth-bound",
                "8 个 rank，2^19 个元素：受带宽限制",
                8,
                1 << 19,
            ),
            (
                "16 ranks, 100 003 elements: latency-bound",
                "16 个 rank，100 003 个元素：受延迟限制",
                16,
                100_003,
            ),
        ];
        for (name, name_zh, ranks, len) in large {
            let input = Input {
                ranks,
                len,
                values: Values::Seeded(rng.u64(..)),
            };
            cases.push(Case::new(name, Group::Performance, input).zh(name_zh));
        }
        cases
    }

    fn solve(solution: Solution, input: &Input) -> Output {
        katas::ranks::simulate::<Self>(solution, input)
            .unwrap_or_else(|message| panic!("{message}"))
    }

    fn ranked() -> Option<&'static dyn RankedKata> {
        Some(&Ranked::<Self>::FACE)
    }

    fn serve_rank(solution: Solution, role: &katas::ranks::RankRole, nonce: &[u8; 16]) -> bool {
        katas::ranks::serve_rank::<Self>(solution, role, nonce);
        true
    }

    fn check(input: &Input, _expected: &Output, got: &Output) -> Check {
        let (n, m) = (input.ranks, input.len);
        if got.ranks.len() != n {
            return Check::fail(
                Message::new(
                    "wrong number of ranks in the output",
                    "输出中 rank 的个数不对",
                ),
                n,
                got.ranks.len(),
            );
        }
        // Oracle: exact integer sums. The inputs are integers, so an f32 sum in any order is exact.
        let mut want = vec![0i64; m];
        for v in input.vectors() {
            for (w, x) in want.iter_mut().zip(v) {
                *w += x as i64;
            }
        }
        let want: Vec<f32> = want.into_iter().map(|s| s as f32).collect();

        for (r, res) in got.ranks.iter().enumerate() {
            if res.data.len() != m {
                return Check::fail(
                    Message::new(
                        format!("rank {r} ended with a vector of the wrong length"),
                        format!("rank {r} 最后的向量长度不对"),
                    ),
                    m,
                    res.data.len(),
                );
            }
            let wrong: Vec<usize> = (0..m).filter(|&i| res.data[i] != want[i]).collect();
            if let Some(&i) = wrong.first() {
                return Check::fail(
                    Message::new(
                        format!(
                            "rank {r} does not hold the element-wise sum: {} of {m} elements are \
                             wrong, the first at index {i} (expected {}, got {})",
                            wrong.len(),
                            want[i],
                            res.data[i]
                        ),
                        format!(
                            "rank {r} 持有的不是逐元素之和：{m} 个元素中有 {} 个不对，第一个在下标 \
                             {i}（应为 {}，实际为 {}）",
                            wrong.len(),
                            want[i],
                            res.data[i]
                        ),
                    ),
                    preview_at(&want, i),
                    preview_at(&res.data, i),
                );
            }
        }

        // Right sums from too few received elements: the data came some other way.
        let need = min_elements_received(n, m);
        if let Some((r, res)) = got
            .ranks
            .iter()
            .enumerate()
            .find(|(_, res)| res.elements_received < need)
        {
            return Check::fail(
                Message::new(
                    format!(
                        "rank {r} finished with the full sum but received only {} of the ≥ \
                         {need} elements a ring all-reduce must receive: each of its {m} sums \
                         needs the other ranks' values, and they can only arrive in messages \
                         from rank {}. Ranks may exchange data only through the communicator \
                         (no statics, shared Arcs or channels of your own)",
                        res.elements_received,
                        (r + n - 1) % n
                    ),
                    format!(
                        "rank {r} 最终得到了完整的和，却只收到 {} 个元素，而环形 all-reduce 至少要收到 \
                         {need} 个：它的 {m} 个和都需要其他 rank 的值，而这些值只能通过来自 rank {} \
                         的消息到达。rank 之间只能通过 communicator 交换数据（不能用 static、共享的 \
                         Arc 或自己建的 channel）",
                        res.elements_received,
                        (r + n - 1) % n
                    ),
                ),
                format!("at least {need} elements received"),
                format!(
                    "{} elements in {} message{} received",
                    res.elements_received,
                    res.messages_received,
                    if res.messages_received == 1 { "" } else { "s" }
                ),
            );
        }

        let left_over: u64 = got.ranks.iter().map(|r| r.unreceived_messages).sum();
        if let Some((r, res)) = got
            .ranks
            .iter()
            .enumerate()
            .find(|(_, res)| res.unreceived_messages > 0)
        {
            return Check::fail(
                Message::new(
                    format!(
                        "{left_over} message(s) were sent but never received; rank {r}'s inbox \
                         still holds {} message(s) ({} elements) from rank {}",
                        res.unreceived_messages,
                        res.unreceived_elements,
                        (r + n - 1) % n
                    ),
                    format!(
                        "有 {left_over} 条消息发出后从未被接收；rank {r} 的收件箱里还有来自 rank {} \
                         的 {} 条消息（{} 个元素）",
                        (r + n - 1) % n,
                        res.unreceived_messages,
                        res.unreceived_elements
                    ),
                ),
                "every message received",
                format!("{left_over} unreceived"),
            );
        }

        let max_messages = max_messages_per_rank(n);
        if let Some((r, res)) = got
            .ranks
            .iter()
            .enumerate()
            .find(|(_, res)| res.messages_sent > max_messages)
        {
            return Check::fail(
                Message::new(
                    format!(
                        "rank {r} sent {} messages; reduce-scatter + all-gather needs only \
                         2(N-1) = {max_messages}",
                        res.messages_sent
                    ),
                    format!(
                        "rank {r} 发送了 {} 条消息；reduce-scatter + all-gather 只需要 \
                         2(N-1) = {max_messages} 条",
                        res.messages_sent
                    ),
                ),
                format!("at most {max_messages} messages"),
                format!("{} messages", res.messages_sent),
            );
        }

        let max_elements = max_elements_per_rank(n, m);
        if let Some((r, res)) = got
            .ranks
            .iter()
            .enumerate()
            .find(|(_, res)| res.elements_sent > max_elements)
        {
            return Check::fail(
                Message::new(
                    format!(
                        "rank {r} sent {} elements, more than a ring all-reduce needs: at most \
                         2·ceil(M/N)·(N-1) = 2·{}·{} = {max_elements} (passing whole vectors \
                         costs (N-1)·M = {})",
                        res.elements_sent,
                        m.div_ceil(n),
                        n - 1,
                        (n - 1) * m
                    ),
                    format!(
                        "rank {r} 发送了 {} 个元素，超过环形 all-reduce 所需：最多 \
                         2·ceil(M/N)·(N-1) = 2·{}·{} = {max_elements} 个（整条向量地传递要 \
                         (N-1)·M = {} 个）",
                        res.elements_sent,
                        m.div_ceil(n),
                        n - 1,
                        (n - 1) * m
                    ),
                ),
                format!("at most {max_elements} elements"),
                format!("{} elements", res.elements_sent),
            );
        }

        let steps = got.ranks.iter().map(|r| r.messages_sent).max().unwrap_or(0);
        let elements = got.ranks.iter().map(|r| r.elements_sent).max().unwrap_or(0);
        let bytes = elements * 4;
        let latency = steps as f64 * ALPHA_S;
        let transfer = bytes as f64 / LINK_BYTES_PER_S;
        let time = model_time_s(steps, bytes);
        let (regime, regime_zh) = if steps == 0 {
            ("no communication", "没有通信")
        } else if latency >= transfer {
            ("latency-bound", "受延迟限制")
        } else {
            ("bandwidth-bound", "受带宽限制")
        };
        let bound_bytes = lower_bound_bytes(n, m);
        let bound_time = bound_bytes / LINK_BYTES_PER_S;
        let fewest = got
            .ranks
            .iter()
            .map(|r| r.elements_received)
            .min()
            .unwrap_or(0);
        let (latency, transfer, time_text) =
            (duration(latency), duration(transfer), duration(time));
        let mut notes = vec![
            Message::new(
                format!("busiest rank: {steps} messages, {elements} elements = {bytes} bytes sent"),
                format!("最忙的 rank：发送 {steps} 条消息，{elements} 个元素 = {bytes} 字节"),
            ),
            Message::new(
                format!(
                    "fewest received by a rank: {fewest} elements (each rank needs at least {need})"
                ),
                format!("单个 rank 最少收到 {fewest} 个元素（每个 rank 至少需要 {need} 个）"),
            ),
            Message::new(
                format!(
                    "α-β model (α = 5 µs, β = 1/(25 GB/s)): T = {steps}·α + {bytes} B·β = {latency} + \
                     {transfer} = {time_text} ({regime})"
                ),
                format!(
                    "α-β 模型（α = 5 µs，β = 1/(25 GB/s)）：T = {steps}·α + {bytes} B·β = {latency} + \
                     {transfer} = {time_text}（{regime_zh}）"
                ),
            ),
        ];
        if bound_bytes > 0.0 {
            let (bound, bytes_ratio) = (duration(bound_time), bytes as f64 / bound_bytes);
            let time_ratio = ratio(time / bound_time);
            notes.push(Message::new(
                format!(
                    "bandwidth lower bound 2(N-1)/N·M·4 B·β = {bound_bytes:.0} B·β = {bound}; \
                     bytes / bound = {bytes_ratio:.3}, T / bound = {time_ratio}"
                ),
                format!(
                    "带宽下界 2(N-1)/N·M·4 B·β = {bound_bytes:.0} B·β = {bound}；\
                     字节数 / 下界 = {bytes_ratio:.3}，T / 下界 = {time_ratio}"
                ),
            ));
        } else {
            notes.push(Message::new(
                "nothing has to move (N = 1 or M = 0): the lower bound is 0",
                "无需传输任何数据（N = 1 或 M = 0）：下界为 0",
            ));
        }
        Check::pass_with(notes)
    }

    fn describe(input: &Input) -> Message {
        let (n, m) = (input.ranks, input.len);
        match &input.values {
            Values::Listed(v) if n * m <= 48 && m <= 12 => {
                let shown: Vec<String> = v.iter().map(|x| list(x)).collect();
                let shown = shown.join(" ");
                Message::new(
                    format!("N = {n} ranks, M = {m} elements; inputs {shown}"),
                    format!("N = {n} 个 rank，M = {m} 个元素；输入 {shown}"),
                )
            }
            Values::Listed(v) => {
                let head = preview(&v[0]);
                Message::new(
                    format!("N = {n} ranks, M = {m} elements; rank 0 starts with {head}"),
                    format!("N = {n} 个 rank，M = {m} 个元素；rank 0 的开头是 {head}"),
                )
            }
            Values::Seeded(seed) => Message::new(
                format!(
                    "N = {n} ranks, M = {m} elements; integers in [-{MAX_ABS_VALUE}, {MAX_ABS_VALUE}] \
                     from seed {seed}"
                ),
                format!(
                    "N = {n} 个 rank，M = {m} 个元素；取自种子 {seed} 的 \
                     [-{MAX_ABS_VALUE}, {MAX_ABS_VALUE}] 内的整数"
                ),
            ),
        }
    }
}

impl RankedSpec for Spec {
    type Net = Wires;
    type RankInput = Floats;
    type RankOutput = Floats;

    fn network(input: &Input) -> Wires {
        Wires::new(input.ranks)
    }

    fn rank_inputs(input: &Input) -> Vec<Floats> {
        input.vectors().into_iter().map(Floats).collect()
    }

    /// Every rank sending its whole vector round the ring, and more: a solution that sends too
    /// much is told so by the checker, from the counts.
    fn traffic_bound(input: &Input) -> usize {
        4 * (input.ranks + 2) * input.len + (1 << 20)
    }

    fn run_rank(solution: Solution, link: Link<Wires>, Floats(mut data): Floats) -> Floats {
        let mut comm = RingComm { link };
        (solution.ring_allreduce)(&mut comm, &mut data);
        Floats(data)
    }

    fn assemble(_: &Input, w: &Wires, finals: Vec<Floats>) -> Output {
        let ranks = finals
            .into_iter()
            .enumerate()
            .map(|(r, Floats(data))| RankResult {
                data,
                messages_sent: w.messages_sent[r],
                elements_sent: w.elements_sent[r],
                messages_received: w.messages_received[r],
                elements_received: w.elements_received[r],
                unreceived_messages: w.inbox[r].len() as u64,
                unreceived_elements: w.inbox[r].iter().map(|m| m.len() as u64).sum(),
            })
            .collect();
        Output { ranks }
    }
}
