//! expected-verdict: compile_error
//! Declares the modulus as `unsigned int`: the kernel compiles, but its parameters no longer
//! match the declaration the grader launches it with, so it is refused before any launch.

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned int modulus, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0;
}
"#;

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
