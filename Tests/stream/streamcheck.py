"""What the event-stream suite's scripts share: PASS/FAIL lines, waiting for a server's socket, clients that
read the JSON lines, the loop's own gesture lines as the truth to compare them with, and twin runs (an attacked
loop beside a quiet one started at the same moment, compared by their counts)."""
import json, os, re, socket, subprocess, sys, threading, time

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

def start_twins(bin_path, names, tmp, extra=()):
    """`run --simulated --realtime` twice at the same moment, one socket each (TMP/NAME.sock), each with a client
    reading every line into r["messages"]. Exits the script when a socket never appears."""
    runs = {}
    for name in names:
        path = os.path.join(tmp, name + ".sock")
        proc = subprocess.Popen([bin_path, "run", "--simulated", "--realtime", *extra, "--socket", path],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        runs[name] = {"path": path, "proc": proc, "messages": []}
    for name, r in runs.items():
        if not wait_for_socket(r["path"], r["proc"]):
            print(r["proc"].communicate()[0])
            check(f"{name}-socket-appears", False)
            sys.exit(1)
        r["reader"] = threading.Thread(target=lambda r=r: read_all(connect(r["path"]), r["messages"]))
        r["reader"].start()
    return runs

def wait_twins(runs, timeout=120):
    """Both loops to their end (the demo story): their stdout in r["stdout"], their readers done."""
    for r in runs.values():
        r["stdout"] = r["proc"].communicate(timeout=timeout)[0]
        r["reader"].join(timeout=30)

def attacker_counts(procs, timeout):
    """What each attacking process printed as its count; -1 for one that hung or printed none."""
    out = []
    for p in procs:
        try:
            out.append(int(p.communicate(timeout=timeout)[0].strip() or 0))
        except (subprocess.TimeoutExpired, ValueError):
            p.kill()
            out.append(-1)
    return out

def run_counts(stdout):
    """IMU samples, overruns and clients served from `run`'s summary lines (-1 where missing)."""
    samples = re.search(r"stopped; (\d+) IMU samples", stdout)
    overruns = re.search(r"overruns=(\d+)", stdout)
    served = re.search(r"event stream: (\d+) clients served", stdout)
    return tuple(int(m.group(1)) if m else -1 for m in (samples, overruns, served))
