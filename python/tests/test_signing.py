"""The signing vectors of spec/signing.json, reproduced byte for byte.

See docs/protocol.md "Request signing".
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tock_client import _base
from tock_client._auth import TockAuth
from tock_client._signing import (
    body_sha256,
    new_nonce,
    request_string_to_sign,
    sign_request,
    sign_response,
    verify_response,
)

from .conftest import load_vectors
from .fake_tock import TOKEN

# The header forms of docs/protocol.md "Request signing", written from the spec alone.
TIMESTAMP_PATTERN = re.compile(r"[0-9]{1,12}")
NONCE_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
SIGNATURE_PATTERN = re.compile(r"v1=[0-9a-f]{64}")

VECTORS = load_vectors()
VECTOR_TOKEN: str = VECTORS["token"]
VECTOR_CASES: list[dict[str, Any]] = VECTORS["vectors"]
VECTOR_IDS = [vector["name"] for vector in VECTOR_CASES]

# The operation the client builds for each vector: same method, target and body bytes.
OPERATION_FOR_VECTOR: dict[str, _base.Operation[Any]] = {
    "get-status-no-body": _base.get_status(),
    "get-healthcheck": _base.healthcheck(),
    "search-with-encoded-query": _base.search_activities("café time", 5),
    "start-activity": _base.start_activity("Writing docs", None, create_if_missing=True),
    "stop-empty-body": _base.stop_activity(),
    "entry-unicode-note": _base.log_entry(
        name="Review",
        activity_id=None,
        duration_minutes=45,
        note="Relecture du chapitre 3 — café ☕",
        create_if_missing=False,
        ended_at=None,
        idempotency_key="vector-key",
    ),
    "branch-changed": _base.notify_branch_change("feature/login", "/home/ana/src/shop", "main"),
}


def test_the_vector_file_has_every_vector_this_suite_maps() -> None:
    assert set(OPERATION_FOR_VECTOR) == set(VECTOR_IDS)


@pytest.mark.parametrize("vector", VECTOR_CASES, ids=VECTOR_IDS)
def test_reproduces_body_hash_string_to_sign_and_signature(vector: dict[str, Any]) -> None:
    body = vector["body"].encode("utf-8")
    assert body_sha256(body) == vector["bodySha256"]
    parts = {
        "timestamp": vector["timestamp"],
        "nonce": vector["nonce"],
        "method": vector["method"],
        "target": vector["target"],
        "body": body,
    }
    assert request_string_to_sign(**parts) == vector["stringToSign"]
    assert sign_request(VECTOR_TOKEN, **parts) == vector["signature"]


@pytest.mark.parametrize("vector", VECTOR_CASES, ids=VECTOR_IDS)
def test_client_builds_the_vector_request_and_tock_auth_signs_it(vector: dict[str, Any]) -> None:
    operation = OPERATION_FOR_VECTOR[vector["name"]]
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    auth = TockAuth(
        VECTOR_TOKEN,
        clock=lambda: float(vector["timestamp"]),
        nonce_factory=lambda: str(vector["nonce"]),
    )
    with httpx.Client(
        base_url="http://127.0.0.1:39847", auth=auth, transport=httpx.MockTransport(handler)
    ) as http:
        request = http.build_request(
            operation.method, operation.target, content=operation.body, headers=operation.headers
        )
        http.send(request)

    (sent,) = seen
    assert sent.method == vector["method"]
    assert sent.url.raw_path.decode("ascii") == vector["target"]
    assert sent.content == vector["body"].encode("utf-8")
    assert sent.headers["X-Tock-Timestamp"] == vector["timestamp"]
    assert sent.headers["X-Tock-Nonce"] == vector["nonce"]
    assert sent.headers["X-Tock-Signature"] == vector["signature"]


def test_tock_auth_floors_a_fractional_clock_to_whole_seconds() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    auth = TockAuth(TOKEN, clock=lambda: 1795000000.999, nonce_factory=lambda: "n" * 22)
    with httpx.Client(auth=auth, transport=httpx.MockTransport(handler)) as http:
        http.get("http://127.0.0.1:39847/status")
    assert seen[0].headers["X-Tock-Timestamp"] == "1795000000"


def test_tock_auth_uses_a_fresh_well_formed_nonce_per_request() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    with httpx.Client(auth=TockAuth(TOKEN), transport=httpx.MockTransport(handler)) as http:
        for _ in range(20):
            http.get("http://127.0.0.1:39847/status")
    nonces = [request.headers["X-Tock-Nonce"] for request in seen]
    assert len(set(nonces)) == len(nonces)
    for request in seen:
        assert NONCE_PATTERN.fullmatch(request.headers["X-Tock-Nonce"])
        assert TIMESTAMP_PATTERN.fullmatch(request.headers["X-Tock-Timestamp"])
        assert SIGNATURE_PATTERN.fullmatch(request.headers["X-Tock-Signature"])


def test_default_nonce_is_16_random_bytes_base64url() -> None:
    nonce = new_nonce()
    assert len(nonce) == 22
    assert NONCE_PATTERN.fullmatch(nonce)


def test_tock_auth_repr_hides_the_token() -> None:
    assert TOKEN not in repr(TockAuth(TOKEN))


def test_response_signature_covers_nonce_status_and_body() -> None:
    nonce = "AAECAwQFBgcICQoLDA0ODw"
    signature = sign_response(TOKEN, nonce=nonce, status=200, body=b"{}")
    assert SIGNATURE_PATTERN.fullmatch(signature)
    assert verify_response(TOKEN, nonce=nonce, status=200, body=b"{}", signature=signature)
    assert not verify_response(TOKEN, nonce=nonce, status=200, body=b"{}", signature=None)
    assert not verify_response(TOKEN, nonce=nonce, status=201, body=b"{}", signature=signature)
    assert not verify_response(TOKEN, nonce=nonce, status=200, body=b"{ }", signature=signature)
    assert not verify_response(TOKEN, nonce="x" * 22, status=200, body=b"{}", signature=signature)
    assert not verify_response("t2", nonce=nonce, status=200, body=b"{}", signature=signature)
    upper = signature.upper()
    assert not verify_response(TOKEN, nonce=nonce, status=200, body=b"{}", signature=upper)
    assert not verify_response(TOKEN, nonce=nonce, status=200, body=b"{}", signature="v1=é")
