#!/usr/bin/env bash
# The cross-built headset binary, run here under qemu-user: does what the native build does, byte for byte.
#
# Builds the aarch64 binary with scripts/build-board.sh and the x86_64 one with swift build (same flags as the
# kernel VM test, so CI builds it once), then runs both on the same inputs and compares stdout, stderr and exit
# status, and the files replay writes:
#   demo --speed 0                          the simulated headset with its scripted gestures
#   probe --i2c /dev/i2c-nonexistent        a missing bus: a clear error and a non-zero exit
#   replay <recorded nodding> --events --attitude   a real recording (Tests/GesturesTests/Fixtures/st26_nod.csv)
# and checks that build-board.sh refuses a pin whose SHA256 differs from the archive's, and a version the archive
# does not have, with a message that says so and without building, and that --repin repairs the latter.
# Prints one line per check and "N passed, M failed" last; exits non-zero if any failed.
#
# Environment: HEADTRACK_BOARD_BIN (aarch64 binary to test; default: build it), HEADTRACK_BIN (native one),
# HEADTRACK_SDK_CACHE (as for build-board.sh). Needs qemu-user-static (installed with apt-get when missing).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
trace=$repo/Tests/GesturesTests/Fixtures/st26_nod.csv
passed=0 failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; if [ -n "${2:-}" ]; then printf '%s\n' "$2" | head -20 | sed 's/^/     | /'; fi; }
give_up() { echo "board check: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

T=$(mktemp -d /tmp/headtrack-board-check.XXXXXX)
trap 'rm -rf "$T"' EXIT

if ! command -v qemu-aarch64-static >/dev/null; then
    [ "$(id -u)" = 0 ] || give_up "qemu-aarch64-static is missing: apt-get install qemu-user-static (or run as root)"
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends \
        qemu-user-static >"$T/apt.log" 2>&1 || { tail -20 "$T/apt.log"; give_up "apt-get install qemu-user-static failed"; }
fi

board_bin=${HEADTRACK_BOARD_BIN:-}
if [ -z "$board_bin" ]; then
    board_bin=$("$repo/scripts/build-board.sh" 2>"$T/build-board.log" | tail -1) && [ -x "$board_bin" ] ||
        { tail -30 "$T/build-board.log"; give_up "scripts/build-board.sh failed"; }
fi
sysroot=$("$repo/scripts/build-board.sh" --print-sysroot 2>"$T/sysroot.log") || { cat "$T/sysroot.log"; give_up "no sysroot"; }
native_bin=${HEADTRACK_BIN:-}
if [ -z "$native_bin" ]; then
    (cd "$repo" && swift build -c release --static-swift-stdlib --product headtrack >"$T/native.log" 2>&1) ||
        { tail -30 "$T/native.log"; give_up "native swift build failed"; }
    native_bin=$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/headtrack
fi

case $(od -An -tx1 -j18 -N2 "$board_bin" | tr -d ' ') in
    b700) pass "the board binary is an aarch64 ELF (e_machine 183)" ;;
    *) fail "the board binary is an aarch64 ELF (e_machine 183)" "$(od -An -tx1 -N20 "$board_bin")" ;;
esac

# run_both NAME ARGS... : the same command line natively and under qemu-user, each in its own folder, where the
# files it writes land; {dir} in an argument becomes that folder.
run_both() {
    local name=$1 side bin
    shift
    for side in native board; do
        mkdir -p "$T/$name/$side"
        if [ "$side" = native ]; then bin=("$native_bin"); else bin=(qemu-aarch64-static -L "$sysroot" "$board_bin"); fi
        (cd "$T/$name/$side" && "${bin[@]}" "${@//\{dir\}/$T/$name/$side}" >stdout 2>stderr; echo $? >status)
    done
}
same_run() { # name -> passes when both sides wrote the same files with the same contents
    diff -r "$T/$1/native" "$T/$1/board" >"$T/$1.diff" 2>&1
}

run_both demo demo --speed 0
if same_run demo && [ "$(cat "$T/demo/board/status")" = 0 ] && grep -q '^demo passed' "$T/demo/board/stdout"; then
    pass "demo --speed 0 passes under qemu-aarch64, output identical to the native build's"
