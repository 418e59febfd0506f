#!/usr/bin/env bash
# Hardware-in-the-loop test against the real Linux I²C and GPIO drivers, in a VM.
#
# Boots Debian 12's own kernel under qemu (TCG; no KVM needed) with a small initramfs: busybox, i2c-stub posing
# as an MPU-9250 + AK8963, i2c-dev, gpio-sim (built here out of tree), and the real headtrack binary. The
# checks run inside the VM (guest/checks.sh) and judge headtrack only by what the kernel sees: the registers
# the test presets and the LED lines read back from gpio-sim. Prints one line per check and "N passed, M failed";
# exits non-zero if any check failed or the VM did not finish.
#
# --arch x86_64 (default): Debian's amd64 kernel under qemu-system-x86_64 and the native headtrack build.
# --arch arm64: Debian's arm64 kernel under qemu-system-aarch64 (-M virt -cpu cortex-a72), the headset binary
#   from scripts/build-board.sh, i2c-stub and gpio-sim cross-built against linux-headers-<abi>-arm64, and
#   busybox-static and hil-tool for arm64: the same checks on the architecture the headset runs.
#
# Environment:
#   HEADTRACK_BIN          headtrack binary to test (default: build it with swift build -c release --static-swift-stdlib;
#                          with --arch arm64: with scripts/build-board.sh)
#   HEADTRACK_CACHE        cache for the kernel and the gpio-sim module (default /var/cache/headtrack-hil)
#   HEADTRACK_HIL_KERNEL   Debian kernel ABI to use, e.g. 6.1.0-57 (default: newest cached, else Debian's current)
#   HEADTRACK_HIL_TIMEOUT  seconds before the VM is given up on (default 900)
#   HEADTRACK_HIL_INFRA_ONLY=1   check only the VM plumbing (i2c-stub, gpio-sim, instrument), no headtrack
#   HEADTRACK_HIL_SABOTAGE=north-line   configure headtrack's north LED on line 26 while the checks watch line 22:
#                          proves the checks fail when the program drives a wrong line (this run must fail)
# Needs root (apt-get, and nothing else). Run time: about a minute once the cache is warm.
set -euo pipefail

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
usage_error() { echo "usage: Tests/hil/run.sh [--arch x86_64|arm64] [--help]  (other settings come from the environment, see --help)" >&2; exit 2; }
ARCH=x86_64
while [ $# -gt 0 ]; do
    case $1 in
        --arch) ARCH=${2:-}; [ $# -ge 2 ] || usage_error; shift ;;
        *) usage_error ;;
    esac
    shift
done
case $ARCH in
    x86_64 | amd64) KARCH=amd64 ;;
    arm64 | aarch64) KARCH=arm64 ;;
    *) echo "hil: --arch $ARCH: choose x86_64 or arm64" >&2; exit 2 ;;
esac

HIL_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HIL_DIR/../.." && pwd)
CACHE=${HEADTRACK_CACHE:-/var/cache/headtrack-hil}
TIMEOUT=${HEADTRACK_HIL_TIMEOUT:-900}
WORK=$(mktemp -d /tmp/headtrack-hil.XXXXXX)
REPORTED=""
# Any unexpected stop (set -e) still ends with the counting line, so CI never sees a silent exit.
on_exit() {
    local status=$?
    rm -rf "$WORK"
    if [ -z "$REPORTED" ] && [ "$status" -ne 0 ]; then
        echo "hil: stopped unexpectedly (exit $status); see the messages above" >&2
        echo "0 passed, 1 failed"
    fi
}
trap on_exit EXIT
START=$(date +%s)

log() { echo "hil: $*" >&2; }
die() {
    echo "hil: error: $*" >&2
    echo "0 passed, 1 failed"
    REPORTED=1
    exit 1
}
[ "$(id -u)" = 0 ] || die "run as root: the script installs Debian packages with apt-get"
mkdir -p "$CACHE"

# shellcheck source=kernel.sh
. "$HIL_DIR/kernel.sh"
# shellcheck source=initramfs.sh
. "$HIL_DIR/initramfs.sh"

if [ "$KARCH" = amd64 ]; then
    ensure_packages qemu-system-x86 busybox-static build-essential kmod cpio xz-utils
else
    ensure_packages qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross build-essential kmod cpio xz-utils
    # The libraries the cross-built binary needs in the VM come from the sysroot build-board.sh prepares.
    BOARD_SYSROOT=$("$REPO/scripts/build-board.sh" --print-sysroot) || die "scripts/build-board.sh --print-sysroot failed (above)"
    BOARD_OBJDUMP=$(dirname "$(readlink -f "$(command -v swiftc)")")/llvm-objdump
