"""Result types: frozen dataclasses with the snake_case attributes.

See docs/protocol.md "Client libraries".

Time values are timezone-aware ``datetime`` objects in UTC; IDs are UUID strings as on the
wire. ``from_wire`` builds each type from the ``result`` of a docs/protocol.md "Endpoints"
response and raises
``ValueError`` when the payload does not have the contract's shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone


def _object(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def _str(obj: Mapping[str, object], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key!r} is not a string")
    return value


def _opt_str(obj: Mapping[str, object], key: str) -> str | None:
    return None if obj.get(key) is None else _str(obj, key)


def _bool(obj: Mapping[str, object], key: str) -> bool:
    value = obj.get(key)
    if not isinstance(value, bool):
        raise ValueError(f"{key!r} is not a boolean")
    return value


def _int(obj: Mapping[str, object], key: str) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key!r} is not an integer")
    return value


def _number(obj: Mapping[str, object], key: str) -> float:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key!r} is not a number")
    return value


def parse_time(text: str) -> datetime:
    """An ISO-8601 time from the wire (``...Z`` or with an offset) as an aware UTC datetime.

    ``datetime.fromisoformat`` on Python 3.10 does not read a ``Z`` suffix, hence the rewrite.
    A time without an offset is taken as UTC, the contract's only time zone.
    """
    value = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _time(obj: Mapping[str, object], key: str) -> datetime:
    return parse_time(_str(obj, key))


def _opt_time(obj: Mapping[str, object], key: str) -> datetime | None:
    return None if obj.get(key) is None else _time(obj, key)


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
        obj = _object(value, "health")
        return cls(
            status=_str(obj, "status"),
            api_version=_int(obj, "apiVersion"),
            app_version=_str(obj, "appVersion"),
            license=_str(obj, "license"),
        )


@dataclass(frozen=True)
class ActivityRef:
    """A reference to an activity: its UUID and its name."""

    activity_id: str
    activity_name: str

    @classmethod
    def from_wire(cls, value: object) -> ActivityRef:
        """Build from the wire object ``{"activityID","activityName"}``."""
        obj = _object(value, "activity reference")
        return cls(activity_id=_str(obj, "activityID"), activity_name=_str(obj, "activityName"))

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
        obj = _object(value, "status")
        return cls(
            is_tracking=_bool(obj, "isTracking"),
            is_on_break=_bool(obj, "isOnBreak"),
            current_activity=ActivityRef.from_wire_or_none(obj.get("currentActivity")),
            today_seconds=_int(obj, "todaySeconds"),
            since=_opt_time(obj, "since"),
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
        obj = _object(value, "start result")
        return cls(
            activity_id=_str(obj, "activityID"),
            activity_name=_str(obj, "activityName"),
            created=_bool(obj, "created"),
            started_at=_time(obj, "startedAt"),
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
        obj = _object(value, "stopped session")
        return cls(
            activity_id=_str(obj, "activityID"),
            activity_name=_str(obj, "activityName"),
            started_at=_time(obj, "startedAt"),
            ended_at=_time(obj, "endedAt"),
            seconds=_int(obj, "seconds"),
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
        obj = _object(value, "entry")
        return cls(
            entry_id=_str(obj, "entryID"),
            activity=ActivityRef.from_wire(obj.get("activity")),
            created=_bool(obj, "created"),
            started_at=_time(obj, "startedAt"),
            ended_at=_time(obj, "endedAt"),
            duration_minutes=_number(obj, "durationMinutes"),
            note=_opt_str(obj, "note"),
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
        obj = _object(value, "branch prompt")
        return cls(
            prompt_id=_str(obj, "promptID"),
            branch=_str(obj, "branch"),
            repo=_opt_str(obj, "repo"),
            previous_branch=_opt_str(obj, "previousBranch"),
        )


@dataclass(frozen=True)
class Idle:
    """The data of an ``idle`` event: the user has been idle since ``since`` while tracking."""

    since: datetime
    seconds: int

    @classmethod
    def from_wire(cls, value: object) -> Idle:
        """Build from ``{"since","seconds"}``."""
        obj = _object(value, "idle")
        return cls(since=_time(obj, "since"), seconds=_int(obj, "seconds"))


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
        obj = _object(value, "budget")
        percent = _int(obj, "percent")
        if percent not in (80, 100):
            raise ValueError("'percent' must be 80 or 100")
        return cls(
            activity_id=_str(obj, "activityID"),
            activity_name=_str(obj, "activityName"),
            used_seconds=_int(obj, "usedSeconds"),
            budget_seconds=_int(obj, "budgetSeconds"),
            percent=percent,
        )


_Date = date  # the type, under a name the `date` attribute of ReportRow does not hide


def _date(obj: Mapping[str, object], key: str) -> date:
    text = _str(obj, key)
    if len(text) != 10:
        raise ValueError(f"{key!r} is not a date YYYY-MM-DD")
    return date.fromisoformat(text)


@dataclass(frozen=True)
class ReportRow:
    """One row of a ``Report``: an activity (``activity_id``, ``activity_name``) in a report by
    activity, a day (``date``) by day, a client (``client_id``, ``client_name``; both ``None``
    for time without a client) by client, or a tag (``tag``; ``None`` for untagged time) by
    tag; the fields of the other groupings are ``None``. ``billed_seconds`` is the billable
    part as billed (rounded by the ``rounding`` setting); ``amount`` a decimal string in
    ``currency`` (both ``None`` where no rate applies, or where the row is billed in several
    currencies), never a float; ``amounts`` the row's worth in each currency it is billed in,
    sorted by currency code (never added together)."""

    seconds: int
    activity_id: str | None = None
    activity_name: str | None = None
    date: _Date | None = None
    client_id: str | None = None
    client_name: str | None = None
    tag: str | None = None
    billed_seconds: int = 0
    amount: str | None = None
    currency: str | None = None
    amounts: tuple[Amount, ...] = ()

    @classmethod
    def from_wire(cls, value: object) -> ReportRow:
        """Build from a row by activity, day, client or tag (docs/protocol.md "GET /report")."""
        obj = _object(value, "report row")
        seconds = _int(obj, "seconds")
        billed = _int(obj, "billedSeconds")
        amount = _opt_str(obj, "amount")
        currency = _opt_str(obj, "currency")
        parts = obj.get("amounts", [])
        if not isinstance(parts, list):
            raise ValueError("'amounts' is not a JSON array")
        row = cls(
            seconds=seconds,
            billed_seconds=billed,
            amount=amount,
            currency=currency,
            amounts=tuple(Amount.from_wire(part) for part in parts),
        )
        if "date" in obj:
            return replace(row, date=_date(obj, "date"))
        if "clientID" in obj:
            client_id, client_name = _opt_str(obj, "clientID"), _opt_str(obj, "clientName")
            return replace(row, client_id=client_id, client_name=client_name)
        if "tag" in obj:
            return replace(row, tag=_opt_str(obj, "tag"))
        return replace(
            row, activity_id=_str(obj, "activityID"), activity_name=_str(obj, "activityName")
        )


@dataclass(frozen=True)
class Amount:
    """What a report's range is worth in one currency: ``amount`` a decimal string."""

    currency: str
    amount: str

    @classmethod
    def from_wire(cls, value: object) -> Amount:
        """Build from ``{"currency","amount"}``."""
        obj = _object(value, "amount")
        return cls(currency=_str(obj, "currency"), amount=_str(obj, "amount"))


