"""The event stream and reports in the Python client (docs/protocol.md "The event stream:
`GET /events`", "GET /report"): spec/signing.json's event vectors byte for byte, the SSE
parser, and both clients' ``events()`` and ``get_report()`` over a signed stand-in listener.
Reconnect delays go through an injected sleep: nothing waits for real.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from datetime import date, datetime, timezone
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tock_client import (
    Amount,
    AsyncClient,
    AuthError,
    BranchPrompt,
    Budget,
    Client,
    Event,
    HTTPError,
    Idle,
    NetworkError,
    Report,
    ReportRow,
    Status,
    UnavailableError,
    ValidationError,
)
from tock_client._events import EventStreamParser, RawEvent, read_event, reconnect_delay
from tock_client._signing import event_string_to_sign, sign_event, sign_response

from .conftest import load_vectors
from .fake_tock import TOKEN, Recorder, call, fail, ok

VECTORS = load_vectors()
EVENT_VECTORS: list[dict[str, Any]] = VECTORS["events"]
RUN = "pyRun000001"
STATUS_IDLE = {
    "isTracking": False,
    "isOnBreak": False,
    "currentActivity": None,
    "todaySeconds": 0,
    "since": None,
}


# ---- pure parts -------------------------------------------------------------------------


@pytest.mark.parametrize("vector", EVENT_VECTORS, ids=[v["name"] for v in EVENT_VECTORS])
def test_reproduces_the_event_vectors_byte_for_byte(vector: dict[str, Any]) -> None:
    token = VECTORS["token"]
    args = {
        "nonce": vector["requestNonce"],
        "event_id": vector["id"],
        "event_type": vector["type"],
        "data": vector["data"],
    }
    assert event_string_to_sign(**args) == vector["stringToSign"]
    assert sign_event(token, **args) == vector["sig"]
    [raw] = EventStreamParser().push(vector["wire"])
    assert raw == RawEvent(vector["id"], vector["type"], vector["data"], vector["sig"])
    event = read_event(raw, token, vector["requestNonce"])
    assert event is not None
    assert (event.id, event.type) == (vector["id"], vector["type"])
    expected_type = {"status": Status, "branch-prompt": BranchPrompt, "idle": Idle}[vector["type"]]
    assert isinstance(event.data, expected_type)


def test_typed_data_of_the_vectors() -> None:
    token = VECTORS["token"]
    events = [
        read_event(EventStreamParser().push(v["wire"])[0], token, v["requestNonce"])
        for v in EVENT_VECTORS
    ]
    status, prompt, idle = (e.data for e in events if e is not None)
    assert isinstance(status, Status)
    assert status.today_seconds == 5400
    assert status.since == datetime(2026, 11, 22, 9, 15, tzinfo=timezone.utc)
    assert prompt == BranchPrompt(
        prompt_id="5f1c2a9e-8b7d-4e3f-a6c5-1d2e3f4a5b6c",
        branch="feature/café",
        repo="/home/ana/src/shop",
        previous_branch=None,
    )
    assert idle == Idle(since=datetime(2026, 11, 22, 10, 5, tzinfo=timezone.utc), seconds=600)


@pytest.mark.parametrize(
    "change",
    [
        {"sig": None},
        {"sig": "v1=" + "0" * 64},
        {"data": '{"since":"2026-11-22T10:05:00.000Z","seconds":601}'},
        {"id": None},
        {"event": "status"},
    ],
)
def test_refuses_a_missing_or_wrong_sig_with_bad_event_signature(change: dict[str, Any]) -> None:
    vector = EVENT_VECTORS[2]
    [raw] = EventStreamParser().push(vector["wire"])
    bad = RawEvent(**{**raw.__dict__, **change})
    with pytest.raises(AuthError) as caught:
        read_event(bad, VECTORS["token"], vector["requestNonce"])
    assert (caught.value.code, caught.value.status_code) == ("bad_event_signature", 200)


def test_refuses_an_event_recorded_from_another_stream() -> None:
    vector = EVENT_VECTORS[0]
    [raw] = EventStreamParser().push(vector["wire"])
    with pytest.raises(AuthError):
        read_event(raw, VECTORS["token"], "another-stream-nonce-01")


def test_skips_a_signed_event_of_an_unknown_type() -> None:
    nonce = "nonce-000000000000"
    sig = sign_event(TOKEN, nonce=nonce, event_id="r.1", event_type="future", data="{}")
    assert read_event(RawEvent("r.1", "future", "{}", sig), TOKEN, nonce) is None


@given(
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=12),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_the_parser_gives_the_same_events_however_the_text_is_cut(
    cuts: list[int], eol: str
) -> None:
    wire = ": ping\n\n".join(v["wire"] for v in EVENT_VECTORS).replace("\n", eol)
    parser = EventStreamParser()
    out: list[RawEvent] = []
    at = 0
    for point in [*sorted({min(c, len(wire)) for c in cuts}), len(wire)]:
        out += parser.push(wire[at:point])
        at = point
    out += parser.push("\n")  # a trailing CR could still have been half a CRLF
    assert [e.id for e in out] == [v["id"] for v in EVENT_VECTORS]
    assert [e.data for e in out] == [v["data"] for v in EVENT_VECTORS]


def test_reconnect_delays_start_at_half_a_second_and_double_to_ten() -> None:
    assert [reconnect_delay(n) for n in (1, 2, 3, 4, 5, 6, 7, 100)] == [
        0.5,
        1.0,
        2.0,
        4.0,
        8.0,
        10.0,
        10.0,
        10.0,
    ]


# ---- a signed stand-in for GET /events ---------------------------------------------------


def stream(
    request: httpx.Request, events: Sequence[tuple[str, str, object]], *, sig: str = "ok"
) -> httpx.Response:
    """A 200 event stream answering ``request``: its events signed with the request's nonce."""
    nonce = request.headers["x-tock-nonce"]
    text = ": ping\n\n"
    for event_id, event_type, data in events:
        line = json.dumps(data, separators=(",", ":"))
        signed = sign_event(
            TOKEN if sig != "wrong" else "not-the-token",
            nonce=nonce,
            event_id=event_id,
            event_type=event_type,
            data=line,
        )
        text += f"id: {event_id}\nevent: {event_type}\ndata: {line}\n"
        text += "" if sig == "none" else f"sig: {signed}\n"
        text += "\n"
    headers = {
        "content-type": "text/event-stream",
        "x-tock-api-version": "1",
        "cache-control": "no-store",
        "x-tock-response-signature": sign_response(TOKEN, nonce=nonce, status=200, body=b""),
    }
    return httpx.Response(200, headers=headers, stream=httpx.ByteStream(text.encode("utf-8")))


