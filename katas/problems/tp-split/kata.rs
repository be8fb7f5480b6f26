//! Cases and checker for `tp-split`: Megatron-style tensor-parallel linear layers on simulated
//! ranks. The kata provides the matrix type, the communicator and the sharding; the learner
//! writes what one rank does with its shard.
//!
//! The collectives ([`Collectives`]) are the kata's trusted side: they sum and gather, check
//! that every rank called the same collective with a fitting shape, and count what each rank
//! exchanged. On the service every rank is its own sandboxed process holding only its shard,
//! and the collectives run in the grader (see `katas::ranks`); under `cargo test -p katas` the
//! ranks are threads of one process.

use katas::ranks::{Link, Network, Ranked, RankedKata, RankedSpec, Wake};
use katas::{Case, Check, Group, KataSpec, Message, Refusal};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;

// ---------------------------------------------------------------------------------------------
// Learner-facing types
// ---------------------------------------------------------------------------------------------

/// A dense row-major `f32` matrix: entry `(i, j)` is `data[i * cols + j]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    #[serde(with = "katas::wire::floats")]
    pub data: Vec<f32>,
}

impl Matrix {
    /// A `rows × cols` matrix of zeros.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// Wraps row-major `data`; panics unless it holds exactly `rows * cols` values.
    pub fn from_vec(rows: usize, cols: usize, data: Vec<f32>) -> Self {
        assert_eq!(
            data.len(),
            rows * cols,
            "a {rows}×{cols} matrix needs {} values",
            rows * cols
        );
        Self { rows, cols, data }
    }

    /// Entry `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> f32 {
        assert!(
            i < self.rows && j < self.cols,
            "({i}, {j}) is outside a {}×{} matrix",
            self.rows,
            self.cols
        );
        self.data[i * self.cols + j]
    }

    /// Row `i` as a slice.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// `self · rhs` in `f32`; each entry is summed over the inner index in increasing order.
    /// Panics unless `self.cols == rhs.rows`. An inner dimension of 0 gives zeros.
    pub fn matmul(&self, rhs: &Matrix) -> Matrix {
        assert_eq!(
            self.cols, rhs.rows,
            "matmul: {}×{} times {}×{} do not fit",
            self.rows, self.cols, rhs.rows, rhs.cols
        );
        let mut out = Matrix::zeros(self.rows, rhs.cols);
        if rhs.cols == 0 {
            return out;
        }
        for (out_row, lhs_row) in out
            .data
            .chunks_exact_mut(rhs.cols)
            .zip(self.data.chunks_exact(self.cols.max(1)))
        {
            for (&a, rhs_row) in lhs_row.iter().zip(rhs.data.chunks_exact(rhs.cols)) {
                for (o, &b) in out_row.iter_mut().zip(rhs_row) {
                    *o += a * b;
                }
            }
        }
        out
    }

    /// Adds `v[j]` to every entry of column `j` (a bias broadcast over the rows).
    /// Panics unless `v.len() == self.cols`.
    pub fn add_row_vector(&mut self, v: &[f32]) {
        assert_eq!(
            v.len(),
            self.cols,
            "add_row_vector: {} values for {} columns",
            v.len(),
            self.cols
        );
        if self.cols == 0 {
            return;
        }
        for row in self.data.chunks_exact_mut(self.cols) {
            for (x, &b) in row.iter_mut().zip(v) {
                *x += b;
            }
        }
    }

    /// Applies `f` to every entry, e.g. `h.apply(gelu)`.
    pub fn apply(&mut self, f: fn(f32) -> f32) {
        for x in &mut self.data {
            *x = f(*x);
        }
    }

    /// The columns in `range`, as a new `rows × range.len()` matrix.
    pub fn columns(&self, range: Range<usize>) -> Matrix {
        assert!(
            range.start <= range.end && range.end <= self.cols,
            "columns {range:?} of a {}-column matrix",
            self.cols
        );
        let mut data = Vec::with_capacity(self.rows * range.len());
        for i in 0..self.rows {
            data.extend_from_slice(&self.row(i)[range.clone()]);
        }
        Matrix::from_vec(self.rows, range.len(), data)
    }

    /// The rows in `range`, as a new `range.len() × cols` matrix.
    pub fn rows(&self, range: Range<usize>) -> Matrix {
        assert!(
            range.start <= range.end && range.end <= self.rows,
            "rows {range:?} of a {}-row matrix",
            self.rows
        );
        let data = self.data[range.start * self.cols..range.end * self.cols].to_vec();
        Matrix::from_vec(range.len(), self.cols, data)
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        let mut out = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                out.data[j * self.rows + i] = self.data[i * self.cols + j];
            }
        }
        out
    }

    /// `rows×cols`, for messages.
    pub fn shape(&self) -> String {
        format!("{}×{}", self.rows, self.cols)
    }

    fn assert_consistent(&self, what: &str) {
        assert_eq!(
            self.data.len(),
            self.rows * self.cols,
            "{what}: the matrix says {}×{} but holds {} values",
            self.rows,
            self.cols,
            self.data.len()
        );
    }
}

/// √(2/π), the constant of the tanh approximation of GeLU.
pub const SQRT_2_OVER_PI: f32 = 0.797_884_6;

/// GeLU, tanh approximation (the one GPT-2 and Megatron-LM use), computed in `f32`:
/// `gelu(x) = 0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`.
pub fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + (SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x)).tanh())
}

/// Which contiguous block of a dimension of length `len` rank `rank` of `ranks` holds: the
/// blocks go in rank order, the first `len % ranks` ranks get one extra element, and a rank
/// gets an empty block when `len < ranks`. E.g. 7 over 3 ranks: `0..3`, `3..5`, `5..7`.
pub fn shard_range(len: usize, ranks: usize, rank: usize) -> Range<usize> {
    assert!(rank < ranks, "rank {rank} of {ranks}");
    let base = len / ranks;
    let extra = len % ranks;
    let start = rank * base + rank.min(extra);
    let size = base + usize::from(rank < extra);
    start..start + size
}

/// What one rank exchanged through its communicator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommStats {
    pub all_gather_calls: u32,
    /// Elements of the gathered results (the full matrices the calls returned to this rank).
    pub all_gather_elements: u64,
    pub all_reduce_calls: u32,
    /// Elements of the buffers summed (each call returns as many to this rank).
    pub all_reduce_elements: u64,
}

