"""Errors raised by ``tock_client``, as data.

Every failure is a ``TockError`` carrying the HTTP status (``status_code``, ``None`` when
no response arrived or the client refused to start), the machine-readable ``code``, the
server's human-readable ``message``, the field problems of a validation failure
(``details``) and, on 429, ``retry_after`` in seconds. One table, ``ERROR_FOR_STATUS``,
maps a status to its class; every other non-2xx status is an ``HTTPError``.

Exception tree::

    TockError                  base; also raised at construction (missing_token, invalid_port)
    ├── ValidationError        400 validation_failed, invalid_json
    ├── AuthError              401 missing_auth, clock_drift, bad_signature;
    │                          any status with code bad_response_signature
    ├── NotFoundError          404 activity_not_found, route_not_found
    ├── ReplayError            409 nonce_reused, idempotency_conflict
    ├── UnavailableError       503 not_wired, storage_full
    ├── HTTPError              any other non-2xx: 403, 405, 413, 415, 423 license_locked,
    │                          429 locked_out, 431, 500, ...; a signed 2xx whose body is
    │                          not the contract's (code invalid_response)
    └── NetworkError           connection refused, reset or timed out (no status)

Messages never contain the token or a signature: they are built from the server's message,
the status and the code only.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Final


class TockError(Exception):
    """Base class of every error the client raises.

    Raised directly for construction errors (``missing_token``, ``invalid_port``).
    """

    status_code: int | None
    code: str
    message: str
    details: list[dict[str, str]] | None
    retry_after: int | None

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status_code: int | None = None,
        details: list[dict[str, str]] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status_code = status_code
        self.details = details
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f"HTTP {self.status_code}, " if self.status_code is not None else ""
        return f"{self.message} ({where}{self.code})"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status_code={self.status_code!r}, code={self.code!r}, "
            f"message={self.message!r})"
        )


class ValidationError(TockError):
    """400: the request was not valid; ``details`` lists the fields at fault when known."""


class AuthError(TockError):
    """401, or a response that Tock did not sign (code ``bad_response_signature``)."""


class NotFoundError(TockError):
    """404: unknown activity (``activity_not_found``) or path (``route_not_found``)."""


class ReplayError(TockError):
    """409: a reused nonce (``nonce_reused``) or idempotency key (``idempotency_conflict``)."""


class UnavailableError(TockError):
    """503: the app runs but this operation is not available (``not_wired``)."""


class HTTPError(TockError):
    """Any other non-2xx status: 423 ``license_locked``, 429 ``locked_out``, 5xx, ...

    Also a signed 2xx whose body is not the contract's envelope (code ``invalid_response``).
    """


class NetworkError(TockError):
    """No usable response: connection refused, reset or timed out. ``status_code`` is None."""


ERROR_FOR_STATUS: Final[dict[int, type[TockError]]] = {
    400: ValidationError,
    401: AuthError,
    404: NotFoundError,
    409: ReplayError,
    503: UnavailableError,
}


def error_class_for_status(status: int) -> type[TockError]:
    """The class a non-2xx ``status`` is raised as: the table's entry, else ``HTTPError``."""
    return ERROR_FOR_STATUS.get(status, HTTPError)


def status_phrase(status: int) -> str:
    """``"Not Found"`` for 404; ``"HTTP 599"`` for a status Python does not know."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return f"HTTP {status}"
