//! expected-verdict: compile_error
//! Declares `ld` as `long long`: the kernel compiles, but its parameters no longer match the
//! declaration the grader launches it with, so it is refused before any launch.

use katas::gpu::Launch;
use std::ops::Range;

pub const KERNEL: &str = r#"
extern "C" __global__ void add_bias(float* y, const float* bias, int rows, int cols, long long ld) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    for (int row = 0; row < rows; ++row) y[row * ld + col] += bias[col];
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
