//! GPU katas: everything but [`Unavailable`] is `katas_runtime::gpu` (feature `cuda` brings the
//! CUDA calls: NVRTC, the driver, the probe and the harness a kata's `kata.rs` implements), so a
//! GPU kata's library, built from its package like a CPU kata's, links the runtime alone.

pub use katas_runtime::gpu::*;

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
