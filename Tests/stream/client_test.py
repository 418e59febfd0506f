#!/usr/bin/env python3
"""The Python client (clients/python, installed into a venv by run.sh) against the real daemon, no mock.

  run --simulated --socket TMP (the demo story: one nod at 9.5-10.5 s, one shake at 12.5-13.5 s):
    ask        tracker.ask(timeout=30) returns "nod", the loop's first nod or shake
    gestures   tracker.gestures() yields the loop's gestures (its stdout is the truth), then ends with the stream
    quiet      subscribe(state_hz=0, calibration=False): no state line and no calibration line, only gestures
    explain    subscribe(state_hz=0, explain=True): acknowledged with explain; every gesture the loop printed has an
               explain line saying it was taken, at its time, with the rules that applied and their limits
    bouts      each gesture has a bout id and its peak rate; bout_end 0.5 s after the head stopped, before the next
    recenter   after recenter() the first state's yaw_deg is within 1° of 0; at the end, at rest, the yaw has
               turned as much as the compass heading, the other way (heading is clockwise, yaw to the left)
    reconnect  a Tracker left connected when that run ends asks again: it reconnects to the next tracker on the
               same socket (a replay) and gets its nod
  replay st26_nod.csv --mount=-x,z,y --stream --wait-for-client: examples/yes_no.py answers "nod" (its ask
    times out after 5 s of the tracker's time, so "nod" means within 5 s); the hello names the mount given;
    the README's recipe app (its block after `<!-- recipe-app`) prints "nod", then yaw from within 1° of 0
  demo --socket TMP with its output on a pipe: real-time paced, so a client that connects gets both gestures;
    its hello names the IMU as run --simulated's does (the same simulated board)
  run --simulated --answer shake: two asks, two shakes; --keys with "n", "s" on its input: a nod and a shake
    before the story's own; --loop: the story's nod and shake again 26 s later (the story and a turn back)
Usage: client_test.py HEADTRACK_BIN PYTHON (the venv's python, with headtrack_client installed)
"""
import os, subprocess, sys, tempfile, threading

BIN, PYTHON = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, HERE)
from streamcheck import check, finish, loop_gestures

# The installed client, not the checkout's: this script runs under the venv's python.
import headtrack_client
from headtrack_client import BoutEnd, Gesture, State, Tracker, TrackerError
check("client-installed-not-from-checkout", "site-packages" in headtrack_client.__file__, headtrack_client.__file__)

