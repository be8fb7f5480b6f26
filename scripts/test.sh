#!/usr/bin/env bash
# The project's one test command (README). Installs what the tests need when it can (as root):
# valgrind for the grader's performance score. Tests that need root for the sandbox say why they
# skip without it — and CI (INFRAKATA_CI=1) makes them required.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing valgrind (performance score)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
  else
    echo "test.sh: valgrind is missing and cannot be installed here; performance figures will be absent"
  fi
fi

scripts/learner-loop.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace 2>&1 | tee "$log" || status=$?
# cargo prints one "test result" line per test binary (the last is often an empty doc-test
# run); close with the totals so the whole run reads as what it was.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
