#!/usr/bin/env python3
"""The view cannot be locked out by a local user: twin runs. One `run --simulated --socket` and two views started
at the same moment; one view is attacked for 15 s with bounded, self-stopping traffic on loopback (12 connections
that send one header byte a second, 12 that send nothing, 4 `/events` clients that never read), the other is
its quiet twin. Once a second each view gets a normal `GET /` and a `GET /events` (hello expected). The truth is
the twin: the attacked view must answer as many of them (one fewer at most), and both at least 14 of 15.
Before the view replaced the longest-waiting request head, 29 of 30 normal requests got 503.
Usage: slowloris_test.py HEADTRACK_BIN. PASS/FAIL lines; exit 1 if any failed.
"""
import os, re, socket, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1]
failures = 0
ATTACK_SECONDS = 15

def check(name, ok, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'} {name}" + (f" -- {detail}" if detail else ""), flush=True)
    failures += 0 if ok else 1

def start_view(sock):
    view = subprocess.Popen([BIN, "view", "--socket", sock, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    for line in view.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            threading.Thread(target=lambda: [None for _ in view.stdout], daemon=True).start()  # keep draining
            return view, int(m.group(1))
    raise RuntimeError("the view printed no URL")

def normal_get(port, path):
    """A browser's request: True when it is answered 200 (and, for /events, the hello arrives)."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.settimeout(5)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        data = b""
        while len(data) < 65536:
            if path == "/events" and b"\"type\":\"hello\"" in data:
                break
            if path != "/events" and b"\r\n\r\n" in data:
                break
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        s.close()
        ok = data.startswith(b"HTTP/1.1 200")
        return ok and (path != "/events" or b"\"type\":\"hello\"" in data)
    except OSError:
        return False

def trickler(port, stop, send_bytes):
    """One slow client: connects and sends a header byte a second (or nothing), reconnecting when cut off."""
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            i = 0
            while not stop.is_set():
                if send_bytes:
                    s.sendall(request[i:i + 1])
                    i = (i + 1) % len(request)
                stop.wait(1)
        except OSError:
            stop.wait(0.2)

def deaf_events(port, stop):
    """An /events client that never reads what it is sent."""
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            while not stop.is_set():
                stop.wait(1)
        except OSError:
            stop.wait(0.2)

tmp = tempfile.mkdtemp(prefix="headtrack-slowloris-")
sock = os.path.join(tmp, "events.sock")
tracker = subprocess.Popen([BIN, "run", "--simulated", "--quiet", "--socket", sock, "--duration", "60"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
views = []
try:
    end = time.time() + 30
    while not os.path.exists(sock) and time.time() < end:
        time.sleep(0.05)
    attacked, attacked_port = start_view(sock)
    twin, twin_port = start_view(sock)
    views = [attacked, twin]
    time.sleep(1.5)  # both views connect to the tracker within their 0.5 s retry
    stop = threading.Event()
    attackers = [threading.Thread(target=trickler, args=(attacked_port, stop, i < 12), daemon=True) for i in range(24)]
    attackers += [threading.Thread(target=deaf_events, args=(attacked_port, stop), daemon=True) for _ in range(4)]
    for a in attackers:
        a.start()
    time.sleep(2)  # the attack holds every slot it can before the first normal request
    answered = {"attacked": {"/": 0, "/events": 0}, "twin": {"/": 0, "/events": 0}}
    for _ in range(ATTACK_SECONDS):
        tick = time.time()
        for name, port in (("attacked", attacked_port), ("twin", twin_port)):
            for path in ("/", "/events"):
                answered[name][path] += normal_get(port, path)
        time.sleep(max(0, 1 - (time.time() - tick)))
    stop.set()
    for path in ("/", "/events"):
        a, t = answered["attacked"][path], answered["twin"][path]
        check(f"slowloris-{path.strip('/') or 'page'}-answered-as-the-twin",
              a >= t - 1 and a >= ATTACK_SECONDS - 1 and t >= ATTACK_SECONDS - 1,
              f"attacked {a}/{ATTACK_SECONDS}, twin {t}/{ATTACK_SECONDS}")
finally:
    for p in views + [tracker]:
        p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
print(f"slowloris tests: {failures} failed")
sys.exit(1 if failures else 0)
