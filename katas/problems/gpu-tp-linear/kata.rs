//! Cases and checker for `gpu-tp-linear`: `Y = X·A + b` computed by R simulated
//! tensor-parallel ranks on one GPU, in Megatron's two forms. Column-parallel: A is split by
//! columns, each rank computes its slab of Y and adds its slice of b, an all-gather assembles Y.
//! Row-parallel: X is split by columns and A by rows, each rank computes a full partial Y, one
//! rank adds b, an all-reduce sums the partials.
//!
//! The shard GEMMs and the collectives are this kata's own kernels ([`OWN_SOURCE`]); the learner
//! supplies the sharding (`column_shard`, `row_shard`), which rank adds the bias in row-parallel
//! (`adds_bias`), and the bias kernel with its launch shape (`add_bias`, `bias_launch`).

use katas::Case;
use katas::Group;
use katas::Message;
use katas::gpu::{
    Arg, Buf, Device, GpuError, GpuKata, GpuSpec, HostBuf, KernelSig, Launch, Param, Work, ceil_div,
};
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// `column_shard` / `row_shard`: `(len, ranks, rank)` → the rank's range of `0..len`.
pub type ShardFn = fn(usize, usize, usize) -> Range<usize>;

/// The learner's kernel source and host-side choices.
#[derive(Debug, Clone, Copy)]
#[allow(non_snake_case)]
pub struct Solution {
    pub KERNEL: &'static str,
    pub column_shard: ShardFn,
    pub row_shard: ShardFn,
    pub adds_bias: fn(usize, usize) -> bool,
    pub bias_launch: fn(usize, usize) -> Launch,
}

/// Which of Megatron's two splits a case runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// A split by columns; all-gather.
    Column,
    /// X split by columns and A by rows; all-reduce.
    Row,
}

/// One case: `X` is `batch × k`, `A` is `k × n`, `b` has `n` values, over `ranks` ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub mode: Mode,
    pub batch: usize,
    pub k: usize,
    pub n: usize,
    pub ranks: usize,
}

/// Rank-local output buffers have rows padded to a multiple of this many floats (128 bytes),
/// like a pitched allocation: `ld = pitch(cols) >= cols`.
pub const PITCH_FLOATS: usize = 32;

/// The leading dimension (row stride, in floats) of a rank-local buffer `cols` wide.
pub fn pitch(cols: usize) -> usize {
    cols.max(1).div_ceil(PITCH_FLOATS) * PITCH_FLOATS
}

pub const ADD_BIAS: KernelSig = KernelSig {
    name: "add_bias",
    params: &[Param::Ptr, Param::Ptr, Param::I32, Param::I32, Param::I32],
    declaration: "extern \"C\" __global__ void add_bias(float* y, const float* bias, \
                  int rows, int cols, int ld)",
};

/// The kata's own kernels: the shard GEMM and the two collectives. Never the learner's.
pub const OWN_SOURCE: &str = r#"
// C[m x n] = A[m x k] * B[k x n]; all row-major with leading dimensions (row strides) lda, ldb,
// ldc, so a rank can multiply a column slab or a row slab of a larger matrix in place.
// 64 x 64 tile per block of 16 x 16 threads, each thread 4 x 4 outputs, k in steps of 16.
// Loads outside the matrices read as zero; stores outside C are skipped; k == 0 writes zeros.
#define TM 64
#define TN 64
#define TK 16
extern "C" __global__ void tp_sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int m, int n, int k,
                                    int lda, int ldb, int ldc) {
    __shared__ float as[TK][TM + 1];
    __shared__ float bs[TK][TN];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * 16 + tx;
    const int row0 = blockIdx.y * TM, col0 = blockIdx.x * TN;
    float acc[4][4];
    #pragma unroll
    for (int i = 0; i < 4; ++i) {
        #pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;
    }
    for (int k0 = 0; k0 < k; k0 += TK) {
        for (int l = tid; l < TM * TK; l += 256) {
            const int r = l / TK, kk = l % TK;
            const int gr = row0 + r, gk = k0 + kk;
            as[kk][r] = (gr < m && gk < k) ? a[(size_t)gr * lda + gk] : 0.0f;
        }
        for (int l = tid; l < TK * TN; l += 256) {
            const int kk = l / TN, cc = l % TN;
            const int gk = k0 + kk, gc = col0 + cc;
            bs[kk][cc] = (gk < k && gc < n) ? b[(size_t)gk * ldb + gc] : 0.0f;
        }
        __syncthreads();
        #pragma unroll
        for (int kk = 0; kk < TK; ++kk) {
            float av[4], bv[4];
            #pragma unroll
            for (int i = 0; i < 4; ++i) av[i] = as[kk][ty + 16 * i];
            #pragma unroll
            for (int j = 0; j < 4; ++j) bv[j] = bs[kk][tx + 16 * j];
            #pragma unroll
            for (int i = 0; i < 4; ++i) {
                #pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
            }
        }
        __syncthreads();
    }
    #pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int r = row0 + ty + 16 * i;
        if (r >= m) continue;
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int cidx = col0 + tx + 16 * j;
            if (cidx < n) c[(size_t)r * ldc + cidx] = acc[i][j];
        }
    }
}

