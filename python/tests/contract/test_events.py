"""The event stream and reports against the real app, through both clients.

See docs/protocol.md "The event stream: `GET /events`" and "GET /report".
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import date, timedelta

import pytest

from tock_client import (
    AsyncClient,
    BranchPrompt,
    Client,
    Event,
    Report,
    Status,
    ValidationError,
)

from .conftest import TockApp, invoke

pytestmark = pytest.mark.contract


def unique(label: str) -> str:
    """An activity name no other test uses."""
    return f"{label} {uuid.uuid4().hex[:8]}"


def test_sync_events_status_first_then_what_writes_cause(app: TockApp) -> None:
    name = unique("Events sync")
    with Client(token=app.token, port=app.port, timeout=5.0) as client:
        events = client.events()
        first = next(events)
        assert first.type == "status"
        assert isinstance(first.data, Status)
        started = invoke("sync", app, "start_activity", name, create_if_missing=True)
        invoke("sync", app, "notify_branch_change", "feature/events", previous_branch="main")
        seen: list[Event] = []
        for event in events:
            seen.append(event)
            if event.type == "branch-prompt":
                break
        statuses = [e.data for e in seen if isinstance(e.data, Status)]
        assert any(
            s.current_activity and s.current_activity.activity_id == started.activity_id
            for s in statuses
        )
        prompt = seen[-1].data
        assert isinstance(prompt, BranchPrompt)
        assert (prompt.branch, prompt.previous_branch, prompt.repo) == (
            "feature/events",
            "main",
            None,
        )
    invoke("sync", app, "stop_activity")


def test_async_events_status_first_then_a_status_after_a_start(app: TockApp) -> None:
    name = unique("Events async")

    async def run() -> Status:
        async with AsyncClient(token=app.token, port=app.port, timeout=5.0) as client:
            async for event in client.events():
                if event.type == "status" and isinstance(event.data, Status):
                    if (
                        event.data.current_activity is None
                        or event.data.current_activity.activity_name != name
                    ):
                        await client.start_activity(name, create_if_missing=True)
                        continue
                    return event.data
        raise AssertionError("the stream ended")

    status = asyncio.run(run())
    assert status.is_tracking
    invoke("async", app, "stop_activity")


def test_async_closing_the_client_ends_the_iteration(app: TockApp) -> None:
    async def run() -> list[str]:
        client = AsyncClient(token=app.token, port=app.port, timeout=5.0)
        seen: list[str] = []
        async for event in client.events():
            seen.append(event.type)
            await client.aclose()
        return seen

    assert asyncio.run(run()) == ["status"]


def test_sync_closing_the_client_ends_the_iteration(app: TockApp) -> None:
    client = Client(token=app.token, port=app.port, timeout=5.0)
    seen = []
    for event in client.events():
        seen.append(event.type)
        client.close()
    assert seen == ["status"]


def test_get_report_today_and_by_day(flavour: str, app: TockApp) -> None:
    name = unique("Report")
    invoke(flavour, app, "log_entry", name=name, duration_minutes=30, create_if_missing=True)
    report = invoke(flavour, app, "get_report")
    assert isinstance(report, Report)
    assert report.from_date == report.to_date
    assert isinstance(report.from_date, date)
    row = next(r for r in report.rows if r.activity_name == name)
    assert row.seconds == 1800
    # Blocks of the suite overlap (each ends "now"): the rows count shared time per activity.
    assert report.total_seconds == sum(r.seconds for r in report.rows) - report.overlap_seconds
    start = report.from_date - timedelta(days=6)
    week = invoke(flavour, app, "get_report", start, report.to_date, by="day")
    assert [r.date for r in week.rows] == [start + timedelta(days=n) for n in range(7)]
    assert week.rows[-1].seconds >= 1800


def test_get_report_refuses_a_bad_range(flavour: str, app: TockApp) -> None:
    with pytest.raises(ValidationError) as caught:
        invoke(flavour, app, "get_report", "2026-11-02", "2026-11-01")
    assert caught.value.code == "validation_failed"
    with pytest.raises(ValidationError):
        invoke(flavour, app, "get_report", "2024-01-01", "2026-01-01")