/// One rank's handle on the tensor-parallel group. Every rank must call the same collectives in
/// the same order; each call blocks until all ranks have made it.
#[derive(Debug)]
pub struct TpComm {
    link: Link<Collectives>,
}

impl TpComm {
    /// This rank's index, `0..world_size()`.
    pub fn rank(&self) -> usize {
        self.link.rank()
    }

    /// How many ranks share the layer.
    pub fn world_size(&self) -> usize {
        self.link.size()
    }

    /// Concatenates every rank's `block` along the columns, in rank order, and returns the
    /// result to every rank. All blocks must have the same number of rows (widths may differ,
    /// including 0).
    pub fn all_gather(&mut self, block: &Matrix) -> Matrix {
        block.assert_consistent("all_gather");
        self.collective(Op::AllGather, block.clone())
    }

    /// Replaces `m` on every rank with the element-wise sum of every rank's `m` (summed in rank
    /// order, so every rank gets the same bits). All ranks must pass the same shape.
    pub fn all_reduce(&mut self, m: &mut Matrix) {
        m.assert_consistent("all_reduce");
        *m = self.collective(Op::AllReduce, std::mem::replace(m, Matrix::zeros(0, 0)));
    }

    fn collective(&mut self, op: Op, block: Matrix) -> Matrix {
        self.link
            .call(Collective { op, block })
            .expect("a collective always has a reply")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Op {
    AllGather,
    AllReduce,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::AllGather => "all_gather",
            Op::AllReduce => "all_reduce",
        })
    }
}

/// A rank's part of its next collective.
#[derive(Debug, Serialize, Deserialize)]
pub struct Collective {
    op: Op,
    block: Matrix,
}

/// The group's collectives, one round per collective in call order, and what each rank
/// exchanged. Trusted.
#[derive(Debug)]
pub struct Collectives {
    ranks: usize,
    rounds: Vec<Round>,
    /// How many collectives each rank has called.
    calls: Vec<usize>,
    stats: Vec<CommStats>,
    failure: Option<String>,
}

#[derive(Debug)]
struct Round {
    op: Op,
    first_rank: usize,
    shape: (usize, usize),
    parts: Vec<Option<Matrix>>,
    arrived: usize,
    result: Option<Matrix>,
    taken: usize,
}

impl Collectives {
    fn new(ranks: usize) -> Self {
        Self {
            ranks,
            rounds: Vec::new(),
            calls: vec![0; ranks],
            stats: vec![CommStats::default(); ranks],
            failure: None,
        }
    }

    fn deposit(&mut self, seq: usize, op: Op, rank: usize, block: Matrix) -> Result<(), String> {
        if let Some(f) = &self.failure {
            return Err(f.clone());
        }
        let ranks = self.ranks;
        // A rank at collective `seq` has seen every earlier round complete, so this round is
        // either the next one to open or already open.
        if seq == self.rounds.len() {
            self.rounds.push(Round {
                op,
                first_rank: rank,
                shape: (block.rows, block.cols),
                parts: vec![None; ranks],
                arrived: 0,
                result: None,
                taken: 0,
            });
        }
        let round = &mut self.rounds[seq];
        let k = seq + 1;
        let mismatch = if block.data.len() != block.rows * block.cols {
            Some(format!(
                "{op} #{k}: rank {rank}'s matrix says {}×{} but holds {} values",
                block.rows,
                block.cols,
                block.data.len()
            ))
        } else if round.op != op {
            Some(format!(
                "collective mismatch: rank {rank} called {op} as its collective #{k}, but rank {} called {}",
                round.first_rank, round.op
            ))
        } else if op == Op::AllReduce && (block.rows, block.cols) != round.shape {
            Some(format!(
                "all_reduce #{k} shape mismatch: rank {rank} passed {}, rank {} passed {}×{}",
                block.shape(),
                round.first_rank,
                round.shape.0,
                round.shape.1
            ))
        } else if op == Op::AllGather && block.rows != round.shape.0 {
            Some(format!(
                "all_gather #{k} row mismatch: rank {rank} passed {} rows, rank {} passed {}",
                block.rows, round.first_rank, round.shape.0
            ))
        } else {
            None
        };
        if let Some(msg) = mismatch {
            self.failure = Some(msg.clone());
            return Err(msg);
        }
        round.parts[rank] = Some(block);
        round.arrived += 1;
        if round.arrived == ranks {
            let parts: Vec<Matrix> = round
                .parts
                .iter_mut()
                .map(|p| p.take().unwrap_or_else(|| Matrix::zeros(0, 0)))
                .collect();
            round.result = Some(match op {
                Op::AllGather => concat_columns(&parts),
                Op::AllReduce => sum(parts),
            });
        }
        Ok(())
    }
}

impl Network for Collectives {
    type Request = Collective;
    type Reply = Matrix;

    fn awaits(_: &Collective) -> bool {
        true
    }

    fn waits_to(&self, request: &Collective, rank: usize) -> String {
        format!(
            "finish {} (its collective #{}), which every rank must call",
            request.op,
            self.calls[rank] + 1
        )
    }

    fn post(&mut self, rank: usize, request: Collective) -> Result<Wake, String> {
        let seq = self.calls[rank];
        self.calls[rank] += 1;
        self.deposit(seq, request.op, rank, request.block)?;
        Ok(Wake::Everyone)
    }

    fn reply(&mut self, rank: usize) -> Option<Result<Matrix, String>> {
        if let Some(f) = &self.failure {
            return Some(Err(f.clone()));
        }
        let seq = self.calls[rank].checked_sub(1)?;
        let ranks = self.ranks;
        let round = &mut self.rounds[seq];
        let out = round.result.as_ref()?.clone();
        round.taken += 1;
        if round.taken == ranks {
            round.result = None;
        }
        let stats = &mut self.stats[rank];
        match round.op {
            Op::AllGather => {
                stats.all_gather_calls += 1;
                stats.all_gather_elements += out.data.len() as u64;
            }
            Op::AllReduce => {
                stats.all_reduce_calls += 1;
                stats.all_reduce_elements += out.data.len() as u64;
            }
        }
        Some(Ok(out))
    }
}

fn concat_columns(parts: &[Matrix]) -> Matrix {
    let rows = parts.first().map_or(0, |p| p.rows);
    let cols = parts.iter().map(|p| p.cols).sum();
    let mut data = Vec::with_capacity(rows * cols);
    for i in 0..rows {
        for p in parts {
            data.extend_from_slice(p.row(i));
        }
    }
    Matrix::from_vec(rows, cols, data)
}

