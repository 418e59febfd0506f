"""What the event-stream suite's scripts share: PASS/FAIL lines, waiting for a server's socket, clients that
read the JSON lines, and the loop's own gesture lines as the truth to compare them with."""
import json, os, re, socket, sys, time

failures = 0

def check(name, ok, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'} {name}" + (f" -- {detail}" if detail else ""), flush=True)
    if not ok:
        failures += 1

def finish(suite):
    print(f"{suite} tests: {failures} failed")
    sys.exit(1 if failures else 0)

def wait_for_socket(path, proc, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path):
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.02)
    return False

def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s

def read_all(sock, out, pause_after_first=0.0):
    f = sock.makefile("r", encoding="utf-8")
    first = f.readline()
    if first:
        out.append(json.loads(first))
    if pause_after_first:
        time.sleep(pause_after_first)
    for line in f:
        out.append(json.loads(line))

def loop_gestures(stdout):
    """The gestures `run` printed ("t=9.66s gesture: nod"): what the clients must have got."""
    return [(m.group(2), float(m.group(1))) for m in re.finditer(r"t=([0-9.]+)s gesture: (\w+)", stdout)]

def gestures(messages):
    return [(m["gesture"], m["t"]) for m in messages if m["type"] == "gesture"]

def same(got, want, tolerance=0.0051):
    """Same kinds in the same order, times equal to the stdout's two decimals (the stream sends three)."""
    return len(got) == len(want) and all(a[0] == b[0] and abs(a[1] - b[1]) <= tolerance for a, b in zip(got, want))
