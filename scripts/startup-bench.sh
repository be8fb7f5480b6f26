#!/usr/bin/env bash
# `scripts/startup-bench.sh BIN [N]` (BENCHMARKS "A build's packages stored at its first start"):
# start-up of `infrakata serve --workers 0` until /api/health answers: on a fresh SQLite file
# (a build's first start: migrations, catalogue published, CPU packages stored) and again on
# the same file (a restart), alternating, N rounds.
set -euo pipefail
BIN=${1:?binary}; N=${2:-7}
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start() { # db -> ms
  local p; p=$(port)
  local t0; t0=$(date +%s%N)
  "$BIN" serve --addr "127.0.0.1:$p" --db "$1" --workers 0 >/dev/null 2>&1 &
  local pid=$!
  until curl -sf "http://127.0.0.1:$p/api/health" >/dev/null; do sleep 0.005; done
  local t1; t1=$(date +%s%N)
  kill $pid; wait $pid 2>/dev/null || true
  echo $(( (t1 - t0) / 1000000 ))
}
for i in $(seq "$N"); do
  d=$(mktemp -d)
  f=$(start "$d/k.db"); r=$(start "$d/k.db")
  echo "round $i: first start ${f} ms, restart ${r} ms"
  rm -rf "$d"
done
