//! Reference: a 2-D grid, columns across `x` and rows along `y` (both grid-stride, so any launch
//! covers any matrix and more than 65535 rows work). The bias index is the column, with no
//! division. When `cols % 4 == 0` every row starts on a 16-byte boundary (the buffers come from
//! the allocator, 256-byte aligned) and each thread moves four columns with `float4` loads and
//! stores; otherwise it moves one. GeLU is `0.5 v (1 + erff(v / sqrt 2))`.

use katas::gpu::{Launch, ceil_div};

pub const KERNEL: &str = r#"
__device__ __forceinline__ float gelu_erf(float v) {
    return 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
}

extern "C" __global__ void bias_gelu_residual(const float* __restrict__ x,
                                              const float* __restrict__ bias,
                                              const float* __restrict__ residual,
                                              float* __restrict__ y, int rows, int cols) {
    const int first = blockIdx.x * blockDim.x + threadIdx.x;
    const int step = gridDim.x * blockDim.x;
    if ((cols & 3) == 0) {
        const int cols4 = cols >> 2;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        const float4* b4 = reinterpret_cast<const float4*>(bias);
        const float4* s4 = reinterpret_cast<const float4*>(residual);
        float4* y4 = reinterpret_cast<float4*>(y);
        for (int c = first; c < cols4; c += step) {
            const float4 b = b4[c];
            for (int r = blockIdx.y; r < rows; r += gridDim.y) {
                const size_t at = (size_t)r * (size_t)cols4 + (size_t)c;
                const float4 v = x4[at];
                const float4 s = s4[at];
                float4 o;
                o.x = gelu_erf(v.x + b.x) + s.x;
                o.y = gelu_erf(v.y + b.y) + s.y;
                o.z = gelu_erf(v.z + b.z) + s.z;
                o.w = gelu_erf(v.w + b.w) + s.w;
                y4[at] = o;
            }
        }
    } else {
        for (int c = first; c < cols; c += step) {
            const float b = bias[c];
            for (int r = blockIdx.y; r < rows; r += gridDim.y) {
                const size_t at = (size_t)r * (size_t)cols + (size_t)c;
                y[at] = gelu_erf(x[at] + b) + residual[at];
            }
        }
    }
}
"#;

/// One thread per column (per four columns when `cols % 4 == 0`), one block row per matrix row
/// up to the 65535 that `grid.y` allows; the kernel loops over any rows beyond.
pub fn launch(rows: usize, cols: usize) -> Launch {
    let lanes = if cols.is_multiple_of(4) {
        cols / 4
    } else {
        cols
    };
    let block = lanes.next_multiple_of(32).clamp(32, 256);
    let grid_x = ceil_div(lanes.max(1), block);
    let grid_y = rows.clamp(1, 65_535);
    Launch::grid_2d((grid_x as u32, grid_y as u32), (block as u32, 1))
}
