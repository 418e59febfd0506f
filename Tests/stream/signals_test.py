#!/usr/bin/env python3
"""Every way a command that serves the socket or writes files is stopped ends the clean way: SIGTERM at any
moment of `run --simulated --socket`'s start, SIGHUP, a reader that goes away (`run … | head -c 10`),
SIGTERM to `replay --stream` (also while it waits for its first client) and `calibrate --trace --socket`, and a
closed output under `replay --events`.
The truth is what is left on disk (no socket, lock, staging directory or `*.tmp-PID`) and the exit status
(0 for `run`, whose clean stop is its normal end; 1 with "stopped by ..." for the commands cut short),
never how long anything took. Usage: signals_test.py HEADTRACK_BIN. PASS/FAIL lines; exits 1 if any failed.
"""
import os, signal, subprocess, sys, tempfile, time

BIN = sys.argv[1]
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streamcheck import check, finish, wait_for_socket

tmp = tempfile.mkdtemp(prefix="headtrack-signals-")

def leftovers():
    return sorted(n for n in os.listdir(tmp) if n.startswith("s.sock") or ".tmp-" in n)

def still_trace(path, seconds=60, rate=100):
    """A head held still in a steady field: long enough to be stopped in the middle of at its own pace."""
    with open(path, "w") as f:
        f.write("# format: imu-trace v1\n# rate_hz: %d\n# units: t s, acc m/s^2, gyr rad/s, mag uT\n"
                "t,ax,ay,az,gx,gy,gz,mx,my,mz\n" % rate)
        for i in range(seconds * rate):
            f.write(f"{i / rate:.6f},0.0,0.0,9.81,0.0,0.0,0.0,20.0,0.0,-45.0\n")

sock = os.path.join(tmp, "s.sock")

# ---- SIGTERM during start-up: the handlers come before the socket -------------------------------------------
bad = []
for delay in (0.0, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.3):
    p = subprocess.Popen([BIN, "run", "--simulated", "--quiet", "--socket", sock, "--duration", "60"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    out = p.communicate(timeout=60)[0]
    # Killed before `main` (the program still loading, nothing created, nothing said) is the only other outcome.
    if leftovers() or not (p.returncode == 0 or (p.returncode == -signal.SIGTERM and not out)):
        bad.append((delay, p.returncode, leftovers(), out.strip()[-120:]))
    for n in leftovers():
        try: os.unlink(os.path.join(tmp, n))
        except OSError: pass
check("sigterm-at-any-moment-of-start-is-a-clean-stop", not bad, str(bad))

# ---- SIGHUP (the ssh session dropped) -------------------------------------------------------------------------
p = subprocess.Popen([BIN, "run", "--simulated", "--socket", sock, "--duration", "60"],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
wait_for_socket(sock, p)
time.sleep(0.5)
p.send_signal(signal.SIGHUP)
out = p.communicate(timeout=60)[0]
check("sighup-is-a-clean-stop", p.returncode == 0 and "stopped;" in out and not leftovers(),
      f"rc={p.returncode} left={leftovers()} {out.strip()[-200:]}")

# ---- run … | head -c 10: the reader goes away ----------------------------------------------------------------
p = subprocess.Popen([BIN, "run", "--simulated", "--socket", sock, "--duration", "60"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
first = p.stdout.read(10)
p.stdout.close()  # as head does after its 10 bytes
err = p.stderr.read().decode(errors="replace")
p.wait(timeout=90)
check("closed-output-is-a-clean-stop", len(first) == 10 and p.returncode == 0 and not leftovers(),
      f"rc={p.returncode} left={leftovers()} {err.strip()[-200:]}")

# ---- replay --stream and calibrate --trace --socket, stopped in the middle -------------------------------------
trace = os.path.join(tmp, "still.csv")
still_trace(trace)
for name, argv in (("replay-stream", [BIN, "replay", trace, "--socket", sock]),
                   # Still waiting for its first client: the wait ends on the signal too.
                   ("replay-wait-for-client", [BIN, "replay", trace, "--socket", sock, "--wait-for-client"]),
                   ("calibrate-trace-socket", [BIN, "calibrate", "--trace", trace, "--skip-gyro", "--socket", sock,
                                               "--out", os.path.join(tmp, "cal.json")])):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    appeared = wait_for_socket(sock, p)
    time.sleep(0.3)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    check(f"{name}-sigterm-removes-socket-and-lock", appeared and p.returncode == 1 and "stopped by SIGTERM" in err
          and not leftovers() and not os.path.exists(os.path.join(tmp, "cal.json")),
          f"rc={p.returncode} left={leftovers()} {err.strip()[-200:]}")

# ---- replay with its attitude on a pipe that closes: the events file's temporary goes too ------------------------
events = os.path.join(tmp, "events.csv")
p = subprocess.Popen([BIN, "replay", trace, "--attitude", "-", "--events", events],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
first = p.stdout.read(1)
p.stdout.close()  # as `| head -c 1` does
err = p.stderr.read().decode(errors="replace")
p.wait(timeout=90)
check("replay-closed-output-leaves-no-temporary", len(first) == 1 and p.returncode == 1 and not leftovers()
      and not os.path.exists(events), f"rc={p.returncode} left={leftovers()} {err.strip()[-200:]}")
finish("signals")
