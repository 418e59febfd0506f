#!/usr/bin/env bash
# One command that installs what is missing and runs every test suite:
#   1. swift test (unit, simulated-hardware and recorded-trace tests)
#   1b. Tests/stream/run.sh (event stream clients, the Python example, `watch` in tmux)
#   2. Tests/hil/run.sh  (the real Linux I²C and GPIO drivers in a VM), when present
#   3. deploy/tests/run.sh (deploy to a real SSH server on 127.0.0.1), when present
#   4. deploy/tests/syscalls.sh (the unit's system call filter against a traced simulated run), when present
# Prints one line per suite and ends with "suites: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1
passed=0; failed=0; report=()
run_suite() {
  local name=$1; shift
  echo "=== $name: $*"
  if "$@"; then passed=$((passed + 1)); report+=("$name: ok"); else failed=$((failed + 1)); report+=("$name: FAILED"); fi
}
run_suite "swift test" swift test
run_suite "event stream test" Tests/stream/run.sh
[ -x Tests/hil/run.sh ] && run_suite "kernel VM test" Tests/hil/run.sh
[ -x deploy/tests/run.sh ] && run_suite "deploy test" deploy/tests/run.sh
[ -x deploy/tests/syscalls.sh ] && run_suite "unit syscall filter" deploy/tests/syscalls.sh
echo
printf '%s\n' "${report[@]}"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
