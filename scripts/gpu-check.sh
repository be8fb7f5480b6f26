#!/usr/bin/env bash
# The one device check, for a lent GPU machine (README, "GPU"): runs every GPU test with the GPU
# required (INFRAKATA_REQUIRE_GPU=1: a test that finds no device fails instead of skipping) and
# prints a short table last: each step, then each reference kernel's rate, % of the measured
# copy bandwidth and speed against itself. Everything it runs also passes, skipping the device
# runs, on machines without a GPU (with INFRAKATA_REQUIRE_GPU=0).
#
#   scripts/gpu-check.sh           build with cargo, then run (a machine with a Rust toolchain)
#   scripts/gpu-check.sh --pack    build here, strip and collect the test binaries into
#                                  target/gpu-window/ (ignored), print their size; runs nothing
#   scripts/gpu-check.sh --packed  run what --pack collected, without cargo: for the lent
#                                  machine, which has no network and no Rust toolchain, and gets
#                                  the working tree plus at most 64 MiB of ignored build outputs
#                                  (carry target/gpu-window)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
mode=${1:-build}
window=target/gpu-window
# What may travel besides the tracked tree (the lent machine's limit is 64 MiB for both).
budget_bytes=$((56 << 20))

# pack: release test binaries of the GPU tests, by the name the run steps use.
pack() {
  rm -rf "$window" && mkdir -p "$window" || return 1
  local spec name exe
  for spec in "runtime-lib:-p katas-runtime --features cuda --lib" \
    "katas-packages:-p katas --test packages" "graders-catalogue:-p graders --test catalogue" \
    "graders-packages:-p graders --test function_packages"; do
    name=${spec%%:*}
    # shellcheck disable=SC2086 # the cargo arguments are words on purpose
    exe=$(cargo test --release --no-run --message-format=json ${spec#*:} |
      jq -r 'select(.reason == "compiler-artifact" and .executable != null) | .executable' |
      tail -1)
    if [ -z "$exe" ] || [ ! -x "$exe" ]; then
      echo "gpu-check --pack: cargo built no test binary for ${spec#*:}" >&2
      return 1
    fi
    # Debug info is most of a test binary; the symbols stay for readable panics.
    strip --strip-debug -o "$window/$name" "$exe" || return 1
  done
  {
    # Compile-time paths (the katas folder, the checkout) point here: --packed links this path
    # to the tree it runs in when the two differ.
    echo "built_root=$root"
    echo "commit=$(git rev-parse HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo '+changes')"
    echo "rustc=$(rustc -V)"
    echo "built=$(date -u +%Y-%m-%dT%H:%MZ)"
  } >"$window/manifest"
  local bytes
  bytes=$(du -cb "$window" | tail -1 | cut -f1)
  ls -l "$window"
  echo "gpu-window: $((bytes / 1024)) KiB in $window (budget $((budget_bytes >> 20)) MiB beside the tree)"
  if [ "$bytes" -gt "$budget_bytes" ]; then
    echo "gpu-window: over budget" >&2
    return 1
  fi
}

if [ "$mode" = --pack ]; then
  pack
  exit $?
fi
if [ "$mode" != build ] && [ "$mode" != --packed ]; then
  echo "usage: scripts/gpu-check.sh [--pack | --packed]" >&2
  exit 2
fi

export INFRAKATA_REQUIRE_GPU=${INFRAKATA_REQUIRE_GPU:-1}
# NVRTC: the toolkit's when there is one, else a Python wheel already installed (the lent
# machines' image has one), else the PyPI wheel (scripts/install-nvrtc.sh; needs the network).
nvrtc_lib=
if ls /usr/local/cuda/lib64/libnvrtc.so* >/dev/null 2>&1; then
  nvrtc_lib=/usr/local/cuda/lib64
elif site=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null) &&
  found=$(find "$site/nvidia" -name 'libnvrtc.so*' 2>/dev/null | head -1) && [ -n "$found" ]; then
  nvrtc_lib=$(dirname "$found")
elif [ "$mode" = build ]; then
  nvrtc_lib=$(scripts/install-nvrtc.sh)
