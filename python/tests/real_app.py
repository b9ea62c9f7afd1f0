"""The real Tock app for the tests that need one (contract and attack suites).

The app is run exactly as a user would: ``node packages/cli/bin/tock.js app --no-open`` from
the repository root, with a throwaway ``TOCK_HOME`` and the file credential store; the
listener is switched on with ``tock listener on --port P`` on a free port and the token read
with ``tock token``. ``stop()`` sends SIGTERM (the app's graceful shutdown).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
NODE = REPO_ROOT / "node_modules" / ".bin" / "node"
TOCK_JS = REPO_ROOT / "packages" / "cli" / "bin" / "tock.js"
# The app is normally up in about a second; the margin is for a loaded CI machine.
READY_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 10.0


def free_port() -> int:
    """A port nothing listens on right now (bound to port 0, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class TockApp:
    """A running ``tock app`` with its listener on: where it lives and how to reach it."""

    home: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes]
    port: int = 0
    token: str = field(default="", repr=False)

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run ``tock <args>`` against this app; with ``check``, fail the test on non-zero."""
        result = subprocess.run(
            [str(NODE), str(TOCK_JS), *args],
            cwd=REPO_ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if check and result.returncode != 0:
            pytest.fail(
                f"`tock {' '.join(args)}` exited {result.returncode}: {result.stderr.strip()}"
            )
        return result

    def log(self) -> str:
        """What the app printed so far."""
        path = self.home / "app.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """SIGTERM, then wait for the graceful shutdown (SIGKILL only if it hangs)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_app(home: Path, extra_env: Mapping[str, str] | None = None) -> TockApp:
    """Start ``tock app --no-open`` in ``home``, wait until it is up, switch the listener on."""
    if not TOCK_JS.exists():
        pytest.fail(f"{TOCK_JS} does not exist: the contract tests need the real app")
    env = {
        **os.environ,
        "TOCK_HOME": str(home),
        "TOCK_CREDENTIAL_STORE": "file",
        **(extra_env or {}),
    }
    for name in ("SERVICE_TOKEN", "SERVICE_PORT"):
        env.pop(name, None)
    with (home / "app.log").open("wb") as log:
        process = subprocess.Popen(
            [str(NODE), str(TOCK_JS), "app", "--no-open"],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    app = TockApp(home=home, env=env, process=process)
    try:
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while app.cli("listener", "status", check=False).returncode != 0:
            if process.poll() is not None:
                pytest.fail(f"tock app exited with {process.returncode}:\n{app.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"tock app not ready after {READY_TIMEOUT_SECONDS} s:\n{app.log()}")
            time.sleep(0.1)
        app.port = free_port()
        status_line = app.cli("listener", "on", "--port", str(app.port)).stdout.strip()
        assert status_line == f"active on 127.0.0.1:{app.port}", status_line
        app.token = app.cli("token").stdout.strip()
        assert len(app.token) == 43, "the token is 32 bytes, base64url without padding"
    except BaseException:
        app.stop()
        raise
    return app
