//! expected-verdict: wrong_answer
//! Uses the tanh approximation of GeLU, `0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))`, instead
//! of the erf form the task asks for: it is off by up to 4.7e-4, far beyond the 1e-5 tolerance.

use katas::gpu::{Launch, ceil_div};

pub const KERNEL: &str = r#"
extern "C" __global__ void bias_gelu_residual(const float* x, const float* bias,
                                              const float* residual, float* y,
                                              int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int r = blockIdx.y; r < rows; r += gridDim.y) {
        size_t at = (size_t)r * cols + c;
        float v = x[at] + bias[c];
        float g = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
        y[at] = g + residual[at];
    }
}
"#;

pub fn launch(rows: usize, cols: usize) -> Launch {
    Launch::grid_2d(
        (ceil_div(cols, 256) as u32, rows.min(65_535) as u32),
        (256, 1),
    )
}
