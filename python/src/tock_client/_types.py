"""Result types of the calls on activities and sessions, and the events of the stream.

Frozen dataclasses with the snake_case attributes (docs/protocol.md "Client libraries"). Time
values are timezone-aware ``datetime`` objects in UTC; IDs are UUID strings as on the wire.
``from_wire`` builds each type from the ``result`` of a docs/protocol.md "Endpoints" response
and raises ``ValueError`` when the payload does not have the contract's shape. The results of
the day queries are in ``_report_types`` and ``_suggestion_types``; the field readers in
``_wire``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ._wire import (
    as_object,
    bool_field,
    int_field,
    number_field,
    opt_str_field,
    opt_time_field,
    str_field,
    time_field,
)


@dataclass(frozen=True)
class Health:
    """``GET /healthcheck``: ``license`` is ``"trial"``, ``"licensed"`` or ``"locked"``."""

    status: str
    api_version: int
    app_version: str
    license: str

    @classmethod
    def from_wire(cls, value: object) -> Health:
        """Build from the wire object ``{"status","apiVersion","appVersion","license"}``."""
        obj = as_object(value, "health")
        return cls(
            status=str_field(obj, "status"),
            api_version=int_field(obj, "apiVersion"),
            app_version=str_field(obj, "appVersion"),
            license=str_field(obj, "license"),
        )


@dataclass(frozen=True)
class ActivityRef:
    """A reference to an activity: its UUID and its name."""

    activity_id: str
    activity_name: str

    @classmethod
    def from_wire(cls, value: object) -> ActivityRef:
        """Build from the wire object ``{"activityID","activityName"}``."""
        obj = as_object(value, "activity reference")
        return cls(
            activity_id=str_field(obj, "activityID"), activity_name=str_field(obj, "activityName")
        )

    @classmethod
    def from_wire_or_none(cls, value: object) -> ActivityRef | None:
        """Like ``from_wire``, with JSON ``null`` (nothing tracked) as ``None``."""
        return None if value is None else cls.from_wire(value)

    @classmethod
    def list_from_wire(cls, value: object) -> list[ActivityRef]:
        """A JSON array of references, in the server's order (best match first)."""
        if not isinstance(value, list):
            raise ValueError("search result is not a JSON array")
        return [cls.from_wire(item) for item in value]


@dataclass(frozen=True)
class Status:
    """``GET /status``: ``since`` is the running session's start, ``None`` when idle."""

    is_tracking: bool
    is_on_break: bool
    current_activity: ActivityRef | None
    today_seconds: int
    since: datetime | None

    @classmethod
    def from_wire(cls, value: object) -> Status:
        """Build from ``{"isTracking","isOnBreak","currentActivity","todaySeconds","since"}``."""
        obj = as_object(value, "status")
        return cls(
            is_tracking=bool_field(obj, "isTracking"),
            is_on_break=bool_field(obj, "isOnBreak"),
            current_activity=ActivityRef.from_wire_or_none(obj.get("currentActivity")),
            today_seconds=int_field(obj, "todaySeconds"),
            since=opt_time_field(obj, "since"),
        )


@dataclass(frozen=True)
class StartResult:
    """``POST /activities/start``: ``created`` is true only if this call created the activity."""

    activity_id: str
    activity_name: str
    created: bool
    started_at: datetime

    @classmethod
    def from_wire(cls, value: object) -> StartResult:
        """Build from ``{"activityID","activityName","created","startedAt"}``."""
        obj = as_object(value, "start result")
        return cls(
            activity_id=str_field(obj, "activityID"),
            activity_name=str_field(obj, "activityName"),
            created=bool_field(obj, "created"),
            started_at=time_field(obj, "startedAt"),
        )


