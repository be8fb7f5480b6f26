//! expected-verdict: runtime_error
//! Known cheat — work moved to another stream, the determined version: it declares the device
//! runtime's launch functions itself so that NVRTC accepts the device-side `<<<...>>>`. The PTX
//! then calls `cudaGetParameterBufferV2` / `cudaLaunchDeviceV2`, which only exist in the device
//! runtime library (`cudadevrt`); the grader loads the module without linking it, so the driver's
//! JIT cannot resolve them and loading the kernel fails before anything runs.

use katas::gpu::Launch;

pub const KERNEL: &str = r#"
extern "C" __device__ void* cudaGetParameterBufferV2(void* func, dim3 grid, dim3 block,
                                                     unsigned int shared);
extern "C" __device__ cudaError_t cudaLaunchDeviceV2(void* buffer, cudaStream_t stream);

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
