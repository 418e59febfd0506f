#!/usr/bin/env python3
"""A connect/disconnect storm cannot cost the loop its timing: two `headtrack run --simulated --realtime` started
at the same moment, each with one client that reads everything; one of them also gets STORMERS processes
doing `connect(); close()` as fast as they can for the whole demo story (each stops by itself when the server
is gone, or after STORM_LIMIT connections). The stormed loop must run the same IMU samples (within 0.5 %) with
the server must take at most 2 new clients a display tick (StreamServer.Settings.acceptsPerTick: the bound that
keeps a storm's cost per tick fixed; unbounded, a storm had 29 000 served in the same run), and its reading
client must still get every gesture. Both loops' overruns and display p99 are printed, not asserted: at 1000 Hz
a debug build on a shared machine overruns by itself by a count that varies from run to run (16 to 65 in the
quiet twin here, 40 to 46 stormed with the bound, 67 to 80 without it). Counts, not
wall-clock times: both loops share the machine, so the storm's load falls on both.
Usage: storm_test.py HEADTRACK_BIN. Prints one PASS/FAIL line per check; exits 1 if any failed.
"""
import os, re, subprocess, sys, tempfile

BIN = sys.argv[1]
STORMERS = 4
IMU_HZ = os.environ.get("STORM_IMU_HZ", "1000")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streamcheck import (check, finish, loop_gestures, gestures, same, start_twins, wait_twins, attacker_counts,
                         run_counts)

# Each stormer is its own process: connect, close, again, until the socket is gone (the run ended) or refuses
# for a while, bounded by a count so it stops even if something else answers on the path.
STORM = r"""
import socket, sys, time
path, limit = sys.argv[1], int(sys.argv[2])
made = 0
failures = 0
while made < limit and failures < 200:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(1.0)
    try:
        s.connect(path)
        made += 1
        failures = 0
    except OSError:
        failures += 1
        time.sleep(0.005)
    finally:
        s.close()
print(made)
"""
STORM_LIMIT = 2_000_000

def display_ticks(stdout):
    m = re.search(r"display\+LEDs: .*\((\d+)\)", stdout)
    return int(m.group(1)) if m else -1

def display_p99(stdout):
    """The display tick's p99 from the stage timing (shown, not asserted: a time, not a count)."""
    m = re.search(r"display\+LEDs: p50 [0-9.]+ µs, p99 ([0-9.]+) µs", stdout)
    return m.group(1) + " µs" if m else "?"

tmp = tempfile.mkdtemp(prefix="headtrack-storm-")
runs = start_twins(BIN, ("quiet", "stormed"), tmp, extra=("--imu-hz", IMU_HZ))
stormers = [subprocess.Popen([sys.executable, "-c", STORM, runs["stormed"]["path"], str(STORM_LIMIT)],
                             stdout=subprocess.PIPE, text=True) for _ in range(STORMERS)]

wait_twins(runs)
connections = attacker_counts(stormers, timeout=60)

quiet, stormed = runs["quiet"], runs["stormed"]
(q_samples, q_overruns, _), (s_samples, s_overruns, s_served) = run_counts(quiet["stdout"]), run_counts(stormed["stdout"])
for r in (quiet, stormed):
    check("run-exit-0", r["proc"].returncode == 0, f"rc={r['proc'].returncode} {r['stdout'].strip()[-300:]}")
print(f"  quiet: {q_samples} IMU samples, {q_overruns} overruns; stormed by {STORMERS} processes "
      f"({sum(connections)} connections, {s_served} clients served): {s_samples} samples, {s_overruns} overruns; "
      f"display tick p99 {display_p99(stormed['stdout'])} stormed vs {display_p99(quiet['stdout'])} quiet")
if "real-time mode: SCHED_FIFO" not in quiet["stdout"]:
    print("  note: real-time mode was refused here; the loops ran with normal scheduling")
check("storm-happened", sum(connections) > 1000, f"{connections} connections")
# The bound is a count, exact whatever the load: no more clients served than 2 a display tick.
ticks = display_ticks(stormed["stdout"])
check("at-most-2-new-clients-a-display-tick", ticks > 0 and 0 < s_served <= 2 * ticks + 2,
      f"{s_served} clients served in {ticks} display ticks")
check("storm-costs-at-most-0.5%-of-IMU-samples", q_samples > 0 and s_samples >= q_samples * 0.995,
      f"{s_samples} stormed vs {q_samples} quiet")
truth = loop_gestures(stormed["stdout"])
got = gestures(stormed["messages"])
check("stormed-loop-sees-the-story", [k for k, _ in truth] == ["nod", "shake"], str(truth))
check("reading-client-gets-every-gesture-despite-the-storm", same(got, truth), f"{got} vs {truth}")
finish("storm")