fn sum(parts: Vec<Matrix>) -> Matrix {
    let mut parts = parts.into_iter();
    let mut acc = parts.next().unwrap_or_else(|| Matrix::zeros(0, 0));
    for p in parts {
        for (a, b) in acc.data.iter_mut().zip(&p.data) {
            *a += b;
        }
    }
    acc
}

// ---------------------------------------------------------------------------------------------
// Sharding (the kata's side, not the learner's)
// ---------------------------------------------------------------------------------------------

/// Column blocks of `m` for every rank, cut by [`shard_range`].
pub fn split_columns(m: &Matrix, ranks: usize) -> Vec<Matrix> {
    (0..ranks)
        .map(|r| m.columns(shard_range(m.cols, ranks, r)))
        .collect()
}

/// Row blocks of `m` for every rank, cut by [`shard_range`].
pub fn split_rows(m: &Matrix, ranks: usize) -> Vec<Matrix> {
    (0..ranks)
        .map(|r| m.rows(shard_range(m.rows, ranks, r)))
        .collect()
}

/// Blocks of `v` for every rank, cut by [`shard_range`].
pub fn split_vec(v: &[f32], ranks: usize) -> Vec<Vec<f32>> {
    (0..ranks)
        .map(|r| v[shard_range(v.len(), ranks, r)].to_vec())
        .collect()
}

/// What one rank is given: its shard of the problem, and nothing of the others'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Shard {
    Column {
        x: Matrix,
        w: Matrix,
        bias: Vec<f32>,
    },
    Row {
        x: Matrix,
        w: Matrix,
        bias: Vec<f32>,
    },
    Mlp {
        x: Matrix,
        a: Matrix,
        b1: Vec<f32>,
        b: Matrix,
        b2: Vec<f32>,
    },
}

/// The shape of `mlp`: `(comm, x, w1_shard, b1_shard, w2_shard, b2) -> Y`.
pub type MlpFn = fn(&mut TpComm, &Matrix, &Matrix, &[f32], &Matrix, &[f32]) -> Matrix;

/// The learner's three functions. Each runs once per rank with that rank's shard and returns
/// the rank's copy of the full output.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    pub column_parallel: fn(&mut TpComm, &Matrix, &Matrix, &[f32]) -> Matrix,
    pub row_parallel: fn(&mut TpComm, &Matrix, &Matrix, &[f32]) -> Matrix,
    pub mlp: MlpFn,
}

/// One problem, unsharded: the kata cuts the shards.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// `Y = X·W + b`, `W` (K×N_out) and `b` split by columns.
    Column {
        ranks: usize,
        x: Matrix,
        w: Matrix,
        bias: Vec<f32>,
    },
    /// `Y = X·W + b`, `W` split by rows and `X` by the matching columns; `b` on every rank.
    Row {
        ranks: usize,
        x: Matrix,
        w: Matrix,
        bias: Vec<f32>,
    },
    /// `Y = GeLU(X·A + b1)·B + b2`, `A`/`b1` split by columns, `B` by rows; `b2` on every rank.
    Mlp {
        ranks: usize,
        x: Matrix,
        a: Matrix,
        b1: Vec<f32>,
        b: Matrix,
        b2: Vec<f32>,
    },
}

impl Input {
    pub fn ranks(&self) -> usize {
        match self {
            Input::Column { ranks, .. } | Input::Row { ranks, .. } | Input::Mlp { ranks, .. } => {
                *ranks
            }
        }
    }

    fn function(&self) -> &'static str {
        match self {
            Input::Column { .. } => "column_parallel",
            Input::Row { .. } => "row_parallel",
            Input::Mlp { .. } => "mlp",
        }
    }
}

/// Every rank's returned matrix and communication counters, in rank order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output {
    pub results: Vec<Matrix>,
    pub stats: Vec<CommStats>,
}

/// Round-off unit of the tolerance: `f32::EPSILON` = 2⁻²³, twice the unit round-off.
const EPS: f64 = f32::EPSILON as f64;

/// Bound on `|gelu'(x)|` for the tanh approximation (its maximum is about 1.13).
const GELU_SLOPE: f64 = 1.2;

/// Error of evaluating `gelu` in `f32`, relative to `|x|` (for x ≪ 0, `1 + tanh` cancels).
const GELU_ROUNDING: f64 = 4.0;

fn gelu64(x: f64) -> f64 {
    let c = (2.0 / std::f64::consts::PI).sqrt();
    0.5 * x * (1.0 + (c * (x + 0.044_715 * x * x * x)).tanh())
}

/// The exact answer (in `f64`) and the tolerance for each entry.
struct Oracle {
    rows: usize,
    cols: usize,
    want: Vec<f64>,
    tol: Vec<f64>,
}

/// `X·W + b` in `f64`, with `Σ|x·w| + |b|` per entry (the scale of its rounding error).
fn affine64(
    x: &[f64],
    rows: usize,
    inner: usize,
    w: &Matrix,
    bias: &[f32],
) -> (Vec<f64>, Vec<f64>) {
    let cols = w.cols;
    let mut val = vec![0.0f64; rows * cols];
    let mut mag = vec![0.0f64; rows * cols];
    let w64: Vec<f64> = w.data.iter().map(|&v| f64::from(v)).collect();
    for i in 0..rows {
        let (v_row, m_row) = (
            &mut val[i * cols..(i + 1) * cols],
            &mut mag[i * cols..(i + 1) * cols],
        );
        for k in 0..inner {
            let a = x[i * inner + k];
            let w_row = &w64[k * cols..(k + 1) * cols];
            for ((v, m), &b) in v_row.iter_mut().zip(m_row.iter_mut()).zip(w_row) {
                *v += a * b;
                *m += (a * b).abs();
            }
        }
        for ((v, m), &b) in v_row.iter_mut().zip(m_row.iter_mut()).zip(bias) {
            *v += f64::from(b);
            *m += f64::from(b).abs();
        }
    }
    (val, mag)
}

