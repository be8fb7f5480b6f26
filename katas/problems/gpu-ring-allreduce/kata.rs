//! Cases and checker for `gpu-ring-allreduce`: N ranks, each a slice of one device buffer, sum
//! their vectors with a ring all-reduce.
//!
//! The learner writes the schedule ([`Transfer`]s, step by step) and the `reduce_add` kernel; the
//! grader moves every chunk itself. At each step it first copies every sent chunk into a staging
//! buffer (the wire), then applies them all: a `Reduce` launches the learner's kernel on the
//! receiver's chunk, a `Copy` overwrites it. So every send of a step reads the state before the
//! step, as if all links carried their message at once. Every transfer is recorded; the trusted
//! side judges the record against the ring's rules and every output element against an exact sum.
//! Every rank is a slice of one device buffer, so a kernel could read the others through its
//! pointers: the record must also prove the data flow, every rank's values reaching every rank's
//! every chunk through the transfers, each added once (`reaches_every_rank`).

use katas::Case;
use katas::Group;
use katas::Message;
use katas::gpu::{
    Arg, Device, GpuError, GpuKata, GpuSpec, HostBuf, KernelSig, Launch, Param, Work,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

/// The learner's kernel source, schedule and launch shape.
#[derive(Debug, Clone, Copy)]
#[allow(non_snake_case)]
pub struct Solution {
    pub KERNEL: &'static str,
    pub plan: fn(usize) -> Vec<Vec<Transfer>>,
    pub launch: fn(usize) -> Launch,
}

/// What the receiver does with a chunk that arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// Add it into its own copy of the chunk (the grader launches `reduce_add`).
    Reduce,
    /// Overwrite its own copy of the chunk with it.
    Copy,
}

/// One message of one step: rank `from` sends its current chunk `chunk` to rank `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    pub chunk: usize,
    pub op: Op,
}

/// The most ranks any case uses.
pub const MAX_RANKS: usize = 16;
/// Every rank's values are integers in `-MAX_ABS_VALUE..=MAX_ABS_VALUE`, so every partial sum
/// of up to [`MAX_RANKS`] of them is exact in `f32`.
pub const MAX_ABS_VALUE: i64 = 1000;
/// Transfers recorded per run; a plan with more breaks the rules anyway.
pub const MAX_RECORDS: usize = 4096;
/// Staging slots start at multiples of this many elements (256 bytes), like real buffers do.
const SLOT_ALIGN: usize = 64;

/// Chunk `c` of a rank's `len` elements split `ranks` ways: `[c·len/ranks, (c+1)·len/ranks)`.
/// Lengths differ by at most one; when `len < ranks` some chunks are empty.
pub fn chunk_range(ranks: usize, len: usize, chunk: usize) -> Range<usize> {
    chunk * len / ranks..(chunk + 1) * len / ranks
}

/// Element `index` of the whole buffer (rank `index / M`, position `index % M`) for a run's
/// `seed`: an integer in `-MAX_ABS_VALUE..=MAX_ABS_VALUE`, computable at any index on its own.
pub fn value(seed: u64, index: usize) -> i64 {
    let mut z = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % (2 * MAX_ABS_VALUE as u64 + 1)) as i64 - MAX_ABS_VALUE
}

/// One case: `ranks` ranks of `len` elements each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub ranks: usize,
    pub len: usize,
}

/// One recorded transfer. `elements` is the chunk's length (0 for a transfer that names a rank
/// or chunk that does not exist; such a transfer is recorded but not performed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendRecord {
    pub step: usize,
    pub from: usize,
    pub to: usize,
    pub chunk: usize,
    pub op: Op,
    pub elements: usize,
}

/// What the grader records while it runs a plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Log {
    /// The plan's number of steps (empty steps included).
    pub steps: usize,
    /// Every transfer the plan made.
    pub transfers: usize,
    /// The first [`MAX_RECORDS`] of them.
    pub sends: Vec<SendRecord>,
}

