//! GPU katas: the learner writes CUDA C in a `KERNEL` string plus small Rust functions that pick
//! launch shapes; the runner compiles the kernel with NVRTC and runs it through `cudarc`.
//!
//! Without the `cuda` feature (a CPU kata's library) only the plain data is here: launch shapes
//! and kernel signatures ([`launch`]), PTX reading ([`ptx`]), timings ([`timing`]) and the
//! [`Unavailable`] message. With it (a GPU kata's library and judge):
//!
//! - [`probe`]: is there a device (and NVRTC)? Never panics.
//! - [`nvrtc`]: kernel compilation, checked against the kata's signatures by [`ptx`].
//! - `driver`: the CUDA calls behind a safe API (the one module with `unsafe`).
//! - [`harness`]: [`GpuKata`] → [`crate::KataSpec`]: poison, fresh inputs, timing, checks.
//!
//! Everything builds and runs on machines without CUDA: `cudarc` loads the driver and NVRTC
//! at run time, and [`probe`] says whether they are there before anything calls into them.

// why: the CUDA driver API is `unsafe` in cudarc; this module wraps it in a safe one (its doc
// holds the soundness argument). `probe` allows it on its three library probes only.
#[cfg(feature = "cuda")]
#[allow(unsafe_code)]
mod driver;
#[cfg(feature = "cuda")]
pub mod harness;
pub mod launch;
#[cfg(feature = "cuda")]
pub mod nvrtc;
#[cfg(feature = "cuda")]
mod probe;
pub mod ptx;
pub mod timing;

#[cfg(feature = "cuda")]
pub use driver::{Arg, Buf, Element, GpuError, HostBuf, measure_peak};
#[cfg(feature = "cuda")]
pub use harness::{Device, GpuCase, GpuKata, GpuOutput, GpuSpec};
pub use launch::{KernelSig, Launch, Param, ceil_div};
#[cfg(feature = "cuda")]
pub use probe::{GpuInfo, NoGpu, probe};
pub use timing::{DeviceTiming, Peak, Speed, Work};

/// Whether the caller insists on a GPU (`INFRAKATA_REQUIRE_GPU=1`, set by `scripts/gpu-check.sh`
/// on a lent GPU machine): GPU tests then fail instead of skipping.
pub fn required() -> bool {
    std::env::var("INFRAKATA_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

/// How a case's message starts when the untrusted side found no usable GPU (or NVRTC).
pub const UNAVAILABLE: &str = "no usable GPU where this ran";
