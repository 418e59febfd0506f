#!/usr/bin/env python3
"""Shows where the head points relative to where it pointed at the start: recentres, then prints the yaw
(degrees, positive to the left) ten times a second. Nod to recentre again.

    python3 examples/yaw.py [SOCKET]
"""
import sys

import _client_path  # noqa: F401
from headtrack_client import DEFAULT_SOCKET, Gesture, State, Tracker, TrackerError

path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SOCKET
try:
    tracker = Tracker(path, connect_timeout=10)
    tracker.subscribe(state_hz=10, calibration=False)
    tracker.recenter()
    for m in tracker.messages():
        if isinstance(m, Gesture) and m.gesture == "nod":
            tracker.recenter()
            print("\nrecentred", flush=True)
        elif isinstance(m, State) and m.yaw_deg is not None:
            print(f"\ryaw {m.yaw_deg:+7.1f}°  pitch {m.pitch_deg:+6.1f}°", end="", flush=True)
except TrackerError as e:
    sys.exit(str(e))
except KeyboardInterrupt:
    print()
