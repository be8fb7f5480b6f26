//! CUDA C → PTX with NVRTC. In the grader this runs inside the sandbox, in the submission's own
//! process: the learner's kernel source is compiled where nothing of the host is visible, so an
//! `#include` of a host file finds nothing to include.

use super::launch::KernelSig;

/// The file name NVRTC reports errors against.
pub const SOURCE_NAME: &str = "kernel.cu";

/// Architecture used when no device says otherwise (compile-only checks on machines without a
/// GPU): Hopper, the lent H200's.
pub const DEFAULT_ARCH: (u32, u32) = (9, 0);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NvrtcError {
    /// NVRTC is not installed where this process can load it (our side).
    #[error("NVRTC (libnvrtc) cannot be loaded: {0}")]
    Unavailable(String),
    /// The source was refused; the text is NVRTC's log or our own explanation, for the learner.
    #[error("{0}")]
    Rejected(String),
}

/// Whether `libnvrtc` can be loaded here.
pub fn available() -> bool {
    super::probe::nvrtc_present()
}

/// Compiles `source` for compute capability `arch` and checks that it defines `kernels`.
pub fn compile(
    source: &str,
    arch: (u32, u32),
    kernels: &[KernelSig],
) -> Result<String, NvrtcError> {
    if source.contains('\0') {
        return Err(NvrtcError::Rejected(
            "KERNEL contains a NUL character".into(),
        ));
    }
    if source.trim().is_empty() {
        return Err(NvrtcError::Rejected("KERNEL is empty".into()));
    }
    if !available() {
        return Err(NvrtcError::Unavailable(
            "libnvrtc.so is not on the library path".into(),
        ));
    }
    let options = cudarc::nvrtc::CompileOptions {
        name: Some(SOURCE_NAME.into()),
        options: vec![
            format!("--gpu-architecture=compute_{}{}", arch.0, arch.1),
            "--std=c++17".into(),
        ],
        ..Default::default()
    };
    // cudarc panics rather than erring on a few driver-library surprises; keep them ours.
    let compiled =
        std::panic::catch_unwind(|| cudarc::nvrtc::compile_ptx_with_opts(source, options))
            .map_err(|_| NvrtcError::Unavailable("NVRTC panicked while compiling".into()))?;
    let ptx = match compiled {
        Ok(ptx) => ptx.to_src(),
        Err(cudarc::nvrtc::CompileError::CompileError { log, .. }) => {
            let log = log.to_string_lossy().trim().to_string();
            return Err(NvrtcError::Rejected(if log.is_empty() {
                "NVRTC refused the kernel without saying why".into()
            } else {
                log
            }));
        }
        Err(other) => return Err(NvrtcError::Unavailable(other.to_string())),
    };
    super::ptx::check(&ptx, kernels).map_err(NvrtcError::Rejected)?;
    Ok(ptx)
}
