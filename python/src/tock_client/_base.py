"""Everything ``Client`` and ``AsyncClient`` share, as pure functions.

The two clients differ only in I/O. Here live the decisions: resolving the configuration,
building each operation's request (method, target, body bytes, headers, how to decode the
result), checking the response signature, and turning a response into a result or an error.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Generic, TypeVar
from urllib.parse import quote, urlencode

import httpx

from ._errors import (
    AuthError,
    HTTPError,
    NetworkError,
    TockError,
    error_class_for_status,
    status_phrase,
)
from ._protocol import (
    CODE_BAD_RESPONSE_SIGNATURE,
    CODE_HTTP_PREFIX,
    CODE_INVALID_PORT,
    CODE_INVALID_RESPONSE,
    CODE_LICENSE_LOCKED,
    CODE_MISSING_TOKEN,
    CODE_NETWORK_ERROR,
    CODE_TIMEOUT,
    DEFAULT_PORT,
    ENV_PORT,
    ENV_TOKEN,
    ERROR_STATUS,
    EVENT_STREAM_CONTENT_TYPE,
    HEADER_IDEMPOTENCY_KEY,
    HEADER_LAST_EVENT_ID,
    HEADER_NONCE,
    HEADER_RESPONSE_SIGNATURE,
    HEADER_RETRY_AFTER,
    HOST,
    IDEMPOTENCY_KEY_BYTES,
    IDEMPOTENCY_KEY_PATTERN,
    JSON_CONTENT_TYPE,
    LICENSE_LOCKED_STATUS,
    LOCKED_OUT_STATUS,
    MAX_PORT,
    MIN_PORT,
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
    UNSIGNED_STATUSES,
)
from ._signing import random_token_urlsafe, verify_response
from ._types import (
    ActivityRef,
    BranchPrompt,
    Entry,
    Health,
    Report,
    StartResult,
    Status,
    StoppedSession,
    Suggestions,
)
from ._version import __version__

T = TypeVar("T")

USER_AGENT = f"tock-client-python/{__version__}"

# ---------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True)
class ClientConfig:
    """A resolved configuration: the token (never shown in ``repr``), port and timeout."""

    token: str = field(repr=False)
    port: int
    timeout: float | None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``: the listener binds the loopback address only."""
        return f"http://{HOST}:{self.port}"

    @property
    def default_headers(self) -> dict[str, str]:
        """Headers on every request. ``Host`` is explicit because the listener insists on
        ``127.0.0.1:<port>`` and httpx would drop a default port such as ``:80``."""
        return {
            "Host": f"{HOST}:{self.port}",
            "Accept": JSON_CONTENT_TYPE,
            "User-Agent": USER_AGENT,
        }


def _invalid_port(value: object, source: str) -> TockError:
    return TockError(
        f"invalid port {value!r} from {source}: use an integer from {MIN_PORT} to {MAX_PORT}",
        code=CODE_INVALID_PORT,
    )


def _check_port(value: object) -> int:
    # `bool` is an `int` subclass; `True` is not a port.
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_PORT <= value <= MAX_PORT:
        raise _invalid_port(value, "the port argument")
    return value


def _port_from_env(text: str) -> int:
    # ASCII digits only: str.isdigit() alone accepts other scripts' digits.
    if not (text.isascii() and text.isdigit()) or not MIN_PORT <= int(text) <= MAX_PORT:
        raise _invalid_port(text, ENV_PORT)
    return int(text)


def resolve_config(
    token: str | None,
    port: int | None,
    timeout: float | None,
    environ: Mapping[str, str] | None = None,
) -> ClientConfig:
    """Arguments first, then ``SERVICE_TOKEN`` / ``SERVICE_PORT``, then the default port.

    A missing or empty token is ``TockError`` ``missing_token``; a port that is not an
    integer 1-65535 is ``TockError`` ``invalid_port``. Both are raised at construction.
    """
    env = os.environ if environ is None else environ
    resolved_token = token if token is not None else env.get(ENV_TOKEN)
    if not resolved_token:
        raise TockError(
            f"no Tock token: pass token=... or set {ENV_TOKEN} "
            "(`tock token` prints it once the listener is on)",
            code=CODE_MISSING_TOKEN,
        )
    if port is not None:
        resolved_port = _check_port(port)
    else:
        # Unset or empty is the default; anything else must be the digits alone, as the
        # TypeScript client reads it (" 8080" is no port in either).
        env_port = env.get(ENV_PORT, "")
        resolved_port = _port_from_env(env_port) if env_port != "" else DEFAULT_PORT
    return ClientConfig(token=resolved_token, port=resolved_port, timeout=timeout)


# ---------------------------------------------------------------------------------------------
# Requests


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


def check_stream_opened(token: str, response: httpx.Response) -> str:
    """The nonce the stream's events are signed with, once the answer is a signed 200.

    The 200 is signed over the empty body (its events carry their own signatures); an
    unsigned or wrongly signed one is ``AuthError`` ``bad_response_signature``. Any other
    status must have been read first and raises its usual error.
    """
    nonce = response.request.headers.get(HEADER_NONCE)
    status = response.status_code
    if status != 200:
        check_response_signature(
            token, nonce=nonce, status=status, headers=response.headers, body=response.content
        )
        raise error_from_response(status, response.headers, response.content)
    signature = response.headers.get(HEADER_RESPONSE_SIGNATURE)
    if nonce is None or not verify_response(
        token, nonce=nonce, status=200, body=b"", signature=signature
    ):
        raise _bad_response_signature(200)
    return str(nonce)


