#!/usr/bin/env bash
# The learner's local loop, end to end, in a throw-away workspace:
#   `infrakata kata start` → edit → `cargo test -p katas <slug>` fails, then passes.
# Uses INFRAKATA_WORKSPACE so a learner's own katas/workspace/ is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
export INFRAKATA_WORKSPACE="$ws"
passed=0 failed=0
ok() { echo "learner-loop: ok   - $1"; passed=$((passed + 1)); }
bad() { echo "learner-loop: FAIL - $1"; failed=$((failed + 1)); }

# INFRAKATA_BIN: an `infrakata` already built (scripts/test.sh passes the one `cargo test` built,
# so CI does not build the service twice); otherwise the README's `cargo run`.
infrakata() {
  if [ -n "${INFRAKATA_BIN:-}" ]; then "$INFRAKATA_BIN" "$@"; else cargo run -q --bin infrakata -- "$@"; fi
}

file=$(infrakata kata start fast-power | tail -n 1)
[ "$file" = "$ws/fast-power.rs" ] && ok "kata start prints the new file's path last" || bad "kata start printed '$file'"

# The untouched starter compiles and fails with a readable message.
if out=$(cargo test -q -p katas --test packages fast-power::learner 2>&1); then
  bad "the untouched starter passed"
else
  grep -q "not accepted yet" <<<"$out" && grep -q "first failing case" <<<"$out" \
    && ok "the starter fails with a readable message" || { echo "$out"; bad "starter failure message"; }
fi

# A subtly wrong solution names the case, the input, expected and got.
sed -e 's/let (mut acc, mut b, mut e) = (1 % m,/let (mut acc, mut b, mut e) = (1,/' \
  katas/problems/fast-power/reference.rs >"$file"
if out=$(cargo test -q -p katas --test packages fast-power::learner 2>&1); then
  bad "a wrong solution passed"
else
  grep -q "pow_mod: modulus one, exponent zero" <<<"$out" && grep -q "expected: 0" <<<"$out" && grep -q "got:      1" <<<"$out" \
    && ok "a wrong solution is rejected with case, expected and got" || { echo "$out"; bad "wrong-solution message"; }
fi

# A correct one passes.
cp katas/problems/fast-power/reference.rs "$file"
if out=$(cargo test -q -p katas --test packages fast-power::learner 2>&1); then
  ok "a correct solution passes"
else
  echo "$out"; bad "a correct solution failed"
fi

echo "learner-loop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
