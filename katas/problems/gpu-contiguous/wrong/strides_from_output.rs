//! expected-verdict: wrong_answer
//! Splits the output index into coordinates correctly, but then weighs them with the row-major
//! strides of the output instead of the view's strides from `meta`: it reads
//! `src[offset + i]`, which is right only for a view that is already contiguous.

use katas::gpu::Launch;
use katas::problems::gpu_contiguous::View;

pub const KERNEL: &str = r#"
extern "C" __global__ void permute_copy(const float* src, float* dst,
                                        const unsigned long long* meta, int rank,
                                        long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long k = (unsigned long long)i, at = meta[8], stride = 1;
    for (int d = 3; d >= 0; --d) {
        at += (k % meta[d]) * stride;
        k /= meta[d];
        stride *= meta[d];
    }
    dst[i] = src[at];
}
"#;

pub fn launch(view: &View) -> Launch {
    Launch::linear(view.numel(), 256)
}
