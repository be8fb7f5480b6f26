#!/usr/bin/env bash
# `scripts/cold-start-bench.sh BIN [N]`, from the checkout root (BENCHMARKS "Serving before the
# grader is ready"): a first start with the grader's cache (`target/infrakata`) removed, as after
# a change to `katas/`, on a fresh SQLite file; the time to the first /api/health answer and, in
# the same run, to the log's "grader ready" (until which `serve` used not to listen).
set -euo pipefail
BIN=$1; N=${2:-3}
for i in $(seq "$N"); do
  rm -rf target/infrakata
  d=$(mktemp -d); p=$((20000 + RANDOM % 20000))
  t0=$(date +%s%N)
  "$BIN" serve --addr "127.0.0.1:$p" --db "$d/k.db" --workers 1 > "$d/log" 2>&1 &
  pid=$!
  until curl -sf "http://127.0.0.1:$p/api/health" >/dev/null; do sleep 0.005; done
  t1=$(date +%s%N)
  until grep -q "grader ready in" "$d/log"; do sleep 0.05; done
  t2=$(date +%s%N)
  kill $pid; wait $pid 2>/dev/null || true
  echo "round $i: first /api/health $(( (t1 - t0) / 1000000 )) ms; grader ready $(( (t2 - t0) / 1000000 )) ms ($(grep -o 'grader ready in [0-9.]* s' "$d/log"))"
  rm -rf "$d"
done