@dataclass(frozen=True)
class Report:
    """``GET /report``: worked seconds over the local days ``from_date`` to ``to_date``
    (both included) of ``time_zone``; ``rows`` per activity (most first), per day (every
    day, in order), per client or per tag. ``total_seconds`` is the covered time, a second
    covered by several blocks counted once (by day: the sum of the rows); ``overlap_seconds``
    is how much more the activity rows add up to (time activities shared, counted once per
    activity there). ``amounts`` is what the range is worth per currency (never added across
    currencies); ``target_seconds`` and ``balance_seconds`` are ``None`` without targets."""

    from_date: date
    to_date: date
    time_zone: str
    total_seconds: int
    overlap_seconds: int
    rows: list[ReportRow]
    amounts: list[Amount] = field(default_factory=list)
    target_seconds: int | None = None
    balance_seconds: int | None = None

    @classmethod
    def from_wire(cls, value: object) -> Report:
        """Build from the wire report (docs/protocol.md "GET /report")."""
        obj = _object(value, "report")
        rows = obj.get("rows")
        if not isinstance(rows, list):
            raise ValueError("'rows' is not a JSON array")
        amounts = obj.get("amounts")
        if not isinstance(amounts, list):
            raise ValueError("'amounts' is not a JSON array")
        target = obj.get("targetSeconds")
        balance = obj.get("balanceSeconds")
        return cls(
            from_date=_date(obj, "from"),
            to_date=_date(obj, "to"),
            time_zone=_str(obj, "timeZone"),
            total_seconds=_int(obj, "totalSeconds"),
            overlap_seconds=_int(obj, "overlapSeconds"),
            rows=[ReportRow.from_wire(row) for row in rows],
            amounts=[Amount.from_wire(a) for a in amounts],
            target_seconds=None if target is None else _int(obj, "targetSeconds"),
            balance_seconds=None if balance is None else _int(obj, "balanceSeconds"),
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


@dataclass(frozen=True)
class SuggestionSource:
    """What capture saw in a ``Suggestion``: the ``source`` (``"window"`` or ``"editor"``), the
    application, the title (``None`` unless the capture setting *titles* is on), the editor's
    project and branch, and the whole ``seconds`` it was seen."""

    source: str
    app: str | None
    title: str | None
    project: str | None
    branch: str | None
    seconds: int

    @classmethod
    def from_wire(cls, value: object) -> SuggestionSource:
        """Build from ``{"source","app","title","project","branch","seconds"}``."""
        obj = _object(value, "suggestion source")
        return cls(
            source=_str(obj, "source"),
            app=_opt_str(obj, "app"),
            title=_opt_str(obj, "title"),
            project=_opt_str(obj, "project"),
            branch=_opt_str(obj, "branch"),
            seconds=_int(obj, "seconds"),
        )


@dataclass(frozen=True)
class Suggestion:
    """A stretch of untracked time where capture saw work (docs/protocol.md "Suggestions"):
    ``activity_name`` ``None`` is unlabelled (accepting it needs ``activity_name``);
    ``activity_id`` is ``None`` too when a rule names an activity that does not exist yet;
    ``rule_id`` the rule that labelled it; ``sources`` most seconds first."""

    id: str
    start: datetime
    end: datetime
    seconds: int
    activity_id: str | None
    activity_name: str | None
    sources: list[SuggestionSource]
    rule_id: str | None

    @classmethod
    def from_wire(cls, value: object) -> Suggestion:
        """Build from ``{"id","start","end","seconds","activityID","activityName",...}``."""
        obj = _object(value, "suggestion")
        sources = obj.get("sources")
        if not isinstance(sources, list):
            raise ValueError("'sources' is not a JSON array")
        return cls(
            id=_str(obj, "id"),
            start=_time(obj, "start"),
            end=_time(obj, "end"),
            seconds=_int(obj, "seconds"),
            activity_id=_opt_str(obj, "activityID"),
            activity_name=_opt_str(obj, "activityName"),
            sources=[SuggestionSource.from_wire(s) for s in sources],
            rule_id=_opt_str(obj, "ruleID"),
        )


@dataclass(frozen=True)
class Suggestions:
    """``GET /suggestions``: a local day (``date``) and its suggestions, oldest first."""

    date: _Date
    suggestions: list[Suggestion]

    @classmethod
    def from_wire(cls, value: object) -> Suggestions:
        """Build from ``{"date","suggestions"}``."""
        obj = _object(value, "suggestions")
        items = obj.get("suggestions")
        if not isinstance(items, list):
            raise ValueError("'suggestions' is not a JSON array")
        return cls(date=_date(obj, "date"), suggestions=[Suggestion.from_wire(s) for s in items])
