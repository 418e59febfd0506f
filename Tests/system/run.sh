#!/usr/bin/env bash
# The whole headset on a real operating system: boots Debian 12 (systemd as PID 1, udev, openssh-server, sudo)
# in a VM, deploys to it with deploy/deploy.sh over ssh exactly as a user does, and checks what the running
# system shows: systemctl, journalctl, systemd-analyze security, ps, /proc, the gpio-sim LED lines and the event
# socket, while a feeder in the guest writes a person's recorded head gestures into i2c-stub's registers at the
# recording's own rate. Prints one line per check and "N passed, M failed" last; exits non-zero if any failed.
#
# --arch arm64 (default): qemu-system-aarch64 -M virt -cpu cortex-a72 under TCG, the board's architecture, with
#   the binary deploy.sh builds (scripts/build-board.sh). The image's packages are installed under qemu-user
#   (binfmt_misc), so the image build needs no arm64 machine.
# --arch x86_64: the same Debian 12 as an amd64 guest (qemu-system-x86_64 -M q35), under KVM when /dev/kvm opens
#   and is not PVM (see vm.sh), TCG otherwise, with the binary deploy.sh builds for an x86_64 board (swift build
#   --static-swift-stdlib here). The same checks.
# --print-accel: print KVM or TCG, how the --arch guest would run here, and exit (scripts/test.sh asks).
# --long: also the checks that take minutes under TCG: a power cut (the VM killed) at HEADTRACK_SYSTEM_CUTS
#   points (default 20) of a deploy, each followed by a cold boot that must run a whole release; the other
#   sensor pairs (MPU-6050 + QMC5883L, ICM-20948 + AK09916, MPU-6500 + HMC5883L) worn by the same recording.
#   Also HEADTRACK_SYSTEM_LONG=1.
#
# Environment:
#   HEADTRACK_BIN              headtrack binary to deploy with --binary (default: deploy.sh builds it, as for a user)
#   HEADTRACK_SYSTEM_CACHE     image cache (default /var/cache/headtrack-system)
#   HEADTRACK_CACHE            Tests/hil's kernel cache, shared (default /var/cache/headtrack-hil)
#   HEADTRACK_SYSTEM_SABOTAGE  led-line | syscall-filter | missing-group: deploy a config driving the nod LED on
#                              line 26, a unit whose system call filter lacks sched_setscheduler, or a unit naming
#                              a group that does not exist. Each must make this suite fail.
#   HEADTRACK_SYSTEM_KEEP=1    leave the work folder (disk, console logs) for a look afterwards
#   HEADTRACK_SYSTEM_ACCEL     kvm | tcg: how the x86_64 guest runs (default: KVM where it can boot Debian's kernel)
# Needs root (apt-get, mmdebstrap, binfmt_misc). Times: see docs/deploy.md, "What the suites prove".
set -euo pipefail

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
usage_error() { echo "usage: Tests/system/run.sh [--arch arm64|x86_64] [--long] [--print-accel] [--help]" >&2; exit 2; }
ARCH=arm64 LONG=${HEADTRACK_SYSTEM_LONG:-0} PRINT_ACCEL=0
while [ $# -gt 0 ]; do
    case $1 in
        --arch) ARCH=${2:-}; [ $# -ge 2 ] || usage_error; shift ;;
        --long) LONG=1 ;;
        --print-accel) PRINT_ACCEL=1 ;;
        *) usage_error ;;
    esac
    shift
done
case $ARCH in
    arm64 | aarch64) KARCH=arm64 ;;
    x86_64 | amd64) KARCH=amd64 ;;
    *) echo "system: --arch $ARCH: choose arm64 (the headset's architecture) or x86_64" >&2; exit 2 ;;
esac

SYSTEM_DIR=$(cd "$(dirname "$0")" && pwd)
if [ "$PRINT_ACCEL" = 1 ]; then
    # shellcheck source=vm.sh
    . "$SYSTEM_DIR/vm.sh"
    echo "$ACCEL"
    exit 0
fi
REPO=$(cd "$SYSTEM_DIR/../.." && pwd)
SYSTEM_CACHE=${HEADTRACK_SYSTEM_CACHE:-/var/cache/headtrack-system}
CACHE=${HEADTRACK_CACHE:-/var/cache/headtrack-hil}   # kernel.sh's name for Tests/hil's kernel cache
SABOTAGE=${HEADTRACK_SYSTEM_SABOTAGE:-}
WORK=$(mktemp -d /tmp/headtrack-system.XXXXXX)
START=$(date +%s)
passed=0 failed=0 REPORTED="" QEMU_PID=""