fn oracle(input: &Input) -> Oracle {
    let to64 = |m: &Matrix| -> Vec<f64> { m.data.iter().map(|&v| f64::from(v)).collect() };
    let n = input.ranks() as f64;
    match input {
        Input::Column { x, w, bias, .. } | Input::Row { x, w, bias, .. } => {
            // A K-term dot product, up to N−1 more additions in the all-reduce and one for the
            // bias: at most K + N + 1 roundings, each ≤ u·(running |sum|) ≤ u·Σ|terms|.
            let (want, mag) = affine64(&to64(x), x.rows, x.cols, w, bias);
            let factor = (x.cols as f64 + n + 2.0) * EPS;
            let tol = mag.iter().map(|m| factor * m).collect();
            Oracle {
                rows: x.rows,
                cols: w.cols,
                want,
                tol,
            }
        }
        Input::Mlp {
            x, a, b1, b, b2, ..
        } => {
            let (h, h_mag) = affine64(&to64(x), x.rows, x.cols, a, b1);
            let h_err = (x.cols as f64 + 2.0) * EPS;
            let g: Vec<f64> = h.iter().map(|&v| gelu64(v)).collect();
            // Error of each hidden activation after GeLU: the pre-activation's error through
            // GeLU's slope, plus GeLU's own f32 rounding.
            let g_err: Vec<f64> = h
                .iter()
                .zip(&h_mag)
                .map(|(&v, &m)| GELU_SLOPE * h_err * m + GELU_ROUNDING * EPS * v.abs())
                .collect();
            let (rows, hidden, cols) = (x.rows, a.cols, b.cols);
            let (want, mag) = affine64(&g, rows, hidden, b, b2);
            let abs_b: Vec<f32> = b.data.iter().map(|v| v.abs()).collect();
            let abs_b = Matrix::from_vec(b.rows, b.cols, abs_b);
            let (carried, _) = affine64(&g_err, rows, hidden, &abs_b, &vec![0.0; cols]);
            let factor = (hidden as f64 + n + 2.0) * EPS;
            let tol = mag
                .iter()
                .zip(&carried)
                .map(|(m, c)| c + factor * m)
                .collect();
            Oracle {
                rows,
                cols,
                want,
                tol,
            }
        }
    }
}

/// `elements` f32 values as bytes, KiB or MiB.
fn volume(elements: f64) -> String {
    let bytes = elements * 4.0;
    if bytes >= 1024.0 * 1024.0 {
        format!("{:.2} MiB", bytes / (1024.0 * 1024.0))
    } else if bytes >= 1024.0 {
        format!("{:.1} KiB", bytes / 1024.0)
    } else {
        format!("{bytes:.0} B")
    }
}

fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn fmt_row(values: impl Iterator<Item = f64>) -> String {
    let items: Vec<String> = values.take(8).map(|v| katas::rounded(v, 6)).collect();
    format!("[{}]", items.join(", "))
}

#[derive(Debug)]
pub struct Spec;

fn rand_matrix(rng: &mut fastrand::Rng, rows: usize, cols: usize, scale: f32) -> Matrix {
    let data = (0..rows * cols)
        .map(|_| (rng.f32() * 2.0 - 1.0) * scale)
        .collect();
    Matrix::from_vec(rows, cols, data)
}

fn rand_vec(rng: &mut fastrand::Rng, len: usize, scale: f32) -> Vec<f32> {
    (0..len).map(|_| (rng.f32() * 2.0 - 1.0) * scale).collect()
}

/// Weights scaled by 1/√fan_in, so activations stay of order one whatever the size.
fn weights(rng: &mut fastrand::Rng, fan_in: usize, fan_out: usize) -> Matrix {
    rand_matrix(rng, fan_in, fan_out, 2.0 / (fan_in.max(1) as f32).sqrt())
}

fn column(rng: &mut fastrand::Rng, ranks: usize, batch: usize, k: usize, n_out: usize) -> Input {
    Input::Column {
        ranks,
        x: rand_matrix(rng, batch, k, 1.0),
        w: weights(rng, k, n_out),
        bias: rand_vec(rng, n_out, 1.0),
    }
}

fn row(rng: &mut fastrand::Rng, ranks: usize, batch: usize, k: usize, n_out: usize) -> Input {
    Input::Row {
        ranks,
        x: rand_matrix(rng, batch, k, 1.0),
        w: weights(rng, k, n_out),
        bias: rand_vec(rng, n_out, 1.0),
    }
}

fn mlp(
    rng: &mut fastrand::Rng,
    ranks: usize,
    batch: usize,
    d: usize,
    hidden: usize,
    d_out: usize,
) -> Input {
    Input::Mlp {
        ranks,
        x: rand_matrix(rng, batch, d, 1.0),
        a: weights(rng, d, hidden),
        b1: rand_vec(rng, hidden, 1.0),
        b: weights(rng, hidden, d_out),
        b2: rand_vec(rng, d_out, 1.0),
    }
}

fn m(rows: usize, cols: usize, data: &[f32]) -> Matrix {
    Matrix::from_vec(rows, cols, data.to_vec())
}

fn split_text(len: usize, ranks: usize) -> String {
    let sizes: Vec<String> = (0..ranks)
        .map(|r| shard_range(len, ranks, r).len().to_string())
        .collect();
    sizes.join("+")
}

impl KataSpec for Spec {
    type Solution = Solution;
    type Input = Input;
    type Output = Output;

    /// Custom input: 1 to 8 ranks, 1 to 64 rows, every dimension 1 to 2 048 with at most
    /// 65 536 entries per matrix (custom runs stay small), shapes that multiply, bias lengths
    /// that match, and finite values of magnitude at most 1 000.
    fn admit(input: &Input) -> Result<(), Refusal> {
        katas::spec::within(("N (ranks)", "N（rank 数）"), input.ranks(), 1, 8)?;
        let matrix = |name: &str, m: &Matrix| -> Result<(), Refusal> {
            katas::spec::within(
                (&format!("{name}.rows"), &format!("{name}.rows")),
                m.rows,
                1,
                2048,
            )?;
            katas::spec::within(
                (&format!("{name}.cols"), &format!("{name}.cols")),
                m.cols,
                1,
                2048,
            )?;
            katas::spec::at_most(
                (
                    &format!("{name}'s entry count"),
                    &format!("{name} 的元素个数"),
                ),
                m.rows * m.cols,
                1 << 16,
            )?;
            if m.data.len() != m.rows * m.cols {
                return Err(Refusal::new(
                    format!(
                        "{name} is {}×{} but holds {} values",
                        m.rows,
                        m.cols,
                        m.data.len()
                    ),
                    format!(
                        "{name} 为 {}×{}，却有 {} 个值",
                        m.rows,
                        m.cols,
                        m.data.len()
                    ),
                ));
            }
            admit_values(name, &m.data)
        };
        let fits = |what: &str, a: usize, b: usize| -> Result<(), Refusal> {
            if a == b {
                Ok(())
            } else {
                Err(Refusal::new(
                    format!("the shapes do not fit: {what} ({a} ≠ {b})"),
                    format!("形状不匹配：{what}（{a} ≠ {b}）"),
                ))
            }
        };
        match input {
            Input::Column { x, w, bias, .. } | Input::Row { x, w, bias, .. } => {
                matrix("x", x)?;
                matrix("w", w)?;
                katas::spec::within(("x.rows (batch)", "x.rows（批大小）"), x.rows, 1, 64)?;
                fits("x.cols = w.rows", x.cols, w.rows)?;
                fits("bias.len() = w.cols", bias.len(), w.cols)?;
                admit_values("bias", bias)
            }
            Input::Mlp {
                x, a, b1, b, b2, ..
            } => {
                matrix("x", x)?;
                matrix("a", a)?;
                matrix("b", b)?;
                katas::spec::within(("x.rows (batch)", "x.rows（批大小）"), x.rows, 1, 64)?;
                fits("x.cols = a.rows", x.cols, a.rows)?;
                fits("b1.len() = a.cols", b1.len(), a.cols)?;
                fits("b.rows = a.cols", b.rows, a.cols)?;
                fits("b2.len() = b.cols", b2.len(), b.cols)?;
                admit_values("b1", b1)?;
                admit_values("b2", b2)
            }
        }
    }

