"""The eight operations through ``Client`` and ``AsyncClient``: requests, results, retries."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from tock_client import (
    ActivityRef,
    AsyncClient,
    BranchPrompt,
    Client,
    Entry,
    Health,
    NetworkError,
    StartResult,
    Status,
    StoppedSession,
    TockError,
)

from .fake_tock import TOKEN, Recorder, call, ok

ACTIVITY_ID = "0b7e6a36-3f0c-4c55-9a4e-1f2d3c4b5a69"
OTHER_ID = "5f3c1e2a-7b9d-4e8f-a1c2-d3e4f5a6b7c8"
UTC = timezone.utc


def body_of(request: httpx.Request) -> object:
    return json.loads(request.content) if request.content else None


def test_healthcheck_returns_health(flavour: str) -> None:
    wire = {"status": "ok", "apiVersion": 1, "appVersion": "1.2.3", "license": "trial"}
    recorder = Recorder(lambda request: ok(request, wire))
    assert call(flavour, recorder, "healthcheck") == Health(
        status="ok", api_version=1, app_version="1.2.3", license="trial"
    )
    (request,) = recorder.requests
    assert (request.method, request.url.raw_path) == ("GET", b"/healthcheck")
    assert request.content == b""
    assert request.headers["host"] == "127.0.0.1:39847"
    assert "content-type" not in request.headers


def test_get_current_returns_a_reference_or_none_when_idle(flavour: str) -> None:
    wire = {"activityID": ACTIVITY_ID, "activityName": "Writing"}
    assert call(flavour, lambda request: ok(request, wire), "get_current") == ActivityRef(
        activity_id=ACTIVITY_ID, activity_name="Writing"
    )
    assert call(flavour, lambda request: ok(request, None), "get_current") is None


def test_get_status_parses_aware_datetimes(flavour: str) -> None:
    wire = {
        "isTracking": True,
        "isOnBreak": False,
        "currentActivity": {"activityID": ACTIVITY_ID, "activityName": "Writing"},
        "todaySeconds": 3723,
        "since": "2026-11-22T09:15:00.000Z",
    }
    status = call(flavour, Recorder(lambda request: ok(request, wire)), "get_status")
    assert status == Status(
        is_tracking=True,
        is_on_break=False,
        current_activity=ActivityRef(ACTIVITY_ID, "Writing"),
        today_seconds=3723,
        since=datetime(2026, 11, 22, 9, 15, tzinfo=UTC),
    )
    assert status.since.tzinfo is not None
    assert status.since.utcoffset() == timedelta(0)


def test_get_status_when_idle_has_none_for_activity_and_since(flavour: str) -> None:
    wire = {
        "isTracking": False,
        "isOnBreak": False,
        "currentActivity": None,
        "todaySeconds": 0,
        "since": None,
    }
    status = call(flavour, lambda request: ok(request, wire), "get_status")
    assert status.current_activity is None
    assert status.since is None


def test_search_activities_encodes_the_query_and_returns_a_list(flavour: str) -> None:
    wire = [
        {"activityID": ACTIVITY_ID, "activityName": "Café time"},
        {"activityID": OTHER_ID, "activityName": "Café planning"},
    ]
    recorder = Recorder(lambda request: ok(request, wire))
    results = call(flavour, recorder, "search_activities", "café time", limit=5)
    assert results == [
        ActivityRef(ACTIVITY_ID, "Café time"),
        ActivityRef(OTHER_ID, "Café planning"),
    ]
    assert recorder.requests[0].url.raw_path == b"/activities/search?q=caf%C3%A9%20time&limit=5"


def test_search_activities_sends_an_empty_query_and_no_limit_by_default(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, []))
    assert call(flavour, recorder, "search_activities", "") == []
    assert recorder.requests[0].url.raw_path == b"/activities/search?q="


@pytest.mark.parametrize(
    ("args", "kwargs", "expected_body"),
    [
        (("Writing",), {}, {"name": "Writing", "createIfMissing": False}),
        (("Writing",), {"create_if_missing": True}, {"name": "Writing", "createIfMissing": True}),
        ((), {"activity_id": ACTIVITY_ID}, {"activityID": ACTIVITY_ID}),
        (
            ("Writing",),
            {"note": "chapter 3"},
            {"name": "Writing", "createIfMissing": False, "note": "chapter 3"},
        ),
        (
            (),
            {"activity_id": ACTIVITY_ID, "note": "review"},
            {"activityID": ACTIVITY_ID, "note": "review"},
        ),
    ],
)
def test_start_activity_sends_name_or_id_and_returns_the_start(
    flavour: str, args: tuple[str, ...], kwargs: dict[str, Any], expected_body: object
) -> None:
    wire = {
        "activityID": ACTIVITY_ID,
        "activityName": "Writing",
        "created": True,
        "startedAt": "2026-11-22T09:15:00.250Z",
    }
    recorder = Recorder(lambda request: ok(request, wire))
    result = call(flavour, recorder, "start_activity", *args, **kwargs)
    assert result == StartResult(
        activity_id=ACTIVITY_ID,
        activity_name="Writing",
        created=True,
        started_at=datetime(2026, 11, 22, 9, 15, 0, 250000, tzinfo=UTC),
    )
    (request,) = recorder.requests
    assert (request.method, request.url.raw_path) == ("POST", b"/activities/start")
    assert request.headers["content-type"] == "application/json"
    assert body_of(request) == expected_body


def test_stop_activity_sends_an_empty_body_and_returns_the_session(flavour: str) -> None:
    wire = {
        "activityID": ACTIVITY_ID,
        "activityName": "Writing",
        "startedAt": "2026-11-22T09:15:00.000Z",
        "endedAt": "2026-11-22T10:15:00.000Z",
        "seconds": 3300,
    }
    recorder = Recorder(lambda request: ok(request, wire))
    assert call(flavour, recorder, "stop_activity") == StoppedSession(
        activity_id=ACTIVITY_ID,
        activity_name="Writing",
        started_at=datetime(2026, 11, 22, 9, 15, tzinfo=UTC),
        ended_at=datetime(2026, 11, 22, 10, 15, tzinfo=UTC),
        seconds=3300,
    )
    assert recorder.requests[0].content == b""
    assert recorder.requests[0].url.raw_path == b"/activities/stop"


def test_stop_activity_says_when_the_session_was_not_kept(flavour: str) -> None:
    wire = {
        "activityID": ACTIVITY_ID,
        "activityName": "Writing",
        "startedAt": "2026-11-22T09:15:00.000Z",
        "endedAt": "2026-11-22T09:15:31.000Z",
        "seconds": 31,
        "kept": False,
    }
    recorder = Recorder(lambda request: ok(request, wire))
    stopped = call(flavour, recorder, "stop_activity")
    assert isinstance(stopped, StoppedSession)
    assert stopped.kept is False
    assert stopped.seconds == 31


def test_stop_activity_returns_none_when_nothing_ran(flavour: str) -> None:
    assert call(flavour, lambda request: ok(request, None), "stop_activity") is None


ENTRY_WIRE = {
    "entryID": OTHER_ID,
    "activity": {"activityID": ACTIVITY_ID, "activityName": "Review"},
    "created": False,
    "startedAt": "2026-11-22T08:30:00.000Z",
    "endedAt": "2026-11-22T09:15:00.000Z",
    "durationMinutes": 45,
    "note": "chapter 3",
}


def test_log_entry_sends_the_fields_and_an_idempotency_key(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    entry = call(
        flavour,
        recorder,
        "log_entry",
        name="Review",
        duration_minutes=45,
        note="chapter 3",
        ended_at=datetime(2026, 11, 22, 10, 15, tzinfo=timezone(timedelta(hours=1))),
    )
    assert entry == Entry(
        entry_id=OTHER_ID,
        activity=ActivityRef(ACTIVITY_ID, "Review"),
        created=False,
        started_at=datetime(2026, 11, 22, 8, 30, tzinfo=UTC),
        ended_at=datetime(2026, 11, 22, 9, 15, tzinfo=UTC),
        duration_minutes=45,
        note="chapter 3",
    )
    (request,) = recorder.requests
    assert request.url.raw_path == b"/entries"
    assert body_of(request) == {
        "name": "Review",
        "durationMinutes": 45,
        "note": "chapter 3",
        "createIfMissing": False,
        "endedAt": "2026-11-22T09:15:00.000Z",
    }
    key = request.headers["idempotency-key"]
    assert len(key) == 22
    assert key.replace("-", "").replace("_", "").isalnum()


def test_log_entry_passes_an_iso_string_through_and_uses_the_callers_key(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    call(
        flavour,
        recorder,
        "log_entry",
        activity_id=ACTIVITY_ID,
        duration_minutes=12.5,
        ended_at="2026-11-22T09:15:00Z",
        idempotency_key="my-own-key_1",
    )
    (request,) = recorder.requests
    assert body_of(request) == {
        "activityID": ACTIVITY_ID,
        "durationMinutes": 12.5,
        "endedAt": "2026-11-22T09:15:00Z",
    }
    assert request.headers["idempotency-key"] == "my-own-key_1"


@pytest.mark.parametrize("key", ["", "x" * 65, "has space", "comma,key", "ümlaut", "a\nb"])
def test_log_entry_refuses_a_malformed_key_before_sending(flavour: str, key: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    with pytest.raises(ValueError, match="idempotency_key must be 1-64 characters"):
        call(flavour, recorder, "log_entry", name="Review", duration_minutes=5, idempotency_key=key)
    assert recorder.requests == []


def test_log_entry_accepts_a_key_of_64_characters(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    key = "K_-9" * 16
    call(flavour, recorder, "log_entry", name="Review", duration_minutes=5, idempotency_key=key)
    assert recorder.requests[0].headers["idempotency-key"] == key


def test_log_entry_uses_a_new_key_per_call(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    call(flavour, recorder, "log_entry", name="Review", duration_minutes=5)
    call(flavour, recorder, "log_entry", name="Review", duration_minutes=5)
    keys = {request.headers["idempotency-key"] for request in recorder.requests}
    assert len(keys) == 2


def test_log_entry_refuses_a_naive_datetime(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    with pytest.raises(ValueError, match="timezone-aware"):
        call(
            flavour,
            recorder,
            "log_entry",
            name="Review",
            duration_minutes=5,
            ended_at=datetime(2026, 11, 22, 9, 15),  # noqa: DTZ001 (the point of the test)
        )
    assert recorder.requests == []


def test_log_entry_refuses_a_non_finite_duration_before_sending(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, ENTRY_WIRE, status=201))
    with pytest.raises(ValueError, match="JSON"):
        call(flavour, recorder, "log_entry", name="Review", duration_minutes=float("nan"))
    assert recorder.requests == []


class FlakyTransport:
    """Fails the first ``failures`` sends with ``error``, then answers a signed 201."""

    def __init__(self, error: Exception, failures: int = 1) -> None:
        self.error = error
        self.failures = failures
        self.requests: list[httpx.Request] = []
        # httpx re-signs the same Request object in place on a resend: keep what each send had.
        self.sent_headers: list[dict[str, str]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.sent_headers.append(dict(request.headers))
        if len(self.requests) <= self.failures:
            raise self.error
        return ok(request, ENTRY_WIRE, status=201)


@pytest.mark.parametrize(
    "error",
    [
        httpx.ConnectError("connection refused"),
        httpx.ReadTimeout("timed out"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
    ],
    ids=["refused", "timeout", "reset"],
)
def test_log_entry_retries_once_with_the_same_key_when_no_response_arrived(
    flavour: str, error: Exception
) -> None:
    transport = FlakyTransport(error)
    entry = call(flavour, transport, "log_entry", name="Review", duration_minutes=45)
    assert entry.entry_id == OTHER_ID
    first, second = transport.sent_headers
    assert first["idempotency-key"] == second["idempotency-key"]
    assert first["x-tock-nonce"] != second["x-tock-nonce"]
    assert len(transport.requests) == 2


def test_log_entry_gives_up_after_one_retry(flavour: str) -> None:
    transport = FlakyTransport(httpx.ConnectError("connection refused"), failures=5)
    with pytest.raises(NetworkError):
        call(flavour, transport, "log_entry", name="Review", duration_minutes=45)
    assert len(transport.requests) == 2


class BrokenBody(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body that breaks after the status line and headers arrived."""

    def __iter__(self) -> Iterator[bytes]:
        raise httpx.ReadError("connection reset by peer")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self:
            yield chunk


