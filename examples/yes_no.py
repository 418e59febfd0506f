#!/usr/bin/env python3
"""Asks the wearer a yes/no question: nod for yes, shake for no, 5 seconds to answer.

    python3 examples/yes_no.py [SOCKET] [--repeat]

Prints "nod" (yes), "shake" (no) or "none" (no answer in time); exits 0, 1 or 2 accordingly, so a script can
use it. With --repeat it asks again after every answer until Ctrl-C.
"""
import sys

import _client_path  # noqa: F401
from headtrack_client import DEFAULT_SOCKET, Tracker, TrackerError

args = [a for a in sys.argv[1:] if a != "--repeat"]
path = args[0] if args else DEFAULT_SOCKET
try:
    tracker = Tracker(path, connect_timeout=10)
    tracker.subscribe(state_hz=0, calibration=False)
    while True:
        print("Do you want to continue? Nod for yes, shake for no.", file=sys.stderr, flush=True)
        answer = tracker.ask(timeout=5)
        print(answer or "none", flush=True)
        if "--repeat" not in sys.argv:
            sys.exit({"nod": 0, "shake": 1}.get(answer, 2))
except TrackerError as e:
    sys.exit(str(e))
except KeyboardInterrupt:
    pass
