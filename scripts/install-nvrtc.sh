#!/usr/bin/env bash
# Installs NVRTC (CUDA 13.0, the lent GPU machines' version) from PyPI into target/nvrtc when it
# is missing, so GPU kernels are compiled and signature-checked on machines without a GPU.
# NVRTC needs no driver and no device. Prints the library folder (for LD_LIBRARY_PATH) last.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/target/nvrtc"
lib="$dest/nvidia/cu13/lib"
if [[ ! -e "$lib/libnvrtc.so.13" ]]; then
    # The wheel ships libnvrtc.so.13 only; cudarc also tries the unversioned name.
    python3 -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$dest" 'nvidia-cuda-nvrtc==13.0.88' >&2
fi
ln -sf libnvrtc.so.13 "$lib/libnvrtc.so"
echo "$lib"