def test_log_entry_does_not_retry_once_a_response_started_arriving(flavour: str) -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(201, stream=BrokenBody())

    with pytest.raises(NetworkError):
        call(flavour, handler, "log_entry", name="Review", duration_minutes=45)
    assert len(requests) == 1


@pytest.mark.parametrize("method", ["get_status", "stop_activity"])
def test_other_operations_never_retry(flavour: str, method: str) -> None:
    transport = FlakyTransport(httpx.ConnectError("connection refused"))
    with pytest.raises(NetworkError):
        call(flavour, transport, method)
    assert len(transport.requests) == 1


def test_notify_branch_change_sends_branch_repo_and_previous(flavour: str) -> None:
    answer = {
        "promptID": OTHER_ID,
        "branch": "feature/login",
        "repo": "/src/shop",
        "previousBranch": "main",
    }
    recorder = Recorder(lambda request: ok(request, answer))
    prompt = call(flavour, recorder, "notify_branch_change", "feature/login", "/src/shop", "main")
    assert prompt == BranchPrompt(
        prompt_id=OTHER_ID, branch="feature/login", repo="/src/shop", previous_branch="main"
    )
    assert recorder.requests[0].content == (
        b'{"branch":"feature/login","repo":"/src/shop","previousBranch":"main"}'
    )