// All-gather, one rank's slab: dst[row * ld_dst + col] = src[row * ld_src + col].
extern "C" __global__ void tp_copy_block(const float* __restrict__ src, float* __restrict__ dst,
                                         int rows, int cols, int ld_src, int ld_dst) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    for (int row = blockIdx.y; row < rows; row += gridDim.y)
        dst[(size_t)row * ld_dst + col] = src[(size_t)row * ld_src + col];
}

// All-reduce: out[row * cols + col] = sum over r (in rank order) of
// partials[r * rank_stride + row * ld + col].
extern "C" __global__ void tp_sum_partials(const float* __restrict__ partials,
                                           float* __restrict__ out, int rows, int cols, int ld,
                                           long long rank_stride, int ranks) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    for (int row = blockIdx.y; row < rows; row += gridDim.y) {
        const float* p = partials + (size_t)row * ld + col;
        float s = 0.0f;
        for (int r = 0; r < ranks; ++r) s += p[(size_t)r * rank_stride];
        out[(size_t)row * cols + col] = s;
    }
}
"#;

pub const TP_SGEMM: KernelSig = KernelSig {
    name: "tp_sgemm",
    params: &[
        Param::Ptr,
        Param::Ptr,
        Param::Ptr,
        Param::I32,
        Param::I32,
        Param::I32,
        Param::I32,
        Param::I32,
        Param::I32,
    ],
    declaration: "extern \"C\" __global__ void tp_sgemm(const float* a, const float* b, \
                  float* c, int m, int n, int k, int lda, int ldb, int ldc)",
};

pub const TP_COPY_BLOCK: KernelSig = KernelSig {
    name: "tp_copy_block",
    params: &[
        Param::Ptr,
        Param::Ptr,
        Param::I32,
        Param::I32,
        Param::I32,
        Param::I32,
    ],
    declaration: "extern \"C\" __global__ void tp_copy_block(const float* src, float* dst, \
                  int rows, int cols, int ld_src, int ld_dst)",
};

pub const TP_SUM_PARTIALS: KernelSig = KernelSig {
    name: "tp_sum_partials",
    params: &[
        Param::Ptr,
        Param::Ptr,
        Param::I32,
        Param::I32,
        Param::I32,
        Param::I64,
        Param::I32,
    ],
    declaration: "extern \"C\" __global__ void tp_sum_partials(const float* partials, \
                  float* out, int rows, int cols, int ld, long long rank_stride, int ranks)",
};

/// What the kata's own side of a run did: the shards the learner chose and the collectives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Log {
    /// `column_shard` (column mode) or `row_shard` (row mode) of every rank, in rank order.
    pub shards: Vec<(usize, usize)>,
    /// Row mode: the ranks for which `adds_bias` said yes.
    pub bias_ranks: Vec<usize>,
    /// Shard GEMMs launched.
    pub gemms: u32,
    /// `add_bias` launches.
    pub bias_adds: u32,
    pub all_gathers: u32,
    /// Slabs copied by the all-gather.
    pub gathered_slabs: u32,
    pub all_reduces: u32,
}

/// The check's tolerance factor `c` in `c·(√K + 1)·2⁻²⁴·(Σ|x·a| + |b|)`; see the README.
pub const TOLERANCE_C: f64 = 4.0;

/// `Σ_k x[k]·a_t[k]` and `Σ_k |x[k]·a_t[k]|` in f64, for a row of X and a row of Aᵀ (a column
/// of A). Four interleaved accumulators, so the sum does not wait on one dependency chain.
pub fn dot64(x: &[f32], a_t: &[f32]) -> (f64, f64) {
    let (mut s, mut m) = ([0.0f64; 4], [0.0f64; 4]);
    let (xs, at) = (x.chunks_exact(4), a_t.chunks_exact(4));
    let (x_tail, a_tail) = (xs.remainder(), at.remainder());
    for (x4, a4) in xs.zip(at) {
        for l in 0..4 {
            let p = f64::from(x4[l]) * f64::from(a4[l]);
            s[l] += p;
            m[l] += p.abs();
        }
    }
    for (&xv, &av) in x_tail.iter().zip(a_tail) {
        let p = f64::from(xv) * f64::from(av);
        s[0] += p;
        m[0] += p.abs();
    }
    ((s[0] + s[1]) + (s[2] + s[3]), (m[0] + m[1]) + (m[2] + m[3]))
}

/// The trusted value of `Y[i][j]` and the tolerance it is judged with, from the inputs as
/// [`Kata::inputs`] makes them (X, A, b, and Aᵀ for contiguous columns of A).
pub fn expected(shape: &Shape, inputs: &[HostBuf], i: usize, j: usize) -> Option<(f64, f64)> {
    let [HostBuf::F32(x), _, HostBuf::F32(b), HostBuf::F32(a_t)] = inputs else {
        return None;
    };
    let k = shape.k;
    let (dot, magnitude) = dot64(&x[i * k..(i + 1) * k], &a_t[j * k..(j + 1) * k]);
    let bias = f64::from(b[j]);
    let tol =
        TOLERANCE_C * ((k as f64).sqrt() + 1.0) * f64::powi(2.0, -24) * (magnitude + bias.abs())
            + f64::from(f32::MIN_POSITIVE);
    Some((dot + bias, tol))
}