@dataclass(frozen=True)
class StoppedSession:
    """``POST /activities/stop``: the ended session; ``seconds`` leaves breaks out.

    ``kept`` is False when the session was shorter than the setting ``minSessionSeconds``,
    had no note and was not kept (docs/data.md); the wire leaves it out when it was kept.
    """

    activity_id: str
    activity_name: str
    started_at: datetime
    ended_at: datetime
    seconds: int
    kept: bool = True

    @classmethod
    def from_wire_or_none(cls, value: object) -> StoppedSession | None:
        """Build from the wire session, or ``None`` when nothing was running."""
        if value is None:
            return None
        obj = as_object(value, "stopped session")
        return cls(
            activity_id=str_field(obj, "activityID"),
            activity_name=str_field(obj, "activityName"),
            started_at=time_field(obj, "startedAt"),
            ended_at=time_field(obj, "endedAt"),
            seconds=int_field(obj, "seconds"),
            kept=obj.get("kept") is not False,
        )


@dataclass(frozen=True)
class Entry:
    """``POST /entries``: the logged block ``[started_at, ended_at]`` and its activity."""

    entry_id: str
    activity: ActivityRef
    created: bool
    started_at: datetime
    ended_at: datetime
    duration_minutes: float
    note: str | None

    @classmethod
    def from_wire(cls, value: object) -> Entry:
        """Build from ``{"entryID","activity","created","startedAt","endedAt",...}``."""
        obj = as_object(value, "entry")
        return cls(
            entry_id=str_field(obj, "entryID"),
            activity=ActivityRef.from_wire(obj.get("activity")),
            created=bool_field(obj, "created"),
            started_at=time_field(obj, "startedAt"),
            ended_at=time_field(obj, "endedAt"),
            duration_minutes=number_field(obj, "durationMinutes"),
            note=opt_str_field(obj, "note"),
        )


@dataclass(frozen=True)
class BranchPrompt:
    """The tracking prompt a branch switch opened.

    The answer of ``POST /branch-changed`` and the data of a ``branch-prompt`` event;
    ``repo`` and ``previous_branch`` are ``None`` when the report had none.
    """

    prompt_id: str
    branch: str
    repo: str | None
    previous_branch: str | None

    @classmethod
    def from_wire(cls, value: object) -> BranchPrompt:
        """Build from ``{"promptID","branch","repo","previousBranch"}``."""
        obj = as_object(value, "branch prompt")
        return cls(
            prompt_id=str_field(obj, "promptID"),
            branch=str_field(obj, "branch"),
            repo=opt_str_field(obj, "repo"),
            previous_branch=opt_str_field(obj, "previousBranch"),
        )


@dataclass(frozen=True)
class Idle:
    """The data of an ``idle`` event: the user has been idle since ``since`` while tracking."""

    since: datetime
    seconds: int

    @classmethod
    def from_wire(cls, value: object) -> Idle:
        """Build from ``{"since","seconds"}``."""
        obj = as_object(value, "idle")
        return cls(since=time_field(obj, "since"), seconds=int_field(obj, "seconds"))


@dataclass(frozen=True)
class Budget:
    """The data of a ``budget`` event: the worked time of an activity (all of it, not a
    period) passed ``percent`` (80 or 100) of its budget for the first time."""

    activity_id: str
    activity_name: str
    used_seconds: int
    budget_seconds: int
    percent: int

    @classmethod
    def from_wire(cls, value: object) -> Budget:
        """Build from ``{"activityID","activityName","usedSeconds","budgetSeconds","percent"}``."""
        obj = as_object(value, "budget")
        percent = int_field(obj, "percent")
        if percent not in (80, 100):
            raise ValueError("'percent' must be 80 or 100")
        return cls(
            activity_id=str_field(obj, "activityID"),
            activity_name=str_field(obj, "activityName"),
            used_seconds=int_field(obj, "usedSeconds"),
            budget_seconds=int_field(obj, "budgetSeconds"),
            percent=percent,
        )


EventData = Status | BranchPrompt | Idle | Budget
"""What an event carries: a ``Status``, a ``BranchPrompt``, an ``Idle`` or a ``Budget``."""


@dataclass(frozen=True)
class Event:
    """One event of the stream (docs/protocol.md "The event stream: `GET /events`").

    ``type`` is ``"status"``, ``"branch-prompt"``, ``"idle"`` or ``"budget"`` and ``data`` the
    matching ``Status``, ``BranchPrompt``, ``Idle`` or ``Budget``; ``id`` (``<run>.<seq>``)
    resumes a stream.
    """

    id: str
    type: str
    data: EventData
