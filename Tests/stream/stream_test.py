#!/usr/bin/env python3
"""The event stream end to end: `headtrack run --simulated --socket TMP` with real clients on the socket.

Clients in one run of the demo story (25 s of real time):
  early   connects at once and reads everything
  never   connects at once and never reads a byte (must not slow the loop or cost anyone else a gesture)
  paused  connects at once, reads the hello, stops reading for 12 s, then reads on (must lose only state
          lines, be told how many with `dropped` lines, and still get every gesture)
  late    connects 11 s in (between the nod and the shake) and must get what follows
  example examples/gestures.py, whose printed gestures must be the loop's
The loop's own gesture lines on stdout are the truth the clients are compared with. Then: the socket file is
gone after the clean exit, a stale socket file is replaced, a live one is refused, stream.stateHz 0 sends no
state. Prints one PASS/FAIL line per check; exits 1 if any failed.
"""
import json, math, os, re, signal, socket, stat, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streamcheck import check, finish, wait_for_socket, connect, read_all, loop_gestures, gestures, same

def finite(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

tmp = tempfile.mkdtemp(prefix="headtrack-stream-")
path = os.path.join(tmp, "events.sock")

# ---- main run -------------------------------------------------------------------------------------------
# A twin run with no stream at all, at the same time, so both loops see the same machine load: the loop
# with clients must not overrun more than the loop without (a blocking server would overrun thousands of times).
baseline = subprocess.Popen([BIN, "run", "--simulated"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
proc = subprocess.Popen([BIN, "run", "--simulated", "--socket", path], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, text=True)
started = wait_for_socket(path, proc)
check("socket-appears", started, path)
if not started:
    print(proc.communicate()[0])
    sys.exit(1)
mode = stat.S_IMODE(os.stat(path).st_mode)
check("socket-mode-0660", mode == 0o660, oct(mode))

early, paused, late = [], [], []
threads = [threading.Thread(target=read_all, args=(connect(path), early)),
           threading.Thread(target=read_all, args=(connect(path), paused, 12.0))]
never = connect(path)
example = subprocess.Popen([sys.executable, os.path.join(ROOT, "examples", "gestures.py"), path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
for t in threads:
    t.start()

# A second headtrack on the same socket must be refused while the first serves it.
second = subprocess.run([BIN, "run", "--simulated", "--socket", path, "--duration", "1"],
                        capture_output=True, text=True, timeout=60)
check("live-socket-refused", second.returncode != 0 and "already serving" in second.stderr + second.stdout,
      f"rc={second.returncode} {(second.stderr + second.stdout).strip()[-160:]}")

time.sleep(max(0, 11.0 - 0.0))
late_thread = threading.Thread(target=read_all, args=(connect(path), late))
late_thread.start()

stdout, _ = proc.communicate(timeout=120)
baseline_out, _ = baseline.communicate(timeout=120)
for t in threads + [late_thread]:
    t.join(timeout=30)
example_out, _ = example.communicate(timeout=30)
never.close()

check("run-exit-0", proc.returncode == 0, f"rc={proc.returncode}")
check("socket-removed-at-exit", not os.path.exists(path))
truth = loop_gestures(stdout)
print("  loop reported gestures:", truth)
kinds = [k for k, _ in truth]
# The story (MotionScript.demoStory) has one nod (2 cycles, 9.5-10.5 s) then one shake (12.5-13.5 s); its single
# nod at 18.5-19 s answers the demo's own scripted app, and `run --simulated` plays no app: no client here asks,
# so it is no gesture (always-on takes two cycles).
check("story-gestures-exactly", [k for k, _ in truth] == ["nod", "shake"], str(truth))
windows = {"nod": (9.5, 10.5), "shake": (12.5, 13.5)}
details_ok = bool(early)
for m in (m for m in early if m["type"] == "gesture"):
    lo, hi = windows.get(m["gesture"], (0, -1))
    details_ok &= isinstance(m["start"], (int, float)) and lo - 0.3 <= m["start"] <= hi and m["start"] <= m["t"] \
        and isinstance(m["count"], int) and m["count"] >= 1
check("gesture-start-in-story-window-count-known", details_ok,
      str([(m["gesture"], m["start"], m["t"], m["count"]) for m in early if m["type"] == "gesture"]))

hello = early[0] if early else {}
check("hello-first", hello.get("type") == "hello" and hello.get("version") == 1 and isinstance(hello.get("imu"), str)
      and hello.get("rates", {}).get("state_hz") == 60, json.dumps(hello))
check("early-gets-every-gesture", same(gestures(early), truth), f"{gestures(early)}")
check("paused-gets-every-gesture", same(gestures(paused), truth), f"{gestures(paused)}")

def overruns_of(text):
    m = re.search(r"overruns=(\d+)", text)
    return int(m.group(1)) if m else -1

overruns, baseline_overruns = overruns_of(stdout), overruns_of(baseline_out)
periods = 25.0 * 200
# A machine so loaded that the twin loop without a stream missed more than 5 % of its IMU deadlines skips
# display ticks itself, so 60 Hz of loop time is not the stream's to keep; the check that always holds is
# that every display tick the loop ran gave the client a state line.
quiet_machine = 0 <= baseline_overruns <= periods * 0.05
m = re.search(r"display\+LEDs: .*\((\d+)\)", stdout)
display_ticks = int(m.group(1)) if m else -1
states = [m for m in early if m["type"] == "state"]
ts = [m["t"] for m in states]
span_states = [t for t in ts if 1.0 <= t <= ts[-1] - 1.0] if ts else []
rate = (len(span_states) - 1) / (span_states[-1] - span_states[0]) if len(span_states) > 1 else 0
early_ticks_missed = round(ts[0] * 60) if ts else 0   # display ticks before the client connected
check("state-line-per-display-tick", display_ticks > 0 and abs(len(states) + early_ticks_missed - display_ticks) <= 3,
      f"{len(states)} state lines + ~{early_ticks_missed} ticks before connecting vs {display_ticks} display ticks")
if quiet_machine:
    check("state-rate-60pm3", abs(rate - 60) <= 3, f"{rate:.2f} lines per loop second over {len(span_states)} lines")
else:
    print(f"SKIP state-rate-60pm3 -- machine overloaded (the twin loop without a stream overran {baseline_overruns} "
          f"times); measured {rate:.2f} lines per loop second")
gaps = [b - a for a, b in zip(ts, ts[1:])]
check("state-times-increase", all(g > 0 for g in gaps), f"min gap {min(gaps) if gaps else None}")
bad = []
for m in states:
    values = [m["t"], m["pitch_deg"], m["roll_deg"]] + m["quat"]
    if not all(finite(v) for v in values) or len(m["quat"]) != 4:
        bad.append(m); continue
    if m["heading_deg"] is not None and not (finite(m["heading_deg"]) and 0 <= m["heading_deg"] < 360):
        bad.append(m); continue
    if m["heading_valid"] and m["heading_deg"] is None:
        bad.append(m); continue
    if abs(math.sqrt(sum(q * q for q in m["quat"])) - 1) > 1e-3 or set(m["leds"]) != {"nod", "shake", "north", "up", "down", "left", "right", "status"}:
        bad.append(m)
check("state-values-finite-heading-0-360", not bad and len(states) > 0, f"{len(bad)} bad of {len(states)}; first bad {bad[:1]}")
valid_headings = [m for m in states if m["heading_valid"]]
check("heading-valid-most-of-the-time", len(valid_headings) > 0.8 * len(states), f"{len(valid_headings)}/{len(states)}")
# Independent truth for heading: the story faces north (0 deg) before the nod, and ends facing 180 deg.
near = lambda t: min(states, key=lambda m: abs(m["t"] - t))
north, south = near(8.5)["heading_deg"], near(23.5)["heading_deg"]
check("heading-follows-story", north is not None and min(north, 360 - north) < 10 and south is not None and abs(south - 180) < (10 if quiet_machine else 25),
      f"t=8.5 s: {north}, t=23.5 s: {south}")

# The background calibration's line, about once a second: state, fit, regions (docs/protocol.md, docs/calibration.md).
calibrations = [m for m in early if m["type"] == "calibration"]
cal_ts = [m["t"] for m in calibrations]
cal_ok = bool(calibrations) and all(
    m["phase"] == "background" and m["state"] in ("off", "learning", "calibrated") and m["source"] in ("none", "file", "learned")
    and m["cell_grid"]["bands"] * m["cell_grid"]["sectors"] == 72 and isinstance(m["points"], list)
    and all(len(p) == 3 and all(finite(v) for v in p) for p in m["points"])
    and (m["fit"] is None or (len(m["fit"]["cells"]) == 72 and all(isinstance(n, int) and 0 <= n <= m["per_region"] for n in m["fit"]["cells"])
                              and all(finite(m["fit"][k]) for k in ("residual", "coverage", "field_ut"))))
    and len(m["in_use"]["hard_iron_ut"]) == 3 and all(finite(v) for v in m["in_use"]["hard_iron_ut"])
    for m in calibrations)
check("calibration-lines-valid", cal_ok, json.dumps(calibrations[:1]))
cal_rate = (len(cal_ts) - 1) / (cal_ts[-1] - cal_ts[0]) if len(cal_ts) > 1 else 0
check("calibration-about-once-a-second", 0.8 <= cal_rate <= 1.3, f"{cal_rate:.2f} per loop second over {len(cal_ts)} lines")

p_states = sum(1 for m in paused if m["type"] in ("state", "calibration"))
p_dropped = sum(m["n"] for m in paused if m["type"] == "dropped")
check("paused-told-dropped", p_dropped > 0, f"{p_dropped} state and calibration lines dropped, {p_states} received")
check("paused-received-plus-dropped-equals-sent", abs(p_states + p_dropped - len(states) - len(calibrations)) <= 2,
      f"{p_states} + {p_dropped} vs {len(states)} + {len(calibrations)} sent to the early client")
order_ok = True
for a, b in zip(paused, paused[1:]):
    if a["type"] == "dropped" and b["type"] not in ("state", "calibration", "gesture", "bout_end", "fault"):
        order_ok = False
check("paused-line-types-known", all(m["type"] in ("hello", "state", "calibration", "gesture", "bout_end", "dropped", "fault") for m in paused) and order_ok)

late_first_state = next((m["t"] for m in late if m["type"] == "state"), None)
late_truth = [g for g in truth if late_first_state is not None and g[1] >= late_first_state - 0.01]
check("late-hello-first", bool(late) and late[0]["type"] == "hello", json.dumps(late[:1]))
check("late-gets-what-follows", late_first_state is not None and 10.5 < late_first_state < 12.5 and same(gestures(late), late_truth)
      and len(late_truth) >= 1, f"first state t={late_first_state}, gestures {gestures(late)} vs {late_truth}")

# A never-reading client costs one failed non-blocking send per display tick; a blocking server would stall
# the loop for the rest of the run (it would never finish: no overruns line at all, or thousands, and no
# gestures for anyone after the stall). The bound leaves room for this shared 2-core machine, where the
# five Python clients' own CPU use lands on the streaming loop and not on its twin (seen: 304 vs 169).
check("never-reading-client-does-not-slow-the-loop",
      0 <= overruns <= baseline_overruns * 2 + periods * 0.01,
      f"overruns={overruns} with 5 clients (one never reading) vs {baseline_overruns} for the twin loop without a stream, "
      f"of {int(periods)} IMU periods")
summary = re.search(r"event stream: .*", stdout)
print("  " + (summary.group(0) if summary else "no stream summary"))

example_gestures = re.findall(r"^(\w+) at ([0-9.]+) s$", example_out, re.M)
check("python-example-prints-gestures", same([(k, float(t)) for k, t in example_gestures], gestures(early), 0.0051)
      and example_out.startswith("connected: protocol 1") and "stream ended" in example_out, example_out.strip().replace("\n", " | "))

# ---- stale socket, stateHz 0 -----------------------------------------------------------------------------
stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stale.bind(path)
stale.close()   # the file stays, nobody listens: what a crash leaves behind
config = os.path.join(tmp, "config.json")
with open(config, "w") as f:
    f.write('{"stream": {"stateHz": 0}}')
proc = subprocess.Popen([BIN, "run", "--simulated", "--config", config, "--socket", path, "--duration", "3"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
quiet = []
ok = False
end = time.time() + 20
while time.time() < end and proc.poll() is None:
    try:
        s = connect(path)
        ok = True
        break
    except OSError:
        time.sleep(0.05)
if ok:
    read_all(s, quiet)
out, _ = proc.communicate(timeout=60)
check("stale-socket-replaced", ok and proc.returncode == 0, out.strip()[-200:])
check("state-hz-0-sends-no-state", bool(quiet) and quiet[0]["type"] == "hello" and quiet[0]["rates"]["state_hz"] == 0
      and not any(m["type"] == "state" for m in quiet), f"{len(quiet)} lines")

bad_path = subprocess.run([BIN, "run", "--simulated", "--socket", os.path.join(tmp, "missing", "x.sock"), "--duration", "1"],
                          capture_output=True, text=True, timeout=60)
check("missing-directory-clear-error", bad_path.returncode == 2 and "does not exist" in bad_path.stderr,
      bad_path.stderr.strip())
# ---- a launcher that blocks the stop signals ------------------------------------------------------------
# A blocked signal mask and ignored signals survive exec: a tracker started by a launcher that blocks SIGTERM
# and SIGINT (some CI runners and supervisors do) must still stop cleanly on them, saving and removing its
# socket, instead of running until SIGKILL. Truth: the exit status and the socket file, not headtrack's words.
def blocked_launcher():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
for stop in (signal.SIGTERM, signal.SIGINT):
    blocked_path = os.path.join(tmp, f"blocked-{stop.name}.sock")
    proc = subprocess.Popen([BIN, "run", "--simulated", "--socket", blocked_path, "--duration", "120"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=blocked_launcher)
    up = wait_for_socket(blocked_path, proc)
    if up:
        client = connect(blocked_path)
        up = client.makefile("r", encoding="utf-8").readline().startswith('{"type":"hello"')  # the loop runs
        client.close()
        proc.send_signal(stop)
    try:
        out, _ = proc.communicate(timeout=60)   # a hang guard: a tracker deaf to the signal runs its 120 s
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    check(f"stops-on-{stop.name}-blocked-by-launcher", up and proc.returncode == 0 and not os.path.exists(blocked_path)
          and "stopped" in out, f"rc={proc.returncode}, socket left: {os.path.exists(blocked_path)}; "
          + next((line[:100] for line in out.splitlines() if "stopped" in line), out.strip()[-100:]))

# ---- replay --stream: a recording served at its own pace ------------------------------------------------
trace_src = os.path.join(ROOT, "..", "shared", "data", "gestures", "st26_nod.csv")
if os.path.exists(trace_src):
    trace = os.path.join(tmp, "nod-8s.csv")
    with open(trace_src) as src, open(trace, "w") as out:
        rows = 0
        for line in src:
            if not line.startswith("#") and line[0].isdigit():
                rows += 1
                if rows > 26 * 8:   # 8 s at the recording's 26 Hz
                    break
            out.write(line)
    proc = subprocess.Popen([BIN, "replay", trace, "--mount=-x,z,y", "--json", "--socket", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    replayed = []
    ok = wait_for_socket(path, proc)
    if ok:
        read_all(connect(path), replayed)
    out, err = proc.communicate(timeout=60)
    summary = json.loads(out) if proc.returncode == 0 else {}
    want = [(e["gesture"], e["t"]) for e in summary.get("events", [])]
    got = gestures(replayed)
    # The client connects a moment after the replay starts: it gets every detection from then on.
    first_t = next((m["t"] for m in replayed if m["type"] == "state"), 99)
    with_details = all(isinstance(m["start"], (int, float)) and m["start"] <= m["t"] and isinstance(m["count"], int)
                       for m in replayed if m["type"] == "gesture")
    check("replay-stream-gestures-match-summary", ok and len(want) >= 1 and with_details
          and same(got, [w for w in want if w[1] >= first_t], 0.0006),
          f"client {got} vs summary {want} (client from t={first_t})")
    hello = replayed[0] if replayed else {}
    check("replay-stream-hello-names-the-mount-given", hello.get("mount") == "-x,z,y" and hello.get("mount_source") == "option",
          json.dumps(hello)[:300])
    states = [m["t"] for m in replayed if m["type"] == "state"]
    check("replay-stream-state-60-per-trace-second", len(states) > 1 and abs((len(states) - 1) / (states[-1] - states[0]) - 60) < 1,
          f"{len(states)} state lines over {states[-1] - states[0] if states else 0:.2f} s of trace time")

    # With --config and the mount `calibrate --mount` learned beside its calibration file, the hello names that.
    config = os.path.join(tmp, "config.json")
    with open(config, "w") as f:
        json.dump({"calibrationFile": os.path.join(tmp, "calibration.json")}, f)
    learned = subprocess.run([BIN, "calibrate", "--mount", "--simulated", "--worn=-x,z,y", "--config", config],
                             capture_output=True, text=True, timeout=120)
    proc = subprocess.Popen([BIN, "replay", trace, "--config", config, "--json", "--socket", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = ""
    if wait_for_socket(path, proc):
        first = connect(path).makefile("r", encoding="utf-8").readline()
    proc.communicate(timeout=60)
    hello = json.loads(first) if first else {}
    check("replay-config-hello-names-the-learned-mount", learned.returncode == 0 and hello.get("mount") == "-x,z,y"
          and hello.get("mount_source") == "learned", f"calibrate rc={learned.returncode}; {json.dumps(hello)[:300]}")
else:
    print("SKIP replay-stream -- needs ../shared (README: Shared recordings): ../shared/data/gestures/st26_nod.csv not found")

finish("stream")
