#!/usr/bin/env bash
# Does the unit's system call filter let the daemon run? The deploy and VM tests cannot tell: no systemd runs
# there. This traces a real `headtrack run --simulated` (with --realtime: SCHED_FIFO, CPU pinning, mlockall)
# under strace, expands board/headtrack.service's SystemCallFilter= lines in order, as systemd applies them, with
# `systemd-analyze syscall-filter`, and fails if the daemon made a call the filter would kill it for.
# Limits: the simulated board, not the I2C/GPIO path (that adds openat/ioctl/read/write/close, all allowed:
# see the unit's comment), and this machine's architecture and libc.
#
#   deploy/tests/syscalls.sh                     # builds the debug binary (swift build --product headtrack)
#   HEADTRACK_BIN=path/to/headtrack deploy/tests/syscalls.sh
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
unit=$repo/board/headtrack.service
# Install what is missing when we can (root, as in CI on a fresh machine); otherwise say what to install.
if [ "$(id -u)" = 0 ] && ! { command -v strace && command -v systemd-analyze; } >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q strace systemd >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace systemd >/dev/null 2>&1; } || true
fi
for tool in strace systemd-analyze python3; do
    command -v "$tool" >/dev/null || { echo "syscalls: needs $tool (apt-get install strace systemd python3)" >&2; exit 1; }
done
if [ -z "${HEADTRACK_BIN:-}" ]; then
    (cd "$repo" && swift build --product headtrack >/dev/null) || { echo "syscalls: swift build failed" >&2; exit 1; }
    HEADTRACK_BIN=$(cd "$repo" && swift build --show-bin-path)/headtrack
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Two runs: paced with the real-time options the unit allows, and as fast as possible (other code paths in the loop).
strace -f -qq -o "$work/paced" "$HEADTRACK_BIN" run --simulated --realtime --cpu 0 --duration 2 >/dev/null 2>&1 ||
    { echo "syscalls: headtrack run --simulated --realtime failed" >&2; exit 1; }
strace -f -qq -o "$work/fast" "$HEADTRACK_BIN" run --simulated --speed 0 >/dev/null 2>&1 ||
    { echo "syscalls: headtrack run --simulated --speed 0 failed" >&2; exit 1; }

# The event stream (issue 14): socket, bind, chmod, listen, rename, accept, send, recv, unlink, with a client.
strace -f -qq -o "$work/stream" "$HEADTRACK_BIN" run --simulated --duration 3 --socket "$work/events.sock" >/dev/null 2>&1 &
strace_stream=$!
python3 - "$work/events.sock" <<'PY' || { echo "syscalls: no client could read the event stream" >&2; exit 1; }
import socket, sys, time
for _ in range(200):
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); break
    except OSError:
        time.sleep(0.05)
else:
    sys.exit(1)
sys.exit(0 if s.makefile().readline().startswith('{"type":"hello"') else 1)
PY
wait "$strace_stream" || { echo "syscalls: headtrack run --simulated --socket failed" >&2; exit 1; }
grep -qE '^[0-9]+ +(accept4?|rename|listen)\(' "$work/stream" || { echo "syscalls: the stream run traced no accept/listen/rename" >&2; exit 1; }

python3 - "$unit" "$work/paced" "$work/fast" "$work/stream" <<'PY'
import re, subprocess, sys

def members(group, cache={}):
    if group not in cache:
        out = subprocess.run(["systemd-analyze", "syscall-filter", group], capture_output=True, text=True, check=True).stdout
        names = set()
        for line in out.splitlines()[1:]:
            word = line.strip()
            if word and not word.startswith("#"):
                names |= members(word) if word.startswith("@") else {word}
        cache[group] = names
    return cache[group]

def allowed(lines):
    # systemd: the first line decides allow- or deny-list; later lines add (no ~) or remove (~) in order.
    result = set()
    for n, line in enumerate(lines):
        deny = line.startswith("~")
        names = set().union(*(members(w) if w.startswith("@") else {w} for w in line.lstrip("~").split()))
        assert n > 0 or not deny, "the unit's first SystemCallFilter= is expected to be an allow list"
        result = result - names if deny else result | names
    return result

filters = [m.group(1) for m in re.finditer(r"(?m)^SystemCallFilter=(.*)$", open(sys.argv[1]).read())]
used = set()
for trace in sys.argv[2:]:
    for line in open(trace):
        m = re.match(r"\d+\s+([a-z_0-9]+)\(", line)
        if m:
            used.add(m.group(1))
permitted = allowed(filters)
missing = sorted(used - permitted)
print(f"syscalls: the daemon made {len(used)} distinct calls; the unit's filter ({len(filters)} lines) allows {len(permitted)}")
# Negative control: without the line that re-adds the scheduling calls, the SCHED_FIFO thread must be caught.
control = sorted(used - allowed([f for f in filters if "sched_setscheduler" not in f.split()]))
if "sched_setscheduler" not in control:
    print("syscalls: FAIL negative control: dropping the scheduling line should forbid sched_setscheduler", control)
    sys.exit(1)
if missing:
    print("syscalls: FAIL the filter would kill the daemon at:", " ".join(missing))
    sys.exit(1)
print("syscalls: ok (negative control: without the scheduling line it would be killed at " + " ".join(control) + ")")
PY
