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
//!
//! Without the `cuda` feature (the runner library of CPU katas) only the plain data is here:
//! launch shapes, PTX reading, timings and the `Unavailable` message.

// why: the CUDA driver API is `unsafe` in cudarc; this module wraps it in a safe one (its doc
// holds the soundness argument). `probe` allows it on its three library probes only.
#[cfg(feature = "cuda")]
#[allow(unsafe_code)]
mod driver;
#[cfg(feature = "cuda")]
pub mod harness;
#[cfg(feature = "cuda")]
pub mod nvrtc;
#[cfg(feature = "cuda")]
mod probe;
pub mod ptx;
pub use katas_runtime::gpu::{launch, timing};

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

/// A GPU run that this machine could not do, read back from a case's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    pub why: String,
    /// NVRTC itself was missing, so not even the kernel was compiled.
    pub no_nvrtc: bool,
}

impl Unavailable {
    pub fn from_message(message: &str) -> Option<Self> {
        message.starts_with(UNAVAILABLE).then(|| Self {
            why: message.to_string(),
            no_nvrtc: message.contains("libnvrtc"),
        })
    }

    /// Whether tests must fail rather than skip: always under `INFRAKATA_REQUIRE_GPU=1`, and
    /// for a missing NVRTC under `INFRAKATA_CI=1` (CI installs it; see scripts/install-nvrtc.sh).
    pub fn is_required(&self) -> bool {
        required() || (self.no_nvrtc && std::env::var("INFRAKATA_CI").is_ok_and(|v| v == "1"))
    }

    /// The line a skipping test prints.
    pub fn skip_note(&self) -> String {
        if self.no_nvrtc {
            format!(
                "skipping: {} (scripts/install-nvrtc.sh installs NVRTC)",
                self.why
            )
        } else {
            format!(
                "kernel compiled and its signature checked; skipping the run: {}",
                self.why
            )
        }
    }
}
