"""Python side of the TypeScript attack tests: writes to a running app through ``tock_client``.

Run by packages/app/test/attack-*.test.ts with ``SERVICE_TOKEN`` and ``SERVICE_PORT`` set.
Prints one line per acknowledged write, flushed at once, so that a write counts as
acknowledged exactly when the client returned its result:

- ``entries NAME``: for every ``go`` line read on stdin, logs 1-minute entries with ``Client``
  until the app goes away (``NetworkError``), printing ``entry <entryID>`` for each, then
  ``done``. One process serves every crash round (Python starts slowly).
- ``mixed N SEED``: N concurrent calls with ``AsyncClient`` (start, stop, log, branch);
  prints ``entry|start|stop|prompt <id> ...`` or ``error <code>``.
"""

from __future__ import annotations

import asyncio
import random
import sys

from tock_client import AsyncClient, Client, NetworkError, TockError

ACTIVITIES = ("Attack A", "Attack B", "Attack C", "Attack D")


def write_entries(name: str) -> int:
    """Per ``go``: log entries until the app is gone; every printed ID was acknowledged."""
    i = 0
    for line in sys.stdin:
        if line.strip() != "go":
            continue
        with Client(timeout=5.0) as client:
            while True:
                try:
                    entry = client.log_entry(
                        name=name, duration_minutes=1, note=f"py-{i}", create_if_missing=True
                    )
                except NetworkError:
                    break
                print(f"entry {entry.entry_id}", flush=True)
                i += 1
        print("done", flush=True)
    return 0


async def one_call(client: AsyncClient, rng: random.Random, i: int) -> str:
    """One random operation; a line describing what the app acknowledged."""
    op = rng.choice(("start", "stop", "log", "branch"))
    name = rng.choice(ACTIVITIES)
    try:
        if op == "start":
            started = await client.start_activity(name, create_if_missing=True)
            return f"start {started.activity_id} {started.started_at.isoformat()}"
        if op == "stop":
            stopped = await client.stop_activity()
            return "stop none" if stopped is None else f"stop {stopped.activity_id}"
        if op == "log":
            minutes = rng.choice((0.5, 1, 2, 3))
            entry = await client.log_entry(
                name=name, duration_minutes=minutes, note=f"py-mixed-{i}", create_if_missing=True
            )
            return f"entry {entry.entry_id}"
        prompt = await client.notify_branch_change(f"feature/py-{i}", repo="/tmp/attack")
        return f"prompt {prompt.prompt_id}"
    except TockError as error:
        return f"error {error.code}"


async def mixed(count: int, seed: int) -> int:
    """``count`` calls at once through one AsyncClient."""
    rng = random.Random(seed)
    async with AsyncClient(timeout=30.0) as client:
        lines = await asyncio.gather(*(one_call(client, rng, i) for i in range(count)))
    for line in lines:
        print(line, flush=True)
    return 0


def main(argv: list[str]) -> int:
    """Dispatch on the mode (see the module docstring)."""
    if len(argv) == 2 and argv[0] == "entries":
        return write_entries(argv[1])
    if len(argv) == 3 and argv[0] == "mixed":
        return asyncio.run(mixed(int(argv[1]), int(argv[2])))
    print("usage: writer.py entries NAME | mixed N SEED", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
