"""The attack campaign's Python side: runs only from scripts/test-attack.sh (``TOCK_ATTACK=1``).

The Python suite (scripts/test-python.sh) collects ``tests/`` too; it skips this folder, whose
tests need schemathesis (in the ``dev`` extras) and take a minute of fuzzing.

``target`` is a real ``tock app`` started as a user would (``node packages/cli/bin/tock.js app
--no-open``), with a throwaway ``TOCK_HOME``, the file credential store and the listener on a
free port; teardown sends SIGTERM.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
NODE = REPO_ROOT / "node_modules" / ".bin" / "node"
TOCK_JS = REPO_ROOT / "packages" / "cli" / "bin" / "tock.js"
READY_TIMEOUT_SECONDS = 60.0

if os.environ.get("TOCK_ATTACK") != "1":
    collect_ignore_glob = ["test_*.py"]


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Target:
    """A running app with its listener on."""

    home: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes]
    port: int = 0
    token: str = field(default="", repr=False)

    def cli(self, *args: str) -> str:
        """``tock <args>``; its stdout, or the test fails."""
        result = subprocess.run(
            [str(NODE), str(TOCK_JS), *args],
            cwd=REPO_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if result.returncode != 0:
            pytest.fail(f"`tock {' '.join(args)}` exited {result.returncode}: {result.stderr}")
        return result.stdout

    def log(self) -> str:
        """Everything the app printed."""
        return (self.home / "app.log").read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="module")
def target() -> Iterator[Target]:
    """A fresh app per test module."""
    with tempfile.TemporaryDirectory(prefix="tock-attack-") as tmp:
        home = Path(tmp)
        env = {**os.environ, "TOCK_HOME": str(home), "TOCK_CREDENTIAL_STORE": "file"}
        with (home / "app.log").open("wb") as log:
            process = subprocess.Popen(
                [str(NODE), str(TOCK_JS), "app", "--no-open"],
                cwd=REPO_ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        app = Target(home=home, env=env, process=process)
        try:
            deadline = time.monotonic() + READY_TIMEOUT_SECONDS
            while "\nlistener: " not in app.log():
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"tock app did not start:\n{app.log()}")
                time.sleep(0.05)
            app.port = free_port()
            line = app.cli("listener", "on", "--port", str(app.port)).strip()
            assert line == f"active on 127.0.0.1:{app.port}", line
            app.token = app.cli("token").strip()
            # Requests dated in the second the app started are refused (restart guard).
            time.sleep(1.05)
            yield app
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=20)
