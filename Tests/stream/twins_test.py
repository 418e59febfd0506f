#!/usr/bin/env python3
"""One socket path, one server: 100 `headtrack run --simulated --socket PATH` released at the
same instant (all blocked opening one FIFO until it is opened for writing). Exactly one serves; every other
exits 1 saying "another headtrack is already serving PATH (pid N)" with N the one that serves; and at no moment
does the kernel list two listening sockets bound at PATH or at a staging name beside it (/proc/net/unix, what
`ss -xl` reads). Usage: twins_test.py HEADTRACK_BIN [N]. Prints PASS/FAIL lines; exits 1 if any failed.
"""
import os, re, signal, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streamcheck import check, finish

def listeners(prefix):
    """Listening AF_UNIX sockets whose bound name is PATH or starts with PATH (the staging names)."""
    found = []
    with open("/proc/net/unix") as f:
        next(f)
        for line in f:
            parts = line.split()
            # Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 = __SO_ACCEPTCON (listening)
            if len(parts) >= 8 and int(parts[3], 16) & 0x10000 and parts[7].startswith(prefix):
                found.append(parts[7])
    return found

tmp = tempfile.mkdtemp(prefix="headtrack-twins-")
path = os.path.join(tmp, "events.sock")
gate = os.path.join(tmp, "gate")
os.mkfifo(gate)
procs = []
for _ in range(N):
    # Blocks in open(gate) until the parent opens it for writing, then becomes headtrack (same pid).
    procs.append(subprocess.Popen(["sh", "-c", 'exec 3<"$0"; exec "$@"', gate, BIN, "run", "--simulated", "--quiet",
                                   "--socket", path, "--duration", "120"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
time.sleep(1.0)  # every shell is waiting at the gate
most = 0
seen = []
stop_watching = False
def watch():
    global most
    while not stop_watching:
        now = listeners(path)
        if len(now) > most:
            most = len(now)
            seen.append(now)
        time.sleep(0.002)
watcher = threading.Thread(target=watch)
watcher.start()
os.close(os.open(gate, os.O_WRONLY))  # all released at once

outputs = {}
deadline = time.time() + 240
# Losers exit by themselves; the winner serves until it is stopped.
while time.time() < deadline and sum(p.poll() is None for p in procs) > 1:
    time.sleep(0.1)
running = [p for p in procs if p.poll() is None]
time.sleep(0.5)
stop_watching = True
watcher.join()
for p in running:
    p.send_signal(signal.SIGINT)
for p in procs:
    try:
        outputs[p.pid] = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        outputs[p.pid] = p.communicate()

check("exactly-one-serves", len(running) == 1, f"{len(running)} still running after the others exited")
check("never-two-listeners", most <= 1, f"most listeners at once: {most} {seen[-1] if seen else ''}")
winner = running[0].pid if len(running) == 1 else None
losers = [p for p in procs if p.pid != winner]
want = re.compile(r"another headtrack is already serving " + re.escape(path) + r" \(pid (\d+)\)")
says_who = [p for p in losers if p.returncode == 1 and (m := want.search(outputs[p.pid][1])) and int(m.group(1)) == winner]
others = [outputs[p.pid][1].strip().splitlines()[-1:] for p in losers if p not in says_who]
check(f"every-loser-says-who-serves", len(says_who) == len(losers) == N - 1,
      f"{len(says_who)} of {len(losers)} name pid {winner}; others said: {others[:3]}")
if winner is not None:
    w = next(p for p in procs if p.pid == winner)
    check("winner-served-and-exited-0", w.returncode == 0 and "event stream on " + path in outputs[winner][0] + outputs[winner][1],
          f"rc={w.returncode}")
check("socket-removed-after-the-winner", not os.path.exists(path))
check("no-staging-or-lock-file-left", not [n for n in os.listdir(tmp) if n.startswith("events.sock")], str(os.listdir(tmp)))
finish("twins")
