"""Suggestions against the real app, through both clients: editor heartbeats sent to the app's
WakaTime door make an untracked stretch; ``get_suggestions`` reads it (``date`` objects in and
out), ``accept_suggestion`` logs it, and the refusals map to their errors.

See docs/protocol.md "Suggestions", "Editors: WakaTime heartbeats".
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta, timezone

import httpx
import pytest

from tock_client import Entry, NotFoundError, Suggestion, Suggestions, ValidationError

from .conftest import TockApp, invoke

pytestmark = pytest.mark.contract

# Each flavour reads its own past day, so that the two runs (and the other tests, which log
# blocks ending now) never share a stretch.
DAYS_BACK = {"sync": 3, "async": 4}


def send_heartbeats(app: TockApp, project: str, day: date) -> None:
    """Half an hour of editing ``project`` from 10:00 local on ``day``, through the editor door."""
    key = app.cli("editors", "key", check=False)
    if key.returncode != 0:
        app.cli("editors", "enable")
        key = app.cli("editors", "key")
    start = datetime(day.year, day.month, day.day, 10, 0).astimezone().timestamp()
    beats = [
        {"entity": f"/src/{project}/main.py", "time": start + i * 120, "project": project}
        for i in range(16)
    ]
    response = httpx.post(
        f"http://127.0.0.1:{app.port}/wakatime/api/v1/users/current/heartbeats.bulk",
        json=beats,
        auth=(key.stdout.strip(), ""),
        headers={"User-Agent": "wakatime/1.0 vscode/1.96.0 vscode-wakatime/25.0.0"},
        timeout=5.0,
        trust_env=False,
    )
    assert response.status_code == 201, response.text


def test_get_suggestions_then_accept_one_to_an_activity(flavour: str, app: TockApp) -> None:
    today = invoke(flavour, app, "get_suggestions")
    assert isinstance(today, Suggestions)
    assert isinstance(today.date, date)
    day = today.date - timedelta(days=DAYS_BACK[flavour])
    project = f"shop-{uuid.uuid4().hex[:8]}"
    send_heartbeats(app, project, day)

    found = invoke(flavour, app, "get_suggestions", day)
    assert found.date == day
    ours = [s for s in found.suggestions if any(x.project == project for x in s.sources)]
    assert len(ours) == 1, found
    suggestion = ours[0]
    assert isinstance(suggestion, Suggestion)
    assert suggestion.start.tzinfo is not None
    assert suggestion.seconds == int((suggestion.end - suggestion.start).total_seconds())
    assert suggestion.seconds >= 30 * 60
    assert suggestion.sources[0].source == "editor"
    assert suggestion.sources[0].title is None  # titles are off
    # No activity has the project's name: unlabelled, so accepting needs an activity name.
    assert (suggestion.activity_name, suggestion.activity_id, suggestion.rule_id) == (
        None,
        None,
        None,
    )
    with pytest.raises(ValidationError) as refused:
        invoke(flavour, app, "accept_suggestion", suggestion.id)
    assert refused.value.code == "validation_failed"
    assert [d["field"] for d in refused.value.details or []] == ["activityName"]

    name = f"Shop {uuid.uuid4().hex[:8]}"
    entry = invoke(flavour, app, "accept_suggestion", suggestion.id, activity_name=name)
    assert isinstance(entry, Entry)
    assert (entry.activity.activity_name, entry.created, entry.note) == (name, True, "from capture")
    assert (entry.started_at, entry.ended_at) == (suggestion.start, suggestion.end)

    # A day string reads the same day; the accepted stretch is no longer suggested.
    after = invoke(flavour, app, "get_suggestions", day.isoformat())
    assert after.date == day
    assert not any(s.id == suggestion.id for s in after.suggestions)
    with pytest.raises(NotFoundError) as gone:
        invoke(flavour, app, "accept_suggestion", suggestion.id, activity_name=name)
    assert (gone.value.status_code, gone.value.code) == (404, "suggestion_not_found")


def test_get_suggestions_refuses_a_malformed_day(flavour: str, app: TockApp) -> None:
    with pytest.raises(ValidationError) as caught:
        invoke(flavour, app, "get_suggestions", "2026-02-30")
    assert (caught.value.status_code, caught.value.code) == (400, "validation_failed")
    with pytest.raises(TypeError):
        invoke(flavour, app, "get_suggestions", datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc))