impl Log {
    fn record(&mut self, step: usize, t: &Transfer, elements: usize) {
        self.transfers += 1;
        if self.sends.len() < MAX_RECORDS {
            self.sends.push(SendRecord {
                step,
                from: t.from,
                to: t.to,
                chunk: t.chunk,
                op: t.op,
                elements,
            });
        }
    }
}

pub const REDUCE_ADD: KernelSig = KernelSig {
    name: "reduce_add",
    params: &[Param::Ptr, Param::Ptr, Param::I32],
    declaration: "extern \"C\" __global__ void reduce_add(float* dst, const float* incoming, int n)",
};

/// The first schedule each `plan` function returned, per ring size: every run of a case (the
/// checked one and the timed ones) must perform the same transfers, or a plan could obey the
/// rules only while it is being recorded.
type PlanCache = HashMap<(usize, usize), Vec<Vec<Transfer>>>;
static PLANS: Mutex<Option<PlanCache>> = Mutex::new(None);

fn the_plan(
    plan: fn(usize) -> Vec<Vec<Transfer>>,
    ranks: usize,
) -> Result<Vec<Vec<Transfer>>, GpuError> {
    let fresh = plan(ranks);
    let key = (plan as usize, ranks);
    let mut cache = PLANS.lock().unwrap_or_else(PoisonError::into_inner);
    let cache = cache.get_or_insert_with(HashMap::new);
    match cache.get(&key) {
        Some(first) if *first != fresh => Err(GpuError(format!(
            "plan({ranks}) returned a different schedule than on its first call; the schedule \
             must depend on the number of ranks only"
        ))),
        Some(_) => Ok(fresh),
        None => {
            cache.insert(key, fresh.clone());
            Ok(fresh)
        }
    }
}

#[derive(Debug)]
pub struct Kata;

pub type Spec = GpuSpec<Kata>;

impl GpuKata for Kata {
    type Solution = Solution;
    type Shape = Shape;
    type Out = f32;
    type Log = Log;

    const KERNELS: &'static [KernelSig] = &[REDUCE_ADD];

