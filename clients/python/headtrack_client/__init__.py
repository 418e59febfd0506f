"""headtrack_client: apps for a headtrack headset in a few lines (Python standard library only).

    from headtrack_client import Tracker
    tracker = Tracker("/run/headtrack/events.sock")
    print(tracker.ask(timeout=5))      # "nod", "shake" or None

The protocol it speaks is in headtrack's docs/protocol.md."""
from .messages import (Answer, BoutEnd, Dropped, Error, Explain, Fault, Gesture, Hello, Message, Recentered, State,
                       Subscribed, parse)
from .tracker import DEFAULT_SOCKET, RequestRefused, Tracker, TrackerError

__all__ = ["Tracker", "TrackerError", "RequestRefused", "DEFAULT_SOCKET", "Message", "Hello", "State", "Gesture",
           "BoutEnd", "Answer", "Fault", "Subscribed", "Explain", "Recentered", "Dropped", "Error", "parse"]
