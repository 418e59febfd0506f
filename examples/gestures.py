#!/usr/bin/env python3
"""Prints every head gesture headtrack detects: a minimal client of its event stream (Python 3 stdlib only).

    python3 examples/gestures.py [SOCKET]      # default /run/headtrack/events.sock

The user running it must be in the `headtrack` group (sudo usermod -aG headtrack $USER, then log in again).
Each line from the socket is one JSON object; see "Event stream" in the README for every message.
"""
import json
import socket
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "/run/headtrack/events.sock"
try:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
except OSError as e:
    sys.exit(f"cannot connect to {path}: {e.strerror} (is headtrack running? are you in the headtrack group?)")

for line in conn.makefile("r", encoding="utf-8"):
    message = json.loads(line)
    if message["type"] == "hello":
        print(f"connected: protocol {message['version']}, {message['imu']}", flush=True)
    elif message["type"] == "gesture":
        print(f"{message['gesture']} at {message['t']:.2f} s", flush=True)
    elif message["type"] == "fault":
        print("sensor fault" if message["active"] else "sensor fault over", flush=True)
print("stream ended (headtrack stopped)")
