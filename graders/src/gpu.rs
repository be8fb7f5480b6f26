//! The grader's view of the GPU: the probe (shared with `katas`, which runs kernels) and the
//! device yardsticks a worker measures at start.

pub use katas::gpu::{GpuInfo, NoGpu, Peak, probe, required};
