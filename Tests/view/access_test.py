#!/usr/bin/env python3
"""The view passes the stream on only to local users the socket itself lets in: with `run --simulated --socket`
and `view` running as root, user `nobody` (whom the socket refuses: the truth, checked first with a connect of
its own) gets 403 on `/events`, while the view's own user gets the hello and state lines. Needs root (to act as
`nobody` with setpriv); says SKIP otherwise. Usage: access_test.py HEADTRACK_BIN. PASS/FAIL lines; exit 1 if any
failed.
"""
import os, re, subprocess, sys, tempfile, time

BIN = sys.argv[1]
failures = 0

def check(name, ok, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'} {name}" + (f" -- {detail}" if detail else ""), flush=True)
    failures += 0 if ok else 1

if os.geteuid() != 0 or subprocess.run(["which", "setpriv"], capture_output=True).returncode != 0:
    print("SKIP view-access -- needs root and setpriv to act as user nobody")
    sys.exit(0)

# What a user does: connect to the socket, or GET a path on the view; prints the first line or the error.
CLIENT = r"""
import socket, sys
kind, target = sys.argv[1], sys.argv[2]
try:
    if kind == "socket":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(target)
        print("connected:", s.makefile("r").readline().strip()[:60])
    else:
        port, path = target.split(" ")
        s = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while b"\"type\":\"hello\"" not in data and len(data) < 65536:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        text = data.decode(errors="replace")
        print(text.split("\r\n")[0], "| hello" if "\"type\":\"hello\"" in text else "| no hello")
except OSError as e:
    print("error:", e)
"""

def as_user(nobody, *args):
    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if nobody else []
    return subprocess.run(prefix + [sys.executable, "-c", CLIENT, *args], capture_output=True, text=True,
                          timeout=30).stdout.strip()

tmp = tempfile.mkdtemp(prefix="headtrack-access-")
os.chmod(tmp, 0o755)  # nobody may reach the socket's name; the socket's own mode decides
sock = os.path.join(tmp, "events.sock")
tracker = subprocess.Popen([BIN, "run", "--simulated", "--quiet", "--socket", sock, "--duration", "60"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
view = subprocess.Popen([BIN, "view", "--socket", sock, "--port", "0"], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, text=True)
try:
    port = None
    for line in view.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            port = m.group(1)
            break
    end = time.time() + 20
    while not os.path.exists(sock) and time.time() < end:
        time.sleep(0.05)
    time.sleep(1)  # the view connects to the tracker within its 0.5 s retry
    direct = as_user(True, "socket", sock)
    check("nobody-may-not-connect-to-the-socket", "Permission denied" in direct, direct)
    mine = as_user(False, "http", f"{port} /events")
    check("views-own-user-gets-the-stream", mine.startswith("HTTP/1.1 200") and "| hello" in mine, mine)
    theirs = as_user(True, "http", f"{port} /events")
    check("nobody-gets-403-not-the-stream", theirs.startswith("HTTP/1.1 403") and "| no hello" in theirs, theirs)
    page = as_user(True, "http", f"{port} /")
    check("nobody-still-gets-the-page-itself", page.startswith("HTTP/1.1 200"), page)
finally:
    for p in (view, tracker):
        p.terminate()
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
print(f"access tests: {failures} failed")
sys.exit(1 if failures else 0)
