//! expected-verdict: wrong_answer
//! Stops after the reduce-scatter: after N−1 steps rank r holds the full sum of chunk r+1 only,
//! and the all-gather that would copy every finished chunk to every rank never happens.

use katas::gpu::Launch;
use katas::problems::gpu_ring_allreduce::{Op, Transfer};

pub const KERNEL: &str = r#"
extern "C" __global__ void reduce_add(float* dst, const float* incoming, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        dst[i] += incoming[i];
    }
}
"#;

pub fn plan(ranks: usize) -> Vec<Vec<Transfer>> {
    let n = ranks;
    (0..n - 1)
        .map(|s| {
            (0..n)
                .map(|r| Transfer {
                    from: r,
                    to: (r + 1) % n,
                    chunk: (r + n - s) % n,
                    op: Op::Reduce,
                })
                .collect()
        })
        .collect()
}

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
