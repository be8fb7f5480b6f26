#!/usr/bin/env bash
# The one device check, for a lent GPU machine (README, "GPU"): builds and runs every GPU test
# with the GPU required (INFRAKATA_REQUIRE_GPU=1: a test that finds no device fails instead of
# skipping) and prints a short table last: each step, then each reference kernel's rate, % of
# the measured copy bandwidth and speed against itself. Meant to finish well inside 8 minutes.
# Everything it runs also passes, skipping the device runs, on machines without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."

export INFRAKATA_REQUIRE_GPU=1
# NVRTC: the toolkit's when there is one, else the PyPI wheel (scripts/install-nvrtc.sh).
if ls /usr/local/cuda/lib64/libnvrtc.so* >/dev/null 2>&1; then
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
elif nvrtc_lib=$(scripts/install-nvrtc.sh); then
  export LD_LIBRARY_PATH="$nvrtc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT

rows=()
status=0

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

command -v nvidia-smi >/dev/null 2>&1 &&
  step nvidia-smi nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

step build cargo build --release -p katas -p graders --tests
step probe cargo test --release -p katas --lib gpu -- --nocapture
# In-process: every GPU kata's reference accepted, starter and wrong solutions their verdicts.
step packages cargo test --release -p katas --test packages -- gpu- --nocapture
# Sandboxed: the same through the grader, with device timings of each reference (prints rates).
step graded cargo test --release -p graders --test catalogue -- gpu- --nocapture --test-threads 1

device=$(grep -h '^gpu: ' "$log_dir/probe.log" 2>/dev/null | head -1 | sed 's/^gpu: //')
why=$(grep -ho 'skipping: no GPU here (.*' "$log_dir/probe.log" 2>/dev/null | head -1)

echo
echo "GPU check ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "device: ${device:-none found${why:+ ($why)}}"
printf '%-10s %-18s %6s\n' step result time
for row in "${rows[@]}"; do
  echo "$row"
done
echo
echo "reference kernels (median of timed runs; % of this device's measured copy bandwidth):"
grep -h ' of peak), ' "$log_dir/graded.log" 2>/dev/null || echo "(none timed)"
exit "$status"