/// `v` as a C `int` kernel argument.
fn int(v: usize, what: &str) -> Result<Arg, GpuError> {
    i32::try_from(v)
        .map(Arg::I32)
        .map_err(|_| GpuError(format!("{what} = {v} does not fit an int")))
}

/// Block and grid of the collectives' kernels: a thread per column, a block row per row.
fn per_column(rows: usize, cols: usize) -> Launch {
    let gx = u32::try_from(ceil_div(cols, 256)).unwrap_or(u32::MAX);
    let gy = u32::try_from(rows.clamp(1, 65_535)).unwrap_or(65_535);
    Launch::grid_2d((gx, gy), (256, 1))
}

/// One shard GEMM: `c[m × n] = a[m × k] · b[k × n]` (leading dimensions lda, ldb, ldc).
#[allow(clippy::too_many_arguments)]
fn gemm(
    device: &mut Device<'_>,
    (a, lda): (Arg, usize),
    (b, ldb): (Arg, usize),
    (c, ldc): (Arg, usize),
    m: usize,
    n: usize,
    k: usize,
    log: &mut Log,
) -> Result<(), GpuError> {
    let gx = u32::try_from(ceil_div(n, 64)).unwrap_or(u32::MAX);
    let gy = u32::try_from(ceil_div(m, 64)).unwrap_or(u32::MAX);
    log.gemms += 1;
    device.launch_own(
        OWN_SOURCE,
        &TP_SGEMM,
        Launch::grid_2d((gx, gy), (16, 16)),
        &[
            a,
            b,
            c,
            int(m, "m")?,
            int(n, "n")?,
            int(k, "k")?,
            int(lda, "lda")?,
            int(ldb, "ldb")?,
            int(ldc, "ldc")?,
        ],
    )
}

fn column_parallel(
    device: &mut Device<'_>,
    solution: Solution,
    shape: &Shape,
    shards: &[Range<usize>],
    log: &mut Log,
) -> Result<(), GpuError> {
    let (x, a, b, y) = (
        device.input(0),
        device.input(1),
        device.input(2),
        device.output(),
    );
    // Each rank's local slab Y_r (batch × width, rows padded to `pitch(width)`), one buffer.
    let mut at = Vec::with_capacity(shards.len());
    let mut total = 0;
    for s in shards {
        at.push(total);
        if !s.is_empty() {
            total += shape.batch * pitch(s.len());
        }
    }
    let local: Buf = device.scratch(y, total.max(1))?;
    for (s, &off) in shards.iter().zip(&at) {
        if s.is_empty() {
            continue; // nothing to compute on this rank
        }
        let (width, ld) = (s.len(), pitch(s.len()));
        gemm(
            device,
            (Arg::Buf(x), shape.k),
            (Arg::At(a, s.start), shape.n),
            (Arg::At(local, off), ld),
            shape.batch,
            width,
            shape.k,
            log,
        )?;
        log.bias_adds += 1;
        device.launch(
            ADD_BIAS.name,
            (solution.bias_launch)(shape.batch, width),
            &[
                Arg::At(local, off),
                Arg::At(b, s.start),
                int(shape.batch, "rows")?,
                int(width, "cols")?,
                int(ld, "ld")?,
            ],
        )?;
    }
    // All-gather: every rank's slab into its columns of Y.
    log.all_gathers += 1;
    for (s, &off) in shards.iter().zip(&at) {
        if s.is_empty() {
            continue;
        }
        log.gathered_slabs += 1;
        device.launch_own(
            OWN_SOURCE,
            &TP_COPY_BLOCK,
            per_column(shape.batch, s.len()),
            &[
                Arg::At(local, off),
                Arg::At(y, s.start),
                int(shape.batch, "rows")?,
                int(s.len(), "cols")?,
                int(pitch(s.len()), "ld")?,
                int(shape.n, "n")?,
            ],
        )?;
    }
    Ok(())
}

fn row_parallel(
    device: &mut Device<'_>,
    solution: Solution,
    shape: &Shape,
    shards: &[Range<usize>],
    log: &mut Log,
) -> Result<(), GpuError> {
    let (x, a, b, y) = (
        device.input(0),
        device.input(1),
        device.input(2),
        device.output(),
    );
    // Each rank's full partial Y_r (batch × n, rows padded to `pitch(n)`), one buffer.
    let ld = pitch(shape.n);
    let slab = shape.batch * ld;
    let partials: Buf = device.scratch(y, slab * shape.ranks)?;
    for (rank, s) in shards.iter().enumerate() {
        let here = Arg::At(partials, rank * slab);
        // An empty row shard still writes its partial: zeros.
        gemm(
            device,
            (Arg::At(x, s.start), shape.k),
            (Arg::At(a, s.start * shape.n), shape.n),
            (here, ld),
            shape.batch,
            shape.n,
            s.len(),
            log,
        )?;
        if (solution.adds_bias)(shape.ranks, rank) {
            log.bias_ranks.push(rank);
            log.bias_adds += 1;
            device.launch(
                ADD_BIAS.name,
                (solution.bias_launch)(shape.batch, shape.n),
                &[
                    here,
                    Arg::Buf(b),
                    int(shape.batch, "rows")?,
                    int(shape.n, "cols")?,
                    int(ld, "ld")?,
                ],
            )?;
        }
    }
    // All-reduce: the sum of the partials, in rank order.
    log.all_reduces += 1;
    device.launch_own(
        OWN_SOURCE,
        &TP_SUM_PARTIALS,
        per_column(shape.batch, shape.n),
        &[
            Arg::Buf(partials),
            Arg::Buf(y),
            int(shape.batch, "rows")?,
            int(shape.n, "cols")?,
            int(ld, "ld")?,
            Arg::I64(slab as i64),
            int(shape.ranks, "ranks")?,
        ],
    )
}

