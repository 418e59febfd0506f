#!/usr/bin/env bash
# One command that installs what is missing and runs every test suite:
#   1. swift test (unit, simulated-hardware and recorded-trace tests)
#   1b. Tests/stream/run.sh (event stream clients, the Python example, `watch` in tmux)
#   1c. Tests/view/run.sh (`headtrack view` in headless Chromium through WebDriver; installs chromium)
#   2. Tests/hil/run.sh  (the real Linux I²C and GPIO drivers in a VM), when present
#   3. Tests/board/run.sh (the cross-built aarch64 binary under qemu-user against the native build)
#   4. Tests/hil/run.sh --arch arm64 (the same VM checks on Debian's arm64 kernel with the cross-built binary)
#   4b. Tests/system/run.sh (a booted Debian 12 arm64 guest with systemd and udev: deploy.sh to it over ssh, the unit,
#       the LEDs following a worn recording, restarts, reboot), when present; and the x86_64 guest with --long
#       (power cuts, the other sensor pairs) where KVM can boot it
#   5. deploy/tests/run.sh (deploy to a real SSH server on 127.0.0.1), when present
#   6. deploy/tests/syscalls.sh (the unit's system call filter against a traced simulated run), when present
#   7. scripts/kill-during-save.sh (SIGKILL at every system call of a calibration save)
#   8. scripts/fuzz.sh --seconds 8 (every libFuzzer target briefly)
# Prints one line per suite with the seconds it took and ends with "suites: N passed, M failed", and
# "K skipped: no ../shared" when checks that replay the shared recordings (README: Shared recordings) were
# skipped for want of them.
set -uo pipefail
# Every suite starts from the default signal state, whatever started this script. A CI runner may start it
# with signals blocked or ignored, and both survive exec: then `timeout -s INT`, Ctrl-C-like stops and the
# suites' own kills never arrive (stop 31's CI hung 74 minutes in the system suite's `deploy.sh --watch`
# check, whose 12 s `timeout -s INT` could not stop it). `env --default-signal` resets and unblocks them all.
if [ -z "${HEADTRACK_TEST_SIGNALS_RESET:-}" ]; then
  HEADTRACK_TEST_SIGNALS_RESET=1 exec env --default-signal bash "$0" "$@"
fi
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1
passed=0; failed=0; report=()
all_start=$SECONDS
log=$(mktemp /tmp/headtrack-test-log-XXXXXX)
suite_pid=""
trap 'rm -f "$log"' EXIT
# Ctrl-C or a TERM from outside stops the running suite's whole process group (timeout leads it), not only us.
on_interrupt() {
  [ -z "$suite_pid" ] || kill -TERM -- "-$suite_pid" 2>/dev/null
  echo "scripts/test.sh: interrupted" >&2
  exit 130
}
trap on_interrupt INT TERM HUP
# run_suite NAME LIMIT COMMAND...: LIMIT seconds is a hang guard, several times the suite's cold time; a suite
# that is still running then is stopped (TERM to its process group, KILL 30 s later) and counts as failed, so
# one hang costs its limit and the other suites still run.
run_suite() {
  local name=$1 limit=$2 start=$SECONDS outcome status; shift 2
  echo "=== $name: $*"
  timeout --kill-after=30 "$limit" bash -o pipefail -c '"$@" 2>&1 | tee -a "$0"' "$log" "$@" &
  suite_pid=$!
  wait "$suite_pid"; status=$?
  suite_pid=""
  if [ "$status" = 0 ]; then
    passed=$((passed + 1)); outcome=ok
  else
    failed=$((failed + 1)); outcome=FAILED
    [ "$status" = 124 ] || [ "$status" = 137 ] && outcome="FAILED (still running after its limit of $limit s: stopped)"
  fi
  report+=("$name: $outcome ($((SECONDS - start)) s)")
  echo "=== $name: $outcome in $((SECONDS - start)) s"
}
# Every relative link of README.md and docs/ names a file and heading that exist (a second or less).
run_suite "doc links" 60 scripts/check-doc-links.py
run_suite "swift test" 2400 swift test
run_suite "event stream test" 900 Tests/stream/run.sh
run_suite "live page in a browser" 900 Tests/view/run.sh
[ -x Tests/hil/run.sh ] && run_suite "kernel VM test" 1500 Tests/hil/run.sh
[ -x Tests/board/run.sh ] && run_suite "board binary under qemu-user" 1800 Tests/board/run.sh
[ -x Tests/hil/run.sh ] && [ -x scripts/build-board.sh ] && run_suite "kernel VM test arm64" 1200 Tests/hil/run.sh --arch arm64
[ -x Tests/system/run.sh ] && run_suite "system test arm64" 2100 Tests/system/run.sh
# The x86_64 guest with the long checks (power cuts, the other sensor pairs) where KVM can run it; under TCG they
# take most of an hour, so a machine without such KVM (this project's CI machine: its KVM is PVM) says so instead.
if [ -x Tests/system/run.sh ]; then
  if [ "$(Tests/system/run.sh --arch x86_64 --print-accel)" = KVM ]; then
    run_suite "system test x86_64 under KVM (--long)" 2100 Tests/system/run.sh --arch x86_64 --long
  else
    echo "=== system test x86_64 --long: not run: no KVM here that boots Debian's kernel (run Tests/system/run.sh --arch x86_64 [--long] by hand: TCG)"
    report+=("system test x86_64 --long: not run (no usable KVM)")
  fi
fi
[ -x deploy/tests/run.sh ] && run_suite "deploy test" 900 deploy/tests/run.sh
[ -x deploy/tests/syscalls.sh ] && run_suite "unit syscall filter" 600 deploy/tests/syscalls.sh
# Steady-state heap allocations of the loop, the replay and the stream clients, counted in a release build
# (swift test runs a debug build, which allocates in unspecialised generics).
run_suite "allocation guard" 1200 scripts/allocation-guard.sh
# Real SIGKILLs at every file system call of a calibration save (needs strace), and a short fuzz run of every
# libFuzzer target (8 s each, about a minute in all; scripts/fuzz.sh --seconds 600 for a long one).
run_suite "kill during save" 900 scripts/kill-during-save.sh
run_suite "fuzz (brief)" 1200 scripts/fuzz.sh --seconds 8
echo
printf '%s\n' "${report[@]}"
echo "all suites: $((SECONDS - all_start)) s"
# Skipped checks say "needs ../shared" (Swift Testing: `skipped: "needs ../shared …"`; the stream suite: SKIP lines).
shared_skips=$(grep -cE '(skipped|SKIP).*needs \.\./shared' "$log")
echo "suites: $passed passed, $failed failed$([ "$shared_skips" -gt 0 ] && echo "; $shared_skips skipped: no ../shared (README: Shared recordings)")"
[ "$failed" -eq 0 ]