def collect(
    flavour: str,
    handler: Callable[[httpx.Request], httpx.Response],
    count: int,
    *,
    delays: list[float] | None = None,
    **kwargs: Any,
) -> list[Event]:
    """``count`` events from ``events(**kwargs)`` of a sync or async client (fewer if it ends)."""
    transport = httpx.MockTransport(handler)
    out: list[Event] = []
    waits = delays if delays is not None else []
    if flavour == "sync":
        with Client(token=TOKEN, transport=transport) as client:
            client._sleep = waits.append
            for event in client.events(**kwargs):
                out.append(event)
                if len(out) == count:
                    break
        return out

    async def run() -> None:
        async with AsyncClient(token=TOKEN, transport=transport) as client:

            async def sleep(seconds: float) -> None:
                waits.append(seconds)

            client._sleep = sleep
            iterator: AsyncIterator[Event] = client.events(**kwargs)
            async for event in iterator:
                out.append(event)
                if len(out) == count:
                    break

    asyncio.run(run())
    return out


# A budget event's data (docs/protocol.md "The event stream: `GET /events`").
BUDGET_80 = {
    "activityID": "3f0e8e6c-8d3c-4c61-9a55-1f2b3c4d5e6f",
    "activityName": "Design",
    "usedSeconds": 28_800,
    "budgetSeconds": 36_000,
    "percent": 80,
}