/// The rules every shard list must follow: `0..len` cut into `ranks` consecutive pieces, in
/// rank order, as even as possible (sizes differ by at most one).
pub fn shard_problem(
    what: &str,
    len: usize,
    ranks: usize,
    shards: &[(usize, usize)],
) -> Option<Message> {
    if shards.len() != ranks {
        return Some(Message::new(
            format!(
                "{what} was asked for {ranks} ranks but {} shards were recorded",
                shards.len()
            ),
            format!(
                "{what} 被要求切给 {ranks} 个 rank，却记录到 {} 个分片",
                shards.len()
            ),
        ));
    }
    let mut next = 0;
    for (rank, &(start, end)) in shards.iter().enumerate() {
        if start != next {
            let how = if start < next {
                ("overlaps", "与前面的分片重叠")
            } else {
                ("leaves a gap after", "与前面的分片之间留了空隙")
            };
            return Some(Message::new(
                format!(
                    "{what}: rank {rank} gets {start}..{end}, which {} the previous shards (they \
                     end at {next}); the shards must cut 0..{len} into consecutive pieces in rank \
                     order",
                    how.0
                ),
                format!(
                    "{what}：rank {rank} 分到 {start}..{end}，{}（前面的分片止于 {next}）；\
                     分片必须按 rank 顺序把 0..{len} 切成首尾相接的几段",
                    how.1
                ),
            ));
        }
        next = end;
    }
    if next != len {
        return Some(Message::new(
            format!(
                "{what}: the shards end at {next}, not at {len}: the last {} are never computed",
                len.abs_diff(next)
            ),
            format!(
                "{what}：分片止于 {next} 而不是 {len}：最后 {} 个从未被计算",
                len.abs_diff(next)
            ),
        ));
    }
    let sizes = shards.iter().map(|&(s, e)| e - s);
    let (lo, hi) = (sizes.clone().min()?, sizes.max()?);
    if hi > lo + 1 {
        return Some(Message::new(
            format!(
                "{what}: shard sizes range from {lo} to {hi}; ranks must get {len} / {ranks} items \
                 each, up to one more, so no rank waits on a larger shard"
            ),
            format!(
                "{what}：分片大小从 {lo} 到 {hi} 不等；每个 rank 应分到 {len} / {ranks} 个，\
                 至多多一个，这样没有 rank 要等一个更大的分片"
            ),
        ));
    }
    None
}