def test_notify_branch_change_leaves_out_absent_fields(flavour: str) -> None:
    answer = {"promptID": OTHER_ID, "branch": "main", "repo": None, "previousBranch": None}
    recorder = Recorder(lambda request: ok(request, answer))
    prompt = call(flavour, recorder, "notify_branch_change", "main")
    assert (prompt.repo, prompt.previous_branch) == (None, None)
    assert recorder.requests[0].content == b'{"branch":"main"}'


# --- Configuration ---------------------------------------------------------------------------


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("SERVICE_TOKEN", raising=False)
    monkeypatch.delenv("SERVICE_PORT", raising=False)
    return monkeypatch


@pytest.mark.parametrize("client_class", [Client, AsyncClient])
@pytest.mark.parametrize("env_token", [None, ""])
def test_a_missing_token_is_a_clear_error_at_construction(
    clean_env: pytest.MonkeyPatch, client_class: type[Client | AsyncClient], env_token: str | None
) -> None:
    if env_token is not None:
        clean_env.setenv("SERVICE_TOKEN", env_token)
    with pytest.raises(TockError) as caught:
        client_class()
    assert caught.value.code == "missing_token"
    assert caught.value.status_code is None
    assert "SERVICE_TOKEN" in caught.value.message


@pytest.mark.parametrize("client_class", [Client, AsyncClient])
def test_an_empty_token_argument_is_missing(
    clean_env: pytest.MonkeyPatch, client_class: type[Client | AsyncClient]
) -> None:
    with pytest.raises(TockError) as caught:
        client_class(token="")
    assert caught.value.code == "missing_token"


