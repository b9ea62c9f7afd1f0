"""The names and numbers of Tock's wire contract, written once.

See docs/protocol.md "Listener basics", "Request signing", "Endpoints", "Client libraries",
"The event stream: `GET /events`" and "GET /report".

Every other module of the client reads header names, signing prefixes, patterns and paths
from here, so that a change to the contract is a change to one file. This is the Python twin
of ``@tock/protocol``'s ``constants.ts`` and ``errors.ts``. Only what the client uses lives
here (a test checks it): the server's limits are the server's to enforce, and its 400 with
``details`` is the one source of truth about them.
"""

from __future__ import annotations

import re
from typing import Final

DEFAULT_PORT: Final = 39847
MIN_PORT: Final = 1
MAX_PORT: Final = 65535
HOST: Final = "127.0.0.1"
DEFAULT_TIMEOUT_SECONDS: Final = 10.0

# Environment variables read when the constructor is not given a token or a port (docs/protocol.md
# "Client libraries").
ENV_TOKEN: Final = "SERVICE_TOKEN"  # noqa: S105 (a variable name, not a secret)
ENV_PORT: Final = "SERVICE_PORT"

# Header names (docs/protocol.md "Listener basics", docs/protocol.md "Request signing"). httpx
# headers are case-insensitive; these are the canonical spellings.
HEADER_TIMESTAMP: Final = "X-Tock-Timestamp"
HEADER_NONCE: Final = "X-Tock-Nonce"
HEADER_SIGNATURE: Final = "X-Tock-Signature"
HEADER_RESPONSE_SIGNATURE: Final = "X-Tock-Response-Signature"
HEADER_IDEMPOTENCY_KEY: Final = "Idempotency-Key"
HEADER_RETRY_AFTER: Final = "Retry-After"

JSON_CONTENT_TYPE: Final = "application/json"

# Signed strings (docs/protocol.md "Request signing").
REQUEST_SIGNING_PREFIX: Final = "TOCK-HMAC-SHA256"
RESPONSE_SIGNING_PREFIX: Final = "TOCK-HMAC-SHA256-RESPONSE"
SIGNATURE_VERSION_PREFIX: Final = "v1="

# A caller's own Idempotency-Key must have this form (checked before anything is sent).
IDEMPOTENCY_KEY_PATTERN: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")

# Clients make nonces and default idempotency keys from this many CSPRNG bytes (docs/protocol.md
# "Request signing").
NONCE_BYTES: Final = 16
IDEMPOTENCY_KEY_BYTES: Final = 16

# Paths of the eight endpoints (docs/protocol.md "Endpoints").
PATH_HEALTHCHECK: Final = "/healthcheck"
PATH_CURRENT: Final = "/current"
PATH_STATUS: Final = "/status"
PATH_SEARCH: Final = "/activities/search"
PATH_START: Final = "/activities/start"
PATH_STOP: Final = "/activities/stop"
PATH_ENTRIES: Final = "/entries"
PATH_BRANCH_CHANGED: Final = "/branch-changed"
PATH_REPORT: Final = "/report"
PATH_SUGGESTIONS: Final = "/suggestions"
PATH_ACCEPT_SUGGESTION: Final = "/suggestions/accept"
PATH_EVENTS: Final = "/events"

# The event stream (docs/protocol.md "The event stream: `GET /events`").
HEADER_LAST_EVENT_ID: Final = "Last-Event-ID"
EVENT_STREAM_CONTENT_TYPE: Final = "text/event-stream"
EVENT_SIGNING_PREFIX: Final = "TOCK-HMAC-SHA256-EVENT"
EVENT_TYPES: Final = frozenset({"status", "branch-prompt", "idle", "budget"})
# A dropped stream is reopened after 0.5 s, doubling to at most 10 s while it keeps failing.
RECONNECT_INITIAL_SECONDS: Final = 0.5
RECONNECT_MAX_SECONDS: Final = 10.0
# The app sends `: ping` at least every 15 s: a stream silent for three of those is dead.
STREAM_READ_TIMEOUT_SECONDS: Final = 45.0

# How a report groups its rows (docs/protocol.md "GET /report").
REPORT_GROUPINGS: Final = ("activity", "day", "client", "tag")

# Statuses the listener may answer before it has verified the request, when it has no key to
# sign with (docs/protocol.md "Request signing", "Order of checks on the server" steps 0 to 5):
# only these may come back without `X-Tock-Response-Signature`. 408 is a request that did not
# arrive in time (a slow upload), 500 a failure before verification. @tock/protocol's
# UNSIGNED_STATUSES is the same set.
UNSIGNED_STATUSES: Final = frozenset({400, 401, 403, 408, 413, 429, 431, 500})

# Every error code of the contract and the status it is answered with (docs/protocol.md "Order of
# checks on the server", docs/protocol.md "Endpoints").
ERROR_STATUS: Final[dict[str, int]] = {
    "validation_failed": 400,
    "invalid_json": 400,
    "missing_auth": 401,
    "clock_drift": 401,
    "bad_signature": 401,
    "forbidden_host": 403,
    "browser_request": 403,
    "route_not_found": 404,
    "activity_not_found": 404,
    "suggestion_not_found": 404,
    "method_not_allowed": 405,
    "request_timeout": 408,
    "nonce_reused": 409,
    "idempotency_conflict": 409,
    # A change to a block on an invoice that is not void (docs/data.md "Invoices").
    "invoiced": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "license_locked": 423,
    "locked_out": 429,
    # One event stream more than the listener keeps open (docs/protocol.md "The event stream").
    "too_many_streams": 429,
    "headers_too_large": 431,
    "internal_error": 500,
    "not_wired": 503,
    # Not in the original contract; @tock/protocol and spec/openapi.yaml answer a full disk with it.
    "storage_full": 503,
}

# Codes only the client produces (docs/protocol.md "Request signing", docs/protocol.md "Client
# libraries").
CODE_MISSING_TOKEN: Final = "missing_token"  # noqa: S105 (an error code)
CODE_INVALID_PORT: Final = "invalid_port"
CODE_BAD_RESPONSE_SIGNATURE: Final = "bad_response_signature"
CODE_BAD_EVENT_SIGNATURE: Final = "bad_event_signature"
CODE_NETWORK_ERROR: Final = "network_error"
CODE_TIMEOUT: Final = "timeout"
CODE_INVALID_RESPONSE: Final = "invalid_response"
# Fallback for a non-2xx answer whose body names no code and whose status has several:
# the prefix followed by the status (`http_401`), as in the TypeScript client.
CODE_HTTP_PREFIX: Final = "http_"

# 423's body is exactly {"error": "license locked"}: the client supplies its code (docs/protocol.md
# "Listener basics", docs/protocol.md "Client libraries").
LICENSE_LOCKED_STATUS: Final = 423
CODE_LICENSE_LOCKED: Final = "license_locked"
# Only a 429 (lockout) carries `retry_after`.
LOCKED_OUT_STATUS: Final = 429