else
    fail "demo --speed 0 passes under qemu-aarch64, output identical to the native build's" "$(cat "$T/demo.diff" "$T/demo/board/stderr")"
fi

run_both probe probe --i2c /dev/i2c-nonexistent
if same_run probe && [ "$(cat "$T/probe/board/status")" != 0 ] && grep -q '/dev/i2c-nonexistent' "$T/probe/board/stderr"; then
    pass "probe on a missing bus: exit $(cat "$T/probe/board/status"), names the device ($(head -1 "$T/probe/board/stderr")), same as native"
else
    fail "probe on a missing bus: non-zero exit naming the device, same as native" "$(cat "$T/probe.diff" "$T/probe/board/stderr")"
fi

run_both replay replay "$trace" --mount=-x,z,y --events '{dir}/events.csv' --attitude '{dir}/attitude.csv'
if same_run replay && [ "$(cat "$T/replay/board/status")" = 0 ] && grep -q 'nod' "$T/replay/board/events.csv" &&
    [ "$(wc -l <"$T/replay/board/attitude.csv")" -gt 1000 ]; then
    pass "replay of a recorded nodding trace: $(grep -c nod "$T/replay/board/events.csv") nods, $(wc -l <"$T/replay/board/attitude.csv") attitude rows, identical to native"
else
    fail "replay of a recorded nodding trace: events and attitude identical to native" "$(cat "$T/replay.diff" "$T/replay/board/stderr")"
fi

# Wrong pins: copies of the lock file with one line changed. The checks run before anything is unpacked.
lock=$repo/scripts/board-sdk/packages.lock
sed 's/^\(sysroot  *bookworm libi2c0  *[^ ]*  *\)[0-9a-f]\{64\}/\1'"$(printf '0%.0s' $(seq 64))"'/' "$lock" >"$T/bad-sha.lock"
sed 's/^\(sysroot  *bookworm libi2c0  *\)[^ ]*/\1 9.9-9/' "$lock" >"$T/bad-version.lock"
cmp -s "$lock" "$T/bad-sha.lock" && fail "test setup: the SHA256 edit changed nothing in $lock"
cmp -s "$lock" "$T/bad-version.lock" && fail "test setup: the version edit changed nothing in $lock"
out=$(HEADTRACK_SDK_LOCK=$T/bad-sha.lock "$repo/scripts/build-board.sh" 2>&1); rc=$?
if [ "$rc" = 1 ] && grep -q 'SHA256' <<<"$out" && grep -q 'Nothing was built' <<<"$out" && ! grep -q 'swift build' <<<"$out"; then
    pass "a pin with another SHA256 than the archive's: refused before building"
else
    fail "a pin with another SHA256 than the archive's: refused before building (exit $rc)" "$out"
fi
out=$(HEADTRACK_SDK_LOCK=$T/bad-version.lock "$repo/scripts/build-board.sh" 2>&1); rc=$?
if [ "$rc" = 1 ] && grep -q 'no longer has libi2c0 9.9-9' <<<"$out" && grep -q 'snapshot.debian.org' <<<"$out" && ! grep -q 'swift build' <<<"$out"; then
    pass "a pinned version the archive does not have: says so, points to snapshot.debian.org, builds nothing"
else
    fail "a pinned version the archive does not have: says so, builds nothing (exit $rc)" "$out"
fi

cp "$T/bad-version.lock" "$T/repinned.lock"
out=$(HEADTRACK_SDK_LOCK=$T/repinned.lock "$repo/scripts/build-board.sh" --repin 2>&1); rc=$?
if [ "$rc" = 0 ] && cmp -s "$lock" "$T/repinned.lock" && grep -q 'libi2c0: 9.9-9 -> ' <<<"$out"; then
    pass "--repin moves the missing version back to the archive's, giving the shipped pin file byte for byte"
else
    fail "--repin moves the missing version back to the archive's (exit $rc)" "$out
$(diff "$lock" "$T/repinned.lock")"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