@pytest.mark.parametrize("client_class", [Client, AsyncClient])
@pytest.mark.parametrize("port", [0, 65536, -1, True, "39847", 3.5])
def test_an_invalid_port_argument_is_refused(
    clean_env: pytest.MonkeyPatch, client_class: type[Client | AsyncClient], port: object
) -> None:
    with pytest.raises(TockError) as caught:
        client_class(token=TOKEN, port=port)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_port"


@pytest.mark.parametrize("client_class", [Client, AsyncClient])
@pytest.mark.parametrize(
    "env_port", ["0", "65536", "abc", "80.5", "-5", "٣٩٨٤٧", "80 ", " 80", " ", "+80"]
)
def test_an_invalid_service_port_is_refused(
    clean_env: pytest.MonkeyPatch, client_class: type[Client | AsyncClient], env_port: str
) -> None:
    clean_env.setenv("SERVICE_PORT", env_port)
    with pytest.raises(TockError) as caught:
        client_class(token=TOKEN)
    assert caught.value.code == "invalid_port"
    assert "SERVICE_PORT" in caught.value.message


def test_token_and_port_come_from_the_environment(
    clean_env: pytest.MonkeyPatch, flavour: str
) -> None:
    clean_env.setenv("SERVICE_TOKEN", TOKEN)
    clean_env.setenv("SERVICE_PORT", "40001")
    recorder = Recorder(lambda request: ok(request, None))
    assert call(flavour, recorder, "get_current", client_kwargs={"token": None}) is None
    assert recorder.requests[0].url.port == 40001
    assert recorder.requests[0].headers["host"] == "127.0.0.1:40001"


def test_arguments_win_over_the_environment(clean_env: pytest.MonkeyPatch, flavour: str) -> None:
    clean_env.setenv("SERVICE_TOKEN", "not-the-token")
    clean_env.setenv("SERVICE_PORT", "not-a-port")
    recorder = Recorder(lambda request: ok(request, None))
    call(flavour, recorder, "get_current", client_kwargs={"token": TOKEN, "port": 40002})
    assert recorder.requests[0].url.port == 40002


def test_an_empty_service_port_means_the_default(
    clean_env: pytest.MonkeyPatch, flavour: str
) -> None:
    clean_env.setenv("SERVICE_PORT", "")
    recorder = Recorder(lambda request: ok(request, None))
    call(flavour, recorder, "get_current")
    assert recorder.requests[0].url.port == 39847


def test_the_host_header_keeps_the_port_even_when_it_is_80(flavour: str) -> None:
    recorder = Recorder(lambda request: ok(request, None))
    call(flavour, recorder, "get_current", client_kwargs={"port": 80})
    assert recorder.requests[0].headers["host"] == "127.0.0.1:80"


def test_client_repr_hides_the_token() -> None:
    with Client(token=TOKEN) as client:
        assert TOKEN not in repr(client)
        assert TOKEN not in repr(vars(client))


@pytest.mark.asyncio
async def test_async_client_works_as_an_async_context_manager() -> None:
    recorder = Recorder(lambda request: ok(request, None))
    async with AsyncClient(token=TOKEN, transport=httpx.MockTransport(recorder)) as client:
        assert await client.get_current() is None
        assert await client.stop_activity() is None
    assert len(recorder.requests) == 2
