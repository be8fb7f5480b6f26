//! expected-verdict: wrong_answer
//! Known cheat — outputs left lazy: the first launch copies everything, later launches (a
//! `__device__` launch counter) write only the first half of the output, counting on the rest to
//! still hold the previous run's copy. The output is poisoned before every run (warm-up and timed
//! runs included) and every timed run's output is sampled at positions the kernel cannot know, so
//! the missing half is caught: by the next case's check in a run of all cases, by the samples of
//! the timed runs in a performance case run on its own.

use katas::gpu::Launch;
use katas::problems::gpu_contiguous::View;

pub const KERNEL: &str = r#"
__device__ unsigned int launches = 0;
__device__ unsigned int blocks_done = 0;

extern "C" __global__ void permute_copy(const float* src, float* dst,
                                        const unsigned long long* meta, int rank,
                                        long long n) {
    __shared__ unsigned int seen;
    if (threadIdx.x == 0) seen = *(volatile unsigned int*)&launches;
    __syncthreads();
    const long long limit = seen == 0 ? n : n / 2;
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < limit) {
        unsigned long long k = (unsigned long long)i, at = meta[8];
        for (int d = 3; d >= 0; --d) {
            at += (k % meta[d]) * meta[4 + d];
            k /= meta[d];
        }
        dst[i] = src[at];
    }
    // The last block to finish counts the launch, after every block has read the counter.
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
            blocks_done = 0;
            __threadfence();
            atomicAdd(&launches, 1u);
        }
    }
}
"#;

pub fn launch(view: &View) -> Launch {
    Launch::linear(view.numel(), 256)
}