log() { echo "system: $*" >&2; }
result() { # PASS|FAIL name detail
    if [ "$1" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    # Details quote terminal sessions (script(1)): their escape sequences and control bytes would garble the
    # log, so they go.
    echo "$1 $2 -- $(sed -E $'s/\x1b\\[[0-9;?]*[A-Za-z]//g' <<<"$3" | tr -d '\000-\010\013-\037\177')"
}
check() { # name detail condition...: PASS when the condition (a command) succeeds
    local name=$1 detail=$2; shift 2
    if "$@"; then result PASS "$name" "$detail"; else result FAIL "$name" "$detail"; fi
}
finish() {
    log "whole suite $(( $(date +%s) - START )) s"
    echo "$passed passed, $failed failed"
    REPORTED=1
    [ "$failed" -eq 0 ]
}
die() {
    echo "system: error: $*" >&2
    failed=$((failed + 1))
    finish || exit 1
}
on_exit() {
    local status=$?
    [ -z "$QEMU_PID" ] || kill -9 "$QEMU_PID" 2>/dev/null || true
    mkdir -p "$SYSTEM_CACHE"
    for f in "$WORK"/console-*.log; do [ -f "$f" ] && cp "$f" "$SYSTEM_CACHE/last-$(basename "$f")"; done
    if [ "${HEADTRACK_SYSTEM_KEEP:-}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
    if [ -z "$REPORTED" ] && [ "$status" -ne 0 ]; then
        echo "system: stopped unexpectedly (exit $status); see the messages above" >&2
        echo "$passed passed, $((failed + 1)) failed"
    fi
}
trap on_exit EXIT
[ "$(id -u)" = 0 ] || die "run as root: the suite installs Debian packages and builds the image with mmdebstrap"
mkdir -p "$SYSTEM_CACHE" "$CACHE"

# shellcheck source=../hil/kernel.sh
. "$REPO/Tests/hil/kernel.sh"
# shellcheck source=image.sh
. "$SYSTEM_DIR/image.sh"
# shellcheck source=vm.sh
. "$SYSTEM_DIR/vm.sh"
# shellcheck source=checks.sh
. "$SYSTEM_DIR/checks.sh"

if [ "$KARCH" = arm64 ]; then
    # ipxe-qemu holds the virtio-net option ROM (efi-virtio.rom) the guest's network card needs: qemu-system-arm
    # only recommends it, and without it qemu exits at once. It came along only when the x86_64 suites had run first.
    ensure_packages qemu-system-arm ipxe-qemu qemu-user-static arch-test gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    GUEST_CC=aarch64-linux-gnu-gcc
else
    ensure_packages qemu-system-x86
    GUEST_CC=gcc
fi
ensure_packages qemu-utils mmdebstrap build-essential kmod cpio xz-utils e2fsprogs openssh-client busybox-static python3
# One image build at a time per cache; runs of the suite that find it ready share it.
exec 8>"$SYSTEM_CACHE/.lock"
flock 8
prepare_kernel
prepare_image
flock -u 8

"$GUEST_CC" -static -O2 -Wall -Werror -o "$WORK/system-tool" "$SYSTEM_DIR/system-tool.c" -lm ||
    die "compiling Tests/system/system-tool.c failed"
if [ -n "${HEADTRACK_BIN:-}" ]; then
    [ -x "$HEADTRACK_BIN" ] || die "HEADTRACK_BIN=$HEADTRACK_BIN is not an executable"
    DEPLOY_ROUTE=(--binary "$HEADTRACK_BIN")
else
    DEPLOY_ROUTE=()   # deploy.sh builds the board binary itself (scripts/build-board.sh), as for a user
fi

# The binary deploy.sh builds for this guest's board, for the checks that deploy with --binary.
board_binary() {
    if [ "$KARCH" = arm64 ]; then
        "$REPO/scripts/build-board.sh" 2>"$WORK/build-board.log" | tail -1
    else
        (cd "$REPO" && swift build -c release --product headtrack --static-swift-stdlib -Xlinker -s >"$WORK/build-board.log" 2>&1 &&
            echo "$(swift build -c release --show-bin-path)/headtrack")
    fi
}

run_checks
finish