    fn cases(seed: u64) -> Vec<Case<Input>> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let rng = &mut rng;
        let mut cases = vec![
            Case::new(
                "column_parallel: 2 ranks, X 2×3, W 3×4",
                Group::Sample,
                Input::Column {
                    ranks: 2,
                    x: m(2, 3, &[1.0, 2.0, 0.0, 0.0, 1.0, -1.0]),
                    w: m(
                        3,
                        4,
                        &[1.0, 0.0, 2.0, -1.0, 0.0, 1.0, 1.0, 0.0, 1.0, -1.0, 0.0, 2.0],
                    ),
                    bias: vec![0.5, -0.5, 1.0, 0.0],
                },
            )
            .zh("column_parallel：2 个 rank，X 2×3，W 3×4"),
            Case::new(
                "row_parallel: 2 ranks, X 2×4, W 4×2",
                Group::Sample,
                Input::Row {
                    ranks: 2,
                    x: m(2, 4, &[1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 0.0, -1.0]),
                    w: m(4, 2, &[1.0, 0.0, 0.0, 1.0, 1.0, 1.0, -1.0, 2.0]),
                    bias: vec![10.0, -10.0],
                },
            )
            .zh("row_parallel：2 个 rank，X 2×4，W 4×2"),
            Case::new(
                "mlp: 2 ranks, X 2×2, A 2×4, B 4×2",
                Group::Sample,
                Input::Mlp {
                    ranks: 2,
                    x: m(2, 2, &[1.0, -1.0, 0.5, 2.0]),
                    a: m(2, 4, &[1.0, 0.0, -1.0, 0.5, 0.0, 1.0, 1.0, -0.5]),
                    b1: vec![0.0, 0.5, -0.5, 1.0],
                    b: m(4, 2, &[1.0, 0.0, 0.0, 1.0, -1.0, 1.0, 0.5, -0.5]),
                    b2: vec![0.25, -0.25],
                },
            )
            .zh("mlp：2 个 rank，X 2×2，A 2×4，B 4×2"),
        ];
        let edge = |(name, name_zh): (&str, &str), input: Input| {
            Case::new(name, Group::Edge, input).zh(name_zh)
        };
        cases.push(edge(
            (
                "column_parallel: n = 1 rank",
                "column_parallel：n = 1 个 rank",
            ),
            column(rng, 1, 3, 5, 4),
        ));
        cases.push(edge(
            ("row_parallel: n = 1 rank", "row_parallel：n = 1 个 rank"),
            row(rng, 1, 3, 5, 4),
        ));
        cases.push(edge(
            ("mlp: n = 1 rank", "mlp：n = 1 个 rank"),
            mlp(rng, 1, 3, 4, 8, 4),
        ));
        cases.push(edge(
            (
                "column_parallel: 1×1 problem on 1 rank",
                "column_parallel：1 个 rank 上的 1×1 问题",
            ),
            column(rng, 1, 1, 1, 1),
        ));
        cases.push(edge(
            (
                "row_parallel: 1×1 problem on 1 rank",
                "row_parallel：1 个 rank 上的 1×1 问题",
            ),
            row(rng, 1, 1, 1, 1),
        ));
        cases.push(edge(
            (
                "mlp: 1×1×1 problem on 1 rank",
                "mlp：1 个 rank 上的 1×1×1 问题",
            ),
            mlp(rng, 1, 1, 1, 1, 1),
        ));
        cases.push(edge(
            (
                "column_parallel: batch of one row",
                "column_parallel：批大小为 1 行",
            ),
            column(rng, 3, 1, 6, 9),
        ));
        cases.push(edge(
            (
                "row_parallel: batch of one row",
                "row_parallel：批大小为 1 行",
            ),
            row(rng, 3, 1, 9, 6),
        ));
        cases.push(edge(
            ("mlp: batch of one row", "mlp：批大小为 1 行"),
            mlp(rng, 3, 1, 6, 12, 6),
        ));
        cases.push(edge(
            (
                "column_parallel: N_out = N = 4, one column per rank",
                "column_parallel：N_out = N = 4，每个 rank 一列",
            ),
            column(rng, 4, 3, 5, 4),
        ));
        cases.push(edge(
            (
                "row_parallel: K = N = 3, one row of W per rank",
                "row_parallel：K = N = 3，每个 rank 一行 W",
            ),
            row(rng, 3, 4, 3, 5),
        ));
        cases.push(edge(
            (
                "mlp: hidden = N = 4, one hidden unit per rank",
                "mlp：hidden = N = 4，每个 rank 一个隐藏单元",
            ),
            mlp(rng, 4, 3, 5, 4, 5),
        ));
        cases.push(edge(
            (
                "column_parallel: uneven split, 7 columns over 3 ranks",
                "column_parallel：不均匀切分，7 列分给 3 个 rank",
            ),
            column(rng, 3, 4, 5, 7),
        ));
        cases.push(edge(
            (
                "row_parallel: uneven split, K = 10 over 4 ranks",
                "row_parallel：不均匀切分，K = 10 分给 4 个 rank",
            ),
            row(rng, 4, 3, 10, 5),
        ));
        cases.push(edge(
            (
                "mlp: uneven split, hidden 5 over 3 ranks",
                "mlp：不均匀切分，hidden 5 分给 3 个 rank",
            ),
            mlp(rng, 3, 4, 6, 5, 3),
        ));
        cases.push(edge(
            (
                "column_parallel: 1×1 weight on 2 ranks (rank 1's shard is empty)",
                "column_parallel：2 个 rank 上的 1×1 权重（rank 1 的分片为空）",
            ),
            column(rng, 2, 1, 1, 1),
        ));
        cases.push(edge(
            (
                "row_parallel: K = 2 on 5 ranks (three empty shards)",
                "row_parallel：5 个 rank 上 K = 2（三个空分片）",
            ),
            row(rng, 5, 3, 2, 4),
        ));
        cases.push(edge(
            (
                "mlp: hidden 2 on 4 ranks (two empty shards)",
                "mlp：4 个 rank 上 hidden 为 2（两个空分片）",
            ),
            mlp(rng, 4, 3, 5, 2, 5),
        ));
        let zero_bias = |input: Input| match input {
            Input::Column { ranks, x, w, bias } => Input::Column {
                ranks,
                x,
                w,
                bias: vec![0.0; bias.len()],
            },
            Input::Row { ranks, x, w, bias } => Input::Row {
                ranks,
                x,
                w,
                bias: vec![0.0; bias.len()],
            },
            Input::Mlp {
                ranks,
                x,
                a,
                b1,
                b,
                b2,
            } => Input::Mlp {
                ranks,
                x,
                a,
                b1: vec![0.0; b1.len()],
                b,
                b2: vec![0.0; b2.len()],
            },
        };
        cases.push(edge(
            ("column_parallel: zero bias", "column_parallel：偏置为 0"),
            zero_bias(column(rng, 3, 4, 6, 6)),
        ));
        cases.push(edge(
            ("row_parallel: zero bias", "row_parallel：偏置为 0"),
            zero_bias(row(rng, 3, 4, 6, 6)),
        ));
        cases.push(edge(
            ("mlp: zero biases", "mlp：偏置均为 0"),
            zero_bias(mlp(rng, 3, 4, 6, 9, 6)),
        ));
        let mut big_bias = row(rng, 4, 4, 8, 6);
        if let Input::Row { bias, .. } = &mut big_bias {
            bias.iter_mut().for_each(|b| *b *= 100.0);
        }
        cases.push(edge(
            (
                "row_parallel: bias much larger than X·W",
                "row_parallel：偏置远大于 X·W",
            ),
            big_bias,
        ));
        let mut negative = mlp(rng, 2, 4, 6, 8, 4);
        if let Input::Mlp { b1, .. } = &mut negative {
            // Pre-activations far below zero, where GeLU is nearly 0 and 1 + tanh cancels.
            b1.iter_mut().for_each(|b| *b -= 6.0);
        }
        cases.push(edge(
            (
                "mlp: pre-activations far below zero (GeLU ≈ 0)",
                "mlp：激活前的值远小于 0（GeLU ≈ 0）",
            ),
            negative,
        ));
        cases.push(edge(
            ("mlp: 8 ranks", "mlp：8 个 rank"),
            mlp(rng, 8, 5, 16, 64, 16),
        ));
        cases.push(edge(
            ("row_parallel: 8 ranks", "row_parallel：8 个 rank"),
            row(rng, 8, 5, 64, 16),
        ));