def test_events_yields_typed_events_from_a_signed_stream(flavour: str) -> None:
    handler = Recorder(
        lambda request: stream(
            request,
            [
                (f"{RUN}.1", "status", STATUS_IDLE),
                (f"{RUN}.2", "idle", {"since": "2026-11-22T10:05:00.000Z", "seconds": 600}),
                (f"{RUN}.3", "budget", BUDGET_80),
            ],
        )
    )
    events = collect(flavour, handler, 3)
    assert [(e.id, e.type) for e in events] == [
        (f"{RUN}.1", "status"),
        (f"{RUN}.2", "idle"),
        (f"{RUN}.3", "budget"),
    ]
    assert isinstance(events[0].data, Status)
    assert isinstance(events[1].data, Idle)
    assert events[2].data == Budget(
        activity_id="3f0e8e6c-8d3c-4c61-9a55-1f2b3c4d5e6f",
        activity_name="Design",
        used_seconds=28_800,
        budget_seconds=36_000,
        percent=80,
    )
    [request] = handler.requests
    assert request.url.raw_path == b"/events"
    assert "last-event-id" not in request.headers


def test_events_reconnects_with_last_event_id_after_half_a_second(flavour: str) -> None:
    answers: list[Callable[[httpx.Request], httpx.Response]] = [
        lambda r: stream(r, [(f"{RUN}.1", "status", STATUS_IDLE)]),
        lambda r: stream(
            r, [(f"{RUN}.2", "idle", {"since": "2026-11-22T10:05:00.000Z", "seconds": 1})]
        ),
        lambda r: stream(
            r, [(f"{RUN}.3", "idle", {"since": "2026-11-22T10:05:00.000Z", "seconds": 2})]
        ),
    ]
    handler = Recorder(lambda request: answers.pop(0)(request))
    delays: list[float] = []
    events = collect(flavour, handler, 3, delays=delays)
    assert [e.id for e in events] == [f"{RUN}.1", f"{RUN}.2", f"{RUN}.3"]
    assert [r.headers.get("last-event-id") for r in handler.requests] == [
        None,
        f"{RUN}.1",
        f"{RUN}.2",
    ]
    assert len({r.headers["x-tock-nonce"] for r in handler.requests}) == 3
    # Each stream opened, so each drop waits the first delay again.
    assert delays == [0.5, 0.5]


def test_events_resumes_from_the_given_last_event_id(flavour: str) -> None:
    handler = Recorder(lambda r: stream(r, [(f"{RUN}.8", "status", STATUS_IDLE)]))
    collect(flavour, handler, 1, last_event_id=f"{RUN}.7")
    assert handler.requests[0].headers["last-event-id"] == f"{RUN}.7"


def test_events_backs_off_to_ten_seconds_while_the_app_is_away(flavour: str) -> None:
    class StopError(Exception):
        pass

    delays: list[float] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        if len(delays) == 7:
            raise StopError
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(StopError):
        collect(flavour, refuse, 1, delays=delays)
    assert delays == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]


@pytest.mark.parametrize("sig", ["none", "wrong"])
def test_events_ends_with_bad_event_signature(flavour: str, sig: str) -> None:
    handler = Recorder(lambda r: stream(r, [(f"{RUN}.1", "status", STATUS_IDLE)], sig=sig))
    with pytest.raises(AuthError) as caught:
        collect(flavour, handler, 1)
    assert caught.value.code == "bad_event_signature"


def test_events_refuses_an_unsigned_200(flavour: str) -> None:
    def unsigned(request: httpx.Request) -> httpx.Response:
        response = stream(request, [(f"{RUN}.1", "status", STATUS_IDLE)])
        del response.headers["x-tock-response-signature"]
        return response

    with pytest.raises(AuthError) as caught:
        collect(flavour, Recorder(unsigned), 1)
    assert caught.value.code == "bad_response_signature"


