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
cargo test --workspace
