//! GPU katas: the learner writes CUDA C in a `KERNEL` string plus small Rust functions that pick
//! launch shapes; the grader compiles the kernel with NVRTC and runs it through `cudarc`.
//!
//! Everything builds and runs on machines without CUDA: `cudarc` loads the driver and NVRTC
//! at run time, and [`probe`] says whether they are there before anything calls into them.
//!
//! - [`probe`]: is there a device (and NVRTC)? Never panics.
//! - [`launch`]: launch shapes and kernel signatures (plain data, learner-facing).
//! - [`nvrtc`], [`ptx`]: kernel compilation and the signature check of the result.
//! - `driver`: the CUDA calls behind a safe API (the one module with `unsafe`).
//! - [`harness`]: [`GpuKata`] → [`crate::KataSpec`]: poison, fresh inputs, timing, checks.
//! - [`timing`]: medians, rates, % of peak, the suspect flag.

mod driver;
pub mod harness;
pub mod launch;
pub mod nvrtc;
mod probe;
pub mod ptx;
pub mod timing;

pub use driver::{Arg, Buf, Element, GpuError, HostBuf, measure_peak};
pub use harness::{Device, GpuCase, GpuKata, GpuOutput, GpuSpec};
pub use launch::{KernelSig, Launch, Param, ceil_div};
pub use probe::{GpuInfo, NoGpu, probe, required};
pub use timing::{DeviceTiming, Peak, Speed, Work};
