"""Typed messages of headtrack's event stream (docs/protocol.md). Each class takes the fields it knows from
the JSON object and ignores the rest, so a newer tracker that adds keys does not break an older app; the whole
object stays in `raw`. A message type this client does not know comes back as a plain `Message`."""
from dataclasses import dataclass, field, fields
from typing import Any, Dict, List, Optional


@dataclass
class Message:
    type: str = ""
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, obj: Dict[str, Any]) -> "Message":
        known = {f.name for f in fields(cls)} - {"raw"}
        kwargs = {k: v for k, v in obj.items() if k in known}
        return cls(raw=obj, **kwargs)


@dataclass
class Hello(Message):
    """The first line: protocol version, sensors, rates, mount, and the requests this tracker takes."""
    version: int = 0
    imu: str = ""
    magnetometer: Optional[str] = None
    rates: Dict[str, Any] = field(default_factory=dict)
    mount: Optional[str] = None
    mount_source: str = "none"
    requests: List[str] = field(default_factory=list)

    @property
    def state_hz(self) -> float:
        return float(self.rates.get("state_hz") or 0)


@dataclass
class State(Message):
    """The head now. `yaw_deg` (positive to the left) is there only after a recentre."""
    t: float = 0.0
    heading_deg: Optional[float] = None
    heading_valid: bool = False
    pitch_deg: float = 0.0
    roll_deg: float = 0.0
    yaw_deg: Optional[float] = None
    quat: List[float] = field(default_factory=list)
    rates_dps: List[float] = field(default_factory=list)
    leds: Dict[str, bool] = field(default_factory=dict)


@dataclass
class Gesture(Message):
    """A detected gesture: nod, shake, up, down, left or right."""
    gesture: str = ""
    t: float = 0.0
    start: Optional[float] = None
    count: Optional[int] = None
    bout: Optional[int] = None
    peak_dps: Optional[float] = None


@dataclass
class BoutEnd(Message):
    """The bout `bout` is over: the head has stopped nodding (or shaking) for 0.5 s, or made another gesture."""
    bout: int = 0
    gesture: str = ""
    t: float = 0.0
    gestures: int = 0


@dataclass
class Answer(Message):
    """The answer to an ask: "nod", "shake", or None when it timed out (or was replaced)."""
    id: str = ""
    gesture: Optional[str] = None
    t: float = 0.0
    replaced: bool = False
    bout: Optional[int] = None


@dataclass
class Fault(Message):
    t: float = 0.0
    active: bool = False
    kind: Optional[str] = None


@dataclass
class Subscribed(Message):
    state_hz: float = 0.0
    calibration: bool = True
    explain: bool = False   # left out by a tracker that sends no explain lines


@dataclass
class Recentered(Message):
    t: float = 0.0


@dataclass
class Dropped(Message):
    """`n` state (or calibration) lines were dropped because this client read too slowly."""
    n: int = 0


@dataclass
class Explain(Message):
    """Why a candidate nod or shake was taken or refused: each rule that applied, as a dict with "rule",
    "value", "limit", "unit", "at_least" and "ok" (only to a client that subscribed with explain=True)."""
    t: float = 0.0
    gesture: str = ""
    start: float = 0.0
    swings: int = 0
    taken: bool = False
    refused_by: List[str] = field(default_factory=list)
    rules: List[Dict[str, Any]] = field(default_factory=list)


@dataclass
class Error(Message):
    """A request was refused (the message says why), or the tracker refused the connection."""
    message: str = ""


KINDS = {"hello": Hello, "state": State, "gesture": Gesture, "bout_end": BoutEnd, "answer": Answer,
         "fault": Fault, "subscribed": Subscribed, "recentered": Recentered, "dropped": Dropped, "error": Error,
         "explain": Explain}


def parse(obj: Dict[str, Any]) -> Message:
    """The typed message for one decoded line."""
    kind = KINDS.get(obj.get("type"), Message)
    return kind.from_json(obj)
