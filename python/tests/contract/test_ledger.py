"""The ledger and session notes against the real app, through both clients: ``log_entry`` with
``tags`` and ``billable``, ``get_report`` by client and by tag with ``billable`` (rows, amounts,
targets), ``start_activity``'s ``note``, and the ``budget`` event of ``events()``.

See docs/protocol.md "Endpoints", "Reports: `GET /report`, `tock report`", "The event stream:
`GET /events`".
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import pytest

from tock_client import Amount, Budget, Client, Report, ReportRow, StartResult, ValidationError

from .conftest import TockApp, invoke

pytestmark = pytest.mark.contract

# Each flavour logs on its own past day: the two runs and the other tests never share a day.
DAYS_BACK = {"sync": 8, "async": 9}


def test_get_report_by_client_and_by_billable_tag(flavour: str, app: TockApp) -> None:
    suffix = uuid.uuid4().hex[:8]
    client, activity = f"ACME {suffix}", f"Design {suffix}"
    today = invoke(flavour, app, "get_report").to_date
    day = today - timedelta(days=DAYS_BACK[flavour])
    noon = datetime(day.year, day.month, day.day, 12, 0).astimezone()
    invoke(
        flavour,
        app,
        "log_entry",
        name=activity,
        duration_minutes=60,
        ended_at=noon,
        create_if_missing=True,
        tags=["ui", "review"],
        billable=True,
    )
    invoke(
        flavour,
        app,
        "log_entry",
        name=activity,
        duration_minutes=30,
        ended_at=noon + timedelta(hours=2),
        tags=["ui"],
    )
    app.cli("clients", "add", client, "--rate", "80", "--currency", "EUR")
    app.cli("activity", "set", activity, "--client", client)

    by_client = invoke(flavour, app, "get_report", day, day, by="client")
    assert isinstance(by_client, Report)
    assert (by_client.from_date, by_client.to_date) == (day, day)
    assert by_client.rows == [
        ReportRow(
            seconds=5400,
            client_id=by_client.rows[0].client_id,
            client_name=client,
            billed_seconds=3600,
            amount="80.00",
            currency="EUR",
            amounts=(Amount(currency="EUR", amount="80.00"),),
        )
    ]
    assert by_client.rows[0].client_id is not None
    assert by_client.amounts == [Amount(currency="EUR", amount="80.00")]
    assert (by_client.target_seconds, by_client.balance_seconds) == (None, None)

    billable = invoke(flavour, app, "get_report", day.isoformat(), day, by="tag", billable=True)
    assert billable.total_seconds == 3600
    assert [(r.tag, r.seconds, r.billed_seconds, r.amount) for r in billable.rows] == [
        ("review", 3600, 3600, "80.00"),
        ("ui", 3600, 3600, "80.00"),
    ]
    # An hour with two tags is in both rows and worth its amount once.
    assert billable.amounts == [Amount(currency="EUR", amount="80.00")]
    not_billable = invoke(flavour, app, "get_report", day, day, by="tag", billable=False)
    assert [
        (r.tag, r.seconds, r.billed_seconds, r.amount, r.amounts) for r in not_billable.rows
    ] == [("ui", 1800, 0, None, ())]
    with pytest.raises(ValidationError) as refused:
        invoke(flavour, app, "get_report", day, day, by="project")
    assert [d["field"] for d in refused.value.details or []] == ["by"]


def test_start_activity_takes_a_note_and_refuses_one_too_long(flavour: str, app: TockApp) -> None:
    name = f"Notes {uuid.uuid4().hex[:8]}"
    started = invoke(flavour, app, "start_activity", name, create_if_missing=True, note="chapter 3")
    assert isinstance(started, StartResult)
    assert (started.activity_name, started.created) == (name, True)
    # Given while it runs, the note replaces the session's: the same session goes on.
    again = invoke(flavour, app, "start_activity", name, note="chapter 4")
    assert (again.activity_id, again.started_at, again.created) == (
        started.activity_id,
        started.started_at,
        False,
    )
    with pytest.raises(ValidationError) as refused:
        invoke(flavour, app, "start_activity", name, note="x" * 2001)
    assert refused.value.code == "validation_failed"
    assert [d["field"] for d in refused.value.details or []] == ["note"]
    assert app.token not in str(refused.value)
    # A session shorter than minSessionSeconds (60) is kept only with a note: this one has one.
    stopped = invoke(flavour, app, "stop_activity")
    assert stopped is not None
    assert (stopped.activity_id, stopped.kept) == (started.activity_id, True)
    invoke(flavour, app, "start_activity", name)
    crumb = invoke(flavour, app, "stop_activity")
    assert crumb is not None
    assert (crumb.activity_id, crumb.kept) == (started.activity_id, False)


def test_events_say_when_an_activity_passes_80_percent_of_its_budget(app: TockApp) -> None:
    name = f"Budgeted {uuid.uuid4().hex[:8]}"
    started = invoke("sync", app, "start_activity", name, create_if_missing=True)
    invoke("sync", app, "stop_activity")  # a crumb: the activity exists with no time
    app.cli("activity", "set", name, "--budget", "1")
    with Client(token=app.token, port=app.port, timeout=5.0) as client:
        events = client.events(reconnect=False)
        assert next(events).type == "status"
        ended = datetime.now().astimezone() - timedelta(days=12)
        invoke("sync", app, "log_entry", name=name, duration_minutes=50, ended_at=ended)
        budget = next(e.data for e in events if e.type == "budget")
    assert budget == Budget(
        activity_id=started.activity_id,
        activity_name=name,
        used_seconds=3000,
        budget_seconds=3600,
        percent=80,
    )
