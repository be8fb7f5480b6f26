#!/usr/bin/env bash
# `scripts/startup-bench.sh BIN [N]` (BENCHMARKS "A build's packages stored at its first start"):
# start-up of `infrakata serve --workers 0` until /api/health answers: on a fresh SQLite file
# (a build's first start: migrations, catalogue published, CPU packages stored) and again on
# the same file (a restart), alternating, N rounds.
# With EXAMPLES=1 the first start also waits until fast-power's custom-input form has its
# examples (made by its judge in the sandbox once the grader is ready; BENCHMARKS "The binary
# holds no kata's code").
set -euo pipefail
BIN=${1:?binary}; N=${2:-7}; EXAMPLES=${EXAMPLES:-}
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start() { # db -> ms
  local p; p=$(port)
  local t0; t0=$(date +%s%N)
  "$BIN" serve --addr "127.0.0.1:$p" --db "$1" --workers 0 >/dev/null 2>&1 &
  local pid=$!
  until curl -sf "http://127.0.0.1:$p/api/health" >/dev/null; do sleep 0.005; done
  local t1; t1=$(date +%s%N)
  local shown=""
  if [ -n "$EXAMPLES" ] && [ "$2" = first ]; then
    until curl -sf "http://127.0.0.1:$p/api/katas/fast-power" | jq -e '.custom_input | length > 0' >/dev/null; do
      sleep 0.01
    done
    shown=" (examples after $(( ($(date +%s%N) - t0) / 1000000 )) ms)"
  fi
  kill $pid; wait $pid 2>/dev/null || true
  echo "$(( (t1 - t0) / 1000000 )) ms$shown"
}
for i in $(seq "$N"); do
  d=$(mktemp -d)
  f=$(start "$d/k.db" first); r=$(start "$d/k.db" again)
  echo "round $i: first start ${f}, restart ${r}"
  rm -rf "$d"
done
