"""Drift checks against spec/openapi.yaml: result fields, endpoints, error codes, signatures."""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

import pytest
import yaml

import tock_client
from tock_client import _protocol

from .conftest import REPO_ROOT

OPENAPI = REPO_ROOT / "spec" / "openapi.yaml"
RESULT_TYPES = [
    "Health",
    "ActivityRef",
    "Status",
    "StartResult",
    "StoppedSession",
    "Entry",
    "BranchPrompt",
    "Idle",
    "Budget",
]


def snake_case(wire_name: str) -> str:
    """``activityID`` → ``activity_id``, ``apiVersion`` → ``api_version``.

    As docs/protocol.md "Client libraries" names them.
    """
    return re.sub(r"(?<!^)(?=[A-Z])", "_", wire_name.replace("ID", "Id")).lower()


@functools.cache
def yaml_document() -> dict[str, Any]:
    """spec/openapi.yaml, parsed once."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when available
    document: dict[str, Any] = yaml.load(OPENAPI.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    return document


def schemas() -> dict[str, Any]:
    found: dict[str, Any] = yaml_document()["components"]["schemas"]
    return found


@pytest.mark.parametrize("name", RESULT_TYPES)
def test_result_type_fields_match_the_openapi_schema(name: str) -> None:
    schema = schemas()[name]
    fields = [field.name for field in dataclasses.fields(getattr(tock_client, name))]
    assert sorted(fields) == sorted(snake_case(prop) for prop in schema["properties"])
    assert sorted(fields) == sorted(snake_case(prop) for prop in schema["required"])


def test_snake_case_follows_the_spec_names() -> None:
    assert snake_case("activityID") == "activity_id"
    assert snake_case("isOnBreak") == "is_on_break"
    assert snake_case("promptID") == "prompt_id"


# The editors' WakaTime door shares the listener's port but not its auth or its answers
# (docs/protocol.md "Editors: WakaTime heartbeats"): no client of this package speaks it.
EDITOR_DOOR = "/wakatime/"


def signed_paths() -> dict[str, Any]:
    """The paths of spec/openapi.yaml that the signed API serves, the editors' door left out."""
    paths: dict[str, Any] = yaml_document()["paths"]
    return {
        path: operations for path, operations in paths.items() if not path.startswith(EDITOR_DOOR)
    }


def responses() -> list[tuple[str, str, int, dict[str, Any]]]:
    """Every documented (path, method, status, response) of the signed listener."""
    return [
        (path, method.upper(), int(status), response)
        for path, operations in signed_paths().items()
        for method, operation in operations.items()
        for status, response in operation["responses"].items()
        if status.isdigit()
    ]


def code_enums(node: object) -> set[str]:
    """Every ``code`` enum value anywhere under ``node``."""
    found: set[str] = set()
    if isinstance(node, dict):
        code = node.get("properties", {}).get("code") if "properties" in node else None
        if isinstance(code, dict):
            found.update(code.get("enum", []))
            if "const" in code:
                found.add(code["const"])
        for value in node.values():
            found |= code_enums(value)
    elif isinstance(node, list):
        for value in node:
            found |= code_enums(value)
    return found


def test_report_fields_match_the_openapi_schemas() -> None:
    """``from``/``to`` are ``from_date``/``to_date`` in Python (``from`` is a keyword); a
    ``ReportRow`` has the fields of every row schema (by activity, day, client and tag)."""
    renamed = {"from": "from_date", "to": "to_date"}
    report = [field.name for field in dataclasses.fields(tock_client.Report)]
    wire = schemas()["Report"]["properties"]
    assert sorted(report) == sorted(renamed.get(p, snake_case(p)) for p in wire)
    row = {field.name for field in dataclasses.fields(tock_client.ReportRow)}
    kinds = ("ActivityReportRow", "DayReportRow", "ClientReportRow", "TagReportRow")
    every = {p for kind in kinds for p in schemas()[kind]["properties"]}
    assert row == {snake_case(p) for p in every}


def test_suggestion_fields_match_the_openapi_schemas() -> None:
    """docs/protocol.md "Suggestions": each dataclass has its schema's fields, snake_case."""
    for name in ("Suggestions", "Suggestion", "SuggestionSource"):
        fields = {field.name for field in dataclasses.fields(getattr(tock_client, name))}
        wire = schemas()[name]["properties"]
        assert fields == {snake_case(p) for p in wire}, name


def test_the_endpoints_are_those_of_the_protocol_module() -> None:
    documented = {
        (method.upper(), path)
        for path, operations in signed_paths().items()
        for method in operations
    }
    assert documented == {
        ("GET", _protocol.PATH_HEALTHCHECK),
        ("GET", _protocol.PATH_CURRENT),
        ("GET", _protocol.PATH_STATUS),
        ("GET", _protocol.PATH_SEARCH),
        ("POST", _protocol.PATH_START),
        ("POST", _protocol.PATH_STOP),
        ("POST", _protocol.PATH_ENTRIES),
        ("POST", _protocol.PATH_BRANCH_CHANGED),
        ("GET", _protocol.PATH_EVENTS),
        ("GET", _protocol.PATH_REPORT),
        ("GET", _protocol.PATH_SUGGESTIONS),
        ("POST", _protocol.PATH_ACCEPT_SUGGESTION),
    }


def test_every_documented_error_code_has_the_status_of_the_protocol_table() -> None:
    seen: set[str] = set()
    for path, method, status, response in responses():
        for code in code_enums(response):
            seen.add(code)
            assert _protocol.ERROR_STATUS.get(code) == status, (method, path, status, code)
    assert seen, "no error codes found in spec/openapi.yaml"


def test_every_status_documented_as_possibly_unsigned_is_accepted_unsigned() -> None:
    always = "#/components/headers/ResponseSignature"
    for path, method, status, response in responses():
        signature = response.get("headers", {}).get("X-Tock-Response-Signature", {})
        if signature.get("$ref") != always:
            assert status in _protocol.UNSIGNED_STATUSES, (method, path, status)