fn shard_list(shards: &[(usize, usize)]) -> String {
    let shown: Vec<String> = shards
        .iter()
        .take(8)
        .map(|(s, e)| format!("{s}..{e}"))
        .collect();
    let more = if shards.len() > 8 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

#[derive(Debug)]
pub struct Kata;

pub type Spec = GpuSpec<Kata>;

impl GpuKata for Kata {
    type Solution = Solution;
    type Shape = Shape;
    type Out = f32;
    type Log = Log;

    const KERNELS: &'static [KernelSig] = &[ADD_BIAS];

    fn kernel_source(solution: &Solution) -> &'static str {
        solution.KERNEL
    }

    fn shapes() -> Vec<Case<Shape>> {
        use Mode::{Column, Row};
        let shape = |mode, batch, k, n, ranks| Shape {
            mode,
            batch,
            k,
            n,
            ranks,
        };
        vec![
            Case::new(
                "1×1 · 1×1, one rank",
                Group::Sample,
                shape(Column, 1, 1, 1, 1),
            )
            .zh("1×1 · 1×1，一个 rank"),
            Case::new(
                "row-parallel 2×3 · 3×4, 2 ranks",
                Group::Sample,
                shape(Row, 2, 3, 4, 2),
            )
            .zh("行并行 2×3 · 3×4，2 个 rank"),
            Case::new(
                "column-parallel 2×3 · 3×5, 2 ranks",
                Group::Sample,
                shape(Column, 2, 3, 5, 2),
            )
            .zh("列并行 2×3 · 3×5，2 个 rank"),
            Case::new(
                "column-parallel, more ranks than columns (empty shards)",
                Group::Edge,
                shape(Column, 3, 5, 2, 4),
            )
            .zh("列并行，rank 比列多（有空分片）"),
            Case::new(
                "row-parallel, more ranks than rows of A (empty shards)",
                Group::Edge,
                shape(Row, 3, 2, 5, 4),
            )
            .zh("行并行，rank 比 A 的行多（有空分片）"),
            Case::new(
                "column-parallel, N = 70 over 4 ranks",
                Group::Edge,
                shape(Column, 37, 45, 70, 4),
            )
            .zh("列并行，N = 70 分给 4 个 rank"),
            Case::new(
                "row-parallel, K = 131 over 3 ranks, N = 70",
                Group::Edge,
                shape(Row, 33, 131, 70, 3),
            )
            .zh("行并行，K = 131 分给 3 个 rank，N = 70"),
            Case::new(
                "column-parallel, one rank, 65 × 65 × 65",
                Group::Edge,
                shape(Column, 65, 65, 65, 1),
            )
            .zh("列并行，一个 rank，65 × 65 × 65"),
            Case::new(
                "row-parallel, 7 ranks, 70 × 100 · 100 × 129",
                Group::Edge,
                shape(Row, 70, 100, 129, 7),
            )
            .zh("行并行，7 个 rank，70 × 100 · 100 × 129"),
            Case::new(
                "column-parallel 200 × 300 · 300 × 333, 5 ranks",
                Group::Random,
                shape(Column, 200, 300, 333, 5),
            )
            .zh("列并行 200 × 300 · 300 × 333，5 个 rank"),
            Case::new(
                "row-parallel 150 × 513 · 513 × 260, 6 ranks",
                Group::Random,
                shape(Row, 150, 513, 260, 6),
            )
            .zh("行并行 150 × 513 · 513 × 260，6 个 rank"),
            Case::new(
                "column-parallel 512 × 1024 · 1024 × 2048, 4 ranks",
                Group::Performance,
                shape(Column, 512, 1024, 2048, 4),
            )
            .zh("列并行 512 × 1024 · 1024 × 2048，4 个 rank"),
            Case::new(
                "row-parallel 512 × 2048 · 2048 × 1024, 4 ranks",
                Group::Performance,
                shape(Row, 512, 2048, 1024, 4),
            )
            .zh("行并行 512 × 2048 · 2048 × 1024，4 个 rank"),
        ]
    }

    fn inputs(shape: &Shape, rng: &mut fastrand::Rng) -> Vec<HostBuf> {
        let mut uniform =
            |len: usize| -> Vec<f32> { (0..len).map(|_| rng.f32().mul_add(2.0, -1.0)).collect() };
        let x = uniform(shape.batch * shape.k);
        let a = uniform(shape.k * shape.n);
        // Every bias value is at least 1/4 in size, so a bias added twice, or added to the
        // wrong place, shows in every element it touches.
        let b = (0..shape.n)
            .map(|_| {
                let m = 0.25 + 0.75 * rng.f32();
                if rng.bool() { m } else { -m }
            })
            .collect();
        // Input 3 is Aᵀ, for the checker only: it makes every column of A contiguous, so the
        // f64 dot products of the full check run at memory speed. No kernel is given it.
        let mut a_t = vec![0.0f32; a.len()];
        for (kk, row) in a.chunks_exact(shape.n.max(1)).enumerate() {
            for (j, &v) in row.iter().enumerate() {
                a_t[j * shape.k + kk] = v;
            }
        }
        vec![
            HostBuf::F32(x),
            HostBuf::F32(a),
            HostBuf::F32(b),
            HostBuf::F32(a_t),
        ]
    }

    fn output_len(shape: &Shape) -> usize {
        shape.batch * shape.n
    }

    fn run(
        device: &mut Device<'_>,
        solution: Solution,
        shape: &Shape,
        log: &mut Log,
    ) -> Result<(), GpuError> {
        let (what, len, shard): (&str, usize, ShardFn) = match shape.mode {
            Mode::Column => ("column_shard", shape.n, solution.column_shard),
            Mode::Row => ("row_shard", shape.k, solution.row_shard),
        };
        let mut shards = Vec::with_capacity(shape.ranks);
        for rank in 0..shape.ranks {
            let s = shard(len, shape.ranks, rank);
            if s.start > s.end || s.end > len {
                return Err(GpuError(format!(
                    "{what}({len}, {}, {rank}) returned {}..{}, which is not a range inside 0..{len}",
                    shape.ranks, s.start, s.end
                )));
            }
            log.shards.push((s.start, s.end));
            shards.push(s);
        }
        match shape.mode {
            Mode::Column => column_parallel(device, solution, shape, &shards, log),
            Mode::Row => row_parallel(device, solution, shape, &shards, log),
        }
    }

    fn check_element(
        shape: &Shape,
        inputs: &[HostBuf],
        index: usize,
        got: f32,
    ) -> Result<(), String> {
        let (i, j) = (index / shape.n, index % shape.n);
        let Some((want, tol)) = expected(shape, inputs, i, j) else {
            return Err("inputs of the wrong type (our bug)".into());
        };
        let diff = (f64::from(got) - want).abs();
        // Written so that a NaN or an infinity fails too.
        if diff <= tol {
            Ok(())
        } else {
            Err(format!(
                "{} ± {}: Y[{i}][{j}] = X[{i}][:]·A[:][{j}] + b[{j}], b[{j}] = {}",
                katas::rounded(want, 8),
                katas::rounded(tol, 2),
                katas::decimal(match &inputs[2] {
                    HostBuf::F32(b) => b[j],
                    _ => f32::NAN,
                })
            ))
        }
    }

    fn check_log(shape: &Shape, log: &Log) -> Result<Vec<Message>, Message> {
        let (what, len) = match shape.mode {
            Mode::Column => ("column_shard", shape.n),
            Mode::Row => ("row_shard", shape.k),
        };
        if let Some(why) = shard_problem(what, len, shape.ranks, &log.shards) {
            return Err(why);
        }
        let shards = shard_list(&log.shards);
        let mut notes = vec![Message::new(
            format!("{what}s: {shards}"),
            format!("{what} 的结果：{shards}"),
        )];
        match shape.mode {
            Mode::Column => {
                if (log.all_gathers, log.all_reduces) != (1, 0) {
                    return Err(Message::new(
                        format!(
                            "column-parallel takes exactly one all-gather and no all-reduce; this \
                             run had {} all-gathers and {} all-reduces",
                            log.all_gathers, log.all_reduces
                        ),
                        format!(
                            "列并行恰好需要一次 all-gather、不需要 all-reduce；这次运行做了 {} 次 \
                             all-gather 和 {} 次 all-reduce",
                            log.all_gathers, log.all_reduces
                        ),
                    ));
                }
                let (slabs, launches) = (log.gathered_slabs, log.bias_adds);
                notes.push(Message::new(
                    format!("1 all-gather of {slabs} slabs, {launches} bias launches"),
                    format!("1 次 all-gather，汇集 {slabs} 块；加偏置的 kernel 启动 {launches} 次"),
                ));
            }
            Mode::Row => {
                if (log.all_reduces, log.all_gathers) != (1, 0) {
                    return Err(Message::new(
                        format!(
                            "row-parallel takes exactly one all-reduce and no all-gather; this \
                             run had {} all-reduces and {} all-gathers",
                            log.all_reduces, log.all_gathers
                        ),
                        format!(
                            "行并行恰好需要一次 all-reduce、不需要 all-gather；这次运行做了 {} 次 \
                             all-reduce 和 {} 次 all-gather",
                            log.all_reduces, log.all_gathers
                        ),
                    ));
                }
                if log.bias_ranks.len() != 1 {
                    return Err(Message::new(
                        format!(
                            "row-parallel: exactly one rank must add the bias before the \
                             all-reduce; adds_bias said yes for ranks {:?}",
                            log.bias_ranks
                        ),
                        format!(
                            "行并行：必须恰好有一个 rank 在 all-reduce 之前加上偏置；adds_bias 对 \
                             rank {:?} 都返回了 true",
                            log.bias_ranks
                        ),
                    ));
                }
                let (partials, rank) = (shape.ranks, log.bias_ranks[0]);
                notes.push(Message::new(
                    format!("1 all-reduce of {partials} partials; rank {rank} added the bias"),
                    format!("1 次 all-reduce，合并 {partials} 个部分和；由 rank {rank} 加偏置"),
                ));
            }
        }
        Ok(notes)
    }

    fn work(shape: &Shape) -> Work {
        // One multiply-add per (i, k, j); the bias and the collectives are lower order.
        Work::Flops(2 * (shape.batch * shape.k * shape.n) as u64)
    }

    fn describe(shape: &Shape) -> Message {
        let (mode, mode_zh) = match shape.mode {
            Mode::Column => ("column-parallel", "列并行"),
            Mode::Row => ("row-parallel", "行并行"),
        };
        let (m, k, n, ranks) = (shape.batch, shape.k, shape.n, shape.ranks);
        Message::new(
            format!("{mode}: X {m}×{k}, A {k}×{n}, b {n}, {ranks} ranks"),
            format!("{mode_zh}：X {m}×{k}，A {k}×{n}，b {n}，{ranks} 个 rank"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use katas::KataSpec;
    use katas::gpu::harness::Ran;
    use katas::gpu::{GpuCase, GpuOutput};

    /// Even shards, the first `len % ranks` one larger (the reference's rule, written again).
    fn even(len: usize, ranks: usize, rank: usize) -> (usize, usize) {
        let (q, r) = (len / ranks, len % ranks);
        let start = rank * q + rank.min(r);
        (start, start + q + usize::from(rank < r))
    }

    /// What the device computes, simulated in f32 the way the kata's kernels do it: each shard
    /// GEMM accumulates with fused multiply-adds in increasing k; row-parallel sums the partials
    /// in rank order, the bias on `bias_rank`'s partial.
    fn simulate(shape: &Shape, inputs: &[HostBuf], bias_rank: usize) -> Vec<f32> {
        let (HostBuf::F32(x), HostBuf::F32(a), HostBuf::F32(b)) =
            (&inputs[0], &inputs[1], &inputs[2])
        else {
            panic!("f32 inputs")
        };
        let (k, n, ranks) = (shape.k, shape.n, shape.ranks);
        let dot = |i: usize, j: usize, ks: Range<usize>| {
            ks.fold(0.0f32, |acc, kk| x[i * k + kk].mul_add(a[kk * n + j], acc))
        };
        let mut y = vec![0.0f32; shape.batch * n];
        for i in 0..shape.batch {
            for j in 0..n {
                y[i * n + j] = match shape.mode {
                    Mode::Column => dot(i, j, 0..k) + b[j],
                    Mode::Row => (0..ranks).fold(0.0f32, |sum, r| {
                        let (s, e) = even(k, ranks, r);
                        let p = dot(i, j, s..e);
                        sum + if r == bias_rank { p + b[j] } else { p }
                    }),
                };
            }
        }
        y
    }

    fn good_log(shape: &Shape) -> Log {
        let len = match shape.mode {
            Mode::Column => shape.n,
            Mode::Row => shape.k,
        };
        let shards = (0..shape.ranks)
            .map(|r| even(len, shape.ranks, r))
            .collect();
        match shape.mode {
            Mode::Column => Log {
                shards,
                all_gathers: 1,
                ..Log::default()
            },
            Mode::Row => Log {
                shards,
                bias_ranks: vec![0],
                all_reduces: 1,
                ..Log::default()
            },
        }
    }

    fn case(name_part: &str) -> GpuCase<Shape> {
        <Spec as KataSpec>::cases(0x7E57_5EED)
            .into_iter()
            .find(|c| c.name.contains(name_part))
            .unwrap_or_else(|| panic!("no case named like {name_part}"))
            .input
    }

    /// The inputs of the correctness run, as `Spec::check` regenerates them.
    fn inputs_of(case: &GpuCase<Shape>) -> Vec<HostBuf> {
        // Run 0's seed is the case seed itself (xor with 0).
        Kata::inputs(&case.shape, &mut fastrand::Rng::with_seed(case.seed))
    }

    fn ran(values: Vec<f32>, log: Log) -> GpuOutput<f32, Log> {
        GpuOutput::Ran(Ran {
            values,
            input_changed: None,
            log,
            timed: Vec::new(),
        })
    }

    fn check(case: &GpuCase<Shape>, got: &GpuOutput<f32, Log>) -> katas::Check {
        Spec::check(case, &GpuOutput::Unavailable(String::new()), got)
    }

    fn passes(c: &katas::Check) -> bool {
        matches!(
            c,
            katas::Check::Pass { .. } | katas::Check::PassTimed { .. }
        )
    }

    #[test]
    fn simulated_device_results_pass_every_non_timed_case() {
        for c in <Spec as KataSpec>::cases(11) {
            if c.input.timed_runs > 0 {
                continue;
            }
            let inputs = inputs_of(&c.input);
            let last = c.input.shape.ranks - 1;
            // Whichever rank adds the bias, the result is within tolerance.
            for bias_rank in [0, last] {
                let y = simulate(&c.input.shape, &inputs, bias_rank);
                let got = check(&c.input, &ran(y, good_log(&c.input.shape)));
                assert!(passes(&got), "{}: {got:?}", c.name);
            }
        }
    }

    #[test]
    fn simulated_rows_of_the_performance_cases_are_within_tolerance() {
        for c in <Spec as KataSpec>::cases(5) {
            if c.input.timed_runs == 0 {
                continue;
            }
            let mut shape = c.input.shape.clone();
            let inputs = inputs_of(&c.input);
            // The first rows only: same K, N and shards, a fraction of the work.
            shape.batch = 2;
            let HostBuf::F32(x) = &inputs[0] else {
                panic!("f32 inputs")
            };
            let mut few = inputs.clone();
            few[0] = HostBuf::F32(x[..2 * shape.k].to_vec());
            let y = simulate(&shape, &few, 0);
            for (idx, &v) in y.iter().enumerate() {
                Kata::check_element(&shape, &few, idx, v).unwrap();
            }
        }
    }

    #[test]
    fn the_oracle_matches_a_hand_example() {
        // X = [1 2; 3 4], A = [1 0 2; 0 1 -1], b = [0.5, -0.5, 1].
        let shape = Shape {
            mode: Mode::Row,
            batch: 2,
            k: 2,
            n: 3,
            ranks: 2,
        };
        let inputs = vec![
            HostBuf::F32(vec![1.0, 2.0, 3.0, 4.0]),
            HostBuf::F32(vec![1.0, 0.0, 2.0, 0.0, 1.0, -1.0]),
            HostBuf::F32(vec![0.5, -0.5, 1.0]),
            HostBuf::F32(vec![1.0, 0.0, 0.0, 1.0, 2.0, -1.0]),
        ];
        let want = [1.5, 1.5, 1.0, 3.5, 3.5, 3.0];
        for (idx, &w) in want.iter().enumerate() {
            assert_eq!(expected(&shape, &inputs, idx / 3, idx % 3).unwrap().0, w);
            Kata::check_element(&shape, &inputs, idx, w as f32).unwrap();
        }
        // The bias twice, and a sum off by one ulp-scale step far beyond the tolerance.
        assert!(Kata::check_element(&shape, &inputs, 0, 2.0).is_err());
        assert!(Kata::check_element(&shape, &inputs, 5, 3.001).is_err());
        assert!(Kata::check_element(&shape, &inputs, 5, f32::INFINITY).is_err());
    }

    #[test]
    fn a_perturbed_or_poisoned_element_fails() {
        for name in ["N = 70", "K = 131"] {
            let c = case(name);
            let inputs = inputs_of(&c);
            let good = simulate(&c.shape, &inputs, 0);
            assert!(passes(&check(&c, &ran(good.clone(), good_log(&c.shape)))));

            let mut off = good.clone();
            off[good.len() / 2] += 1e-3;
            assert!(!passes(&check(&c, &ran(off, good_log(&c.shape)))));

            let mut poisoned = good.clone();
            poisoned[good.len() - 1] = f32::from_bits(u32::MAX);
            assert!(!passes(&check(&c, &ran(poisoned, good_log(&c.shape)))));

            let mut nan = good.clone();
            nan[0] = f32::NAN;
            assert!(!passes(&check(&c, &ran(nan, good_log(&c.shape)))));

            // The bias counted twice in one element.
            let HostBuf::F32(b) = &inputs[2] else {
                panic!()
            };
            let mut twice = good.clone();
            twice[3] += b[3];
            assert!(!passes(&check(&c, &ran(twice, good_log(&c.shape)))));

            assert!(!passes(&check(
                &c,
                &ran(good[1..].to_vec(), good_log(&c.shape))
            )));
        }
    }

    #[test]
    fn every_log_rule_is_enforced() {
        let col = case("N = 70");
        let row = case("K = 131");
        let col_y = simulate(&col.shape, &inputs_of(&col), 0);
        let row_y = simulate(&row.shape, &inputs_of(&row), 0);
        let col_fails = |log: Log| !passes(&check(&col, &ran(col_y.clone(), log)));
        let row_fails = |log: Log| !passes(&check(&row, &ran(row_y.clone(), log)));

        // N = 70 over 4 ranks: 0..18, 18..36, 36..53, 53..70.
        let base = good_log(&col.shape);
        assert_eq!(base.shards, vec![(0, 18), (18, 36), (36, 53), (53, 70)]);
        let with = |shards: Vec<(usize, usize)>| Log {
            shards,
            ..base.clone()
        };
        assert!(col_fails(with(vec![(0, 19), (18, 36), (36, 53), (53, 70)]))); // overlap
        assert!(col_fails(with(vec![(0, 17), (18, 36), (36, 53), (53, 70)]))); // gap
        assert!(col_fails(with(vec![(0, 17), (17, 34), (34, 51), (51, 68)]))); // short
        assert!(col_fails(with(vec![(0, 18), (18, 36), (36, 54), (54, 70)]))); // 18, 18, 18, 16
        assert!(col_fails(with(vec![(18, 36), (0, 18), (36, 53), (53, 70)]))); // out of order
        assert!(col_fails(with(vec![(0, 35), (35, 70)]))); // too few ranks
        assert!(col_fails(Log {
            all_gathers: 2,
            ..base.clone()
        }));
        assert!(col_fails(Log {
            all_gathers: 0,
            ..base.clone()
        }));
        assert!(col_fails(Log {
            all_reduces: 1,
            ..base.clone()
        }));

        let rbase = good_log(&row.shape);
        assert!(!row_fails(rbase.clone()));
        assert!(row_fails(Log {
            bias_ranks: vec![0, 1, 2],
            ..rbase.clone()
        }));
        assert!(row_fails(Log {
            bias_ranks: vec![],
            ..rbase.clone()
        }));
        assert!(row_fails(Log {
            all_reduces: 2,
            ..rbase.clone()
        }));
        assert!(row_fails(Log {
            all_gathers: 1,
            ..rbase.clone()
        }));
        assert!(row_fails(Log {
            shards: vec![(0, 44), (44, 88), (88, 131), (131, 131)],
            ..rbase.clone()
        }));
    }

    #[test]
    fn empty_shards_are_valid_when_ranks_outnumber_the_items() {
        let shards: Vec<_> = (0..4).map(|r| even(2, 4, r)).collect();
        assert_eq!(shards, vec![(0, 1), (1, 2), (2, 2), (2, 2)]);
        assert_eq!(shard_problem("column_shard", 2, 4, &shards), None);
    }

    #[test]
    fn pitched_rows_differ_from_the_width_where_the_cases_need_it() {
        assert_eq!(
            (pitch(1), pitch(18), pitch(32), pitch(33)),
            (32, 32, 32, 64)
        );
        assert_eq!((pitch(0), pitch(512)), (32, 512));
    }

    #[test]
    fn the_kata_kernels_compile_when_nvrtc_is_here() {
        if !katas::gpu::nvrtc::available() {
            return;
        }
        katas::gpu::nvrtc::compile(
            OWN_SOURCE,
            katas::gpu::nvrtc::DEFAULT_ARCH,
            &[TP_SGEMM, TP_COPY_BLOCK, TP_SUM_PARTIALS],
        )
        .unwrap();
    }

    #[test]
    fn performance_inputs_are_quick_to_make() {
        for c in <Spec as KataSpec>::cases(3) {
            let started = std::time::Instant::now();
            let _ = inputs_of(&c.input);
            assert!(started.elapsed().as_secs_f64() < 1.0, "{}", c.name);
        }
    }

    #[test]
    fn the_checkers_copy_of_a_is_its_transpose() {
        let c = case("N = 70");
        let inputs = inputs_of(&c);
        let [_, HostBuf::F32(a), _, HostBuf::F32(a_t)] = &inputs[..] else {
            panic!("four f32 inputs")
        };
        let (k, n) = (c.shape.k, c.shape.n);
        assert_eq!(a_t.len(), k * n);
        for kk in 0..k {
            for j in 0..n {
                assert_eq!(a[kk * n + j].to_bits(), a_t[j * k + kk].to_bits());
            }
        }
    }
}
