//! expected-verdict: wrong_answer
//! The bias kernel steps from row to row by `cols` instead of `ld`: the rank-local buffers
//! have padded rows (`ld > cols` unless the width is a multiple of 32), so from the second row
//! on the bias lands in the wrong places.

use katas::gpu::Launch;
use std::ops::Range;

pub const KERNEL: &str = r#"
extern "C" __global__ void add_bias(float* y, const float* bias, int rows, int cols, int ld) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y)
        y[(size_t)row * cols + col] += bias[col];
}
"#;

fn balanced(len: usize, ranks: usize, rank: usize) -> Range<usize> {
    let (size, extra) = (len / ranks, len % ranks);
    let start = rank * size + rank.min(extra);
    start..start + size + usize::from(rank < extra)
}

pub fn column_shard(n: usize, ranks: usize, rank: usize) -> Range<usize> {
    balanced(n, ranks, rank)
}

pub fn row_shard(k: usize, ranks: usize, rank: usize) -> Range<usize> {
    balanced(k, ranks, rank)
}

pub fn adds_bias(_ranks: usize, rank: usize) -> bool {
    rank == 0
}

pub fn bias_launch(rows: usize, cols: usize) -> Launch {
    let gx = u32::try_from(cols.div_ceil(32).max(1)).unwrap_or(u32::MAX);
    let gy = u32::try_from(rows.div_ceil(8).clamp(1, 65_535)).unwrap_or(65_535);
    Launch::grid_2d((gx, gy), (32, 8))
}
