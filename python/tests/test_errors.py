"""Status → error class mapping, error attributes and response-signature checks.

See docs/protocol.md "Request signing", "Client libraries".
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from tock_client import (
    AsyncClient,
    AuthError,
    Client,
    HTTPError,
    NetworkError,
    NotFoundError,
    ReplayError,
    TockError,
    UnavailableError,
    ValidationError,
)
from tock_client._errors import ERROR_FOR_STATUS

from .fake_tock import OTHER_TOKEN, TOKEN, Recorder, call, fail, ok, respond, run_coroutine

CLASS_FOR_STATUS: list[tuple[int, str, type[TockError]]] = [
    (400, "validation_failed", ValidationError),
    (400, "invalid_json", ValidationError),
    (401, "bad_signature", AuthError),
    (401, "clock_drift", AuthError),
    (401, "missing_auth", AuthError),
    (403, "forbidden_host", HTTPError),
    (404, "activity_not_found", NotFoundError),
    (404, "route_not_found", NotFoundError),
    (405, "method_not_allowed", HTTPError),
    (409, "nonce_reused", ReplayError),
    (409, "idempotency_conflict", ReplayError),
    (409, "invoiced", ReplayError),
    (413, "payload_too_large", HTTPError),
    (415, "unsupported_media_type", HTTPError),
    (429, "locked_out", HTTPError),
    (500, "internal_error", HTTPError),
    (503, "not_wired", UnavailableError),
]


def test_every_error_class_is_a_tock_error() -> None:
    for cls in (*ERROR_FOR_STATUS.values(), HTTPError, NetworkError):
        assert issubclass(cls, TockError)


@pytest.mark.parametrize(("status", "code", "cls"), CLASS_FOR_STATUS)
def test_maps_a_signed_error_response_to_its_class_code_and_message(
    flavour: str, status: int, code: str, cls: type[TockError]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return fail(request, status, code, f"the server says {code}")

    with pytest.raises(cls) as caught:
        call(flavour, Recorder(handler), "get_status")
    assert type(caught.value) is cls
    assert caught.value.status_code == status
    assert caught.value.code == code
    assert caught.value.message == f"the server says {code}"
    assert caught.value.details is None
    assert caught.value.retry_after is None
    assert str(caught.value) == f"the server says {code} (HTTP {status}, {code})"


def test_validation_error_carries_the_field_details(flavour: str) -> None:
    details = [
        {"field": "durationMinutes", "message": "must be a number greater than 0"},
        {"field": "note", "message": "must be at most 2000 characters"},
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        return fail(request, 400, "validation_failed", "durationMinutes: ...", details=details)

    with pytest.raises(ValidationError) as caught:
        call(flavour, handler, "log_entry", name="Review", duration_minutes=0)
    assert caught.value.details == details
    assert caught.value.code == "validation_failed"


def test_locked_out_carries_retry_after_seconds(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return fail(
            request, 429, "locked_out", "too many failed attempts", headers={"Retry-After": "42"}
        )

    with pytest.raises(HTTPError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.status_code == 429
    assert caught.value.code == "locked_out"
    assert caught.value.retry_after == 42


def test_423_is_an_http_error_with_code_license_locked(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return respond(request, 423, {"error": "license locked"})

    with pytest.raises(HTTPError) as caught:
        call(flavour, handler, "start_activity", "Writing")
    assert caught.value.status_code == 423
    assert caught.value.code == "license_locked"
    assert caught.value.message == "license locked"


def test_an_unsigned_423_is_refused_as_not_from_tock(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return respond(request, 423, {"error": "license locked"}, signed_with=None)

    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.status_code == 423
    assert caught.value.code == "bad_response_signature"


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "invalid_json", ValidationError),
        (401, "missing_auth", AuthError),
        (403, "browser_request", HTTPError),
        (413, "payload_too_large", HTTPError),
        (429, "locked_out", HTTPError),
        # A slow upload: Node's parser answers before the listener has read the request.
        (408, "request_timeout", HTTPError),
        # A failure of the listener before it verified the request: it has no key to sign with.
        (500, "internal_error", HTTPError),
    ],
)
def test_accepts_a_missing_signature_on_statuses_answered_before_verification(
    flavour: str, status: int, code: str, cls: type[TockError]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return fail(request, status, code, "refused early", signed=False)

    with pytest.raises(cls) as caught:
        call(flavour, handler, "get_status")
    assert type(caught.value) is cls
    assert (caught.value.status_code, caught.value.code) == (status, code)


def test_an_unsigned_401_is_an_auth_error_mapped_by_status(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return fail(request, 401, "bad_signature", "the signature does not match", signed=False)

    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "healthcheck")
    assert caught.value.code == "bad_signature"
    assert caught.value.status_code == 401


def test_retry_after_is_only_read_on_429(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return fail(request, 503, "not_wired", "later", headers={"Retry-After": "5"})

    with pytest.raises(UnavailableError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.retry_after is None


def test_a_bodyless_401_has_the_code_http_401(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401)

    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "get_status")
    assert (caught.value.status_code, caught.value.code) == (401, "http_401")


def test_a_bodyless_431_from_the_http_parser_is_an_http_error(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(431)

    with pytest.raises(HTTPError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.status_code == 431
    assert caught.value.code == "headers_too_large"
    assert caught.value.message == "Request Header Fields Too Large"


@pytest.mark.parametrize("status", [200, 201, 404, 405, 409, 415, 423, 503, 302])
def test_an_unsigned_response_with_any_other_status_is_not_from_tock(
    flavour: str, status: int
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return respond(request, status, {"ok": True, "result": None}, signed_with=None)

    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "stop_activity")
    assert caught.value.status_code == status
    assert caught.value.code == "bad_response_signature"
    assert caught.value.message.startswith("the response was not signed by Tock")


@pytest.mark.parametrize("status", [200, 400, 401, 404])
def test_a_response_signed_with_another_key_is_refused(flavour: str, status: int) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return respond(request, status, {"ok": True, "result": None}, signed_with=OTHER_TOKEN)

    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "get_current")
    assert caught.value.status_code == status
    assert caught.value.code == "bad_response_signature"


def test_a_signature_over_another_nonce_is_refused(flavour: str) -> None:
    """A squatter cannot replay a response Tock signed for an earlier request."""
    captured: list[httpx.Response] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if not captured:
            captured.append(ok(request, None))
        replayed = captured[0]
        return httpx.Response(200, headers=replayed.headers, content=replayed.content)

    assert call(flavour, handler, "get_current") is None
    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "get_current")
    assert caught.value.code == "bad_response_signature"


def test_a_redirect_is_never_followed(flavour: str) -> None:
    recorder = Recorder(
        lambda request: respond(request, 307, {}, headers={"Location": "http://127.0.0.1:1/status"})
    )
    with pytest.raises(HTTPError) as caught:
        call(flavour, recorder, "get_status")
    assert caught.value.status_code == 307
    assert len(recorder.requests) == 1


def test_a_signed_success_with_an_unreadable_body_is_invalid_response(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return respond(request, 200, None, raw_body=b"<html>hello</html>")

    with pytest.raises(HTTPError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.code == "invalid_response"
    assert caught.value.status_code == 200


def test_a_signed_success_of_the_wrong_shape_is_invalid_response(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return ok(request, {"isTracking": "yes"})

    with pytest.raises(HTTPError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.code == "invalid_response"


def test_error_messages_never_contain_the_token_or_a_signature(flavour: str) -> None:
    signatures: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        signatures.append(request.headers["X-Tock-Signature"])
        return respond(request, 200, {"ok": True, "result": None}, signed_with=OTHER_TOKEN)

    with pytest.raises(AuthError) as caught:
        call(flavour, handler, "get_status")
    for text in (str(caught.value), repr(caught.value), caught.value.message):
        assert TOKEN not in text
        assert OTHER_TOKEN not in text
        assert signatures[0] not in text
        assert signatures[0][3:] not in text


# --- Network failures, over real sockets -----------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept_forever() -> None:
        server.settimeout(0.05)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept_forever, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    server.close()


def test_connection_refused_is_a_network_error_without_status(flavour: str) -> None:
    port = _closed_port()
    with pytest.raises(NetworkError) as caught:
        call_real(flavour, port, timeout=2.0)
    assert caught.value.status_code is None
    assert caught.value.code == "network_error"
    assert isinstance(caught.value.__cause__, httpx.ConnectError)
    assert f"127.0.0.1:{port}" in caught.value.message


def test_a_timeout_is_a_network_error_with_code_timeout(flavour: str, silent_port: int) -> None:
    with pytest.raises(NetworkError) as caught:
        call_real(flavour, silent_port, timeout=0.2)
    assert caught.value.status_code is None
    assert caught.value.code == "timeout"
    assert isinstance(caught.value.__cause__, httpx.TimeoutException)


def test_a_connection_reset_is_a_network_error(flavour: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.")

    with pytest.raises(NetworkError) as caught:
        call(flavour, handler, "get_status")
    assert caught.value.code == "network_error"


def call_real(
    flavour: str, port: int, timeout: float, method: str = "get_status", **kwargs: Any
) -> Any:
    """Call ``method`` over httpx's real transport, on ``Client`` or ``AsyncClient``."""
    if flavour == "sync":
        with Client(token=TOKEN, port=port, timeout=timeout) as client:
            return getattr(client, method)(**kwargs)

    async def run() -> Any:
        async with AsyncClient(token=TOKEN, port=port, timeout=timeout) as client:
            return await getattr(client, method)(**kwargs)

    return run_coroutine(run())


@pytest.fixture
def squatter_port() -> Iterator[int]:
    """A plain HTTP server without the token, answering every request with a plausible 2xx."""

    class Squatter(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.answer(200, {"activityID": "0b7e6a36-3f0c-4c55-9a4e-1f2d3c4b5a69"})

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.answer(201, {"entryID": "fake"})

        def answer(self, status: int, result: object) -> None:
            body = json.dumps({"ok": True, "result": result}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            # A squatter may copy the request's signature: it is not a response signature.
            self.send_header("X-Tock-Response-Signature", self.headers["X-Tock-Signature"])
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Keep the test output quiet."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), Squatter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [("get_current", {}), ("log_entry", {"name": "Review", "duration_minutes": 45})],
)
def test_a_squatter_on_the_port_can_neither_feed_data_nor_fake_a_write(
    flavour: str, squatter_port: int, method: str, kwargs: dict[str, Any]
) -> None:
    with pytest.raises(AuthError) as caught:
        call_real(flavour, squatter_port, 5.0, method, **kwargs)
    assert caught.value.code == "bad_response_signature"
    assert caught.value.status_code in (200, 201)
