"""Start the real Tock app for the contract tests, and talk to it with both clients.

See ``tests/real_app.py`` for how the app is started and stopped.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tock_client import AsyncClient, Client

from ..real_app import NODE, REPO_ROOT, TOCK_JS, TockApp, free_port, start_app

__all__ = ["NODE", "REPO_ROOT", "TOCK_JS", "TockApp", "free_port", "invoke", "start_app"]


@pytest.fixture(scope="session")
def app() -> Iterator[TockApp]:
    """One app for the whole session (tests use fresh activity names, so they do not clash)."""
    with tempfile.TemporaryDirectory(prefix="tock-contract-") as home:
        running = start_app(Path(home))
        try:
            yield running
        finally:
            running.stop()


def invoke(
    flavour: str,
    app: TockApp,
    method: str,
    *args: Any,
    token: str | None = None,
    **kwargs: Any,
) -> Any:
    """Call ``method`` on a ``Client`` or an ``AsyncClient`` connected to ``app``."""
    options: dict[str, Any] = {"token": token or app.token, "port": app.port, "timeout": 5.0}
    if flavour == "sync":
        with Client(**options) as client:
            return getattr(client, method)(*args, **kwargs)

    async def run() -> Any:
        async with AsyncClient(**options) as client:
            return await getattr(client, method)(*args, **kwargs)

    return asyncio.run(run())
