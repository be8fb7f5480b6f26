//! expected-verdict: wrong_answer
//! The naive all-reduce: pass whole vectors. Rank 0 adds its whole vector into rank 1, rank 1
//! into rank 2, …; rank N−1 then holds the sum and it is copied, whole, around the ring. Only
//! neighbours talk and it takes 2(N−1) steps, so the sums are right — but each step a rank
//! sends all N chunks, up to 2·M elements in all instead of 2·ceil(M/N)·(N−1).

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
    let whole = |from: usize, op: Op| -> Vec<Transfer> {
        (0..n)
            .map(|chunk| Transfer {
                from,
                to: (from + 1) % n,
                chunk,
                op,
            })
            .collect()
    };
    let mut steps = Vec::new();
    for s in 0..n - 1 {
        steps.push(whole(s, Op::Reduce));
    }
    for s in 0..n - 1 {
        steps.push(whole((n - 1 + s) % n, Op::Copy));
    }
    steps
}

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
