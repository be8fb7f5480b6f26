//! expected-verdict: compile_error
//! Tries to read a host file into the kernel at compile time. NVRTC runs inside the sandbox,
//! where no host file exists: the include fails and nothing of the host leaks.

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
#include "/etc/passwd"
extern "C" __global__ void pow_mod(const unsigned long long* base,
                                   const unsigned long long* exponent,
                                   unsigned long long* out,
                                   unsigned long long modulus, int n) {
}
"#;

pub fn launch(n: usize) -> Launch {
    Launch::linear(n, 256)
}
