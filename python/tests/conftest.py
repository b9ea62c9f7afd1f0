"""Fixtures shared by the unit tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SIGNING_VECTORS = REPO_ROOT / "spec" / "signing.json"


@pytest.fixture(params=["sync", "async"])
def flavour(request: pytest.FixtureRequest) -> str:
    """Runs a test once through ``Client`` and once through ``AsyncClient``."""
    value: str = request.param
    return value


def load_vectors() -> dict[str, Any]:
    """``spec/signing.json``: the signing vectors every implementation reproduces."""
    data: dict[str, Any] = json.loads(SIGNING_VECTORS.read_text(encoding="utf-8"))
    return data
