"""Family 1 of the attack campaign (docs/security.md): schema-driven fuzzing with schemathesis.

Every operation of spec/openapi.yaml gets requests generated from its schema, in two modes:

- positive: valid per the schema, signed;
- negative: invalid per the schema (bodies, queries), signed, and the same case sent once more
  *unsigned*, with the malformed X-Tock-* headers schemathesis generated for the security
  schemes (the unauthenticated probes).

Signing happens in a ``requests`` auth hook over the ``PreparedRequest``, i.e. over the exact
method, target and body bytes that go on the wire, with a fresh nonce and the current time for
every request; nothing is cached, so there is no refresh interval to turn off (schemathesis'
own ``@schemathesis.auth`` providers sign before the body is serialized, and cache by default).

Every response must be below 500 and conform to the spec (status, content type, headers,
body schema). Afterwards the app still answers, and a signed request gets 200: the probes did
not lock the user out (they are ``missing_auth``, which never counts).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections import Counter
from pathlib import Path
from typing import Any

import requests
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from requests.auth import AuthBase
from schemathesis import APIOperation, Case, GenerationMode, Response
from schemathesis.checks import CHECKS
from schemathesis.core.result import Ok

from .conftest import REPO_ROOT, Target

SCHEMA = schemathesis.openapi.from_path(REPO_ROOT / "spec" / "openapi.yaml")
# Per operation and mode; 8 operations x 2 modes x 130 = 2 080 generated requests, plus the
# unsigned probes. TOCK_ATTACK_FUZZ_EXAMPLES scales it (for a longer local run).
EXAMPLES = int(os.environ.get("TOCK_ATTACK_FUZZ_EXAMPLES", "130"))

# Checks that judge the response against the spec. Checks that send requests of their own
# (ignored_auth, unsupported_method, use_after_free, ...) are left out: their requests are
# unsigned, so they would all be 401s and would only test the probe path again.
CONFORMANCE = {
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
}


class TockSignature(AuthBase):
    """Signs the request exactly as it is sent, written from the spec alone.

    See docs/protocol.md "Request signing".
    """

    def __init__(self, token: str) -> None:
        self._key = token.encode("utf-8")

    def __call__(self, r: requests.PreparedRequest) -> requests.PreparedRequest:
        if isinstance(r.body, bytes):
            body = r.body
        elif isinstance(r.body, str):
            body = r.body.encode("utf-8")
        else:
            assert r.body is None, "schemathesis sends bodies as bytes or str"
            body = b""
        timestamp = str(int(time.time()))
        nonce = secrets.token_urlsafe(16)
        text = "\n".join(
            (
                "TOCK-HMAC-SHA256",
                timestamp,
                nonce,
                (r.method or "GET").upper(),
                r.path_url,
                hashlib.sha256(body).hexdigest(),
            )
        )
        mac = hmac.new(self._key, text.encode("utf-8"), hashlib.sha256).hexdigest()
        r.headers["X-Tock-Timestamp"] = timestamp
        r.headers["X-Tock-Nonce"] = nonce
        r.headers["X-Tock-Signature"] = "v1=" + mac
        return r


def conformance_checks() -> list[Any]:
    """The schemathesis check functions named in CONFORMANCE."""
    found = [check for check in CHECKS.get_all() if check.__name__ in CONFORMANCE]
    assert {c.__name__ for c in found} == CONFORMANCE, "schemathesis renamed a check"
    return found


def send(case: Case[Any], target: Target, session: requests.Session, *, sign: bool) -> Response:
    """Sends the case (signed or with its generated auth headers) and checks the response."""
    base_url = f"http://127.0.0.1:{target.port}"
    response = case.call(
        base_url=base_url, session=session, auth=TockSignature(target.token) if sign else None
    )
    assert response.status_code < 500, (
        f"{case.method} {case.path}: {response.status_code} {response.text}"
    )
    case.validate_response(response, checks=conformance_checks())
    assert response.headers.get("x-tock-api-version") == ["1"]
    assert response.headers.get("cache-control") == ["no-store"]
    assert not any(h.lower().startswith("access-control-") for h in response.headers)
    assert target.token not in response.text
    return response


def fuzz(
    operation: APIOperation[Any, Any, Any, Any],
    mode: GenerationMode,
    target: Target,
    session: requests.Session,
    statuses: Counter[tuple[str, int]],
) -> None:
    """EXAMPLES generated cases of one operation in one mode; negative ones also unsigned."""

    @settings(
        max_examples=EXAMPLES,
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode), probe=st.booleans())
    def run(case: Case[Any], probe: bool) -> None:
        response = send(case, target, session, sign=True)
        statuses[(f"{case.method} {case.path}", response.status_code)] += 1
        if mode is GenerationMode.NEGATIVE and probe:
            unsigned = send(case, target, session, sign=False)
            statuses[("unsigned probe", unsigned.status_code)] += 1
            assert unsigned.status_code in {400, 401, 403, 413, 431}, unsigned.text

    run()


def test_fuzzes_every_operation_without_a_5xx_and_leaves_no_lockout(target: Target) -> None:
    session = requests.Session()
    statuses: Counter[tuple[str, int]] = Counter()
    operations = []
    for result in SCHEMA.get_all_operations():
        assert isinstance(result, Ok), result
        operations.append(result.ok())
    # The editors' WakaTime door shares the port but not the signed API's auth or answers; its
    # refusals are tested on their own (packages/app/test/wakatime.test.ts).
    operations = [op for op in operations if not op.path.startswith("/wakatime/")]
    assert len(operations) == 12, (
        'spec/openapi.yaml: the endpoints, "GET /events", "GET /report" and the two of suggestions'
    )
    # The event stream is no JSON exchange to fuzz: its checks are in the stream's own tests
    # (packages/listener/test/events.test.ts, tests/test_events.py).
    operations = [op for op in operations if op.path != "/events"]

    for operation in operations:
        for mode in list(GenerationMode):  # positive, negative
            fuzz(operation, mode, target, session, statuses)
    requests_sent = sum(statuses.values())

    # The app still answers, and the probes left no lockout behind.
    health = session.get(
        f"http://127.0.0.1:{target.port}/healthcheck", auth=TockSignature(target.token)
    )
    assert health.status_code == 200, health.text
    assert health.json()["result"]["status"] == "ok"
    assert target.process.poll() is None
    assert target.token not in target.log()

    per_operation = Counter(op for (op, _status) in statuses.elements())
    assert len(per_operation) == 12, per_operation  # eleven operations and the probes
    assert requests_sent >= 16 * EXAMPLES, requests_sent
    report = {
        "requests": requests_sent,
        "per_operation": dict(per_operation),
        "statuses": dict(Counter(status for (_op, status) in statuses.elements())),
    }
    out = Path(os.environ.get("TOCK_ATTACK_REPORT_DIR", target.home)) / "schema-fuzz.json"
    out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"\nschema fuzz: {json.dumps(report)}")
