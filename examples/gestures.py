#!/usr/bin/env python3
"""Prints every head gesture headtrack detects, until the tracker stops.

    python3 examples/gestures.py [SOCKET]      # default /run/headtrack/events.sock

The user running it must be in the `headtrack` group (sudo usermod -aG headtrack $USER, then log in again).
Built on headtrack_client (pip install ./clients/python); docs/protocol.md has every message.
"""
import sys

import _client_path  # noqa: F401  (headtrack_client from this checkout when it is not installed)
from headtrack_client import DEFAULT_SOCKET, Tracker, TrackerError

path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SOCKET
try:
    # reconnect=False: the example ends with the stream (a long-lived app keeps the default, True).
    tracker = Tracker(path, reconnect=False)
except TrackerError as e:
    sys.exit(str(e))
print(f"connected: protocol {tracker.hello.version}, {tracker.hello.imu}", flush=True)
# Gestures only: no state lines, no calibration progress.
tracker.subscribe(state_hz=0, calibration=False)
try:
    for g in tracker.gestures():
        print(f"{g.gesture} at {g.t:.2f} s", flush=True)
except TrackerError:
    pass
print("stream ended (headtrack stopped)")
