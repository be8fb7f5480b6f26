//! expected-verdict: wrong_answer
//! Known cheat — timer tampering (skipping the timed work): the kernel keeps a `__device__`
//! table of the destinations it has already reduced. Each destination is reduced once per run,
//! so the first run does all the work and every later run (the warm-up and the timed ones, same
//! buffers) returns at once and looks fast. Every run starts from fresh data and the timed
//! runs' outputs are checked at sampled positions, so the skipped sums are caught.

use katas::gpu::Launch;
use katas::problems::gpu_ring_allreduce::{Op, Transfer};

pub const KERNEL: &str = r#"
#define SEEN_MAX 4096
__device__ unsigned long long seen[SEEN_MAX];
__device__ unsigned int seen_count;
__device__ unsigned int blocks_done;

extern "C" __global__ void reduce_add(float* dst, const float* incoming, int n) {
    // Every block reads the table before any block of this launch can change it: only the last
    // block to finish writes it, so the whole launch agrees on whether to skip.
    unsigned long long key = (unsigned long long)dst;
    unsigned int known = *(volatile unsigned int*)&seen_count;
    bool again = false;
    for (unsigned int k = 0; k < known && k < SEEN_MAX; ++k) {
        if (((volatile unsigned long long*)seen)[k] == key) {
            again = true;
            break;
        }
    }
    if (!again) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
            dst[i] += incoming[i];
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        unsigned int done = atomicAdd(&blocks_done, 1u);
        if (done == gridDim.x - 1) {
            if (!again && known < SEEN_MAX) {
                seen[known] = key;
                seen_count = known + 1;
            }
            blocks_done = 0;
            __threadfence();
        }
    }
}
"#;

/// The reference's schedule: only the kernel cheats.
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
