//! expected-verdict: wrong_answer
//! Keeps residues in `unsigned int` and multiplies them there: products of residues above 2^16
//! wrap around before the `%`.

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned long long modulus, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int m = (unsigned int)modulus;
    unsigned int b = (unsigned int)(base[i] % modulus);
    unsigned long long e = exponent[i];
    unsigned int acc = 1 % m;
    while (e != 0) {
        if (e & 1) acc = acc * b % m;
        b = b * b % m;
        e >>= 1;
    }
    out[i] = acc;
}
"#;

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
