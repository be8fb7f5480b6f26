//! The GPU, through `cudarc` with dynamic loading: the crate builds and runs on machines with no
//! CUDA at all, and [`probe`] says whether this one has a usable device.
//!
//! cudarc panics on its first call when `libcuda` cannot be loaded, so nothing here touches CUDA
//! before [`probe`] has checked that the library is present; the probe itself never panics (a
//! driver that lacks a symbol we need would panic inside cudarc: that is caught and reported).

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The device a GPU worker grades on, as it advertises it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuInfo {
    /// e.g. `NVIDIA H200`.
    pub name: String,
    /// (major, minor), e.g. (9, 0).
    pub compute_capability: (u32, u32),
    /// Total device memory.
    pub memory_bytes: u64,
    /// The driver's CUDA version as `major.minor` (e.g. `13.0`).
    pub driver_version: String,
}

impl std::fmt::Display for GpuInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (major, minor) = self.compute_capability;
        write!(
            f,
            "{} (compute {major}.{minor}, {:.0} GiB, CUDA driver {})",
            self.name,
            self.memory_bytes as f64 / (1u64 << 30) as f64,
            self.driver_version
        )
    }
}

/// Why there is no usable GPU here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoGpu {
    #[error("the CUDA driver library (libcuda) cannot be loaded: no NVIDIA driver on this machine")]
    NoDriver,
    #[error("the CUDA driver reports no device")]
    NoDevice,
    #[error("the CUDA driver failed: {0}")]
    Driver(String),
}

/// The first device (ordinal 0), or why there is none. Probed once per process; cheap after.
pub fn probe() -> Result<GpuInfo, NoGpu> {
    static PROBED: OnceLock<Result<GpuInfo, NoGpu>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            if !driver_present() {
                return Err(NoGpu::NoDriver);
            }
            std::panic::catch_unwind(query_device).unwrap_or_else(|panic| {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic inside cudarc".into());
                Err(NoGpu::Driver(why))
            })
        })
        .clone()
}

