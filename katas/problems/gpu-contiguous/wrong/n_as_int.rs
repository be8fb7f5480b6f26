//! expected-verdict: compile_error
//! Declares `n` as `int` instead of `long long`: the kernel compiles, but its parameters no
//! longer match the declaration the grader launches it with, so it is refused before any launch.

use katas::gpu::Launch;
use katas::problems::gpu_contiguous::View;

pub const KERNEL: &str = r#"
extern "C" __global__ void permute_copy(const float* src, float* dst,
                                        const unsigned long long* meta, int rank, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long k = i, at = meta[8];
    for (int d = 3; d >= 0; --d) {
        at += (k % meta[d]) * meta[4 + d];
        k /= meta[d];
    }
    dst[i] = src[at];
}
"#;

pub fn launch(view: &View) -> Launch {
    Launch::linear(view.numel(), 256)
}
