"""``TockAuth``: signs each request exactly as httpx sends it.

See docs/protocol.md "Request signing".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator

import httpx

from ._protocol import HEADER_NONCE, HEADER_SIGNATURE, HEADER_TIMESTAMP
from ._signing import new_nonce, sign_request


class TockAuth(httpx.Auth):
    """An ``httpx.Auth`` that adds Tock's three auth headers to every request.

    It signs ``request.url.raw_path`` (the path and query exactly as they go on the wire)
    and the body bytes httpx will send, with a fresh timestamp and nonce on every send, a
    retry included. The clock and the nonce source are injectable so tests can reproduce
    the signing vectors without patching globals. Response signatures are checked by the
    response parser in ``_responses``, which decides which error a response turns into.
    """

    requires_request_body = True

    def __init__(
        self,
        token: str,
        *,
        clock: Callable[[], float] = time.time,
        nonce_factory: Callable[[], str] = new_nonce,
    ) -> None:
        self._token = token
        self._clock = clock
        self._nonce_factory = nonce_factory

    def __repr__(self) -> str:
        # Never show the token.
        return f"{type(self).__name__}(token=<hidden>)"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Sign ``request`` in place and send it once."""
        timestamp = str(int(self._clock()))
        nonce = self._nonce_factory()
        request.headers[HEADER_TIMESTAMP] = timestamp
        request.headers[HEADER_NONCE] = nonce
        request.headers[HEADER_SIGNATURE] = sign_request(
            self._token,
            timestamp=timestamp,
            nonce=nonce,
            method=request.method,
            target=request.url.raw_path.decode("ascii"),
            body=request.content,
        )
        yield request