@pytest.mark.parametrize(
    ("status", "code", "error"),
    [
        (401, "bad_signature", AuthError),
        (423, "license_locked", HTTPError),
        (429, "too_many_streams", HTTPError),
        (503, "not_wired", UnavailableError),
    ],
)
def test_events_ends_with_the_usual_error_without_reconnecting(
    flavour: str, status: int, code: str, error: type[Exception]
) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        if status == 423:
            body = b'{"error":"license locked"}'
            nonce = request.headers["x-tock-nonce"]
            signature = sign_response(TOKEN, nonce=nonce, status=423, body=body)
            return httpx.Response(
                423, headers={"x-tock-response-signature": signature}, content=body
            )
        return fail(request, status, code, "refused", signed=status not in (401, 429))

    delays: list[float] = []
    handler = Recorder(refuse)
    with pytest.raises(error) as caught:
        collect(flavour, handler, 1, delays=delays)
    assert isinstance(caught.value, (AuthError, HTTPError, UnavailableError))
    assert caught.value.code == code
    assert (len(handler.requests), delays) == (1, [])


def test_events_without_reconnect_ends_with_the_stream_or_raises_network_error(
    flavour: str,
) -> None:
    handler = Recorder(lambda r: stream(r, [(f"{RUN}.1", "status", STATUS_IDLE)]))
    assert len(collect(flavour, handler, 5, reconnect=False)) == 1
    assert len(handler.requests) == 1

    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(NetworkError):
        collect(flavour, refused, 1, reconnect=False)


def test_leaving_the_loop_closes_the_stream(flavour: str) -> None:
    closed: list[bool] = []

    class TrackedStream(httpx.ByteStream):
        def close(self) -> None:
            closed.append(True)

        async def aclose(self) -> None:
            closed.append(True)

    def answer(request: httpx.Request) -> httpx.Response:
        events = [(f"{RUN}.1", "status", STATUS_IDLE), (f"{RUN}.2", "status", STATUS_IDLE)]
        response = stream(request, events)
        return httpx.Response(200, headers=response.headers, stream=TrackedStream(response.read()))

    assert len(collect(flavour, answer, 1)) == 1
    assert closed == [True]


# ---- get_report -----------------------------------------------------------------------------

LEDGER = {"billedSeconds": 0, "amount": None, "currency": None}

REPORT = {
    "from": "2026-11-01",
    "to": "2026-11-02",
    "timeZone": "Europe/Berlin",
    "totalSeconds": 3600,
    "overlapSeconds": 0,
    "rows": [
        {
            "date": "2026-11-01",
            "seconds": 3600,
            "billedSeconds": 0,
            "amount": None,
            "currency": None,
        },
        {"date": "2026-11-02", "seconds": 0, "billedSeconds": 0, "amount": None, "currency": None},
    ],
    "amounts": [],
    "targetSeconds": None,
    "balanceSeconds": None,
}


def test_get_report_sends_only_what_is_given_and_returns_dates(flavour: str) -> None:
    handler = Recorder(lambda request: ok(request, REPORT))
    report = call(flavour, handler, "get_report", date(2026, 11, 1), "2026-11-02", by="day")
    assert report == Report(
        from_date=date(2026, 11, 1),
        to_date=date(2026, 11, 2),
        time_zone="Europe/Berlin",
        total_seconds=3600,
        overlap_seconds=0,
        rows=[
            ReportRow(seconds=3600, date=date(2026, 11, 1)),
            ReportRow(seconds=0, date=date(2026, 11, 2)),
        ],
    )
    call(flavour, handler, "get_report")
    assert [r.url.raw_path for r in handler.requests] == [
        b"/report?from=2026-11-01&to=2026-11-02&by=day",
        b"/report",
    ]


def test_get_report_by_activity_rows() -> None:
    report = Report.from_wire(
        {
            **REPORT,
            "rows": [{"activityID": "a-1", "activityName": "Docs", "seconds": 3600, **LEDGER}],
        }
    )
    assert report.rows == [ReportRow(seconds=3600, activity_id="a-1", activity_name="Docs")]


