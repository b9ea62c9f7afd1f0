"""``AsyncClient``: the asynchronous client. I/O only; every decision lives in ``_base``,
``_config`` and ``_responses``.

``_client.py`` is generated from ``_async_client.py`` by ``python tools/unasync.py``: edit
the async file only; a test fails when the two drift apart.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import date, datetime
from types import TracebackType
from typing import Any, TypeVar

import httpx

from . import _base, _config, _events, _responses
from ._auth import TockAuth
from ._protocol import DEFAULT_TIMEOUT_SECONDS, PATH_EVENTS
from ._report_types import Report
from ._suggestion_types import Suggestions
from ._types import (
    ActivityRef,
    BranchPrompt,
    Entry,
    Event,
    Health,
    StartResult,
    Status,
    StoppedSession,
)

T = TypeVar("T")


class AsyncClient:
    """Asynchronous client for the Tock listener on ``127.0.0.1``.

    ``token`` and ``port`` default to ``SERVICE_TOKEN`` and ``SERVICE_PORT`` (else 39847);
    ``timeout`` is httpx's, per request, in seconds. Every request is signed with a fresh
    nonce and every response's signature is checked. Redirects are never followed and proxy
    settings from the environment are ignored. ``transport`` replaces httpx's transport
    (for example an ``httpx.MockTransport`` in tests). Use it as an async context manager,
    or call ``await aclose()``.
    """

    def __init__(
        self,
        token: str | None = None,
        port: int | None = None,
        timeout: float | None = DEFAULT_TIMEOUT_SECONDS,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._config = _config.resolve_config(token, port, timeout)
        # How `events()` waits before reconnecting; tests replace it (no real waiting).
        self._sleep: Callable[[float], Any] = asyncio.sleep
        self._http = httpx.AsyncClient(
            base_url=self._config.base_url,
            auth=TockAuth(self._config.token),
            headers=self._config.default_headers,
            timeout=self._config.timeout,
            follow_redirects=False,
            trust_env=False,
            transport=transport,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(port={self._config.port})"

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool. The client cannot be used afterwards."""
        await self._http.aclose()

    def _closed(self) -> bool:
        # A method, not the property inline: the loop in `events` must read it afresh.
        return self._http.is_closed

    async def _send(self, operation: _base.Operation[T]) -> T:
        request = self._http.build_request(
            operation.method, operation.target, content=operation.body, headers=operation.headers
        )
        retries_left = operation.network_retries
        while True:
            try:  # Returns once the status line and headers arrived.
                response = await self._http.send(request, stream=True)
            except httpx.TransportError as exc:
                if retries_left > 0:  # No response arrived: safe to resend under the same key.
                    retries_left -= 1
                    continue
                raise _responses.network_error(exc, self._config) from exc
            try:
                await response.aread()
            except httpx.TransportError as exc:
                raise _responses.network_error(exc, self._config) from exc
            finally:
                await response.aclose()
            return _responses.parse_response(operation, self._config.token, response)

    async def healthcheck(self) -> Health:
        """``GET /healthcheck``: app version and license state; works while locked."""
        return await self._send(_base.healthcheck())

    async def get_current(self) -> ActivityRef | None:
        """The activity being tracked, or ``None`` when idle."""
        return await self._send(_base.get_current())

    async def get_status(self) -> Status:
        """Tracking state, break state, current activity and today's total."""
        return await self._send(_base.get_status())

    async def search_activities(self, q: str, limit: int | None = None) -> list[ActivityRef]:
        """Activities matching ``q``, best first (``""``: most recently used first)."""
        return await self._send(_base.search_activities(q, limit))

    async def start_activity(
        self,
        name: str | None = None,
        *,
        activity_id: str | None = None,
        create_if_missing: bool = False,
        note: str | None = None,
    ) -> StartResult:
        """Start tracking an activity by ``name`` or ``activity_id`` (exactly one).

        ``note`` (at most 2000 characters) describes the session; given while that activity
        already runs, it replaces the running session's note.
        """
        return await self._send(_base.start_activity(name, activity_id, create_if_missing, note))

    async def stop_activity(self) -> StoppedSession | None:
        """Stop tracking; the ended session, or ``None`` when nothing ran."""
        return await self._send(_base.stop_activity())

    async def log_entry(
        self,
        *,
        name: str | None = None,
        activity_id: str | None = None,
        duration_minutes: float,
        note: str | None = None,
        create_if_missing: bool = False,
        ended_at: str | datetime | None = None,
        idempotency_key: str | None = None,
        tags: Sequence[str] | None = None,
        billable: bool | None = None,
    ) -> Entry:
        """Log a finished block of ``duration_minutes`` ending at ``ended_at`` (default: now).

        Sent with an ``Idempotency-Key`` (``idempotency_key`` or a random one) and retried
        once under the same key if the connection failed before any response arrived. A
        malformed ``idempotency_key`` (not 1-64 of ``A-Z a-z 0-9 _ -``) is a ``ValueError``,
        raised before anything is sent. ``tags`` (names) and ``billable`` (default: the
        activity's) go with the block (docs/data.md "The ledger").
        """
        return await self._send(
            _base.log_entry(
                name=name,
                activity_id=activity_id,
                duration_minutes=duration_minutes,
                note=note,
                create_if_missing=create_if_missing,
                ended_at=ended_at,
                idempotency_key=idempotency_key,
                tags=tags,
                billable=billable,
            )
        )

    async def notify_branch_change(
        self, branch: str, repo: str | None = None, previous_branch: str | None = None
    ) -> BranchPrompt:
        """Tell the app the Git branch changed; it opens its tracking prompt."""
        return await self._send(_base.notify_branch_change(branch, repo, previous_branch))

    async def get_report(
        self,
        from_date: str | date | None = None,
        to_date: str | date | None = None,
        by: str = "activity",
        billable: bool | None = None,
    ) -> Report:
        """Worked seconds per ``"activity"``, ``"day"``, ``"client"`` or ``"tag"`` over local
        days ``from_date`` to ``to_date`` (``YYYY-MM-DD`` strings or ``date`` objects, both
        included, default today), with billed time and amounts; ``billable`` keeps only
        billable blocks (``True``) or only the others (``False``).

        A bad range (``to_date`` before ``from_date``, over 366 days, not a date) is a
        ``ValidationError``.
        """
        return await self._send(_base.get_report(from_date, to_date, by, billable))

    async def get_suggestions(self, date: str | date | None = None) -> Suggestions:
        """The untracked stretches of a local day (``YYYY-MM-DD`` or a ``date``, default today)
        where capture saw work, each labelled with an activity or not (docs/protocol.md
        "Suggestions"). A malformed day is a ``ValidationError``.
        """
        return await self._send(_base.get_suggestions(date))

    async def accept_suggestion(self, id: str, activity_name: str | None = None) -> Entry:
        """Log a suggestion as an entry noted ``from capture`` (``activity_name``, created when
        new, else its label). Retried once under the same ``Idempotency-Key`` if the connection
        failed before any response arrived. An id that is no current suggestion is a
        ``NotFoundError`` (``suggestion_not_found``); an unlabelled one without
        ``activity_name`` a ``ValidationError``.
        """
        return await self._send(_base.accept_suggestion(id, activity_name))

    async def events(
        self,
        last_event_id: str | None = None,
        reconnect: bool = True,
    ) -> AsyncIterator[Event]:
        """The app's events as they happen: ``Event(id, type, data)`` with ``data`` a ``Status``,
        ``BranchPrompt``, ``Idle`` or ``Budget``; a ``status`` first.

        Every event's signature is checked (a missing or wrong one raises ``AuthError``
        ``bad_event_signature``). A dropped stream is reopened with ``Last-Event-ID`` after
        0.5 s, doubling to 10 s while it keeps failing, unless ``reconnect`` is false; 401,
        423, 429 and other refusals raise their usual error. Leaving the loop or closing the
        client ends the stream and frees its connection.
        """
        failures = 0
        while not self._closed():
            request = self._http.build_request(
                "GET",
                PATH_EVENTS,
                headers=_base.events_headers(last_event_id),
                timeout=_base.events_timeout(self._config),
            )
            failure: httpx.TransportError | None = None
            try:
                response = await self._http.send(request, stream=True)
            except httpx.TransportError as exc:
                failure = exc
            except RuntimeError:
                if self._closed():  # closed by the caller meanwhile: the iteration ends
                    return
                raise
            else:
                try:
                    if response.status_code != 200:
                        await response.aread()
                    nonce = _responses.check_stream_opened(self._config.token, response)
                    failures = 0
                    parser = _events.EventStreamParser()
                    async for text in response.aiter_text():
                        for raw in parser.push(text):
                            event = _events.read_event(raw, self._config.token, nonce)
                            last_event_id = raw.id
                            if event is not None:
                                yield event
                except httpx.TransportError as exc:
                    failure = exc
                except httpx.StreamError:
                    if not self._closed():  # the stream was closed under the loop by the caller
                        raise
                finally:
                    await response.aclose()
            if self._closed():
                return
            if not reconnect:
                if failure is not None:
                    raise _responses.network_error(failure, self._config) from failure
                return
            failures += 1
            await self._sleep(_events.reconnect_delay(failures))
