//! expected-verdict: wrong_answer
//! Runs the ring algorithm over another cycle of the ranks — the even ones, then the odd ones
//! (0 → 2 → 4 → … → 1 → 3 → … → 0). The sums come out right, but rank 0 sends to rank 2, and
//! the only link rank r has goes to rank r + 1: the transfer log is rejected.

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
    let order: Vec<usize> = (0..n).step_by(2).chain((1..n).step_by(2)).collect();
    // Position p on the cycle plays the part rank p plays in the usual ring.
    let step = |s: usize, shift: usize, op: Op| -> Vec<Transfer> {
        (0..n)
            .map(|p| Transfer {
                from: order[p],
                to: order[(p + 1) % n],
                chunk: (p + shift + n - s) % n,
                op,
            })
            .collect()
    };
    let mut steps = Vec::new();
    for s in 0..n - 1 {
        steps.push(step(s, 0, Op::Reduce));
    }
    for s in 0..n - 1 {
        steps.push(step(s, 1, Op::Copy));
    }
    steps
}

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