def test_get_report_reads_the_overlap_and_refuses_a_report_without_it() -> None:
    report = Report.from_wire(
        {
            **REPORT,
            "totalSeconds": 5400,
            "overlapSeconds": 1800,
            "rows": [
                {"activityID": "a-1", "activityName": "Docs", "seconds": 3600, **LEDGER},
                {"activityID": "a-2", "activityName": "Review", "seconds": 3600, **LEDGER},
            ],
        }
    )
    assert (report.total_seconds, report.overlap_seconds) == (5400, 1800)
    assert sum(r.seconds for r in report.rows) - report.overlap_seconds == report.total_seconds
    without = {key: value for key, value in REPORT.items() if key != "overlapSeconds"}
    with pytest.raises(ValueError, match="overlapSeconds"):
        Report.from_wire(without)


def test_get_report_reads_rows_by_client_and_tag_amounts_and_targets(flavour: str) -> None:
    wire = {
        **REPORT,
        "rows": [
            {"clientID": "c-1", "clientName": "ACME", "seconds": 3600, "billedSeconds": 3600,
             "amount": "85.00", "currency": "EUR"},
            {"clientID": None, "clientName": None, "seconds": 60, **LEDGER},
        ],
        "amounts": [{"currency": "EUR", "amount": "85.00"}],
        "targetSeconds": 28800,
        "balanceSeconds": -25200,
    }  # fmt: skip
    handler = Recorder(lambda request: ok(request, wire))
    report = call(flavour, handler, "get_report", by="client", billable=True)
    assert report.rows[0] == ReportRow(
        seconds=3600,
        client_id="c-1",
        client_name="ACME",
        billed_seconds=3600,
        amount="85.00",
        currency="EUR",
    )
    assert report.rows[1].client_id is None
    assert report.rows[1].amount is None
    assert report.amounts == [Amount(currency="EUR", amount="85.00")]
    assert (report.target_seconds, report.balance_seconds) == (28800, -25200)
    assert [r.url.raw_path for r in handler.requests] == [b"/report?by=client&billable=true"]
    tag = Report.from_wire({**REPORT, "rows": [{"tag": "urgent", "seconds": 5, **LEDGER}]})
    assert tag.rows == [ReportRow(seconds=5, tag="urgent")]


def test_get_report_refuses_a_datetime_and_passes_the_apps_400_on(flavour: str) -> None:
    handler = Recorder(
        lambda request: fail(
            request,
            400,
            "validation_failed",
            "to: must not be before from",
            details=[{"field": "to", "message": "must not be before from"}],
        )
    )
    with pytest.raises(ValidationError):
        call(flavour, handler, "get_report", "2026-11-02", "2026-11-01")
    with pytest.raises(TypeError):
        call(flavour, handler, "get_report", datetime(2026, 11, 1, tzinfo=timezone.utc))


def test_events_reopens_a_stream_that_went_silent(flavour: str) -> None:
    """A read that times out (no ``: ping`` for 45 s) counts as a dropped stream."""

    class SilentStream(httpx.ByteStream):
        def __iter__(self) -> Iterator[bytes]:
            yield from super().__iter__()
            raise httpx.ReadTimeout("silent")

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in super().__aiter__():
                yield chunk
            raise httpx.ReadTimeout("silent")

    def answer(request: httpx.Request) -> httpx.Response:
        response = stream(request, [(f"{RUN}.{len(delays) + 1}", "status", STATUS_IDLE)])
        return httpx.Response(200, headers=response.headers, stream=SilentStream(response.read()))

    delays: list[float] = []
    events = collect(flavour, answer, 2, delays=delays)
    assert [e.id for e in events] == [f"{RUN}.1", f"{RUN}.2"]
    assert delays == [0.5]
    with pytest.raises(NetworkError) as caught:
        collect(flavour, answer, 2, reconnect=False)
    assert caught.value.code == "timeout"
