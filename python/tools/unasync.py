"""Generate ``_client.py`` (sync) from ``_async_client.py`` (async), httpcore-``unasync`` style.

The async client is the source; the sync twin is derived by token replacement, so the two
cannot drift apart. ``python tools/unasync.py`` rewrites ``_client.py``; ``--check`` exits 1
when the committed file differs from what would be generated (the test suite runs the check).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tock_client"
ASYNC_SOURCE = PACKAGE / "_async_client.py"
SYNC_TARGET = PACKAGE / "_client.py"

# Order matters: longer, more specific patterns first.
REPLACEMENTS: tuple[tuple[str, str], ...] = (
    (r"\bAsyncBaseTransport\b", "BaseTransport"),
    (r"\bAsyncClient\b", "Client"),
    (r"\bAsynchronous\b", "Synchronous"),
    (r"\basynchronous\b", "synchronous"),
    (r"\ban async context manager\b", "a context manager"),
    (r"\b__aenter__\b", "__enter__"),
    (r"\b__aexit__\b", "__exit__"),
    (r"\baclose\b", "close"),
    (r"\baread\b", "read"),
    # isort order changes with the names: AsyncIterator < Callable < Iterator.
    (
        r"^from collections\.abc import AsyncIterator, Callable, Sequence$",
        "from collections.abc import Callable, Iterator, Sequence",
    ),
    (r"\bAsyncIterator\b", "Iterator"),
    (r"\baiter_text\b", "iter_text"),
    (r"\basyncio\.sleep\b", "time.sleep"),
    (r"^import asyncio$", "import time"),
    (r"\basync for\b", "for"),
    (r"\basync def\b", "def"),
    (r"\bawait ", ""),
)


def unasync(source: str) -> str:
    """The sync twin of an async client module's source."""
    for pattern, replacement in REPLACEMENTS:
        source = re.sub(pattern, replacement, source, flags=re.MULTILINE)
    return source


def main(argv: list[str]) -> int:
    """Write the sync client, or with ``--check`` report whether it is up to date."""
    generated = unasync(ASYNC_SOURCE.read_text(encoding="utf-8"))
    if "--check" in argv:
        if SYNC_TARGET.read_text(encoding="utf-8") != generated:
            print(f"{SYNC_TARGET} is stale: run `python tools/unasync.py`", file=sys.stderr)
            return 1
        return 0
    SYNC_TARGET.write_text(generated, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
