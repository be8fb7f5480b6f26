//! The grader's view of the GPU: the probe (shared with `katas`, which runs kernels), what a
//! GPU job's sandbox needs from the host, and the yardsticks a worker measures at start.

pub use katas::gpu::{GpuInfo, NoGpu, Peak, probe, required};
use std::path::{Path, PathBuf};

/// What a GPU job's sandbox is given from the host: the folders holding the CUDA driver
/// library and NVRTC (bound read-only at the same paths) and the NVIDIA device nodes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GpuHost {
    pub libraries: Vec<PathBuf>,
    pub devices: Vec<PathBuf>,
}

impl GpuHost {
    /// Looks where CUDA installs put things: `INFRAKATA_NVRTC_DIR`, `LD_LIBRARY_PATH`, this
    /// checkout's `target/nvrtc` (scripts/install-nvrtc.sh), the toolkit and the distribution's
    /// library folders. Missing pieces are simply absent: the sandboxed runner then reports
    /// what it could not load.
    pub fn discover(workspace_root: &Path) -> Self {
        let mut candidates: Vec<PathBuf> = Vec::new();
        for var in ["INFRAKATA_NVRTC_DIR", "LD_LIBRARY_PATH"] {
            if let Some(value) = std::env::var_os(var) {
                candidates.extend(std::env::split_paths(&value));
            }
        }
        candidates.push(workspace_root.join("target/nvrtc/nvidia/cu13/lib"));
        candidates.extend(
            [
                "/usr/local/cuda/lib64",
                "/usr/local/cuda/targets/x86_64-linux/lib",
                "/usr/lib/x86_64-linux-gnu",
                "/usr/lib64",
            ]
            .map(PathBuf::from),
        );
        let mut libraries: Vec<PathBuf> = Vec::new();
        for dir in candidates {
            let Ok(dir) = dir.canonicalize() else {
                continue;
            };
            if holds_cuda_library(&dir) && !libraries.contains(&dir) {
                libraries.push(dir);
            }
        }
        Self {
            libraries,
            devices: nvidia_devices(Path::new("/dev")),
        }
    }

    /// Each library folder and where the sandbox sees it: folders under `/usr` (visible there
    /// anyway) keep their path, others get `/gpu-lib/<n>` — their host path could lie under
    /// a folder the sandbox mounts over, such as `/tmp`.
    pub fn library_mounts(&self) -> Vec<(PathBuf, PathBuf)> {
        self.libraries
            .iter()
            .enumerate()
            .map(|(i, dir)| {
                let inside = if dir.starts_with("/usr") {
                    dir.clone()
                } else {
                    PathBuf::from(format!("/gpu-lib/{i}"))
                };
                (dir.clone(), inside)
            })
            .collect()
    }

    /// `LD_LIBRARY_PATH` for inside the sandbox.
    pub fn library_path(&self) -> String {
        self.library_mounts()
            .iter()
            .map(|(_, inside)| inside.display().to_string())
            .collect::<Vec<_>>()
            .join(":")
    }
}

fn holds_cuda_library(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("libnvrtc.so") || name.starts_with("libcuda.so")
        })
    })
}

/// `/dev/nvidiactl`, `/dev/nvidia0`…, `/dev/nvidia-uvm*`: the nodes the driver library opens.
fn nvidia_devices(dev: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dev)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().unwrap_or_default().to_string_lossy();
                    name.starts_with("nvidia") && name != "nvidia-modeset" && !p.is_dir()
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cuda_library_folders_and_device_nodes() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib");
        std::fs::create_dir(&lib).unwrap();
        assert!(!holds_cuda_library(&lib));
        std::fs::write(lib.join("libnvrtc.so.13"), b"").unwrap();
        assert!(holds_cuda_library(&lib));
        let dev = dir.path().join("dev");
        std::fs::create_dir(&dev).unwrap();
        for name in [
            "nvidia0",
            "nvidiactl",
            "nvidia-uvm",
            "nvidia-modeset",
            "null",
        ] {
            std::fs::write(dev.join(name), b"").unwrap();
        }
        let names: Vec<String> = nvidia_devices(&dev)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["nvidia-uvm", "nvidia0", "nvidiactl"]);
        let host = GpuHost {
            libraries: vec!["/tmp/x/lib".into(), "/usr/local/cuda/lib64".into()],
            devices: Vec::new(),
        };
        assert_eq!(host.library_path(), "/gpu-lib/0:/usr/local/cuda/lib64");
    }
}
