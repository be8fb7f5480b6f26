//! Reference: the textbook ring. Reduce-scatter for N−1 steps (rank r sends chunk r−s and the
//! receiver adds it), then all-gather for N−1 steps (rank r sends the finished chunk r+1−s and
//! the receiver overwrites). Every step, every rank sends exactly one chunk to rank r+1.
//!
//! The kernel adds four floats per thread when both pointers are 16-byte aligned (always the case
//! when M/N is a multiple of 4, since the grader aligns its staging slots), and one float per
//! thread otherwise; a grid-stride loop makes it correct for any launch.

use katas::gpu::Launch;
use katas::problems::gpu_ring_allreduce::{Op, Transfer};

pub const KERNEL: &str = r#"
extern "C" __global__ void reduce_add(float* dst, const float* incoming, int n) {
    int stride = gridDim.x * blockDim.x;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if ((((unsigned long long)dst | (unsigned long long)incoming) & 15ULL) == 0) {
        int n4 = n / 4;
        float4* d4 = reinterpret_cast<float4*>(dst);
        const float4* s4 = reinterpret_cast<const float4*>(incoming);
        for (int i = tid; i < n4; i += stride) {
            float4 a = d4[i];
            float4 b = s4[i];
            a.x += b.x;
            a.y += b.y;
            a.z += b.z;
            a.w += b.w;
            d4[i] = a;
        }
        // The last n % 4 elements, one per thread.
        for (int i = n4 * 4 + tid; i < n; i += stride) {
            dst[i] += incoming[i];
        }
    } else {
        for (int i = tid; i < n; i += stride) {
            dst[i] += incoming[i];
        }
    }
}
"#;

/// Step s < N−1: rank r sends chunk (r − s) mod N, added by rank r+1. After these N−1 steps
/// rank r holds the full sum of chunk (r + 1) mod N. Step N−1+s: rank r passes on the finished
/// chunk (r + 1 − s) mod N, copied by rank r+1.
pub fn plan(ranks: usize) -> Vec<Vec<Transfer>> {
    let n = ranks;
    let step = |chunk: &dyn Fn(usize) -> usize, op: Op| -> Vec<Transfer> {
        (0..n)
            .map(|r| Transfer {
                from: r,
                to: (r + 1) % n,
                chunk: chunk(r),
                op,
            })
            .collect()
    };
    let mut steps = Vec::with_capacity(2 * n.saturating_sub(1));
    for s in 0..n.saturating_sub(1) {
        steps.push(step(&|r| (r + n - s) % n, Op::Reduce));
    }
    for s in 0..n.saturating_sub(1) {
        steps.push(step(&|r| (r + 1 + n - s) % n, Op::Copy));
    }
    steps
}

/// One thread per four elements, 256 threads per block (at least one block).
pub fn launch(n: usize) -> Launch {
    Launch::linear(n.div_ceil(4), 256)
}
