"""Building each operation's request, as pure functions ``Client`` and ``AsyncClient`` share.

The two clients differ only in I/O. Here an operation becomes an ``Operation``: the method,
the target (path and encoded query), the body bytes, the headers and how to decode the result.
The configuration is resolved in ``_config``; the answers are read in ``_responses``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Generic, TypeVar
from urllib.parse import quote, urlencode

import httpx

from ._config import ClientConfig
from ._protocol import (
    EVENT_STREAM_CONTENT_TYPE,
    HEADER_IDEMPOTENCY_KEY,
    HEADER_LAST_EVENT_ID,
    IDEMPOTENCY_KEY_BYTES,
    IDEMPOTENCY_KEY_PATTERN,
    JSON_CONTENT_TYPE,
    PATH_ACCEPT_SUGGESTION,
    PATH_BRANCH_CHANGED,
    PATH_CURRENT,
    PATH_ENTRIES,
    PATH_HEALTHCHECK,
    PATH_REPORT,
    PATH_SEARCH,
    PATH_START,
    PATH_STATUS,
    PATH_STOP,
    PATH_SUGGESTIONS,
    REPORT_GROUPINGS,
    STREAM_READ_TIMEOUT_SECONDS,
)
from ._report_types import Report
from ._signing import random_token_urlsafe
from ._suggestion_types import Suggestions
from ._types import (
    ActivityRef,
    BranchPrompt,
    Entry,
    Health,
    StartResult,
    Status,
    StoppedSession,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Operation(Generic[T]):
    """One call of the API, ready to send: what goes on the wire and how to read the result.

    ``target`` is the path plus the already-encoded query, so what is signed is what is sent.
    ``network_retries`` is 1 only for operations protected by an idempotency key.
    """

    method: str
    target: str
    body: bytes | None
    headers: Mapping[str, str]
    decode: Callable[[object], T]
    network_retries: int = 0


def _json_body(payload: Mapping[str, object]) -> bytes:
    # Compact separators, raw UTF-8, no NaN/Infinity (ValueError): the vectors' serialization.
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.encode("utf-8")


def _post(
    path: str,
    payload: Mapping[str, object] | None,
    decode: Callable[[object], T],
    *,
    extra_headers: Mapping[str, str] | None = None,
    network_retries: int = 0,
) -> Operation[T]:
    headers = {"Content-Type": JSON_CONTENT_TYPE} if payload is not None else {}
    headers.update(extra_headers or {})
    body = _json_body(payload) if payload is not None else None
    return Operation("POST", path, body, headers, decode, network_retries)


def _get(target: str, decode: Callable[[object], T]) -> Operation[T]:
    return Operation("GET", target, None, {}, decode)


def format_time(value: str | datetime) -> str:
    """``ended_at`` for the wire: an ISO string as given, or an aware datetime as UTC ``...Z``.

    A naive datetime has no defined instant, so it is a ``ValueError`` rather than a guess.
    """
    if isinstance(value, datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(
                "ended_at must be timezone-aware (for example datetime.now(timezone.utc)); "
                "got a naive datetime"
            )
        utc = value.astimezone(timezone.utc)
        return utc.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if isinstance(value, str):
        return value
    raise TypeError(f"ended_at must be an ISO-8601 string or a datetime, not {type(value)!r}")


def checked_idempotency_key(key: str) -> str:
    """A caller's own idempotency key, refused before anything is sent when it is malformed.

    The server would answer 400 ``validation_failed`` for it, but only after the request went
    out; the TypeScript client refuses it the same way (docs/protocol.md "Request signing").
    """
    if not isinstance(key, str):
        raise TypeError(f"idempotency_key must be a string, not {type(key)!r}")
    if not IDEMPOTENCY_KEY_PATTERN.fullmatch(key):
        raise ValueError("idempotency_key must be 1-64 characters of A-Z a-z 0-9 _ -")
    return key


def new_idempotency_key() -> str:
    """A default idempotency key: 16 random bytes, base64url.

    See docs/protocol.md "Request signing".
    """
    return random_token_urlsafe(IDEMPOTENCY_KEY_BYTES)


def healthcheck() -> Operation[Health]:
    """``GET /healthcheck``."""
    return _get(PATH_HEALTHCHECK, Health.from_wire)


def get_current() -> Operation[ActivityRef | None]:
    """``GET /current``."""
    return _get(PATH_CURRENT, ActivityRef.from_wire_or_none)


def get_status() -> Operation[Status]:
    """``GET /status``."""
    return _get(PATH_STATUS, Status.from_wire)


def search_activities(q: str, limit: int | None) -> Operation[list[ActivityRef]]:
    """``GET /activities/search?q=Q[&limit=N]``, spaces as ``%20`` like the signing vectors."""
    params: list[tuple[str, str]] = [("q", q)]
    if limit is not None:
        params.append(("limit", str(limit)))
    query = urlencode(params, quote_via=quote, safe="")
    return _get(f"{PATH_SEARCH}?{query}", ActivityRef.list_from_wire)


def _activity_fields(name: str | None, activity_id: str | None) -> dict[str, object]:
    payload: dict[str, object] = {}
    if name is not None:
        payload["name"] = name
    if activity_id is not None:
        payload["activityID"] = activity_id
    return payload


def start_activity(
    name: str | None,
    activity_id: str | None,
    create_if_missing: bool,
    note: str | None = None,
) -> Operation[StartResult]:
    """``POST /activities/start`` with ``name`` (and ``createIfMissing``) or ``activityID``,
    and the session's ``note`` when one is given."""
    payload = _activity_fields(name, activity_id)
    # `createIfMissing` applies to `name`; sent with an ID only when set, so the server can
    # say what is wrong with that request rather than the client silently dropping it.
    if name is not None or create_if_missing:
        payload["createIfMissing"] = create_if_missing
    if note is not None:
        payload["note"] = note
    return _post(PATH_START, payload, StartResult.from_wire)


