//! expected-verdict: wrong_answer
//! Every rank gets `len / ranks` items: when `len % ranks != 0` the last few columns (column
//! mode: never computed, still poisoned) or rows of A (row mode: terms missing from every sum)
//! belong to no rank.

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

fn rounded_down(len: usize, ranks: usize, rank: usize) -> Range<usize> {
    let size = len / ranks;
    rank * size..(rank + 1) * size
}

pub fn column_shard(n: usize, ranks: usize, rank: usize) -> Range<usize> {
    rounded_down(n, ranks, rank)
}

pub fn row_shard(k: usize, ranks: usize, rank: usize) -> Range<usize> {
    rounded_down(k, ranks, rank)
}

pub fn adds_bias(_ranks: usize, rank: usize) -> bool {
    rank == 0
}

pub fn bias_launch(rows: usize, cols: usize) -> Launch {
    let gx = u32::try_from(cols.div_ceil(32).max(1)).unwrap_or(u32::MAX);
    let gy = u32::try_from(rows.div_ceil(8).clamp(1, 65_535)).unwrap_or(65_535);
    Launch::grid_2d((gx, gy), (32, 8))
}
