"""The event stream's pure parts (docs/protocol.md "The event stream: `GET /events`").

Reading server-sent events from text as it arrives, checking each event's ``sig`` against
the token and the nonce of the request that opened the stream, decoding its data, and the
reconnect delays. ``Client.events`` and ``AsyncClient.events`` only do the I/O around these.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ._errors import AuthError
from ._protocol import (
    CODE_BAD_EVENT_SIGNATURE,
    EVENT_TYPES,
    RECONNECT_INITIAL_SECONDS,
    RECONNECT_MAX_SECONDS,
)
from ._signing import verify_event
from ._types import BranchPrompt, Budget, Event, EventData, Idle, Status


@dataclass
class RawEvent:
    """An event as read off the wire, before its ``sig`` and data are checked."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    sig: str | None = None


class EventStreamParser:
    """Reads a server-sent-events body incrementally (WHATWG rules).

    Lines end in CRLF, LF or CR; ``:`` starts a comment (the keep-alive ``: ping``); one
    space after the field's colon is dropped; a blank line ends an event. Text goes in as
    it arrives, in any chunks; each complete event comes out once.
    """

    def __init__(self) -> None:
        self._buffer = ""
        self._fields = RawEvent()
        self._seen = False

    def push(self, text: str) -> list[RawEvent]:
        """Add received text; return the events it completed, in order."""
        self._buffer += text
        done: list[RawEvent] = []
        start = 0
        buffer = self._buffer
        while True:
            lf = buffer.find("\n", start)
            cr = buffer.find("\r", start)
            if cr != -1 and (lf == -1 or cr < lf):
                if cr + 1 >= len(buffer):
                    break  # a CR at the very end may be the first half of a CRLF
                end, following = cr, cr + 2 if buffer[cr + 1] == "\n" else cr + 1
            elif lf != -1:
                end, following = lf, lf + 1
            else:
                break
            event = self._line(buffer[start:end])
            if event is not None:
                done.append(event)
            start = following
        self._buffer = buffer[start:]
        return done

    def _line(self, line: str) -> RawEvent | None:
        if line == "":
            if not self._seen:
                return None
            event, self._fields, self._seen = self._fields, RawEvent(), False
            return event
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "id":
            self._fields.id = value
        elif name == "event":
            self._fields.event = value
        elif name == "sig":
            self._fields.sig = value
        elif name == "data":
            self._fields.data = (
                value if self._fields.data is None else f"{self._fields.data}\n{value}"
            )
        else:
            return None
        self._seen = True
        return None


def _bad_event_signature() -> AuthError:
    return AuthError(
        "an event of the stream was not signed by Tock: another program may be answering on "
        "this port; check that Tock runs with its listener on this port (`tock listener status`)",
        code=CODE_BAD_EVENT_SIGNATURE,
        status_code=200,
    )


_DECODERS: dict[str, Callable[[object], EventData]] = {
    "status": Status.from_wire,
    "branch-prompt": BranchPrompt.from_wire,
    "idle": Idle.from_wire,
    "budget": Budget.from_wire,
}


def read_event(raw: RawEvent, token: str, nonce: str) -> Event | None:
    """The ``Event`` a received one stands for, once its ``sig`` checks out.

    A missing or wrong ``sig`` (or missing id, type or data, or data that is not the type's
    JSON) raises ``AuthError`` ``bad_event_signature``. A signed event of a type this client
    does not know (a newer app) gives ``None``: it is skipped, its id still counts.
    """
    if raw.id is None or raw.event is None or raw.data is None:
        raise _bad_event_signature()
    if not verify_event(
        token, nonce=nonce, event_id=raw.id, event_type=raw.event, data=raw.data, sig=raw.sig
    ):
        raise _bad_event_signature()
    if raw.event not in EVENT_TYPES:
        return None
    try:
        data: EventData = _DECODERS[raw.event](json.loads(raw.data))
    except ValueError as exc:
        raise _bad_event_signature() from exc
    return Event(id=raw.id, type=raw.event, data=data)


def reconnect_delay(failures: int) -> float:
    """Seconds to wait before reopening after ``failures`` failed attempts in a row:
    0.5 s, then doubling, at most 10 s."""
    exponent = min(max(0, failures - 1), 30)
    return float(min(RECONNECT_MAX_SECONDS, RECONNECT_INITIAL_SECONDS * 2**exponent))
