"""Request and response signatures of docs/protocol.md "Request signing", as pure functions.

Nothing here does I/O or reads a clock: callers pass the timestamp and nonce in, so the
signing vectors of ``spec/signing.json`` can be reproduced byte for byte.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from ._protocol import (
    EVENT_SIGNING_PREFIX,
    NONCE_BYTES,
    REQUEST_SIGNING_PREFIX,
    RESPONSE_SIGNING_PREFIX,
    SIGNATURE_VERSION_PREFIX,
)


def body_sha256(body: bytes) -> str:
    """Lowercase hex SHA-256 of the exact body bytes (``b""`` when there is no body)."""
    return hashlib.sha256(body).hexdigest()


def request_string_to_sign(
    *, timestamp: str, nonce: str, method: str, target: str, body: bytes
) -> str:
    """The six lines a request signature covers, joined by ``\\n`` with no trailing newline.

    ``target`` is the path, then ``?`` and the query if there is one, exactly as sent.
    """
    return "\n".join(
        (REQUEST_SIGNING_PREFIX, timestamp, nonce, method.upper(), target, body_sha256(body))
    )


def response_string_to_sign(*, nonce: str, status: int, body: bytes) -> str:
    """The four lines a response signature covers: prefix, request nonce, status, body hash."""
    return "\n".join((RESPONSE_SIGNING_PREFIX, nonce, str(status), body_sha256(body)))


def _hmac_v1(token: str, message: str) -> str:
    digest = hmac.new(token.encode("utf-8"), message.encode("utf-8"), hashlib.sha256)
    return SIGNATURE_VERSION_PREFIX + digest.hexdigest()


def sign_request(
    token: str, *, timestamp: str, nonce: str, method: str, target: str, body: bytes
) -> str:
    """The ``X-Tock-Signature`` value (``v1=<hex>``) for a request, keyed by the token."""
    return _hmac_v1(
        token,
        request_string_to_sign(
            timestamp=timestamp, nonce=nonce, method=method, target=target, body=body
        ),
    )


def sign_response(token: str, *, nonce: str, status: int, body: bytes) -> str:
    """The ``X-Tock-Response-Signature`` value the app computes for a response.

    The client only needs it to verify; tests use it to play the server.
    """
    return _hmac_v1(token, response_string_to_sign(nonce=nonce, status=status, body=body))


def verify_response(
    token: str, *, nonce: str, status: int, body: bytes, signature: str | None
) -> bool:
    """True when ``signature`` is the app's signature of this response, compared in constant time.

    A missing signature never verifies; whether that is acceptable for a given status is the
    response parser's decision, not this function's.
    """
    if signature is None:
        return False
    expected = sign_response(token, nonce=nonce, status=status, body=body)
    return hmac.compare_digest(expected.encode("ascii"), signature.encode("utf-8", "replace"))


def event_string_to_sign(*, nonce: str, event_id: str, event_type: str, data: str) -> str:
    """The five lines an event's ``sig`` covers.

    See docs/protocol.md "The event stream: `GET /events`".

    ``nonce`` is the ``X-Tock-Nonce`` of the request that opened the stream, so an event
    cannot be replayed into another stream; ``data`` is the exact text of the ``data`` line.
    """
    data_sha256 = hashlib.sha256(data.encode("utf-8")).hexdigest()
    return "\n".join((EVENT_SIGNING_PREFIX, nonce, event_id, event_type, data_sha256))


def sign_event(token: str, *, nonce: str, event_id: str, event_type: str, data: str) -> str:
    """The ``sig`` (``v1=<hex>``) the app puts on an event; tests use it to play the server."""
    return _hmac_v1(
        token,
        event_string_to_sign(nonce=nonce, event_id=event_id, event_type=event_type, data=data),
    )


def verify_event(
    token: str, *, nonce: str, event_id: str, event_type: str, data: str, sig: str | None
) -> bool:
    """True when ``sig`` is the app's signature of this event, compared in constant time."""
    if sig is None:
        return False
    expected = sign_event(token, nonce=nonce, event_id=event_id, event_type=event_type, data=data)
    return hmac.compare_digest(expected.encode("ascii"), sig.encode("utf-8", "replace"))


def random_token_urlsafe(nbytes: int) -> str:
    """``nbytes`` bytes from the OS CSPRNG, base64url without padding."""
    return base64.urlsafe_b64encode(secrets.token_bytes(nbytes)).rstrip(b"=").decode("ascii")


def new_nonce() -> str:
    """A fresh request nonce: 16 random bytes, base64url (22 characters).

    As docs/protocol.md "Request signing" recommends.
    """
    return random_token_urlsafe(NONCE_BYTES)
