"""The attack campaign's Python side: runs only from scripts/test-attack.sh (``TOCK_ATTACK=1``).

The Python suite (scripts/test-python.sh) collects ``tests/`` too; it skips this folder, whose
tests need schemathesis (in the ``dev`` extras) and take a minute of fuzzing.

``target`` is a real ``tock app`` started as a user would (``node packages/cli/bin/tock.js app
--no-open``), with a throwaway ``TOCK_HOME``, the file credential store and the listener on a
free port; teardown sends SIGTERM.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..real_app import NODE, REPO_ROOT, TockApp, start_app

__all__ = ["NODE", "REPO_ROOT", "Target"]

if os.environ.get("TOCK_ATTACK") != "1":
    collect_ignore_glob = ["test_*.py"]

Target = TockApp
"""A running app with its listener on (the contract suite's launcher)."""


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    """A fresh app per test module."""
    with tempfile.TemporaryDirectory(prefix="tock-attack-") as tmp:
        app = start_app(Path(tmp))
        try:
            yield app
        finally:
            app.stop()
