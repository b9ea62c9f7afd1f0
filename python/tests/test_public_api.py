"""The public surface matches docs/protocol.md "Client libraries".

And the sync and async twins match each other.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import tock_client
from tock_client import AsyncClient, Client
from tools import unasync

# docs/protocol.md "Client libraries", transcribed: the entry points, the error classes and the
# result types.
SPEC_CLIENTS = {"Client", "AsyncClient"}
SPEC_ERRORS = {
    "TockError",
    "ValidationError",
    "AuthError",
    "NotFoundError",
    "ReplayError",
    "UnavailableError",
    "HTTPError",
    "NetworkError",
}
SPEC_RESULTS = {
    "Health",
    "ActivityRef",
    "Status",
    "StartResult",
    "StoppedSession",
    "Entry",
    "BranchPrompt",
    # docs/protocol.md "GET /report": the report, and the events of the stream.
    "Report",
    "ReportRow",
    # docs/data.md "The ledger": a report's worth in one currency.
    "Amount",
    "Event",
    "Idle",
    "Budget",
    # docs/protocol.md "Suggestions".
    "Suggestions",
    "Suggestion",
    "SuggestionSource",
}
SPEC_OPERATIONS = {
    "healthcheck": "(self) -> 'Health'",
    "get_current": "(self) -> 'ActivityRef | None'",
    "get_status": "(self) -> 'Status'",
    "search_activities": "(self, q: 'str', limit: 'int | None' = None) -> 'list[ActivityRef]'",
    "start_activity": (
        "(self, name: 'str | None' = None, *, activity_id: 'str | None' = None, "
        "create_if_missing: 'bool' = False, note: 'str | None' = None) -> 'StartResult'"
    ),
    "stop_activity": "(self) -> 'StoppedSession | None'",
    "log_entry": (
        "(self, *, name: 'str | None' = None, activity_id: 'str | None' = None, "
        "duration_minutes: 'float', note: 'str | None' = None, "
        "create_if_missing: 'bool' = False, ended_at: 'str | datetime | None' = None, "
        "idempotency_key: 'str | None' = None, tags: 'Sequence[str] | None' = None, "
        "billable: 'bool | None' = None) -> 'Entry'"
    ),
    "notify_branch_change": (
        "(self, branch: 'str', repo: 'str | None' = None, "
        "previous_branch: 'str | None' = None) -> 'BranchPrompt'"
    ),
    "get_report": (
        "(self, from_date: 'str | date | None' = None, to_date: 'str | date | None' = None, "
        "by: 'str' = 'activity', billable: 'bool | None' = None) -> 'Report'"
    ),
    "get_suggestions": "(self, date: 'str | date | None' = None) -> 'Suggestions'",
    "accept_suggestion": "(self, id: 'str', activity_name: 'str | None' = None) -> 'Entry'",
}
# events() is an iterator (sync) / async iterator (async), of Event.
STREAM_OPERATIONS = {
    "events": (
        "(self, last_event_id: 'str | None' = None, reconnect: 'bool' = True) -> '{}[Event]'"
    ),
}
# The same methods under their sync and async names.
LIFECYCLE = {"close": "aclose", "__enter__": "__aenter__", "__exit__": "__aexit__"}


def public_methods(cls: type) -> set[str]:
    return {
        name
        for name, member in vars(cls).items()
        if callable(member)
        and (not name.startswith("_") or name in LIFECYCLE or name in LIFECYCLE.values())
    }


def test_all_is_exactly_the_names_of_spec_section_8_plus_version() -> None:
    assert set(tock_client.__all__) == SPEC_CLIENTS | SPEC_ERRORS | SPEC_RESULTS | {"__version__"}
    assert len(tock_client.__all__) == len(set(tock_client.__all__))
    for name in tock_client.__all__:
        assert hasattr(tock_client, name), name


def test_error_classes_share_one_base() -> None:
    for name in SPEC_ERRORS - {"TockError"}:
        assert issubclass(getattr(tock_client, name), tock_client.TockError)


def test_clients_have_the_operations_of_spec_section_8_with_its_signatures() -> None:
    for cls in (Client, AsyncClient):
        for name, signature in SPEC_OPERATIONS.items():
            assert str(inspect.signature(getattr(cls, name))) == signature, (cls, name)
    for name, signature in STREAM_OPERATIONS.items():
        assert str(inspect.signature(getattr(Client, name))) == signature.format("Iterator")
        async_signature = str(inspect.signature(getattr(AsyncClient, name)))
        assert async_signature == signature.format("AsyncIterator")
        assert inspect.isgeneratorfunction(getattr(Client, name))
        assert inspect.isasyncgenfunction(getattr(AsyncClient, name))


def test_sync_and_async_clients_expose_the_same_methods_with_identical_signatures() -> None:
    sync_names = public_methods(Client)
    async_names = public_methods(AsyncClient)
    assert {LIFECYCLE.get(name, name) for name in sync_names} == async_names
    assert sync_names - set(LIFECYCLE) == set(SPEC_OPERATIONS) | set(STREAM_OPERATIONS)
    for sync_name in sync_names - set(STREAM_OPERATIONS):
        async_name = LIFECYCLE.get(sync_name, sync_name)
        sync_signature = inspect.signature(getattr(Client, sync_name))
        async_signature = inspect.signature(getattr(AsyncClient, async_name))
        if sync_name == "__enter__":  # each returns its own class
            assert sync_signature.return_annotation == "Client"
            assert async_signature.return_annotation == "AsyncClient"
            continue
        assert sync_signature == async_signature, sync_name
        assert inspect.iscoroutinefunction(getattr(AsyncClient, async_name)), async_name
        assert not inspect.iscoroutinefunction(getattr(Client, sync_name)), sync_name


def test_constructors_take_the_same_arguments() -> None:
    sync_parameters = inspect.signature(Client).parameters
    async_parameters = inspect.signature(AsyncClient).parameters
    assert list(sync_parameters) == ["token", "port", "timeout", "transport"]
    assert list(async_parameters) == list(sync_parameters)
    for name in ("token", "port", "timeout"):
        assert sync_parameters[name] == async_parameters[name]
    assert sync_parameters["timeout"].default == 10.0
    assert sync_parameters["transport"].kind is inspect.Parameter.KEYWORD_ONLY


def test_the_sync_client_is_generated_from_the_async_one() -> None:
    """``_client.py`` must be exactly ``unasync(_async_client.py)``: run tools/unasync.py."""
    generated = unasync.unasync(unasync.ASYNC_SOURCE.read_text(encoding="utf-8"))
    assert unasync.SYNC_TARGET.read_text(encoding="utf-8") == generated


# The result types' fields, in order: moving a type between modules must not change its shape.
RESULT_FIELDS = {
    "ActivityRef": ("activity_id", "activity_name"),
    "Amount": ("currency", "amount"),
    "BranchPrompt": ("prompt_id", "branch", "repo", "previous_branch"),
    "Budget": ("activity_id", "activity_name", "used_seconds", "budget_seconds", "percent"),
    "Entry": (
        "entry_id",
        "activity",
        "created",
        "started_at",
        "ended_at",
        "duration_minutes",
        "note",
    ),
    "Event": ("id", "type", "data"),
    "Health": ("status", "api_version", "app_version", "license"),
    "Idle": ("since", "seconds"),
    "Report": (
        "from_date",
        "to_date",
        "time_zone",
        "total_seconds",
        "overlap_seconds",
        "rows",
        "amounts",
        "target_seconds",
        "balance_seconds",
    ),
    "ReportRow": (
        "seconds",
        "activity_id",
        "activity_name",
        "date",
        "client_id",
        "client_name",
        "tag",
        "billed_seconds",
        "amount",
        "currency",
        "amounts",
    ),
    "StartResult": ("activity_id", "activity_name", "created", "started_at"),
    "Status": ("is_tracking", "is_on_break", "current_activity", "today_seconds", "since"),
    "StoppedSession": (
        "activity_id",
        "activity_name",
        "started_at",
        "ended_at",
        "seconds",
        "kept",
    ),
    "Suggestion": (
        "id",
        "start",
        "end",
        "seconds",
        "activity_id",
        "activity_name",
        "sources",
        "rule_id",
    ),
    "SuggestionSource": ("source", "app", "title", "project", "branch", "seconds"),
    "Suggestions": ("date", "suggestions"),
}


def test_result_types_are_frozen_dataclasses_with_their_fields_in_order() -> None:
    assert set(RESULT_FIELDS) == SPEC_RESULTS
    for name, fields in RESULT_FIELDS.items():
        cls = getattr(tock_client, name)
        assert dataclasses.is_dataclass(cls), name
        assert vars(cls)["__dataclass_params__"].frozen, name
        assert tuple(f.name for f in dataclasses.fields(cls)) == fields, name


def test_no_module_of_the_package_is_over_400_lines() -> None:
    """docs/architecture.md: no source file over 400 lines; one that grows past it is split."""
    package = Path(tock_client.__file__).parent
    for module in sorted(package.glob("*.py")):
        lines = module.read_text(encoding="utf-8").count("\n")
        assert lines <= 400, f"{module.name} has {lines} lines: split it along a seam"


def test_the_package_ships_py_typed() -> None:
    assert (Path(tock_client.__file__).parent / "py.typed").is_file()


def test_version_is_a_string() -> None:
    assert isinstance(tock_client.__version__, str)
    assert tock_client.__version__.count(".") == 2
