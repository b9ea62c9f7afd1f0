"""A stand-in for the Tock listener behind ``httpx.MockTransport``.

It checks each request's signature the way the server does and answers with responses
signed (or, on purpose, not signed) with the token, so client tests exercise the whole
path: build, sign, send, verify, parse.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any

import httpx

from tock_client import AsyncClient, Client
from tock_client._signing import sign_request, sign_response

TOKEN = "Zm9vYmFyYmF6cXV4LXRlc3QtdG9rZW4tMDEyMzQ1Njc"
OTHER_TOKEN = "c3F1YXR0ZXItd2l0aG91dC10aGUtcmVhbC10b2tlbg"

Handler = Callable[[httpx.Request], httpx.Response]


def assert_signed_by_client(request: httpx.Request, token: str = TOKEN) -> None:
    """Fail unless ``request`` carries a valid signature of its wire target and body."""
    expected = sign_request(
        token,
        timestamp=request.headers["x-tock-timestamp"],
        nonce=request.headers["x-tock-nonce"],
        method=request.method,
        target=request.url.raw_path.decode("ascii"),
        body=request.content,
    )
    assert request.headers["x-tock-signature"] == expected


def respond(
    request: httpx.Request,
    status: int,
    payload: object,
    *,
    signed_with: str | None = TOKEN,
    headers: dict[str, str] | None = None,
    raw_body: bytes | None = None,
) -> httpx.Response:
    """A listener response; signed over the request's nonce unless ``signed_with`` is None."""
    body = raw_body if raw_body is not None else json.dumps(payload).encode("utf-8")
    all_headers = {
        "content-type": "application/json",
        "x-tock-api-version": "1",
        "cache-control": "no-store",
        **(headers or {}),
    }
    if signed_with is not None:
        all_headers["x-tock-response-signature"] = sign_response(
            signed_with, nonce=request.headers["x-tock-nonce"], status=status, body=body
        )
    return httpx.Response(status, headers=all_headers, content=body)


def ok(request: httpx.Request, result: object, status: int = 200) -> httpx.Response:
    """A signed success envelope."""
    return respond(request, status, {"ok": True, "result": result})


def fail(
    request: httpx.Request,
    status: int,
    code: str,
    message: str,
    *,
    details: list[dict[str, str]] | None = None,
    signed: bool = True,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """An error envelope, signed unless ``signed`` is false."""
    payload: dict[str, object] = {"ok": False, "error": message, "code": code}
    if details is not None:
        payload["details"] = details
    return respond(request, status, payload, signed_with=TOKEN if signed else None, headers=headers)


class Recorder:
    """Wraps a handler: checks every request's signature and keeps the requests seen."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert_signed_by_client(request)
        return self.handler(request)


def call(
    flavour: str,
    handler: Handler,
    method: str,
    *args: Any,
    client_kwargs: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Call ``method`` on a ``Client`` or an ``AsyncClient`` (``flavour``) over ``handler``.

    The one seam that lets every behaviour test run against both clients unchanged.
    """
    options: dict[str, Any] = {"token": TOKEN, **(client_kwargs or {})}
    transport = httpx.MockTransport(handler)
    if flavour == "sync":
        with Client(**options, transport=transport) as client:
            return getattr(client, method)(*args, **kwargs)

    async def run() -> Any:
        async with AsyncClient(**options, transport=transport) as client:
            return await getattr(client, method)(*args, **kwargs)

    return run_coroutine(run())


def run_coroutine(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coroutine`` on a fresh event loop (tests that are not themselves async)."""
    return asyncio.run(coroutine)
