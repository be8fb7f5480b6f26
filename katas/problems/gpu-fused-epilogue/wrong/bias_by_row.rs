//! expected-verdict: wrong_answer
//! Indexes the bias by the row instead of the column: every row gets one bias value for all its
//! columns. (The `% cols` only keeps the wrong read inside the bias buffer when rows > cols, so
//! the verdict is a wrong answer and never a fault.) The 1 × 1 sample cannot tell; 3 × 5 can.

use katas::gpu::{Launch, ceil_div};

pub const KERNEL: &str = r#"
extern "C" __global__ void bias_gelu_residual(const float* x, const float* bias,
                                              const float* residual, float* y,
                                              int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int r = blockIdx.y; r < rows; r += gridDim.y) {
        size_t at = (size_t)r * cols + c;
        float v = x[at] + bias[r % cols];
        y[at] = 0.5f * v * (1.0f + erff(v * 0.70710678f)) + residual[at];
    }
}
"#;

pub fn launch(rows: usize, cols: usize) -> Launch {
    Launch::grid_2d(
        (ceil_div(cols, 256) as u32, rows.min(65_535) as u32),
        (256, 1),
    )
}
