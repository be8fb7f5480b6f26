//! expected-verdict: wrong_answer
//! The all-gather starts one chunk early: at its step s rank r forwards chunk r − s instead of
//! the finished chunk r + 1 − s, so partial sums overwrite finished ones.

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
    let mut steps = Vec::new();
    for s in 0..n - 1 {
        steps.push(
            (0..n)
                .map(|r| Transfer {
                    from: r,
                    to: (r + 1) % n,
                    chunk: (r + n - s) % n,
                    op: Op::Reduce,
                })
                .collect(),
        );
    }
    for s in 0..n - 1 {
        steps.push(
            (0..n)
                .map(|r| Transfer {
                    from: r,
                    to: (r + 1) % n,
                    chunk: (r + n - s) % n,
                    op: Op::Copy,
                })
                .collect(),
        );
    }
    steps
}

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