        for i in 0..15 {
            let ranks = rng.usize(1..=8);
            let batch = rng.usize(1..=16);
            let dim = |rng: &mut fastrand::Rng| rng.usize(1..=64);
            let (p, q, r) = (dim(rng), dim(rng), dim(rng));
            let input = match i % 3 {
                0 => column(rng, ranks, batch, p, q),
                1 => row(rng, ranks, batch, p, q),
                _ => mlp(rng, ranks, batch, p, q, r),
            };
            let (function, n) = (input.function(), i / 3);
            let name = format!("{function}: random #{n} ({})", plural(ranks as u64, "rank"));
            let name_zh = format!("{function}：随机 #{n}（{ranks} 个 rank）");
            cases.push(Case::new(name, Group::Random, input).zh(name_zh));
        }

        let perf = |(name, name_zh): (&str, &str), input: Input| {
            Case::new(name, Group::Performance, input).zh(name_zh)
        };
        // Wide output first: a rank that redoes its whole product for every output column
        // (O(M·K·N²)) spends N_out = 3072 times the reference's work here, tens of times the
        // limit on its own core, and the verdict comes from this case.
        cases.push(perf(
            (
                "row_parallel: 2 ranks, X 16×1024, W 1024×3072",
                "row_parallel：2 个 rank，X 16×1024，W 1024×3072",
            ),
            row(rng, 2, 16, 1024, 3072),
        ));
        cases.push(perf(
            (
                "column_parallel: 4 ranks, X 64×512, W 512×2048",
                "column_parallel：4 个 rank，X 64×512，W 512×2048",
            ),
            column(rng, 4, 64, 512, 2048),
        ));
        cases.push(perf(
            (
                "mlp: 4 ranks, X 32×512, A 512×2048, B 2048×512",
                "mlp：4 个 rank，X 32×512，A 512×2048，B 2048×512",
            ),
            mlp(rng, 4, 32, 512, 2048, 512),
        ));
        cases
    }

    fn solve(solution: Solution, input: &Input) -> Output {
        katas::ranks::simulate::<Self>(solution, input).unwrap_or_else(|e| panic!("{e}"))
    }

    fn ranked() -> Option<&'static dyn RankedKata> {
        Some(&Ranked::<Self>::FACE)
    }

    fn serve_rank(solution: Solution, role: &katas::ranks::RankRole, nonce: &[u8; 16]) -> bool {
        katas::ranks::serve_rank::<Self>(solution, role, nonce);
        true
    }

    fn check(input: &Input, _expected: &Output, got: &Output) -> Check {
        let n = input.ranks();
        let f = input.function();
        if got.results.len() != n || got.stats.len() != n {
            return Check::fail(
                Message::new(
                    "one result and one set of counters per rank",
                    "每个 rank 应有一个结果和一组计数器",
                ),
                format!("{n} results"),
                format!(
                    "{} results, {} counters",
                    got.results.len(),
                    got.stats.len()
                ),
            );
        }
        let o = oracle(input);
        let mut worst = 0.0f64;
        for (r, y) in got.results.iter().enumerate() {
            if (y.rows, y.cols) != (o.rows, o.cols) || y.data.len() != y.rows * y.cols {
                return Check::fail(
                    Message::new(
                        format!("rank {r}'s {f} result has the wrong shape"),
                        format!("rank {r} 的 {f} 结果形状不对"),
                    ),
                    format!("{}×{}", o.rows, o.cols),
                    format!("{}×{} holding {} values", y.rows, y.cols, y.data.len()),
                );
            }
            let mut bad = 0usize;
            let mut first = None;
            for (idx, ((&g, &w), &t)) in y.data.iter().zip(&o.want).zip(&o.tol).enumerate() {
                let err = (f64::from(g) - w).abs();
                // Written so that NaN fails.
                if err <= t {
                    if t > 0.0 {
                        worst = worst.max(err / t);
                    }
                } else {
                    bad += 1;
                    first.get_or_insert(idx);
                }
            }
            if let Some(idx) = first {
                let (i, j) = (idx / o.cols, idx % o.cols);
                let want_row = &o.want[i * o.cols..(i + 1) * o.cols];
                let got_row = y.row(i).iter().map(|&v| f64::from(v));
                return Check::fail(
                    Message::new(
                        format!(
                            "rank {r}: {bad} of {} entries of Y are off; first Y[{i}][{j}] (tolerance {})",
                            o.want.len(),
                            katas::rounded(o.tol[idx], 2)
                        ),
                        format!(
                            "rank {r}：Y 的 {} 个元素中有 {bad} 个超出容差；第一个是 Y[{i}][{j}]（容差 {}）",
                            o.want.len(),
                            katas::rounded(o.tol[idx], 2)
                        ),
                    ),
                    format!(
                        "Y[{i}][{j}] = {}, row {i} = {}",
                        katas::rounded(o.want[idx], 7),
                        fmt_row(want_row.iter().copied())
                    ),
                    format!(
                        "Y[{i}][{j}] = {}, row {i} = {}",
                        katas::decimal(y.data[idx]),
                        fmt_row(got_row)
                    ),
                );
            }
        }
        if let Some(r) = (1..n).find(|&r| got.results[r] != got.results[0]) {
            let idx = got.results[0]
                .data
                .iter()
                .zip(&got.results[r].data)
                .position(|(a, b)| a.to_bits() != b.to_bits())
                .unwrap_or(0);
            let (i, j) = (idx / o.cols, idx % o.cols);
            return Check::fail(
                Message::new(
                    format!(
                        "every rank must hold the same Y, bit for bit; rank {r} differs from rank 0 at Y[{i}][{j}]"
                    ),
                    format!(
                        "每个 rank 持有的 Y 必须逐位相同；rank {r} 在 Y[{i}][{j}] 处与 rank 0 不同"
                    ),
                ),
                format!("{} (rank 0)", katas::decimal(got.results[0].data[idx])),
                format!("{} (rank {r})", katas::decimal(got.results[r].data[idx])),
            );
        }
        // Required collectives per forward pass: (all_gather, all_reduce). With one rank a
        // collective is the identity, so skipping it is allowed.
        let (gathers, reduces, rule) = match input {
            Input::Column { .. } => (
                1,
                0,
                Message::new(
                    "column_parallel assembles Y with exactly one all_gather and no all_reduce",
                    "column_parallel 用恰好一次 all_gather、不用 all_reduce 拼出 Y",
                ),
            ),
            Input::Row { .. } => (
                0,
                1,
                Message::new(
                    "row_parallel sums the partial products with exactly one all_reduce and no all_gather",
                    "row_parallel 用恰好一次 all_reduce、不用 all_gather 对部分积求和",
                ),
            ),
            Input::Mlp { .. } => (
                0,
                1,
                Message::new(
                    "the Megatron MLP's forward pass uses exactly one all_reduce and no all_gather: the hidden activation stays split between the two layers",
                    "Megatron MLP 的前向只用恰好一次 all_reduce、不用 all_gather：隐藏层激活在两层之间保持切分",
                ),
            ),
        };
        let allowed = |calls: u32, need: u32| if n == 1 { calls <= need } else { calls == need };
        for (r, s) in got.stats.iter().enumerate() {
            if !allowed(s.all_gather_calls, gathers) || !allowed(s.all_reduce_calls, reduces) {
                return Check::fail(
                    rule.clone(),
                    format!("{gathers} all_gather, {reduces} all_reduce"),
                    format!(
                        "rank {r}: {} all_gather ({} elements), {} all_reduce ({} elements)",
                        s.all_gather_calls,
                        s.all_gather_elements,
                        s.all_reduce_calls,
                        s.all_reduce_elements
                    ),
                );
            }
        }
        // Ranks are threads of one process, so data could also travel behind the communicator's
        // back (a static, an Arc in a OnceLock). What the checker can prove: with N ≥ 2, every
        // entry of Y needs another rank's data (column_parallel: each rank's columns are needed
        // by the others; row_parallel and mlp: each entry sums every rank's partial product),
        // and one element of a collective carries one number. So the collective that assembles
        // Y must carry at least as many elements as Y has.
        let y_elements = (o.rows * o.cols) as u64;
        if n > 1 {
            for (r, s) in got.stats.iter().enumerate() {
                let (carried, collective, why, why_zh) = match input {
                    Input::Column { .. } => (
                        s.all_gather_elements,
                        "all_gather",
                        "every rank's columns have to reach the others",
                        "每个 rank 的列都必须传到其他 rank",
                    ),
                    Input::Row { .. } | Input::Mlp { .. } => (
                        s.all_reduce_elements,
                        "all_reduce",
                        "every entry is a sum of all ranks' partial products",
                        "每个元素都是所有 rank 部分积之和",
                    ),
                };
                if carried < y_elements {
                    return Check::fail(
                        Message::new(
                            format!(
                                "rank {r} returned the full Y ({} = {y_elements} elements), but \
                                 its {collective} carried only {carried} elements, and {why}. \
                                 Ranks may exchange data only through the communicator (no \
                                 statics, shared Arcs or channels of your own)",
                                got.results[r].shape()
                            ),
                            format!(
                                "rank {r} 返回了完整的 Y（{} = {y_elements} 个元素），但它的 \
                                 {collective} 只传了 {carried} 个元素，而{why_zh}。rank 之间只能\
                                 通过 communicator 交换数据（不能用 static、共享的 Arc 或自己建的 \
                                 channel）",
                                got.results[r].shape()
                            ),
                        ),
                        format!("{collective} of at least {y_elements} elements"),
                        format!("{collective} of {carried} elements"),
                    );
                }
            }
        }
        let s = got.stats[0];
        let nf = n as f64;
        let mut notes = Vec::new();
        // Ring algorithms: an all-gather sends (N−1)/N of the result per rank, an all-reduce
        // (reduce-scatter + all-gather) twice that of the buffer.
        if s.all_gather_calls > 0 {
            let e = s.all_gather_elements as f64;
            let (count, sent) = (s.all_gather_elements, volume(e * (nf - 1.0) / nf));
            notes.push(Message::new(
                format!(
                    "per rank: all_gather of {}; a ring sends {sent} per rank",
                    plural(count, "element")
                ),
                format!("每个 rank：all_gather {count} 个元素；环形算法每个 rank 发送 {sent}"),
            ));
        }
        if s.all_reduce_calls > 0 {
            let e = s.all_reduce_elements as f64;
            let (count, sent) = (s.all_reduce_elements, volume(2.0 * e * (nf - 1.0) / nf));
            notes.push(Message::new(
                format!(
                    "per rank: all_reduce of {}; a ring sends {sent} per rank",
                    plural(count, "element")
                ),
                format!("每个 rank：all_reduce {count} 个元素；环形算法每个 rank 发送 {sent}"),
            ));
        }
        if s.all_gather_calls + s.all_reduce_calls == 0 {
            notes.push(Message::new(
                "1 rank: no communication",
                "1 个 rank：没有通信",
            ));
        }
        if let Input::Mlp { a, b, .. } = input {
            let params = (a.data.len() + b.data.len()) as f64;
            let (count, size) = (a.data.len() + b.data.len(), volume(params));
            notes.push(Message::new(
                format!(
                    "each rank holds 1/{n} of A and B; data parallelism would all-reduce all \
                     {count} of their gradients ({size}) per step"
                ),
                format!(
                    "每个 rank 持有 A 和 B 的 1/{n}；数据并行每步要对全部 {count} 个梯度\
                     （{size}）做 all-reduce"
                ),
            ));
        }
        let percent = format!("{:.1}", worst * 100.0);
        notes.push(Message::new(
            format!("worst error: {percent}% of the tolerance"),
            format!("最大误差：容差的 {percent}%"),
        ));
        Check::pass_with(notes)
    }

    fn describe(input: &Input) -> Message {
        let n = input.ranks();
        match input {
            Input::Column { x, w, .. } => {
                let (x, w, split) = (x.shape(), w.shape(), split_text(w.cols, n));
                Message::new(
                    format!("column_parallel on {n} ranks: X {x}, W {w} (columns split {split})"),
                    format!("{n} 个 rank 上的 column_parallel：X {x}，W {w}（列切分为 {split}）"),
                )
            }
            Input::Row { x, w, .. } => {
                let (x, w, split) = (x.shape(), w.shape(), split_text(w.rows, n));
                Message::new(
                    format!("row_parallel on {n} ranks: X {x}, W {w} (K split {split})"),
                    format!("{n} 个 rank 上的 row_parallel：X {x}，W {w}（K 切分为 {split}）"),
                )
            }
            Input::Mlp { x, a, b, .. } => {
                let (x, a, b, split) = (x.shape(), a.shape(), b.shape(), split_text(a.cols, n));
                Message::new(
                    format!("mlp on {n} ranks: X {x}, A {a}, B {b} (hidden split {split})"),
                    format!("{n} 个 rank 上的 mlp：X {x}，A {a}，B {b}（hidden 切分为 {split}）"),
                )
            }
        }
    }
}

