//! gpu-pow-mod: write the kernel and choose its launch shape. On a machine with an NVIDIA GPU,
//! `cargo test -p katas gpu-pow-mod` checks them; elsewhere submit from the web page.

use katas::gpu::Launch;

/// CUDA C, compiled with NVRTC. Keep the name and the parameter list exactly as they are.
pub const KERNEL: &str = r#"
extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned long long modulus, int n) {
    // out[i] = base[i]^exponent[i] mod modulus, for every i < n.
}
"#;

/// Grid and block for `n` elements.
pub fn launch(n: usize) -> Launch {
    todo!("choose a grid and block for {n} elements")
}
