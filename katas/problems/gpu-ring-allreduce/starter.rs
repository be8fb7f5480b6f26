//! gpu-ring-allreduce: write the schedule of a ring all-reduce, the kernel that adds an incoming
//! chunk, and its launch shape. On a machine with an NVIDIA GPU, `cargo test -p katas
//! gpu-ring-allreduce` checks them; elsewhere submit from the web page.

use katas::gpu::Launch;
// `Op::Reduce` (the receiver adds the chunk) and `Op::Copy` (it overwrites its chunk) live here
// too: `use katas::problems::gpu_ring_allreduce::{Op, Transfer};`.
use katas::problems::gpu_ring_allreduce::Transfer;

/// CUDA C, compiled with NVRTC. Keep the name and the parameter list exactly as they are.
pub const KERNEL: &str = r#"
extern "C" __global__ void reduce_add(float* dst, const float* incoming, int n) {
    // dst[i] += incoming[i], for every i < n.
}
"#;

/// The transfers of every step: `plan(n)[s]` lists what the ranks send at step s.
pub fn plan(ranks: usize) -> Vec<Vec<Transfer>> {
    todo!("reduce-scatter, then all-gather, around a ring of {ranks} ranks")
}

/// Grid and block for one `reduce_add` over `n` elements (n >= 1).
pub fn launch(n: usize) -> Launch {
    todo!("choose a grid and block for {n} elements")
}
