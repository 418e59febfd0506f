"""`Tracker`: one connection to headtrack's event stream, read without threads.

Every read goes through `_next(deadline)`, which waits on the socket with `select` until a whole line is there
or the deadline passes, so `ask(timeout=5)` and `gestures()` share one reader. Lines read while waiting for a
reply (an answer, an acknowledgement) are kept for the iterators: gestures and other events in order, states
only the newest (a state line is stale by the next one)."""
import collections
import itertools
import json
import os
import select
import socket
import time
from typing import Iterator, Optional

from .messages import Answer, Error, Gesture, Hello, Message, Recentered, State, Subscribed, parse

DEFAULT_SOCKET = "/run/headtrack/events.sock"
# The tracker takes an ask's timeout_s from 0.5 to 60 s.
ASK_TIMEOUT_RANGE = (0.5, 60.0)
# How long to wait for an acknowledgement: the tracker serves requests every display tick (1/60 s), so a
# second covers a loaded machine; a reply later than that means something is wrong.
REPLY_SECONDS = 2.0


class TrackerError(Exception):
    """The tracker could not be reached, went away without reconnect, or refused a request."""


class RequestRefused(TrackerError):
    """The tracker answered a request with an `error` line (its message says why)."""


class Tracker:
    """A client of headtrack's event stream.

    tracker = Tracker()                # /run/headtrack/events.sock, or the path given
    tracker.ask(timeout=5)             # "nod", "shake" or None
    for g in tracker.gestures(): ...   # Gesture messages
    tracker.recenter(); next(tracker.states()).yaw_deg

    With `reconnect` (the default) a tracker that restarts is reconnected to: the iterators carry on and the
    subscription is sent again. `connect_timeout` is how long the first connection may take to appear (for a
    daemon that is still starting); None fails at once if nothing listens.
    """

    def __init__(self, socket_path: str = DEFAULT_SOCKET, reconnect: bool = True, connect_timeout: Optional[float] = None,
                 retry_interval: float = 0.25):
        self.path = socket_path
        self.reconnect = reconnect
        self.retry_interval = retry_interval
        self.hello: Optional[Hello] = None
        self._sock: Optional[socket.socket] = None
        self._buffer = b""
        self._events = collections.deque()
        self._latest_state: Optional[State] = None
        self._subscription: Optional[dict] = None
        self._ids = itertools.count(1)
        self._connect(None if connect_timeout is None else time.monotonic() + connect_timeout)

    # MARK: requests

    def ask(self, timeout: float = 5) -> Optional[str]:
        """Asks the wearer a yes/no question: "nod" or "shake" for the next one they make within `timeout`
        seconds, else None. While a question is pending the tracker takes a single nod or shake as the answer."""
        lo, hi = ASK_TIMEOUT_RANGE
        if not lo <= timeout <= hi:
            raise ValueError(f"ask timeout must be {lo} to {hi} seconds, got {timeout}")
        ask_id = f"py{os.getpid()}-{next(self._ids)}"
        # The tracker answers by its own clock; the extra seconds are for the line to arrive.
        reply = self._request({"type": "ask", "id": ask_id, "timeout_s": timeout},
                              lambda m: isinstance(m, Answer) and m.id == ask_id, timeout + REPLY_SECONDS)
        return reply.gesture if reply is not None else None

    def recenter(self) -> Recentered:
        """Makes where the head points now yaw 0: from now on every state's `yaw_deg` is the head's yaw from
        here, in degrees, positive to the left. The zero is the tracker's, shared by every app."""
        reply = self._request({"type": "recenter"}, lambda m: isinstance(m, Recentered), REPLY_SECONDS)
        self._latest_state = None  # read before the recentre: no yaw_deg, and stale
        if reply is None:
            raise TrackerError("the tracker did not confirm the recentre (is it an older headtrack? its hello's "
                               f"requests are {self.hello.requests if self.hello else []})")
        return reply

    def subscribe(self, state_hz: Optional[float] = None, calibration: Optional[bool] = None,
                  explain: Optional[bool] = None) -> Subscribed:
        """Chooses what this connection gets: `state_hz` state lines a second (0: none, only gestures, answers
        and faults), whether `calibration` lines come, and whether `explain` lines come (why each candidate
        nod or shake was taken or refused; read them with `messages()`, type "explain"). Left out: the
        tracker's default."""
        request = {"type": "subscribe"}
        if state_hz is not None:
            request["state_hz"] = state_hz
        if calibration is not None:
            request["calibration"] = calibration
        if explain is not None:
            request["explain"] = explain
        if len(request) == 1:
            raise ValueError("subscribe needs state_hz, calibration or explain")
        self._subscription = request
        reply = self._request(request, lambda m: isinstance(m, Subscribed), REPLY_SECONDS)
        self._latest_state = None  # read before the subscription took effect: not what was asked for
        if reply is None:
            raise TrackerError("the tracker did not acknowledge the subscription")
        return reply

    # MARK: reading

    def messages(self, timeout: Optional[float] = None) -> Iterator[Message]:
        """Every message, in order (state lines included). Stops after `timeout` seconds without one, or when
        the tracker went away and reconnect is off."""
        while True:
            m = self.read(timeout)
            if m is None:
                return
            yield m

    def gestures(self, timeout: Optional[float] = None) -> Iterator[Gesture]:
        """Gesture messages as they come. `timeout`: stop after that many seconds without one."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            m = self.read(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if m is None:
                return
            if isinstance(m, Gesture):
                yield m
                deadline = None if timeout is None else time.monotonic() + timeout

    def states(self, timeout: Optional[float] = None) -> Iterator[State]:
        """State messages as they come (at the subscribed rate)."""
        while True:
            m = self.read(timeout)
            if m is None:
                return
            if isinstance(m, State):
                yield m

    def read(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message; None after `timeout` seconds without one (None: wait as long as it takes)."""
        if self._events:
            return self._events.popleft()
        if self._latest_state is not None:
            state, self._latest_state = self._latest_state, None
            return state
        return self._next(None if timeout is None else time.monotonic() + timeout)

    def close(self):
        self.reconnect = False
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # MARK: the connection

    def _connect(self, deadline: Optional[float]):
        """Connects and reads the hello; retries until `deadline` (None: once)."""
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(self.path)
                break
            except OSError as e:
                s.close()
                if deadline is None or time.monotonic() >= deadline:
                    hint = ("is headtrack running with its event stream? are you in the headtrack group?"
                            if e.errno in (2, 111, 13) else "")
                    raise TrackerError(f"cannot connect to {self.path}: {e.strerror}" + (f" ({hint})" if hint else "")) from None
                time.sleep(self.retry_interval)
        self._sock, self._buffer = s, b""
        first = self._line(time.monotonic() + REPLY_SECONDS * 5)
        if isinstance(first, Error):
            self.close()
            raise TrackerError(f"{self.path} refused the connection: {first.message}")
        if not isinstance(first, Hello):
            self.close()
            raise TrackerError(f"{self.path} did not start with a hello (is it headtrack's event stream?)")
        self.hello = first
        if self._subscription is not None:
            self._send(self._subscription)  # its acknowledgement reaches the reader like any message

    def _reconnected(self, deadline: Optional[float]) -> bool:
        """After the tracker went away: reconnected (True), or not by `deadline` / reconnect off (False)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if not self.reconnect:
            return False
        while deadline is None or time.monotonic() < deadline:
            try:
                self._connect(time.monotonic() + self.retry_interval if deadline is None
                              else min(deadline, time.monotonic() + self.retry_interval))
                return True
            except TrackerError:
                if self._sock is None and not self.reconnect:
                    return False
        return False

    def _send(self, request: dict):
        """Sends one request line. A connection that broke is closed here; the reply's wait reconnects."""
        if self._sock is None:
            return
        try:
            self._sock.sendall((json.dumps(request, separators=(",", ":")) + "\n").encode())
        except OSError:
            self._sock.close()
            self._sock = None

    def _request(self, request: dict, wanted, seconds: float) -> Optional[Message]:
        """Sends `request` and waits up to `seconds` for its reply, sending it again after a reconnect."""
        if self._sock is None and not self.reconnect:
            raise TrackerError(f"not connected to {self.path}")
        self._send(request)
        return self._wait(wanted, time.monotonic() + seconds, resend=lambda: self._send(request))

    def _line(self, deadline: Optional[float]) -> Optional[Message]:
        """One message from the socket; None at the deadline; raises EOFError when the tracker closed."""
        while b"\n" not in self._buffer:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self._sock], [], [], wait)
            if not ready:
                return None
            try:
                chunk = self._sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise EOFError
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return parse(json.loads(line))

    def _next(self, deadline: Optional[float]) -> Optional[Message]:
        """The next message from the socket, reconnecting when the tracker went away (a new hello is a message
        too, so an app sees the restart); None at the deadline or when the tracker is gone for good."""
        while True:
            if self._sock is None and not self._reconnected(deadline):
                return None
            try:
                m = self._line(deadline)
            except EOFError:
                if not self._reconnected(deadline):
                    return None
                return self.hello
            return m

    def _wait(self, wanted, deadline: float, resend=None) -> Optional[Message]:
        """Reads until a message that `wanted` accepts (returned), keeping the others for the iterators; None at
        the deadline. A refused request raises RequestRefused. After a reconnect `resend` repeats the request."""
        while True:
            try:
                if self._sock is None:
                    raise EOFError
                m = self._line(deadline)
            except EOFError:
                if not self._reconnected(deadline):
                    if not self.reconnect:
                        raise TrackerError(f"the tracker at {self.path} went away") from None
                    return None
                self._events.append(self.hello)
                if resend:
                    resend()
                continue
            if m is None:
                return None
            if wanted(m):
                return m
            if isinstance(m, Error):
                raise RequestRefused(m.message)
            if isinstance(m, State):
                self._latest_state = m
            else:
                self._events.append(m)
