//! gpu-contiguous: write the kernel and choose its launch shape. On a machine with an NVIDIA GPU,
//! `cargo test -p katas gpu-contiguous` checks them; elsewhere submit from the web page.

use katas::gpu::Launch;
use katas::problems::gpu_contiguous::View;

/// CUDA C, compiled with NVRTC. Keep the name and the parameter list exactly as they are.
pub const KERNEL: &str = r#"
extern "C" __global__ void permute_copy(const float* src, float* dst,
                                        const unsigned long long* meta, int rank,
                                        long long n) {
    // meta: sizes[4], strides[4], offset (the view padded to 4-D with leading size-1 dims).
    // dst[i] = src[offset + sum of index_d * stride_d], for the i-th element in row-major order.
}
"#;

/// Grid and block for copying `view` (a tiled grid when it transposes its last two dimensions).
pub fn launch(view: &View) -> Launch {
    todo!("choose a grid and block for {} elements", view.numel())
}
