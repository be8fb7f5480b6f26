//! expected-verdict: wrong_answer
//! Shards of `ceil(len / ranks)` items each (what `torch.chunk` does), the last rank taking
//! what is left: they cover 0..len, but N = 70 over 4 ranks gives 18, 18, 18, 16 — the ranks are
//! unbalanced by more than one item, and the slowest rank sets the pace.

use katas::gpu::Launch;
use std::ops::Range;

pub const KERNEL: &str = r#"
extern "C" __global__ void add_bias(float* y, const float* bias, int rows, int cols, int ld) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y)
        y[(size_t)row * ld + col] += bias[col];
}
"#;

fn chunk(len: usize, ranks: usize, rank: usize) -> Range<usize> {
    let size = len.div_ceil(ranks);
    (rank * size).min(len)..((rank + 1) * size).min(len)
}

pub fn column_shard(n: usize, ranks: usize, rank: usize) -> Range<usize> {
    chunk(n, ranks, rank)
}

pub fn row_shard(k: usize, ranks: usize, rank: usize) -> Range<usize> {
    chunk(k, ranks, rank)
}

pub fn adds_bias(_ranks: usize, rank: usize) -> bool {
    rank == 0
}

pub fn bias_launch(rows: usize, cols: usize) -> Launch {
    let gx = u32::try_from(cols.div_ceil(32).max(1)).unwrap_or(u32::MAX);
    let gy = u32::try_from(rows.div_ceil(8).clamp(1, 65_535)).unwrap_or(65_535);
    Launch::grid_2d((gx, gy), (32, 8))
}