fi
prepare_kernel

if [ "${HEADTRACK_HIL_INFRA_ONLY:-}" = 1 ]; then
    HEADTRACK_BIN=""
elif [ -z "${HEADTRACK_BIN:-}" ] && [ "$KARCH" = arm64 ]; then
    log "building the headset binary (scripts/build-board.sh)"
    HEADTRACK_BIN=$("$REPO/scripts/build-board.sh" 2>"$WORK/build-board.log" | tail -1) \
        || { tail -40 "$WORK/build-board.log"; die "scripts/build-board.sh failed; set HEADTRACK_BIN to test a prebuilt binary"; }
elif [ -z "${HEADTRACK_BIN:-}" ]; then
    ensure_packages libi2c-dev
    log "building headtrack (swift build -c release --static-swift-stdlib --product headtrack)"
    (cd "$REPO" && swift build -c release --static-swift-stdlib --product headtrack >"$WORK/swift-build.log" 2>&1) \
        || { tail -40 "$WORK/swift-build.log"; die "swift build failed; set HEADTRACK_BIN to test a prebuilt binary"; }
    HEADTRACK_BIN=$(cd "$REPO" && swift build -c release --static-swift-stdlib --show-bin-path)/headtrack
fi
[ -z "$HEADTRACK_BIN" ] || [ -x "$HEADTRACK_BIN" ] || die "HEADTRACK_BIN=$HEADTRACK_BIN is not an executable"

build_initramfs

log "booting $KDIR/vmlinuz under qemu (TCG) with timeout ${TIMEOUT}s"
console=$WORK/console.log
cmdline_extra=""
[ "${HEADTRACK_HIL_INFRA_ONLY:-}" = 1 ] && cmdline_extra+=" hil.infra_only=1"
[ -n "${HEADTRACK_HIL_SABOTAGE:-}" ] && cmdline_extra+=" hil.sabotage=$HEADTRACK_HIL_SABOTAGE"
vm_start=$(date +%s)
set +e
# Two vCPUs: headtrack's 200 Hz loop keeps one busy under TCG; the test's i2cset writes need the other to keep
# their timing (a nod swing must last under 0.7 s).
if [ "$KARCH" = amd64 ]; then
    qemu=(qemu-system-x86_64 -accel tcg -cpu max) serial=ttyS0
else
    qemu=(qemu-system-aarch64 -accel tcg -M virt -cpu cortex-a72) serial=ttyAMA0  # cortex-a72: the Pi 4's core
fi
timeout --kill-after=10 "$TIMEOUT" "${qemu[@]}" -smp 2 -m 768 \
    -nographic -no-reboot -nodefaults -serial stdio -display none \
    -kernel "$KDIR/vmlinuz" -initrd "$WORK/initramfs.cpio.gz" \
    -append "console=$serial panic=-1 quiet loglevel=3 rdinit=/init$cmdline_extra" \
    </dev/null >"$console" 2>&1
qemu_status=$?
set -e
vm_seconds=$(( $(date +%s) - vm_start ))
cp "$console" "$CACHE/last-console-$KARCH.log"

tr -d '\r' <"$console" | grep '^HIL-RESULT ' | sed 's/^HIL-RESULT //' || true
passed=$(tr -d '\r' <"$console" | grep -c '^HIL-RESULT PASS ' || true)
failed=$(tr -d '\r' <"$console" | grep -c '^HIL-RESULT FAIL ' || true)

if ! grep -q '^HIL-END' <(tr -d '\r' <"$console"); then
    if grep -q '^HIL-BOOTED' <(tr -d '\r' <"$console"); then
        echo "FAIL vm-finished -- the checks did not finish (qemu exit $qemu_status after ${vm_seconds}s)"
    else
        echo "FAIL vm-booted -- the VM never reached /init (qemu exit $qemu_status after ${vm_seconds}s)"
    fi
    echo "--- last 40 console lines (all in $CACHE/last-console-$KARCH.log) ---"
    tail -40 "$console"
    failed=$((failed + 1))
elif [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
    echo "FAIL vm-checks -- the VM ran but reported no check"
    failed=1
fi
log "$KARCH VM ran ${vm_seconds}s, whole test $(( $(date +%s) - START ))s"
echo "$passed passed, $failed failed"
REPORTED=1
[ "$failed" -eq 0 ]