/// Custom input: every value finite and of magnitude at most 1 000.
fn admit_values(name: &str, v: &[f32]) -> Result<(), Refusal> {
    match v.iter().find(|x| !x.is_finite() || x.abs() > 1000.0) {
        None => Ok(()),
        Some(x) => Err(Refusal::new(
            format!("{name} holds {x}: values must be finite, at most 1000 in magnitude"),
            format!("{name} 含有 {x}：取值须为有限数，绝对值不超过 1000"),
        )),
    }
}

impl RankedSpec for Spec {
    type Net = Collectives;
    type RankInput = Shard;
    type RankOutput = Matrix;

    fn network(input: &Input) -> Collectives {
        Collectives::new(input.ranks())
    }

    fn rank_inputs(input: &Input) -> Vec<Shard> {
        let ranks = input.ranks();
        match input {
            Input::Column { x, w, bias, .. } => split_columns(w, ranks)
                .into_iter()
                .zip(split_vec(bias, ranks))
                .map(|(w, bias)| Shard::Column {
                    x: x.clone(),
                    w,
                    bias,
                })
                .collect(),
            Input::Row { x, w, bias, .. } => split_columns(x, ranks)
                .into_iter()
                .zip(split_rows(w, ranks))
                .map(|(x, w)| Shard::Row {
                    x,
                    w,
                    bias: bias.clone(),
                })
                .collect(),
            Input::Mlp {
                x, a, b1, b, b2, ..
            } => split_columns(a, ranks)
                .into_iter()
                .zip(split_vec(b1, ranks))
                .zip(split_rows(b, ranks))
                .map(|((a, b1), b)| Shard::Mlp {
                    x: x.clone(),
                    a,
                    b1,
                    b,
                    b2: b2.clone(),
                })
                .collect(),
        }
    }

    /// Every rank's part of a few collectives the size of the whole output, and of the input:
    /// a solution that exchanges more is told so by the checker, from the counts.
    fn traffic_bound(input: &Input) -> usize {
        let (rows, cols, inner) = match input {
            Input::Column { x, w, .. } | Input::Row { x, w, .. } => (x.rows, w.cols, x.cols),
            Input::Mlp { x, a, b, .. } => (x.rows, b.cols.max(a.cols), x.cols.max(a.cols)),
        };
        16 * rows * (cols + inner) + (1 << 20)
    }

    fn run_rank(solution: Solution, link: Link<Collectives>, shard: Shard) -> Matrix {
        let mut comm = TpComm { link };
        match shard {
            Shard::Column { x, w, bias } => (solution.column_parallel)(&mut comm, &x, &w, &bias),
            Shard::Row { x, w, bias } => (solution.row_parallel)(&mut comm, &x, &w, &bias),
            Shard::Mlp { x, a, b1, b, b2 } => (solution.mlp)(&mut comm, &x, &a, &b1, &b, &b2),
        }
    }

    fn assemble(_: &Input, net: &Collectives, results: Vec<Matrix>) -> Output {
        Output {
            results,
            stats: net.stats.clone(),
        }
    }
}