fi
if [ -n "$nvrtc_lib" ]; then
  export LD_LIBRARY_PATH="$nvrtc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT

rows=()
status=0
started=$SECONDS

# step NAME COMMAND...: runs it, keeps its output, adds a table row.
step() {
  local name=$1
  shift
  local start=$SECONDS rc=0
  echo "== $name: $*"
  "$@" >"$log_dir/$name.log" 2>&1 || rc=$?
  cat "$log_dir/$name.log"
  local result=ok
  if [ "$rc" -ne 0 ]; then
    result="FAILED (exit $rc)"
    status=1
  fi
  rows+=("$(printf '%-10s %-18s %5ss' "$name" "$result" "$((SECONDS - start))")")
}

# skipped NAME WHY: a step that cannot run here, as a table row.
skipped() {
  echo "== $1: skipped: $2"
  rows+=("$(printf '%-10s %-18s %5s  %s' "$1" skipped - "$2")")
}

# from DIR COMMAND...: as cargo runs a test binary, from its package's folder.
from() {
  local dir=$1
  shift
  (cd "$dir" && "$@")
}

command -v nvidia-smi >/dev/null 2>&1 &&
  step nvidia-smi nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

if [ "$mode" = build ]; then
  step build cargo build --release -p katas -p katas-runtime -p graders --tests
  step probe cargo test --release -p katas-runtime --features cuda --lib gpu -- --nocapture
  # In-process: every GPU kata's reference accepted, starter and wrong solutions their verdicts.
  step packages cargo test --release -p katas --test packages -- gpu- --nocapture
  # Sandboxed: the same through the grader, with device timings of each reference (prints rates).
  step graded cargo test --release -p graders --test catalogue -- gpu- --nocapture --test-threads 1
  # A GPU kata the build never saw, graded from its own files.
  step copied cargo test --release -p graders --test function_packages -- gpu --nocapture
  # Published on the running service: through a replica whose grader has the device, and
  # through one without a grader, whose checks a remote worker with the device runs.
  step published cargo test --release -p server --test api -- a_gpu_kata_publishes_only_where --nocapture
else
  if [ ! -f "$window/manifest" ]; then
    echo "gpu-check --packed: no $window/manifest; run scripts/gpu-check.sh --pack first" >&2
    exit 2
  fi
  cat "$window/manifest"
  built_root=$(sed -n 's/^built_root=//p' "$window/manifest")
  if [ "$built_root" != "$root" ] && [ ! -e "$built_root" ]; then
    # The binaries find the katas folder at the path they were built in.
    mkdir -p "$(dirname "$built_root")" && ln -s "$root" "$built_root" &&
      echo "linked $built_root -> $root (the path the binaries were built in)"
  fi
  step probe from katas/runtime "$root/$window/runtime-lib" gpu --nocapture
  step packages from katas "$root/$window/katas-packages" gpu- --nocapture
  if command -v cargo >/dev/null 2>&1 && command -v rustc >/dev/null 2>&1; then
    step graded from graders "$root/$window/graders-catalogue" gpu- --nocapture --test-threads 1
    step copied from graders "$root/$window/graders-packages" gpu --nocapture
    skipped published "packed binaries: the service's test runs the infrakata binary it was built beside"
  else
    skipped graded "no Rust toolchain here (the sandboxed grader compiles each submission with rustc)"
  fi
fi

device=$(grep -h '^gpu: ' "$log_dir/probe.log" 2>/dev/null | head -1 | sed 's/^gpu: //')
why=$(grep -ho 'skipping: no GPU here (.*' "$log_dir/probe.log" 2>/dev/null | head -1)

echo
echo "GPU check ($(date -u +%Y-%m-%dT%H:%MZ), $mode, $((SECONDS - started)) s)"
echo "device: ${device:-none found${why:+ ($why)}}"
printf '%-10s %-18s %6s\n' step result time
for row in "${rows[@]}"; do
  echo "$row"
done
echo
echo "reference kernels (median of timed runs; % of this device's measured copy bandwidth):"
grep -h ' of peak), ' "$log_dir/graded.log" "$log_dir/packages.log" 2>/dev/null || echo "(none timed)"
exit "$status"