    fn kernel_source(solution: &Solution) -> &'static str {
        solution.KERNEL
    }

    fn shapes() -> Vec<Case<Shape>> {
        let shape = |ranks, len| Shape { ranks, len };
        vec![
            Case::new("2 ranks, 1 element each", Group::Sample, shape(2, 1))
                .zh("2 个 rank，每个 1 个元素"),
            Case::new("3 ranks, 3 elements each", Group::Sample, shape(3, 3))
                .zh("3 个 rank，每个 3 个元素"),
            Case::new(
                "3 ranks, 7 elements: uneven chunks",
                Group::Edge,
                shape(3, 7),
            )
            .zh("3 个 rank，7 个元素：块大小不均"),
            Case::new(
                "4 ranks, 2 elements: empty chunks",
                Group::Edge,
                shape(4, 2),
            )
            .zh("4 个 rank，2 个元素：有空块"),
            Case::new(
                "5 ranks, 1 element: one non-empty chunk",
                Group::Edge,
                shape(5, 1),
            )
            .zh("5 个 rank，1 个元素：只有一个非空块"),
            Case::new(
                "2 ranks, 1025 elements: chunks of 512 and 513",
                Group::Edge,
                shape(2, 1025),
            )
            .zh("2 个 rank，1025 个元素：块大小为 512 和 513"),
            Case::new("8 ranks, 1000 elements", Group::Random, shape(8, 1000))
                .zh("8 个 rank，1000 个元素"),
            Case::new("16 ranks, 10007 elements", Group::Random, shape(16, 10_007))
                .zh("16 个 rank，10007 个元素"),
            Case::new("6 ranks, 100003 elements", Group::Random, shape(6, 100_003))
                .zh("6 个 rank，100003 个元素"),
            Case::new(
                "8 ranks, 2^22 elements (16 MiB) each",
                Group::Performance,
                shape(8, 1 << 22),
            )
            .zh("8 个 rank，每个 2^22 个元素（16 MiB）"),
        ]
    }

    fn inputs(_shape: &Shape, rng: &mut fastrand::Rng) -> Vec<HostBuf> {
        // The ranks' data is a function of this seed (see `value`), so the trusted side can
        // recompute any sum without holding the whole buffer, and the device input stays tiny.
        vec![HostBuf::U64(vec![rng.u64(..)])]
    }

    fn output_len(shape: &Shape) -> usize {
        shape.ranks * shape.len
    }

    fn initial_output(shape: &Shape, inputs: &[HostBuf]) -> Option<Vec<f32>> {
        let HostBuf::U64(seed) = &inputs[0] else {
            return None;
        };
        let seed = seed[0];
        Some(
            (0..shape.ranks * shape.len)
                .map(|i| value(seed, i) as f32)
                .collect(),
        )
    }

    fn run(
        device: &mut Device<'_>,
        solution: Solution,
        shape: &Shape,
        log: &mut Log,
    ) -> Result<(), GpuError> {
        let (n, m) = (shape.ranks, shape.len);
        let plan = the_plan(solution.plan, n)?;
        let out = device.output();
        let exists = |t: &Transfer| t.from < n && t.to < n && t.chunk < n;
        let slot = |len: usize| len.div_ceil(SLOT_ALIGN) * SLOT_ALIGN;
        // One staging buffer, big enough for the busiest step, reused by every step (the
        // stream orders one step's reads of it before the next step's writes).
        let wire_len = plan
            .iter()
            .map(|step| {
                step.iter()
                    .filter(|t| exists(t))
                    .map(|t| slot(chunk_range(n, m, t.chunk).len()))
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        let wire = device.scratch(out, wire_len.max(1))?;
        log.steps = plan.len();
        for (s, step) in plan.iter().enumerate() {
            // Everything on the wire first: the sends read the state before this step.
            let mut staged = Vec::with_capacity(step.len());
            let mut at = 0;
            for t in step {
                if !exists(t) {
                    log.record(s, t, 0);
                    continue;
                }
                let chunk = chunk_range(n, m, t.chunk);
                log.record(s, t, chunk.len());
                if !chunk.is_empty() {
                    device.copy((out, t.from * m + chunk.start), (wire, at), chunk.len())?;
                    staged.push((*t, chunk.clone(), at));
                }
                at += slot(chunk.len());
            }
            // Then every receiver applies what arrived, in the plan's order.
            for (t, chunk, at) in staged {
                let dst = t.to * m + chunk.start;
                match t.op {
                    Op::Reduce => {
                        let len = i32::try_from(chunk.len())
                            .map_err(|_| GpuError("a chunk does not fit an int".into()))?;
                        device.launch(
                            "reduce_add",
                            (solution.launch)(chunk.len()),
                            &[Arg::At(out, dst), Arg::At(wire, at), Arg::I32(len)],
                        )?;
                    }
                    Op::Copy => device.copy((wire, at), (out, dst), chunk.len())?,
                }
            }
        }
        Ok(())
    }

    fn check_element(shape: &Shape, inputs: &[HostBuf], i: usize, got: f32) -> Result<(), String> {
        let HostBuf::U64(seed) = &inputs[0] else {
            return Err("inputs of the wrong type (our bug)".into());
        };
        let (n, m) = (shape.ranks, shape.len);
        let (rank, at) = (i / m, i % m);
        let want: i64 = (0..n).map(|r| value(seed[0], r * m + at)).sum();
        // |want| <= 16·1000, so the f32 is exact.
        if got == want as f32 {
            Ok(())
        } else {
            // Notation only, the same in every language: the message says what is wrong.
            Err(format!(
                "{want} = x_0[{at}] + … + x_{}[{at}] (rank {rank})",
                n - 1
            ))
        }
    }

    fn check_log(shape: &Shape, log: &Log) -> Result<Vec<Message>, Message> {
        let (n, m) = (shape.ranks, shape.len);
        let max_steps = 2 * (n - 1);
        let bound = 2 * m.div_ceil(n) * (n - 1);
        if log.transfers != log.sends.len() {
            return Err(Message::new(
                format!(
                    "the plan made {} transfers; a ring all-reduce of N = {n} ranks makes one \
                     per rank per step over 2(N-1) steps: {}",
                    log.transfers,
                    n * max_steps
                ),
                format!(
                    "计划做了 {} 次传输；N = {n} 个 rank 的环形 all-reduce 共 2(N-1) 步，每步每个 \
                     rank 传一次：{} 次",
                    log.transfers,
                    n * max_steps
                ),
            ));
        }
        let mut sent = vec![0usize; n];
        for rec in &log.sends {
            let s = rec.step;
            if rec.from >= n || rec.to >= n || rec.chunk >= n {
                return Err(Message::new(
                    format!(
                        "step {s}: a transfer from rank {} to rank {} of chunk {}; ranks and \
                         chunks are numbered 0..{n}",
                        rec.from, rec.to, rec.chunk
                    ),
                    format!(
                        "第 {s} 步：从 rank {} 向 rank {} 传输块 {}；rank 和块的编号范围是 0..{n}",
                        rec.from, rec.to, rec.chunk
                    ),
                ));
            }
            if rec.to != (rec.from + 1) % n {
                return Err(Message::new(
                    format!(
                        "step {s}: rank {} sent chunk {} to rank {}, but its only link goes to \
                         rank {} (the ranks form a one-way ring r -> (r + 1) mod N)",
                        rec.from,
                        rec.chunk,
                        rec.to,
                        (rec.from + 1) % n
                    ),
                    format!(
                        "第 {s} 步：rank {} 把块 {} 发给了 rank {}，但它唯一的链路通向 rank {}\
                         （各 rank 组成单向环 r -> (r + 1) mod N）",
                        rec.from,
                        rec.chunk,
                        rec.to,
                        (rec.from + 1) % n
                    ),
                ));
            }
            if rec.elements != chunk_range(n, m, rec.chunk).len() || s >= log.steps {
                return Err(Message::new(
                    "the transfer log is inconsistent (our bug)",
                    "传输记录前后矛盾（这是我们的 bug）",
                ));
            }
            sent[rec.from] += rec.elements;
        }
        if let Some(r) = (0..n).find(|&r| sent[r] > bound) {
            return Err(Message::new(
                format!(
                    "rank {r} sent {} elements; a ring all-reduce sends at most \
                     2·ceil(M/N)·(N-1) = {bound} per rank (M = {m}, N = {n})",
                    sent[r]
                ),
                format!(
                    "rank {r} 发送了 {} 个元素；环形 all-reduce 每个 rank 最多发送 \
                     2·ceil(M/N)·(N-1) = {bound} 个（M = {m}，N = {n}）",
                    sent[r]
                ),
            ));
        }
        let mut per_step: HashMap<(usize, usize), usize> = HashMap::new();
        for rec in &log.sends {
            let count = per_step.entry((rec.step, rec.from)).or_default();
            *count += 1;
            if *count > 1 {
                return Err(Message::new(
                    format!(
                        "step {}: rank {} made more than one transfer; each rank's link carries \
                         one chunk per step",
                        rec.step, rec.from
                    ),
                    format!(
                        "第 {} 步：rank {} 传输了不止一次；每个 rank 的链路每步只传一个块",
                        rec.step, rec.from
                    ),
                ));
            }
        }
        if log.steps > max_steps {
            return Err(Message::new(
                format!(
                    "the plan has {} steps; a ring all-reduce of N = {n} ranks takes 2(N-1) = \
                     {max_steps}",
                    log.steps
                ),
                format!(
                    "计划有 {} 步；N = {n} 个 rank 的环形 all-reduce 只需 2(N-1) = {max_steps} 步",
                    log.steps
                ),
            ));
        }
        reaches_every_rank(n, m, log)?;
        let busiest = sent.iter().max().copied().unwrap_or(0);
        let (steps, transfers, size) = (log.steps, log.transfers, 4 * m);
        Ok(vec![
            Message::new(
                format!(
                    "{steps} steps, {transfers} transfers; the busiest rank sent {busiest} \
                     elements (at most 2·ceil(M/N)·(N-1) = {bound})"
                ),
                format!(
                    "{steps} 步，{transfers} 次传输；最忙的 rank 发送了 {busiest} 个元素\
                     （最多 2·ceil(M/N)·(N-1) = {bound}）"
                ),
            ),
            Message::new(
                format!(
                    "bandwidth as nccl-tests reports it: algbw = S / t with S = 4·M = {size} \
                     bytes, busbw = algbw · 2(N-1)/N; a rate below is busbw"
                ),
                format!(
                    "带宽按 nccl-tests 的算法：algbw = S / t，其中 S = 4·M = {size} 字节，\
                     busbw = algbw · 2(N-1)/N；下面给出的速率是 busbw"
                ),
            ),
        ])
    }

    fn work(shape: &Shape) -> Work {
        // nccl-tests' bus bandwidth: S·2(N-1)/N bytes per rank, S = 4·M.
        let (n, m) = (shape.ranks as u64, shape.len as u64);
        Work::Bytes(4 * m * 2 * (n - 1) / n)
    }

    fn describe(shape: &Shape) -> Message {
        let (n, m) = (shape.ranks, shape.len);
        let bytes = 4 * m;
        Message::new(
            format!("N = {n} ranks, M = {m} f32 elements ({bytes} bytes) per rank"),
            format!("N = {n} 个 rank，每个 rank M = {m} 个 f32 元素（{bytes} 字节）"),
        )
    }
}

/// Proves the data flow of a run from its log: replays the transfers on the set of ranks whose
/// values each rank's copy of each chunk holds (a send carries the sender's set from before the
/// step, a `Reduce` joins it to the receiver's, a `Copy` replaces the receiver's). Every rank
/// must end holding every rank's values in every chunk, and no `Reduce` may add a rank's values
/// twice. The kernel sees raw device pointers into one buffer that holds every rank, so right
/// sums alone do not show that the schedule carried them; this does.
fn reaches_every_rank(n: usize, m: usize, log: &Log) -> Result<(), Message> {
    let everyone: u32 = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
    // holds[r][c]: the ranks whose values rank r's copy of chunk c holds.
    let mut holds: Vec<Vec<u32>> = (0..n).map(|r| vec![1 << r; n]).collect();
    let mut step = 0;
    let mut sends = log.sends.iter().peekable();
    while sends.peek().is_some() {
        let before = holds.clone();
        while let Some(rec) = sends.next_if(|rec| rec.step == step) {
            let carried = before[rec.from][rec.chunk];
            let own = &mut holds[rec.to][rec.chunk];
            match rec.op {
                Op::Copy => *own = carried,
                Op::Reduce if *own & carried != 0 && rec.elements > 0 => {
                    let twice = (*own & carried).trailing_zeros();
                    return Err(Message::new(
                        format!(
                            "step {step}: rank {} reduces chunk {} from rank {}, but both already \
                             hold rank {twice}'s values: the sum would count them twice",
                            rec.to, rec.chunk, rec.from
                        ),
                        format!(
                            "第 {step} 步：rank {} 把来自 rank {} 的块 {} 累加进来，但双方都已含有 \
                             rank {twice} 的值：这个和会把它们算两次",
                            rec.to, rec.from, rec.chunk
                        ),
                    ));
                }
                Op::Reduce => *own |= carried,
            }
        }
        step += 1;
    }
    for (r, chunks) in holds.iter().enumerate() {
        for (c, &held) in chunks.iter().enumerate() {
            if held != everyone && !chunk_range(n, m, c).is_empty() {
                let have = held.count_ones();
                return Err(Message::new(
                    format!(
                        "rank {r} ends with chunk {c}, but the transfers brought it the values of \
                             only {have} of the {n} ranks: every rank's values must reach every rank \
                             through the schedule (a kernel may only add `incoming` into `dst`)"
                    ),
                    format!(
                        "rank {r} 最后持有块 {c}，但传输只给它带来了 {n} 个 rank 中 {have} 个的值：\
                             每个 rank 的值都必须经由传输计划到达每个 rank（kernel 只能把 `incoming` \
                             加到 `dst` 上）"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use katas::gpu::harness::Ran;
    use katas::gpu::{GpuCase, GpuOutput};
    use katas::{Check, KataSpec};

    /// The textbook ring, written here independently of `reference.rs`.
    fn ring(n: usize) -> Vec<Vec<Transfer>> {
        let step = |chunk_at: &dyn Fn(usize) -> usize, op| {
            (0..n)
                .map(|r| Transfer {
                    from: r,
                    to: (r + 1) % n,
                    chunk: chunk_at(r),
                    op,
                })
                .collect::<Vec<_>>()
        };
        let mut plan = Vec::new();
        for s in 0..n - 1 {
            plan.push(step(&|r| (r + n - s) % n, Op::Reduce));
        }
        for s in 0..n - 1 {
            plan.push(step(&|r| (r + 1 + n - s) % n, Op::Copy));
        }
        plan
    }

    /// What `run` does, on the CPU: stage every send of a step, then apply them in order.
    fn simulate(shape: &Shape, plan: &[Vec<Transfer>], data: &mut [f32]) -> Log {
        let (n, m) = (shape.ranks, shape.len);
        let mut log = Log {
            steps: plan.len(),
            ..Log::default()
        };
        for (s, step) in plan.iter().enumerate() {
            let mut wire = Vec::new();
            for t in step {
                if t.from >= n || t.to >= n || t.chunk >= n {
                    log.record(s, t, 0);
                    continue;
                }
                let c = chunk_range(n, m, t.chunk);
                log.record(s, t, c.len());
                wire.push((*t, data[t.from * m + c.start..t.from * m + c.end].to_vec()));
            }
            for (t, incoming) in wire {
                let c = chunk_range(n, m, t.chunk);
                let dst = &mut data[t.to * m + c.start..t.to * m + c.end];
                match t.op {
                    Op::Reduce => dst.iter_mut().zip(&incoming).for_each(|(d, x)| *d += x),
                    Op::Copy => dst.copy_from_slice(&incoming),
                }
            }
        }
        log
    }

    type Input = GpuCase<Shape>;

    fn small_cases() -> Vec<Input> {
        <Spec as KataSpec>::cases(42)
            .into_iter()
            .filter(|c| c.group != Group::Performance)
            .map(|c| c.input)
            .collect()
    }

    /// The run-0 inputs of a case, as the harness makes them.
    fn run0_inputs(case: &Input) -> Vec<HostBuf> {
        Kata::inputs(&case.shape, &mut fastrand::Rng::with_seed(case.seed))
    }

    fn ran(case: &Input, plan: &[Vec<Transfer>]) -> (Vec<f32>, Log) {
        let inputs = run0_inputs(case);
        let mut data = Kata::initial_output(&case.shape, &inputs).unwrap();
        let log = simulate(&case.shape, plan, &mut data);
        (data, log)
    }

    fn check(case: &Input, values: Vec<f32>, log: Log) -> Check {
        let got = GpuOutput::Ran(Ran {
            values,
            input_changed: None,
            log,
            timed: Vec::new(),
        });
        <Spec as KataSpec>::check(case, &GpuOutput::Unavailable(String::new()), &got)
    }

    fn failure(check: Check) -> String {
        match check {
            Check::Fail(m) => m.message.en,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn chunks_cover_each_rank_in_order() {
        for (n, m) in [
            (2, 1),
            (3, 7),
            (4, 2),
            (5, 1),
            (8, 1000),
            (16, 10_007),
            (6, 5),
        ] {
            let ranges: Vec<_> = (0..n).map(|c| chunk_range(n, m, c)).collect();
            assert_eq!(ranges[0].start, 0);
            assert_eq!(ranges[n - 1].end, m);
            for w in ranges.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            let lens: Vec<usize> = ranges.iter().map(Range::len).collect();
            let (lo, hi) = (lens.iter().min().unwrap(), lens.iter().max().unwrap());
            assert!(hi - lo <= 1 && *hi == m.div_ceil(n), "{n} {m} {lens:?}");
        }
        assert_eq!(chunk_range(4, 2, 0), 0..0);
        assert_eq!(chunk_range(4, 2, 3), 1..2);
    }

    #[test]
    fn values_are_small_integers_that_differ_per_seed() {
        let a: Vec<i64> = (0..100_000).map(|i| value(1, i)).collect();
        assert!(a.iter().all(|v| v.abs() <= MAX_ABS_VALUE));
        assert!(a.contains(&MAX_ABS_VALUE) && a.contains(&-MAX_ABS_VALUE) && a.contains(&0));
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert_eq!(distinct.len() as i64, 2 * MAX_ABS_VALUE + 1);
        let b: Vec<i64> = (0..100_000).map(|i| value(2, i)).collect();
        assert!(a.iter().zip(&b).filter(|(x, y)| x != y).count() > 99_000);
    }

    #[test]
    fn a_ring_passes_every_case_and_reports_its_traffic() {
        for case in small_cases() {
            let (values, log) = ran(&case, &ring(case.shape.ranks));
            let got = check(&case, values, log);
            let Check::Pass { notes } = &got else {
                panic!("{:?}: {got:?}", case.shape);
            };
            assert!(notes.iter().any(|n| n.en.contains("busbw")), "{notes:?}");
        }
        // The performance case's figures: 2(N-1) steps, busbw work = S·2(N-1)/N.
        let perf = Shape {
            ranks: 8,
            len: 1 << 22,
        };
        assert_eq!(Kata::work(&perf), Work::Bytes((16 << 20) * 14 / 8));
    }

    #[test]
    fn a_wrong_or_unreduced_element_fails() {
        let case = &small_cases()[2];
        let (values, log) = ran(case, &ring(case.shape.ranks));
        let mut off = values.clone();
        off[5] += 1.0;
        assert!(failure(check(case, off, log.clone())).contains("output[5] is wrong"));
        let mut nan = values.clone();
        nan[0] = f32::NAN;
        assert!(failure(check(case, nan, log.clone())).contains("poison"));
        // The ranks' own data, never reduced.
        let start = Kata::initial_output(&case.shape, &run0_inputs(case)).unwrap();
        assert!(!check(case, start, Log::default()).is_pass());
        assert!(check(case, values, log).is_pass());
    }

    /// A correct output with a log from `plan`: only the log rules can fail it.
    fn log_failure(case: &Input, plan: &[Vec<Transfer>]) -> String {
        let (values, _) = ran(case, &ring(case.shape.ranks));
        let (_, log) = ran(case, plan);
        failure(check(case, values, log))
    }

    #[test]
    fn every_rule_of_the_log_is_enforced() {
        let case = small_cases()
            .into_iter()
            .find(|c| c.shape.ranks == 3 && c.shape.len == 7)
            .unwrap();
        let good = ring(3);

        let mut far = good.clone();
        far[0][0].to = 2;
        assert!(log_failure(&case, &far).contains("only link goes to rank 1"));

        let mut outside = good.clone();
        outside[1][2].chunk = 3;
        assert!(log_failure(&case, &outside).contains("numbered 0..3"));

        let mut twice = good.clone();
        let extra = Transfer {
            chunk: 2,
            ..twice[0][0]
        };
        twice[0].push(extra);
        assert!(log_failure(&case, &twice).contains("more than one transfer"));

        let mut long = good.clone();
        long.push(Vec::new());
        assert!(log_failure(&case, &long).contains("2(N-1) = 4"));

        // Rank 0 sends every chunk every step: too many elements (reported first).
        let mut heavy = good.clone();
        for step in &mut heavy {
            for chunk in 1..3 {
                step.push(Transfer { chunk, ..step[0] });
            }
        }
        assert!(log_failure(&case, &heavy).contains("rank 0 sent"));

        // Half a ring all-reduce: right sums can only have come some other way.
        let half: Vec<Vec<Transfer>> = good[..2].to_vec();
        let why = log_failure(&case, &half);
        assert!(why.contains("values of only"), "{why}");

        // A chunk sent back to where its values already are.
        let mut again = good.clone();
        again[2][0] = Transfer {
            op: Op::Reduce,
            ..again[2][0]
        };
        assert!(log_failure(&case, &again).contains("count them twice"));

        // More transfers than can be recorded.
        let flood = vec![vec![good[0][0]; MAX_RECORDS + 1]];
        assert!(log_failure(&case, &flood).contains("transfers"));
    }

    #[test]
    fn a_plan_that_changes_between_calls_is_refused() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static CALLS: AtomicUsize = AtomicUsize::new(0);
        fn fickle(n: usize) -> Vec<Vec<Transfer>> {
            let mut plan = vec![Vec::new(); n];
            plan.truncate(1 + CALLS.fetch_add(1, Ordering::Relaxed) % 2);
            plan
        }
        fn steady(n: usize) -> Vec<Vec<Transfer>> {
            vec![Vec::new(); n]
        }
        assert!(the_plan(fickle, 4).is_ok());
        let second = the_plan(fickle, 4).unwrap_err();
        assert!(second.0.contains("different schedule"), "{second}");
        // Another ring size is another schedule, and other functions are unaffected.
        assert!(the_plan(fickle, 5).is_ok());
        assert!(the_plan(steady, 4).is_ok() && the_plan(steady, 4).is_ok());
    }

    #[cfg(feature = "solutions")]
    #[test]
    fn the_reference_passes_and_the_wrong_plans_fail_on_the_cpu() {
        use katas::problems::gpu_ring_allreduce::{reference, wrong};
        let passes = |plan: fn(usize) -> Vec<Vec<Transfer>>| {
            small_cases().iter().all(|case| {
                let (values, log) = ran(case, &plan(case.shape.ranks));
                check(case, values, log).is_pass()
            })
        };
        assert!(passes(reference::plan));
        assert!(passes(ring));
        // The timing cheat schedules like the reference: only its kernel is wrong.
        assert!(passes(wrong::timer_tampering::plan));
        for plan in [
            wrong::reduce_scatter_only::plan,
            wrong::all_gather_off_by_one::plan,
            wrong::non_neighbour_ring::plan,
            wrong::whole_vector_chain::plan,
        ] {
            assert!(!passes(plan));
        }
        // The two that get every sum right are caught by the rules alone.
        let case = small_cases()
            .into_iter()
            .find(|c| c.shape.ranks == 3 && c.shape.len == 3)
            .unwrap();
        assert!(log_failure(&case, &wrong::non_neighbour_ring::plan(3)).contains("only link"));
        assert!(log_failure(&case, &wrong::whole_vector_chain::plan(3)).contains("rank 0 sent"));
        let tiny = &small_cases()[0];
        assert!(
            log_failure(tiny, &wrong::whole_vector_chain::plan(2))
                .contains("more than one transfer")
        );
    }
}
