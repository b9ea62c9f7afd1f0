"""Reading the listener's answers: signatures checked, results decoded, errors mapped.

Pure functions over a fully read ``httpx.Response`` (or an opened event stream), shared by
``Client`` and ``AsyncClient``: a response not signed by Tock is ``AuthError``
``bad_response_signature``; a 2xx is decoded by its ``Operation``; anything else becomes the
``TockError`` subclass for its status; a transport failure becomes ``NetworkError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

import httpx

from ._base import Operation
from ._config import ClientConfig
from ._errors import (
    AuthError,
    HTTPError,
    NetworkError,
    TockError,
    error_class_for_status,
    status_phrase,
)
from ._protocol import (
    CODE_BAD_RESPONSE_SIGNATURE,
    CODE_HTTP_PREFIX,
    CODE_INVALID_RESPONSE,
    CODE_LICENSE_LOCKED,
    CODE_NETWORK_ERROR,
    CODE_TIMEOUT,
    ERROR_STATUS,
    HEADER_NONCE,
    HEADER_RESPONSE_SIGNATURE,
    HEADER_RETRY_AFTER,
    HOST,
    LICENSE_LOCKED_STATUS,
    LOCKED_OUT_STATUS,
    UNSIGNED_STATUSES,
)
from ._signing import verify_response

T = TypeVar("T")


def _bad_response_signature(status: int) -> AuthError:
    return AuthError(
        "the response was not signed by Tock: another program may be answering on this port; "
        "check that Tock runs with its listener on this port (`tock listener status`)",
        code=CODE_BAD_RESPONSE_SIGNATURE,
        status_code=status,
    )


def check_response_signature(
    token: str, *, nonce: str | None, status: int, headers: Mapping[str, str], body: bytes
) -> None:
    """Raise ``AuthError`` ``bad_response_signature`` unless the response is Tock's.

    See docs/protocol.md "Request signing".

    A signature that is present must verify. A missing one is accepted only for the
    statuses the listener answers before it has verified the request (400, 401, 403, 413,
    429, 431); the response is then mapped by its status like any other.
    """
    signature = headers.get(HEADER_RESPONSE_SIGNATURE)
    if signature is None and status in UNSIGNED_STATUSES:
        return
    if nonce is None or not verify_response(
        token, nonce=nonce, status=status, body=body, signature=signature
    ):
        raise _bad_response_signature(status)


def _default_code(status: int) -> str:
    # The contract's only code for that status (431 → headers_too_large), else `http_<status>`,
    # as in the TypeScript client.
    codes = [code for code, code_status in ERROR_STATUS.items() if code_status == status]
    return codes[0] if len(codes) == 1 else f"{CODE_HTTP_PREFIX}{status}"


def _details(value: object) -> list[dict[str, str]] | None:
    if not isinstance(value, list):
        return None
    return [
        {"field": str(item.get("field", "")), "message": str(item.get("message", ""))}
        for item in value
        if isinstance(item, dict)
    ]


def _retry_after(status: int, headers: Mapping[str, str]) -> int | None:
    if status != LOCKED_OUT_STATUS:
        return None
    value = headers.get(HEADER_RETRY_AFTER, "").strip()
    return int(value) if value.isdigit() and value.isascii() else None


def error_from_response(status: int, headers: Mapping[str, str], body: bytes) -> TockError:
    """The error for a non-2xx response: class by status, code and message from the body.

    423's body is ``{"error": "license locked"}`` with no code: its code is
    ``license_locked``. A body that is missing or not JSON (Node answers 431 on its own)
    falls back to the status' only code, or ``http_<status>``, and the status phrase.
    """
    try:
        parsed: Any = json.loads(body) if body else None
    except ValueError:
        parsed = None
    envelope: Mapping[str, Any] = parsed if isinstance(parsed, dict) else {}
    message = envelope.get("error")
    code = envelope.get("code")
    if status == LICENSE_LOCKED_STATUS:
        code = CODE_LICENSE_LOCKED
    return error_class_for_status(status)(
        message if isinstance(message, str) and message else status_phrase(status),
        code=code if isinstance(code, str) and code else _default_code(status),
        status_code=status,
        details=_details(envelope.get("details")),
        retry_after=_retry_after(status, headers),
    )


def decode_success(operation: Operation[T], status: int, body: bytes) -> T:
    """The typed result of a signed 2xx response ``{"ok": true, "result": ...}``."""
    try:
        envelope = json.loads(body)
        if not isinstance(envelope, dict) or envelope.get("ok") is not True:
            raise ValueError('the body is not {"ok": true, "result": ...}')
        return operation.decode(envelope.get("result"))
    except ValueError as exc:
        raise HTTPError(
            f"Tock sent a response this client cannot read ({exc}); "
            "check that the app and tock-client versions match",
            code=CODE_INVALID_RESPONSE,
            status_code=status,
        ) from exc


def parse_response(operation: Operation[T], token: str, response: httpx.Response) -> T:
    """Verify a fully read response and return its result, or raise the mapped error."""
    status = response.status_code
    body = response.content
    check_response_signature(
        token,
        nonce=response.request.headers.get(HEADER_NONCE),
        status=status,
        headers=response.headers,
        body=body,
    )
    if 200 <= status < 300:
        return decode_success(operation, status, body)
    raise error_from_response(status, response.headers, body)


def network_error(exc: httpx.TransportError, config: ClientConfig) -> NetworkError:
    """A ``NetworkError`` for an httpx transport failure (refused, reset, timed out)."""
    where = f"{HOST}:{config.port}"
    if isinstance(exc, httpx.TimeoutException):
        return NetworkError(
            f"Tock at {where} did not answer within {config.timeout} s ({type(exc).__name__})",
            code=CODE_TIMEOUT,
        )
    reason = str(exc) or type(exc).__name__
    return NetworkError(
        f"could not talk to Tock at {where}: {reason}; is the app running with the listener "
        "on? (`tock listener status`)",
        code=CODE_NETWORK_ERROR,
    )


# ---------------------------------------------------------------------------------------------
# The event stream opened (docs/protocol.md "The event stream: `GET /events`")


def check_stream_opened(token: str, response: httpx.Response) -> str:
    """The nonce the stream's events are signed with, once the answer is a signed 200.

    The 200 is signed over the empty body (its events carry their own signatures); an
    unsigned or wrongly signed one is ``AuthError`` ``bad_response_signature``. Any other
    status must have been read first and raises its usual error.
    """
    nonce = response.request.headers.get(HEADER_NONCE)
    status = response.status_code
    if status != 200:
        check_response_signature(
            token, nonce=nonce, status=status, headers=response.headers, body=response.content
        )
        raise error_from_response(status, response.headers, response.content)
    signature = response.headers.get(HEADER_RESPONSE_SIGNATURE)
    if nonce is None or not verify_response(
        token, nonce=nonce, status=200, body=b"", signature=signature
    ):
        raise _bad_response_signature(200)
    return str(nonce)