# ---------------------------------------------------------------------------------------------
# Responses


def _bad_response_signature(status: int) -> AuthError:
    return AuthError(
        "the response was not signed by Tock: another program may be answering on this port; "
        "check that Tock runs with its listener on this port (`tock listener status`)",
        code=CODE_BAD_RESPONSE_SIGNATURE,
        status_code=status,
    )


def check_response_signature(
    token: str, *, nonce: str | None, status: int, headers: Mapping[str, str], body: bytes
) -> None:
    """Raise ``AuthError`` ``bad_response_signature`` unless the response is Tock's.

    See docs/protocol.md "Request signing".

    A signature that is present must verify. A missing one is accepted only for the
    statuses the listener answers before it has verified the request (400, 401, 403, 413,
    429, 431); the response is then mapped by its status like any other.
    """
    signature = headers.get(HEADER_RESPONSE_SIGNATURE)
    if signature is None and status in UNSIGNED_STATUSES:
        return
    if nonce is None or not verify_response(
        token, nonce=nonce, status=status, body=body, signature=signature
    ):
        raise _bad_response_signature(status)


def _default_code(status: int) -> str:
    # The contract's only code for that status (431 → headers_too_large), else `http_<status>`,
    # as in the TypeScript client.
    codes = [code for code, code_status in ERROR_STATUS.items() if code_status == status]
    return codes[0] if len(codes) == 1 else f"{CODE_HTTP_PREFIX}{status}"


def _details(value: object) -> list[dict[str, str]] | None:
    if not isinstance(value, list):
        return None
    return [
        {"field": str(item.get("field", "")), "message": str(item.get("message", ""))}
        for item in value
        if isinstance(item, dict)
    ]


def _retry_after(status: int, headers: Mapping[str, str]) -> int | None:
    if status != LOCKED_OUT_STATUS:
        return None
    value = headers.get(HEADER_RETRY_AFTER, "").strip()
    return int(value) if value.isdigit() and value.isascii() else None


def error_from_response(status: int, headers: Mapping[str, str], body: bytes) -> TockError:
    """The error for a non-2xx response: class by status, code and message from the body.

    423's body is ``{"error": "license locked"}`` with no code: its code is
    ``license_locked``. A body that is missing or not JSON (Node answers 431 on its own)
    falls back to the status' only code, or ``http_<status>``, and the status phrase.
    """
    try:
        parsed: Any = json.loads(body) if body else None
    except ValueError:
        parsed = None
    envelope: Mapping[str, Any] = parsed if isinstance(parsed, dict) else {}
    message = envelope.get("error")
    code = envelope.get("code")
    if status == LICENSE_LOCKED_STATUS:
        code = CODE_LICENSE_LOCKED
    return error_class_for_status(status)(
        message if isinstance(message, str) and message else status_phrase(status),
        code=code if isinstance(code, str) and code else _default_code(status),
        status_code=status,
        details=_details(envelope.get("details")),
        retry_after=_retry_after(status, headers),
    )


def decode_success(operation: Operation[T], status: int, body: bytes) -> T:
    """The typed result of a signed 2xx response ``{"ok": true, "result": ...}``."""
    try:
        envelope = json.loads(body)
        if not isinstance(envelope, dict) or envelope.get("ok") is not True:
            raise ValueError('the body is not {"ok": true, "result": ...}')
        return operation.decode(envelope.get("result"))
    except ValueError as exc:
        raise HTTPError(
            f"Tock sent a response this client cannot read ({exc}); "
            "check that the app and tock-client versions match",
            code=CODE_INVALID_RESPONSE,
            status_code=status,
        ) from exc


def parse_response(operation: Operation[T], token: str, response: httpx.Response) -> T:
    """Verify a fully read response and return its result, or raise the mapped error."""
    status = response.status_code
    body = response.content
    check_response_signature(
        token,
        nonce=response.request.headers.get(HEADER_NONCE),
        status=status,
        headers=response.headers,
        body=body,
    )
    if 200 <= status < 300:
        return decode_success(operation, status, body)
    raise error_from_response(status, response.headers, body)


def network_error(exc: httpx.TransportError, config: ClientConfig) -> NetworkError:
    """A ``NetworkError`` for an httpx transport failure (refused, reset, timed out)."""
    where = f"{HOST}:{config.port}"
    if isinstance(exc, httpx.TimeoutException):
        return NetworkError(
            f"Tock at {where} did not answer within {config.timeout} s ({type(exc).__name__})",
            code=CODE_TIMEOUT,
        )
    reason = str(exc) or type(exc).__name__
    return NetworkError(
        f"could not talk to Tock at {where}: {reason}; is the app running with the listener "
        "on? (`tock listener status`)",
        code=CODE_NETWORK_ERROR,
    )