def stop_activity() -> Operation[StoppedSession | None]:
    """``POST /activities/stop`` with an empty body."""
    return _post(PATH_STOP, None, StoppedSession.from_wire_or_none)


def log_entry(
    *,
    name: str | None,
    activity_id: str | None,
    duration_minutes: float,
    note: str | None,
    create_if_missing: bool,
    ended_at: str | datetime | None,
    idempotency_key: str | None,
    tags: Sequence[str] | None = None,
    billable: bool | None = None,
) -> Operation[Entry]:
    """``POST /entries`` with an ``Idempotency-Key`` (the caller's or a fresh one).

    The key makes one retry after a network failure safe, so this is the one operation with
    ``network_retries=1``.
    """
    payload = _activity_fields(name, activity_id)
    payload["durationMinutes"] = duration_minutes
    if note is not None:
        payload["note"] = note
    if name is not None or create_if_missing:
        payload["createIfMissing"] = create_if_missing
    if ended_at is not None:
        payload["endedAt"] = format_time(ended_at)
    if tags is not None:
        if isinstance(tags, str):
            raise TypeError("tags must be a list of tag names, not one string")
        payload["tags"] = list(tags)
    if billable is not None:
        payload["billable"] = billable
    key = (
        new_idempotency_key()
        if idempotency_key is None
        else checked_idempotency_key(idempotency_key)
    )
    return _post(
        PATH_ENTRIES,
        payload,
        Entry.from_wire,
        extra_headers={HEADER_IDEMPOTENCY_KEY: key},
        network_retries=1,
    )


def notify_branch_change(
    branch: str, repo: str | None, previous_branch: str | None
) -> Operation[BranchPrompt]:
    """``POST /branch-changed``."""
    payload: dict[str, object] = {"branch": branch}
    if repo is not None:
        payload["repo"] = repo
    if previous_branch is not None:
        payload["previousBranch"] = previous_branch
    return _post(PATH_BRANCH_CHANGED, payload, BranchPrompt.from_wire)


def _day(value: str | date, name: str) -> str:
    # A datetime is a date too, but which day it stands for depends on a zone: refuse it.
    if isinstance(value, datetime):
        raise TypeError(f"{name} must be a date or a 'YYYY-MM-DD' string, not a datetime")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return value
    raise TypeError(f"{name} must be a date or a 'YYYY-MM-DD' string, not {type(value)!r}")


def get_report(
    from_date: str | date | None,
    to_date: str | date | None,
    by: str,
    billable: bool | None = None,
) -> Operation[Report]:
    """``GET /report[?from=D&to=D&by=B]``: only the parameters given (``by`` when not the default).

    The days are checked by the app (it knows what "today" is): a bad range is its 400.
    """
    params: list[tuple[str, str]] = []
    if from_date is not None:
        params.append(("from", _day(from_date, "from_date")))
    if to_date is not None:
        params.append(("to", _day(to_date, "to_date")))
    if by != REPORT_GROUPINGS[0]:
        params.append(("by", by))
    if billable is not None:
        params.append(("billable", "true" if billable else "false"))
    target = (
        f"{PATH_REPORT}?{urlencode(params, quote_via=quote, safe='')}" if params else PATH_REPORT
    )
    return _get(target, Report.from_wire)


def get_suggestions(day: str | date | None) -> Operation[Suggestions]:
    """``GET /suggestions[?date=D]``: the day only when given (the app knows today)."""
    if day is None:
        return _get(PATH_SUGGESTIONS, Suggestions.from_wire)
    query = urlencode([("date", _day(day, "date"))], quote_via=quote, safe="")
    return _get(f"{PATH_SUGGESTIONS}?{query}", Suggestions.from_wire)


def accept_suggestion(suggestion_id: str, activity_name: str | None) -> Operation[Entry]:
    """``POST /suggestions/accept`` with a fresh ``Idempotency-Key``, so that one retry after a
    network failure never logs the suggestion twice."""
    payload: dict[str, object] = {"id": suggestion_id}
    if activity_name is not None:
        payload["activityName"] = activity_name
    return _post(
        PATH_ACCEPT_SUGGESTION,
        payload,
        Entry.from_wire,
        extra_headers={HEADER_IDEMPOTENCY_KEY: new_idempotency_key()},
        network_retries=1,
    )


# ---------------------------------------------------------------------------------------------
# The event stream (docs/protocol.md "The event stream: `GET /events`")


def events_headers(last_event_id: str | None) -> dict[str, str]:
    """Headers of a ``GET /events`` besides the signature (``Last-Event-ID`` is not signed)."""
    headers = {"Accept": EVENT_STREAM_CONTENT_TYPE}
    if last_event_id is not None:
        headers[HEADER_LAST_EVENT_ID] = last_event_id
    return headers


def events_timeout(config: ClientConfig) -> httpx.Timeout:
    """The client's timeout to open the stream; reading waits for the keep-alive rhythm."""
    return httpx.Timeout(config.timeout, read=STREAM_READ_TIMEOUT_SECONDS)
