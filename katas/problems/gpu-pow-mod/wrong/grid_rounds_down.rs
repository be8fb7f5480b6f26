//! expected-verdict: wrong_answer
//! One thread per element, but the grid is `n / 256` blocks, rounded down: the last partial
//! block never runs, so the tail keeps the poison value (and tiny inputs get no block at all,
//! which the device refuses).

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned long long modulus, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long b = base[i] % modulus, e = exponent[i], acc = 1 % modulus;
    for (; e != 0; e >>= 1) {
        if (e & 1) acc = acc * b % modulus;
        b = b * b % modulus;
    }
    out[i] = acc;
}
"#;

pub fn launch(n: usize) -> Launch {
    let mut launch = Launch::linear(n, 256);
    launch.grid.0 = (n / 256).max(1) as u32;
    launch
}
