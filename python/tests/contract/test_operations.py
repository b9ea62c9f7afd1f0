"""The eight operations against the real app, through both clients.

See docs/protocol.md "Endpoints", "Client libraries".
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tock_client import (
    ActivityRef,
    BranchPrompt,
    Entry,
    Health,
    NotFoundError,
    ReplayError,
    StartResult,
    Status,
    StoppedSession,
    ValidationError,
)

from .conftest import TockApp, invoke

pytestmark = pytest.mark.contract


def unique(label: str) -> str:
    """An activity name no other test uses."""
    return f"{label} {uuid.uuid4().hex[:8]}"


def test_healthcheck_reports_the_api_version_and_license(flavour: str, app: TockApp) -> None:
    health = invoke(flavour, app, "healthcheck")
    assert isinstance(health, Health)
    assert health.status == "ok"
    assert health.api_version == 1
    assert health.license == "trial"
    assert health.app_version.count(".") == 2


def test_start_status_current_search_stop_round_trip(flavour: str, app: TockApp) -> None:
    name = unique("Writing docs")
    started = invoke(flavour, app, "start_activity", name, create_if_missing=True)
    assert isinstance(started, StartResult)
    assert (started.activity_name, started.created) == (name, True)
    assert started.started_at.tzinfo is not None
    uuid.UUID(started.activity_id)

    current = invoke(flavour, app, "get_current")
    assert current == ActivityRef(activity_id=started.activity_id, activity_name=name)

    status = invoke(flavour, app, "get_status")
    assert isinstance(status, Status)
    assert (status.is_tracking, status.is_on_break) == (True, False)
    assert status.current_activity == current
    assert status.since == started.started_at
    assert status.today_seconds >= 0

    found = invoke(flavour, app, "search_activities", name.upper(), limit=5)
    assert found[0] == current

    again = invoke(flavour, app, "start_activity", activity_id=started.activity_id)
    assert again.started_at == started.started_at, "starting the running activity changes nothing"
    assert again.created is False

    stopped = invoke(flavour, app, "stop_activity")
    assert isinstance(stopped, StoppedSession)
    assert (stopped.activity_id, stopped.started_at) == (started.activity_id, started.started_at)
    assert stopped.ended_at >= stopped.started_at
    assert stopped.seconds >= 0

    assert invoke(flavour, app, "get_current") is None
    idle = invoke(flavour, app, "get_status")
    assert (idle.is_tracking, idle.current_activity, idle.since) == (False, None, None)
    assert invoke(flavour, app, "stop_activity") is None


def test_search_with_an_empty_query_lists_recent_activities(flavour: str, app: TockApp) -> None:
    name = unique("Recent")
    invoke(flavour, app, "start_activity", name, create_if_missing=True)
    invoke(flavour, app, "stop_activity")
    recent = invoke(flavour, app, "search_activities", "", limit=1)
    assert recent == [ActivityRef(recent[0].activity_id, name)]


def test_start_of_an_unknown_name_is_not_found(flavour: str, app: TockApp) -> None:
    with pytest.raises(NotFoundError) as caught:
        invoke(flavour, app, "start_activity", unique("Nobody made this"))
    assert caught.value.status_code == 404
    assert caught.value.code == "activity_not_found"


def test_start_of_an_unknown_id_is_not_found(flavour: str, app: TockApp) -> None:
    with pytest.raises(NotFoundError) as caught:
        invoke(flavour, app, "start_activity", activity_id=str(uuid.uuid4()))
    assert caught.value.code == "activity_not_found"


def test_start_with_both_name_and_id_is_a_validation_error(flavour: str, app: TockApp) -> None:
    with pytest.raises(ValidationError) as caught:
        invoke(flavour, app, "start_activity", "Writing", activity_id=str(uuid.uuid4()))
    assert caught.value.status_code == 400
    assert caught.value.code == "validation_failed"


def test_log_entry_places_the_block_before_ended_at(flavour: str, app: TockApp) -> None:
    name = unique("Review")
    ended_at = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(hours=1)
    entry = invoke(
        flavour,
        app,
        "log_entry",
        name=name,
        duration_minutes=45,
        note="Relecture du chapitre 3 — café ☕",
        create_if_missing=True,
        ended_at=ended_at.astimezone(timezone(timedelta(hours=-5))),
    )
    assert isinstance(entry, Entry)
    assert entry.activity.activity_name == name
    assert entry.created is True
    assert entry.ended_at == ended_at
    assert entry.started_at == ended_at - timedelta(minutes=45)
    assert entry.duration_minutes == 45
    assert entry.note == "Relecture du chapitre 3 — café ☕"

    by_id = invoke(
        flavour,
        app,
        "log_entry",
        activity_id=entry.activity.activity_id,
        duration_minutes=1.5,
        ended_at="2026-01-02T03:04:05.000Z",
    )
    assert (by_id.created, by_id.note) == (False, None)
    assert by_id.ended_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"duration_minutes": 0}, "durationMinutes"),
        ({"duration_minutes": 1441}, "durationMinutes"),
        ({"duration_minutes": 5, "note": "x" * 2001}, "note"),
    ],
)
def test_log_entry_validation_errors_carry_details(
    flavour: str, app: TockApp, kwargs: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        invoke(flavour, app, "log_entry", name=unique("Review"), create_if_missing=True, **kwargs)
    assert caught.value.code == "validation_failed"
    assert caught.value.details
    assert field in [problem["field"] for problem in caught.value.details]
    assert all(problem["message"] for problem in caught.value.details)


def test_log_entry_of_an_unknown_activity_is_not_found(flavour: str, app: TockApp) -> None:
    with pytest.raises(NotFoundError) as caught:
        invoke(flavour, app, "log_entry", name=unique("Missing"), duration_minutes=5)
    assert caught.value.code == "activity_not_found"


def test_log_entry_with_a_repeated_key_logs_once(flavour: str, app: TockApp) -> None:
    key = uuid.uuid4().hex
    fields: dict[str, Any] = {
        "name": unique("Idem"),
        "duration_minutes": 10,
        "create_if_missing": True,
    }
    first = invoke(flavour, app, "log_entry", idempotency_key=key, **fields)
    second = invoke(flavour, app, "log_entry", idempotency_key=key, **fields)
    assert second == first

    with pytest.raises(ReplayError) as caught:
        invoke(flavour, app, "log_entry", idempotency_key=key, **{**fields, "duration_minutes": 11})
    assert caught.value.status_code == 409
    assert caught.value.code == "idempotency_conflict"


def test_log_entry_with_a_malformed_key_is_refused_before_sending(
    flavour: str, app: TockApp
) -> None:
    name = unique("Key")
    with pytest.raises(ValueError, match="idempotency_key must be 1-64 characters"):
        invoke(
            flavour,
            app,
            "log_entry",
            name=name,
            duration_minutes=5,
            create_if_missing=True,
            idempotency_key="not a valid key!",
        )
    assert invoke(flavour, app, "search_activities", name) == []


def test_notify_branch_change_opens_a_prompt(flavour: str, app: TockApp) -> None:
    prompt = invoke(
        flavour, app, "notify_branch_change", "feature/login", "/home/ana/src/shop", "main"
    )
    assert isinstance(prompt, BranchPrompt)
    uuid.UUID(prompt.prompt_id)
    assert (prompt.branch, prompt.repo, prompt.previous_branch) == (
        "feature/login",
        "/home/ana/src/shop",
        "main",
    )
    bare = invoke(flavour, app, "notify_branch_change", "main")
    assert isinstance(bare, BranchPrompt)
    assert (bare.branch, bare.repo, bare.previous_branch) == ("main", None, None)


@pytest.mark.parametrize("branch", ["   ", "b" * 256])
def test_notify_branch_change_refuses_a_bad_branch(flavour: str, app: TockApp, branch: str) -> None:
    with pytest.raises(ValidationError) as caught:
        invoke(flavour, app, "notify_branch_change", branch)
    assert caught.value.code == "validation_failed"


@pytest.mark.parametrize("limit", [0, 101])
def test_search_refuses_a_limit_out_of_range(flavour: str, app: TockApp, limit: int) -> None:
    with pytest.raises(ValidationError) as caught:
        invoke(flavour, app, "search_activities", "", limit=limit)
    assert caught.value.code == "validation_failed"
