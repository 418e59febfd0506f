#!/usr/bin/env python3
"""Ask and answer end to end: `headtrack run --simulated --socket TMP` (the demo story: one nod at 9.5-10.5 s,
one shake at 12.5-13.5 s, a single nod at 18.5-19 s that no client's ask is pending for by then, so it is no
gesture) with real clients that send requests.

  asker    asks at once with a 60 s timeout: exactly one answer, "nod", at the loop's nod
  timeout  asks with a 0.5 s timeout: exactly one answer, null, about 0.5 s later (the story is still)
  replacer asks "a" then "b": "a" is answered null (replaced), "b" by the nod
  garbage  sends malformed lines and an over-long line: error lines, and the connection stays up
  flood    sends 3000 asks as fast as it can: the loop still reports the story's gestures exactly
  listener sends nothing: gets the gesture lines and no answer line
  quiet    subscribes with state_hz 0 and calibration false: after its `subscribed` line, gestures and bout ends only
The loop's own gesture lines on stdout are the truth. Prints one PASS/FAIL line per check; exits 1 if any failed.
"""
import json, os, socket, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streamcheck import check, finish, wait_for_socket, connect, loop_gestures

tmp = tempfile.mkdtemp(prefix="headtrack-ask-")
path = os.path.join(tmp, "events.sock")
proc = subprocess.Popen([BIN, "run", "--simulated", "--socket", path], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, text=True)
if not wait_for_socket(path, proc):
    check("socket-appears", False, proc.communicate()[0][-400:])
    finish("ask")

def client(send_lines, out, after_hello=None):
    """Connects, reads the hello, sends `send_lines`, then reads every line until the server closes."""
    s = connect(path)
    f = s.makefile("r", encoding="utf-8")
    hello = json.loads(f.readline())
    out.append(hello)
    if after_hello:
        after_hello(s)
    for line in send_lines:
        s.sendall(line.encode())
    for line in f:
        out.append(json.loads(line))

def flood(s):
    """Sends from a thread of its own, so that the client keeps reading what the server answers meanwhile."""
    def send():
        line = b'{"type":"ask","id":"f","timeout_s":60}\n'
        try:
            for _ in range(3000):
                s.sendall(line)
        except OSError:
            pass  # the server may close a client that floods it
    threading.Thread(target=send, daemon=True).start()

asker, timeout, replacer, garbage, flooder, listener, quiet = [], [], [], [], [], [], []
threads = [
    threading.Thread(target=client, args=(['{"type":"ask","id":"q1","timeout_s":60}\n'], asker)),
    threading.Thread(target=client, args=(['{"type": "ask", "timeout_s": 0.5, "id": "t1"}\n'], timeout)),
    threading.Thread(target=client, args=(['{"type":"ask","id":"a","timeout_s":60}\n',
                                           '{"type":"ask","id":"b","timeout_s":60}\n'], replacer)),
    threading.Thread(target=client, args=(['not json\n', '{"type":"dance"}\n', "x" * 5000 + "\n",
                                           '{"type":"ask","id":"ok","timeout_s":60}\n'], garbage)),
    threading.Thread(target=client, args=([], flooder, flood)),
    threading.Thread(target=client, args=([], listener)),
    threading.Thread(target=client, args=(['{"type":"subscribe","state_hz":0,"calibration":false}\n'], quiet)),
]
for t in threads:
    t.start()
stdout, _ = proc.communicate(timeout=120)
for t in threads:
    t.join(timeout=30)

check("run-exit-0", proc.returncode == 0, f"rc={proc.returncode}")
truth = loop_gestures(stdout)
check("story-gestures-exactly", [k for k, _ in truth] == ["nod", "shake"], str(truth))
nod_t = next((t for k, t in truth if k == "nod"), None)

def answers(msgs):
    return [m for m in msgs if m.get("type") == "answer"]

check("hello-says-requests", "ask" in asker[0].get("requests", []), json.dumps(asker[0])[:200])
a = answers(asker)
check("ask-one-answer-nod", len(a) == 1 and a[0]["id"] == "q1" and a[0]["gesture"] == "nod"
      and nod_t is not None and abs(a[0]["t"] - nod_t) < 0.02, f"{a} loop nod at {nod_t}")
a = answers(timeout)
check("ask-timeout-null", len(a) == 1 and a[0]["id"] == "t1" and a[0]["gesture"] is None
      and 0.4 <= a[0]["t"] <= 1.5, str(a))
a = answers(replacer)
check("ask-replaced", [(m["id"], m["gesture"]) for m in a] == [("a", None), ("b", "nod")]
      and a[0].get("replaced") is True, str(a))
errors = [m for m in garbage if m.get("type") == "error"]
a = answers(garbage)
check("garbage-errors-and-stays", len(errors) >= 1 and [(m["id"], m["gesture"]) for m in a] == [("ok", "nod")],
      f"errors {len(errors)}: {[e['message'] for e in errors][:3]}; answers {a}")
check("flood-still-answered", any(m.get("gesture") == "nod" for m in answers(flooder)),
      f"{len(flooder)} lines, answers {answers(flooder)[:2]}")
got = [(m["gesture"], m["t"]) for m in listener if m.get("type") == "gesture"]
check("listener-gestures-no-answers", [g for g, _ in got] == ["nod", "shake"] and not answers(listener),
      f"{got} answers {answers(listener)}")
check("hello-says-subscribe", "subscribe" in asker[0].get("requests", []), json.dumps(asker[0].get("requests")))
acks = [i for i, m in enumerate(quiet) if m.get("type") == "subscribed"]
after = quiet[acks[0] + 1:] if acks else []
kinds = sorted({m.get("type") for m in after})
check("subscribe-state-0-gets-gestures-only", len(acks) == 1 and quiet[acks[0]].get("state_hz") == 0
      and quiet[acks[0]].get("calibration") is False and set(kinds) <= {"gesture", "bout_end"}
      and [m["gesture"] for m in after if m["type"] == "gesture"] == ["nod", "shake"], f"ack {quiet[acks[0]] if acks else None}; after it {kinds}")
finish("ask")