tmp = tempfile.mkdtemp(prefix="headtrack-client-")
path = os.path.join(tmp, "events.sock")
run = subprocess.Popen([BIN, "run", "--simulated", "--socket", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
results = {}


def guarded(name, body):
    def go():
        try:
            results[name] = body()
        except Exception as e:  # reported as the check's detail
            results[name] = e
    return threading.Thread(target=go)


def ask():
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        return t.hello, t.ask(timeout=30)


def listen():
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        return [(g.gesture, g.t) for g in t.gestures()]


def quiet():
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        ack = t.subscribe(state_hz=0, calibration=False)
        return ack, list(t.messages())


def explained():
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        ack = t.subscribe(state_hz=0, explain=True)
        return ack, [m for m in t.messages() if m.type == "explain"]


def recenter():
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        t.recenter()
        states = list(t.states())
        return states


reconnecting = Tracker(path, connect_timeout=20)  # reconnect on: kept for after this run
threads = [guarded(n, f) for n, f in [("ask", ask), ("listen", listen), ("quiet", quiet), ("explain", explained),
                                           ("recenter", recenter)]]
for th in threads:
    th.start()
stdout, _ = run.communicate(timeout=120)
for th in threads:
    th.join(timeout=30)
truth = loop_gestures(stdout)
check("run-exit-0-story-gestures", run.returncode == 0 and [k for k, _ in truth] == ["nod", "shake"], str(truth))

r = results.get("ask")
check("ask-returns-nod", isinstance(r, tuple) and r[1] == "nod", repr(r))
check("hello-lists-recenter", isinstance(r, tuple) and "recenter" in r[0].requests, repr(r and r[0]))
r = results.get("listen")
check("gestures-are-the-loops", isinstance(r, list) and [k for k, _ in r] == [k for k, _ in truth]
      and all(abs(a[1] - b[1]) <= 0.0051 for a, b in zip(r, truth)), f"{r} vs {truth}")
r = results.get("quiet")
check("state-hz-0-gets-no-state-line", isinstance(r, tuple) and r[0].state_hz == 0 and r[0].calibration is False
      and not {m.type for m in r[1]} & {"state", "calibration"} and [m.type for m in r[1]].count("gesture") == 2,
      repr(r)[:300])
# Bouts: the story nods 9.5-10.5 s and shakes 12.5-13.5 s. Each gesture is a bout of its own, with its strength
# (every swing of a nod or shake peaks at 26 °/s or more, GestureSettings.swingRate), and each bout ends 0.5 s
# after the head stops (GestureBouts.quietTime), so within 0.8 s of the story's end of the movement.
msgs = r[1] if isinstance(r, tuple) else []
gs = [m for m in msgs if isinstance(m, Gesture)]
ends = [m for m in msgs if isinstance(m, BoutEnd)]
check("gestures-carry-bout-and-strength", [(g.gesture, g.bout) for g in gs] == [("nod", 1), ("shake", 2)]
      and all(g.peak_dps is not None and 26 <= g.peak_dps <= 400 for g in gs), str([(g.gesture, g.bout, g.peak_dps) for g in gs]))
check("bout-end-after-the-head-stops", [(e.bout, e.gesture, e.gestures) for e in ends] == [(1, "nod", 1), (2, "shake", 1)]
      and 10.5 <= ends[0].t <= 10.5 + 0.8 and 13.5 <= ends[1].t <= 13.5 + 0.8
      and [m.type for m in msgs if m.type in ("gesture", "bout_end")] == ["gesture", "bout_end", "gesture", "bout_end"],
      str([(e.bout, e.gesture, e.t, e.gestures) for e in ends]))
r = results.get("explain")
taken = [(m.gesture, m.t) for m in r[1] if m.taken] if isinstance(r, tuple) else []
rules_ok = isinstance(r, tuple) and len(r[1]) > 0 and all(
    m.rules and all({"rule", "value", "limit", "unit", "at_least", "ok"} <= set(x) for x in m.rules)
    and (m.taken == (m.refused_by == [])) for m in r[1])
check("explain-lines-say-why-each-gesture-was-taken", isinstance(r, tuple) and r[0].explain is True and rules_ok
      and all(any(k == g and abs(t - tg) <= 0.0051 for g, t in taken) for k, tg in truth),
      f"taken {taken} vs loop {truth}; {len(r[1]) if isinstance(r, tuple) else r!r} lines")
r = results.get("recenter")
ok = isinstance(r, list) and len(r) > 100 and all(s.yaw_deg is not None for s in r)
first = r[0] if ok else None
check("recenter-yaw-starts-within-1-degree", ok and abs(first.yaw_deg) <= 1, repr(first)[:200])
if ok:
    last = r[-1]
    valid = first.heading_valid and last.heading_valid
    turned = ((last.heading_deg - first.heading_deg + 180) % 360) - 180 if valid else None
    check("recenter-yaw-follows-the-compass", valid and abs(last.yaw_deg + turned) < 3,
          f"yaw {last.yaw_deg:.1f}, heading turned {turned} (from {first.heading_deg} to {last.heading_deg})")
else:
    check("recenter-yaw-follows-the-compass", False, repr(r)[:300])

# ---- replay --wait-for-client: a recording that starts when the app connects ----------------------------------
trace = os.path.join(ROOT, "..", "shared", "data", "gestures", "st26_nod.csv")
if os.path.exists(trace):
    replay = subprocess.Popen([BIN, "replay", trace, "--mount=-x,z,y", "--stream", "--socket", path, "--wait-for-client"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # The Tracker left from the run reconnects to it (and starts it: it is the first client).
        answer = reconnecting.ask(timeout=10)
        hello = reconnecting.hello
    except TrackerError as e:
        answer, hello = e, None
    check("reconnects-to-the-next-tracker", answer == "nod" and hello is not None and hello.imu == "recorded trace",
          f"{answer!r} hello {hello}")
    check("replay-hello-names-the-mount-given", hello is not None and hello.mount == "-x,z,y"
          and hello.mount_source == "option", f"{hello and hello.raw}")
    reconnecting.close()
    replay.kill()
    replay.communicate()

    replay = subprocess.Popen([BIN, "replay", trace, "--mount=-x,z,y", "--stream", "--socket", path, "--wait-for-client"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    app = subprocess.run([PYTHON, os.path.join(ROOT, "examples", "yes_no.py"), path], capture_output=True, text=True,
                         timeout=60)
    replay.kill()
    out, _ = replay.communicate()
    check("yes-no-app-answers-nod", app.returncode == 0 and app.stdout.strip() == "nod",
          f"rc={app.returncode} out={app.stdout.strip()!r} err={app.stderr.strip()[-200:]!r}")

    # The README's recipe, as a newcomer copies it: its app block, against the same replay.
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = readme.split("<!-- recipe-app", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    app_path = os.path.join(tmp, "yes_no.py")
    with open(app_path, "w") as f:
        f.write("\n".join(line[3:] for line in block.splitlines()) + "\n")
    replay = subprocess.Popen([BIN, "replay", trace, "--mount=-x,z,y", "--stream", "--socket", path, "--wait-for-client"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    app = subprocess.run([PYTHON, app_path, path], capture_output=True, text=True, timeout=60)
    replay.kill()
    replay.communicate()
    lines = app.stdout.splitlines()
    yaws = [float(l.split()[1]) for l in lines[1:] if l.startswith("yaw ")]
    check("readme-recipe-answers-nod-then-yaw-from-0", app.returncode == 0 and lines[:1] == ["nod"] and len(yaws) == 10
          and abs(yaws[0]) <= 1, f"rc={app.returncode} out={lines} err={app.stderr.strip()[-300:]!r}")
else:
    reconnecting.close()
    print("SKIP replay-wait-for-client -- needs ../shared (README: Shared recordings)")

# ---- demo --socket with its output on a pipe: paced in real time -------------------------------------------------
demo = subprocess.Popen([BIN, "demo", "--socket", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        demo_hello = t.hello
        got = [g.gesture for g in t.gestures()]
except TrackerError as e:
    got, demo_hello = e, None
out, _ = demo.communicate(timeout=120)
run_hello = results["ask"][0] if isinstance(results.get("ask"), tuple) else None
check("demo-names-the-imu-as-run-simulated-does", demo_hello is not None and run_hello is not None
      and demo_hello.imu == run_hello.imu == "MPU-9250", f"demo {demo_hello and demo_hello.imu!r}, run {run_hello and run_hello.imu!r}")
# The demo's story has its own scripted app, whose question the story's single nod answers: three gestures.
check("demo-socket-is-paced-for-apps", got == ["nod", "shake", "nod"] and demo.returncode == 0, f"{got!r}; {out.strip()[-200:]}")
# ---- the simulated wearer: answers questions, makes gestures on keys, plays the story on a loop ------------------
wearer = subprocess.Popen([BIN, "run", "--simulated", "--socket", path, "--answer", "shake", "--duration", "15"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    with Tracker(path, connect_timeout=20, reconnect=False) as t:
        answers = [t.ask(timeout=10), t.ask(timeout=10)]
except TrackerError as e:
    answers = e
out, _ = wearer.communicate(timeout=60)
check("simulated-wearer-answers-every-question", answers == ["shake", "shake"], f"{answers!r}; {out.strip()[-300:]}")

keys = os.path.join(tmp, "keys")
with open(keys, "w") as f:
    f.write("n\ns\n")
with open(keys) as stdin:
    typed = subprocess.run([BIN, "run", "--simulated", "--speed", "0", "--keys", "--duration", "30"], stdin=stdin,
                           capture_output=True, text=True, timeout=120)
# The keys' nod and shake come first (after the story's first 2 s of stillness), then the story's own.
got = [k for k, _ in loop_gestures(typed.stdout)]
check("simulated-wearer-nods-and-shakes-on-keys", typed.returncode == 0 and got == ["nod", "shake", "nod", "shake"],
      f"{got}; {typed.stdout.strip()[-200:]} {typed.stderr.strip()[-200:]}")

looped = subprocess.run([BIN, "run", "--simulated", "--speed", "0", "--loop", "--duration", "50"], capture_output=True,
                        text=True, timeout=120)
story = [(k, t) for k, t in loop_gestures(looped.stdout)]
# The story (24 s of movements, MotionScript.demoStory) and a 2 s turn back to its start: its nod and shake again
# 26 s later (its single nod answers no question here: run --simulated plays no app).
check("simulated-story-on-a-loop", [k for k, _ in story] == ["nod", "shake", "nod", "shake"]
      and abs(story[2][1] - story[0][1] - 26.0) < 0.1 and abs(story[3][1] - story[1][1] - 26.0) < 0.1,
      f"{story}; {looped.stderr.strip()[-200:]}")
finish("client")
