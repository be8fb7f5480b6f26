//! expected-verdict: compile_error
//! Known cheat — work moved to another stream: the kernel only launches a child grid from the
//! device (dynamic parallelism), hoping the real work runs outside the grader's timed stream.
//! NVRTC refuses it: "device-side kernel launch could not be processed as the required runtime
//! APIs are not declared" (the device runtime's header cannot be included, and its library is
//! never linked; see `child_grid_with_runtime_declared` for declaring them by hand).

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
__global__ void epilogue_child(const float* x, const float* bias, const float* residual,
                               float* y, int rows, int cols) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)rows * cols) return;
    float v = x[i] + bias[i % cols];
    y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f)) + residual[i];
}

extern "C" __global__ void bias_gelu_residual(const float* x, const float* bias,
                                              const float* residual, float* y,
                                              int rows, int cols) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long n = (long long)rows * cols;
        epilogue_child<<<(unsigned)((n + 255) / 256), 256>>>(x, bias, residual, y, rows, cols);
    }
}
"#;

pub fn launch(_rows: usize, _cols: usize) -> Launch {
    Launch::linear(1, 32)
}
