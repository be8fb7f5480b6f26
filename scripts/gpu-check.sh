#!/usr/bin/env bash
# The one device check, for a lent GPU machine (README, "GPU"): builds and runs every GPU test
# with the GPU required (INFRAKATA_REQUIRE_GPU=1: a test that finds no device fails instead of
# skipping) and prints a short table last. Meant to finish well inside 8 minutes.
#
# For now it covers the device probe (graders::gpu); the GPU katas' tests and benchmarks join
# it as they are written. Everything it runs also passes, skipping, on machines without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."

export INFRAKATA_REQUIRE_GPU=1
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

step build cargo build -p graders --tests
step probe cargo test -p graders --lib gpu -- --nocapture

device=$(grep -h '^gpu: ' "$log_dir/probe.log" 2>/dev/null | head -1 | sed 's/^gpu: //')
why=$(grep -ho 'no usable GPU: .*' "$log_dir/probe.log" 2>/dev/null | head -1 | sed 's/^no usable GPU: //')

echo
echo "GPU check ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "device: ${device:-none found${why:+ ($why)}}"
printf '%-10s %-18s %6s\n' step result time
for row in "${rows[@]}"; do
  echo "$row"
done
exit "$status"
