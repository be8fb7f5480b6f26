//! gpu-tp-linear: choose the shards, pick the rank that adds the bias in row-parallel, and
//! write the bias kernel. On a machine with an NVIDIA GPU, `cargo test -p katas gpu-tp-linear`
//! checks them; elsewhere submit from the web page.

use katas::gpu::Launch;
use std::ops::Range;

/// CUDA C, compiled with NVRTC. Keep the name and the parameter list exactly as they are.
pub const KERNEL: &str = r#"
extern "C" __global__ void add_bias(float* y, const float* bias, int rows, int cols, int ld) {
    // y[row * ld + col] += bias[col] for every row < rows and col < cols.
}
"#;

/// The columns of A (and of Y and b) that rank `rank` of `ranks` owns in column-parallel.
pub fn column_shard(n: usize, ranks: usize, rank: usize) -> Range<usize> {
    todo!("the columns of rank {rank} of {ranks}, out of {n}")
}

/// The rows of A (and columns of X) that rank `rank` of `ranks` owns in row-parallel.
pub fn row_shard(k: usize, ranks: usize, rank: usize) -> Range<usize> {
    todo!("the rows of rank {rank} of {ranks}, out of {k}")
}

/// Row-parallel: whether rank `rank` of `ranks` adds the bias to its partial sum.
pub fn adds_bias(ranks: usize, rank: usize) -> bool {
    todo!("does rank {rank} of {ranks} add the bias?")
}

/// Grid and block of `add_bias` for a `rows × cols` block of Y.
pub fn bias_launch(rows: usize, cols: usize) -> Launch {
    todo!("a launch covering {rows} × {cols}")
}
