//! expected-verdict: compile_error
//! Declares the length as `size_t`: the kernel compiles, but its parameters (8 bytes for `n`)
//! no longer match `int n`, the declaration the grader launches it with, so it is refused
//! before any launch.

use katas::gpu::Launch;
use katas::problems::gpu_ring_allreduce::{Op, Transfer};

pub const KERNEL: &str = r#"
extern "C" __global__ void reduce_add(float* dst, const float* incoming, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) dst[i] += incoming[i];
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
                    chunk: (r + 1 + n - s) % n,
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
