//! Reference: one thread per element (grid-stride, so any launch covers any n), square and
//! multiply over the exponent's bits. With m < 2^32 every residue fits 32 bits and every product
//! fits 64, so plain `unsigned long long` arithmetic is exact.

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned long long modulus, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned long long b = base[i] % modulus;
        unsigned long long e = exponent[i];
        unsigned long long acc = 1 % modulus;
        while (e != 0) {
            if (e & 1) acc = acc * b % modulus;
            b = b * b % modulus;
            e >>= 1;
        }
        out[i] = acc;
    }
}
"#;

/// 256 threads per block, enough blocks for one element per thread.
pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
