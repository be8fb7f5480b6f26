//! Reference: balanced contiguous shards (the first `len % ranks` ranks take one extra item),
//! the bias on rank 0 in row-parallel, and a bias kernel with one thread per column that walks
//! the rows (coalesced along a row, `ld` as the row stride, grid-stride over rows).

use katas::gpu::Launch;
use std::ops::Range;

pub const KERNEL: &str = r#"
extern "C" __global__ void add_bias(float* y, const float* bias, int rows, int cols, int ld) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    float b = bias[col];
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < rows;
         row += gridDim.y * blockDim.y) {
        y[(size_t)row * ld + col] += b;
    }
}
"#;

/// `len` items over `ranks` ranks: sizes `len / ranks`, the first `len % ranks` one larger.
fn balanced(len: usize, ranks: usize, rank: usize) -> Range<usize> {
    let (size, extra) = (len / ranks, len % ranks);
    let start = rank * size + rank.min(extra);
    start..start + size + usize::from(rank < extra)
}

/// The columns of A (and of Y and b) that rank `rank` of `ranks` owns in column-parallel.
pub fn column_shard(n: usize, ranks: usize, rank: usize) -> Range<usize> {
    balanced(n, ranks, rank)
}

/// The rows of A (columns of X) that rank `rank` of `ranks` owns in row-parallel.
pub fn row_shard(k: usize, ranks: usize, rank: usize) -> Range<usize> {
    balanced(k, ranks, rank)
}

/// Row-parallel: rank 0 adds the bias to its partial sum, the others do not.
pub fn adds_bias(_ranks: usize, rank: usize) -> bool {
    rank == 0
}

/// 32 columns × 8 rows per block; enough blocks to cover the columns, and rows up to the grid's
/// y limit (the kernel's row loop covers the rest).
pub fn bias_launch(rows: usize, cols: usize) -> Launch {
    let gx = u32::try_from(cols.div_ceil(32).max(1)).unwrap_or(u32::MAX);
    let gy = u32::try_from(rows.div_ceil(8).clamp(1, 65_535)).unwrap_or(65_535);
    Launch::grid_2d((gx, gy), (32, 8))
}
