#!/usr/bin/env bash
# The project's one test command (README). Installs nothing yet: every test needs only the Rust
# toolchain. When a test needs an optional part, this script installs it or the test says why it
# skips — and CI sets the variables that make such tests required.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/learner-loop.sh
cargo test --workspace