/// Whether `libcuda` can be loaded (cudarc's own check, which only tries to open the library).
#[allow(unsafe_code)]
fn driver_present() -> bool {
    // SAFETY: `is_culib_present` is `unsafe` only because loading a library runs its
    // initialisers; it loads the NVIDIA driver library by cudarc's fixed list of names, which is
    // exactly what the first cudarc call would do anyway.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Whether `libnvrtc` can be loaded (cudarc's own check; nothing else is called).
#[allow(unsafe_code)]
pub(crate) fn nvrtc_present() -> bool {
    // SAFETY: as for `driver_present`: it only tries to open the library by cudarc's names.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// The driver's CUDA version, e.g. 13000 → `13.0`.
#[allow(unsafe_code)]
fn driver_version() -> Result<String, NoGpu> {
    use cudarc::driver::sys;
    let mut version: std::ffi::c_int = 0;
    // SAFETY: only called after `driver_present`; writes one int through a valid pointer.
    let status = unsafe { sys::cuDriverGetVersion(&mut version) };
    if status != sys::CUresult::CUDA_SUCCESS {
        return Err(NoGpu::Driver(format!("cuDriverGetVersion: {status:?}")));
    }
    Ok(format!("{}.{}", version / 1000, (version % 1000) / 10))
}

fn query_device() -> Result<GpuInfo, NoGpu> {
    use cudarc::driver::CudaContext;
    let driver = |e: cudarc::driver::DriverError| NoGpu::Driver(e.to_string());
    match CudaContext::device_count() {
        Ok(0) => return Err(NoGpu::NoDevice),
        Ok(_) => {}
        Err(e)
            if e.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_NO_DEVICE
                || e.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_NOT_INITIALIZED =>
        {
            return Err(NoGpu::NoDevice);
        }
        Err(e) => return Err(driver(e)),
    }
    let ctx = CudaContext::new(0).map_err(driver)?;
    let (major, minor) = ctx.compute_capability().map_err(driver)?;
    Ok(GpuInfo {
        name: ctx.name().map_err(driver)?,
        compute_capability: (major.max(0) as u32, minor.max(0) as u32),
        memory_bytes: ctx.total_mem().map_err(driver)? as u64,
        driver_version: driver_version()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skips (saying why) without a device; fails without one under `INFRAKATA_REQUIRE_GPU=1`.
    #[test]
    fn gpu_probe_finds_the_device_or_says_why_not() {
        match probe() {
            Ok(info) => {
                println!("gpu: {info}");
                assert!(!info.name.is_empty());
                assert!(info.compute_capability.0 >= 1);
                assert!(info.memory_bytes > 0);
                // A second probe is the cached one.
                assert_eq!(probe(), Ok(info));
            }
            Err(why) => {
                assert!(
                    !super::super::required(),
                    "INFRAKATA_REQUIRE_GPU=1 but no usable GPU: {why}"
                );
                println!("skipping: no GPU here ({why})");
            }
        }
    }

    /// `graders`, `server` and `katas` forbid `unsafe_code` at their roots, so no `allow` can
    /// compile there; `katas-runtime` only denies it (its GPU code needs `unsafe`). These two
    /// files are its only exceptions: `gpu/mod.rs` allows it on `mod driver` (the CUDA calls
    /// behind the safe device API), this file on its three library probes.
    const ALLOWED: [&str; 2] = ["runtime/src/gpu/mod.rs", "runtime/src/gpu/probe.rs"];

    /// True when `source` lowers the `unsafe_code` lint anywhere: `allow`, `expect` or `warn`,
    /// whatever the spacing, as an inner or outer attribute, alone or in a list of lints.
    /// A plain substring search missed `# ! [ allow ( unsafe_code ) ]` and `expect(...)`.
    fn lowers_unsafe_lint(source: &str) -> bool {
        let compact: String = source.chars().filter(|c| !c.is_whitespace()).collect();
        let lint = concat!("unsafe", "_code");
        compact.match_indices(lint).any(|(at, _)| {
            let before = &compact[..at];
            let Some(open) = before.rfind('(') else {
                return false;
            };
            // Only other lint names may sit between the bracket and this one.
            let listed = before[open + 1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ',' | ':'));
            let level = &before[..open];
            listed
                && ["allow", "expect", "warn"]
                    .iter()
                    .any(|l| level.ends_with(l))
        })
    }

    #[test]
    fn the_unsafe_lint_check_sees_every_spelling() {
        for lowered in [
            concat!("#![allow(unsafe", "_code)]"),
            concat!("# ! [ allow ( unsafe", "_code ) ]"),
            concat!("#[expect(unsafe", "_code)]"),
            concat!("#[allow(dead_code, unsafe", "_code)]"),
            concat!("#[allow(\n    unsafe", "_code,\n)]"),
            concat!("#![cfg_attr(all(), warn(unsafe", "_code))]"),
        ] {
            assert!(lowers_unsafe_lint(lowered), "{lowered}");
        }
        for kept in [
            concat!("#![forbid(unsafe", "_code)]"),
            concat!("#![deny(unsafe", "_code)]"),
            concat!("\"-Funsafe", "_code\""),
            concat!("// unsafe", "_code is denied"),
        ] {
            assert!(!lowers_unsafe_lint(kept), "{kept}");
        }
    }

    #[test]
    fn the_gpu_files_are_the_only_unsafe_exceptions() {
        fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !ALLOWED.iter().any(|a| path.ends_with(a))
                    && lowers_unsafe_lint(&std::fs::read_to_string(&path).unwrap())
                {
                    found.push(path.display().to_string());
                }
            }
        }
        let mut found = Vec::new();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        // The runtime's and the catalogue's code (packages included): a package's logic is
        // built beside the runtime; the other crates forbid the lint, and the hostile corpus
        // tries `allow(unsafe_code)` on purpose.
        for dir in [
            "katas/runtime/src",
            "katas/src",
            "katas/problems",
            "katas/scaffold",
        ] {
            walk(&root.join(dir), &mut found);
        }
        assert!(
            found.is_empty(),
            "unsafe allowed outside {ALLOWED:?}: {found:?}"
        );
    }

    #[test]
    fn gpu_info_serialises_for_the_capabilities() {
        let info = GpuInfo {
            name: "NVIDIA H200".into(),
            compute_capability: (9, 0),
            memory_bytes: 150_000_000_000,
            driver_version: "13.0".into(),
        };
        let bytes = postcard::to_stdvec(&info).unwrap();
        assert_eq!(postcard::from_bytes::<GpuInfo>(&bytes).unwrap(), info);
        assert_eq!(
            info.to_string(),
            "NVIDIA H200 (compute 9.0, 140 GiB, CUDA driver 13.0)"
        );
    }
}
