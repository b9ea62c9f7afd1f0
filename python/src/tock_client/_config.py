"""The client's configuration: the token, the port and the timeout, resolved once.

Arguments first, then the environment (``SERVICE_TOKEN``, ``SERVICE_PORT``), then the default
port; a missing token or a bad port is refused when the client is constructed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from ._errors import TockError
from ._protocol import (
    CODE_INVALID_PORT,
    CODE_MISSING_TOKEN,
    DEFAULT_PORT,
    ENV_PORT,
    ENV_TOKEN,
    HOST,
    JSON_CONTENT_TYPE,
    MAX_PORT,
    MIN_PORT,
)
from ._version import __version__

USER_AGENT = f"tock-client-python/{__version__}"


@dataclass(frozen=True)
class ClientConfig:
    """A resolved configuration: the token (never shown in ``repr``), port and timeout."""

    token: str = field(repr=False)
    port: int
    timeout: float | None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``: the listener binds the loopback address only."""
        return f"http://{HOST}:{self.port}"

    @property
    def default_headers(self) -> dict[str, str]:
        """Headers on every request. ``Host`` is explicit because the listener insists on
        ``127.0.0.1:<port>`` and httpx would drop a default port such as ``:80``."""
        return {
            "Host": f"{HOST}:{self.port}",
            "Accept": JSON_CONTENT_TYPE,
            "User-Agent": USER_AGENT,
        }


def _invalid_port(value: object, source: str) -> TockError:
    return TockError(
        f"invalid port {value!r} from {source}: use an integer from {MIN_PORT} to {MAX_PORT}",
        code=CODE_INVALID_PORT,
    )


def _check_port(value: object) -> int:
    # `bool` is an `int` subclass; `True` is not a port.
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_PORT <= value <= MAX_PORT:
        raise _invalid_port(value, "the port argument")
    return value


def _port_from_env(text: str) -> int:
    # ASCII digits only: str.isdigit() alone accepts other scripts' digits.
    if not (text.isascii() and text.isdigit()) or not MIN_PORT <= int(text) <= MAX_PORT:
        raise _invalid_port(text, ENV_PORT)
    return int(text)


def resolve_config(
    token: str | None,
    port: int | None,
    timeout: float | None,
    environ: Mapping[str, str] | None = None,
) -> ClientConfig:
    """Arguments first, then ``SERVICE_TOKEN`` / ``SERVICE_PORT``, then the default port.

    A missing or empty token is ``TockError`` ``missing_token``; a port that is not an
    integer 1-65535 is ``TockError`` ``invalid_port``. Both are raised at construction.
    """
    env = os.environ if environ is None else environ
    resolved_token = token if token is not None else env.get(ENV_TOKEN)
    if not resolved_token:
        raise TockError(
            f"no Tock token: pass token=... or set {ENV_TOKEN} "
            "(`tock token` prints it once the listener is on)",
            code=CODE_MISSING_TOKEN,
        )
    if port is not None:
        resolved_port = _check_port(port)
    else:
        # Unset or empty is the default; anything else must be the digits alone, as the
        # TypeScript client reads it (" 8080" is no port in either).
        env_port = env.get(ENV_PORT, "")
        resolved_port = _port_from_env(env_port) if env_port != "" else DEFAULT_PORT
    return ClientConfig(token=resolved_token, port=resolved_port, timeout=timeout)
