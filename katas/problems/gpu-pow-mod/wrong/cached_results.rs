//! expected-verdict: wrong_answer
//! Known cheat — results cached across runs: the first launch computes and keeps its answers in
//! a `__device__` array; later launches copy them out instead of computing. Every run gets fresh
//! inputs and a poisoned output, so the stale answers are caught.

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
#define CACHE (1 << 20)
__device__ unsigned long long cache[CACHE];
__device__ int cached_n = -1;

extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned long long modulus, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (cached_n == n && i < CACHE) { out[i] = cache[i]; return; }
    unsigned long long b = base[i] % modulus, e = exponent[i], acc = 1 % modulus;
    for (; e != 0; e >>= 1) {
        if (e & 1) acc = acc * b % modulus;
        b = b * b % modulus;
    }
    out[i] = acc;
    if (i < CACHE) cache[i] = acc;
    __syncthreads();
    if (i == 0) cached_n = n;
}
"#;

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
