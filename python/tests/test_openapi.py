"""The result dataclasses have exactly the fields of spec/openapi.yaml's schemas, in snake_case."""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

import pytest
import yaml

import tock_client

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
]


def snake_case(wire_name: str) -> str:
    """``activityID`` → ``activity_id``, ``apiVersion`` → ``api_version`` (SPEC §8)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", wire_name.replace("ID", "Id")).lower()


@functools.cache
def schemas() -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when available
    document: dict[str, Any] = yaml.load(OPENAPI.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    found: dict[str, Any] = document["components"]["schemas"]
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
