"""Family 2 of the attack campaign (docs/security.md): the TS and Python signers agree.

No code is shared: cases travel through a JSON file (bytes as base64).

- TS → Python: packages/app/test/attack-support/sign-cases.ts draws cases with fast-check and
  signs them with the TS client's signer; ``tock_client``'s signer must produce the same
  request, response and event signatures, byte for byte.
- Python → TS: Hypothesis draws batches of cases, ``tock_client`` signs them, and the same
  script recomputes them with the TS client's signer and checks them with the listener's own
  verifier (node:crypto and its HMAC fast path for short ASCII tokens).

Tokens, targets and bodies cover all of Unicode but lone surrogates (which have no UTF-8 form,
so they can be neither sent nor signed), tokens longer than an HMAC block, and lower-case
methods (both sides upper-case them).
"""

from __future__ import annotations

import base64
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tock_client import _signing

from .conftest import NODE, REPO_ROOT

SCRIPT = REPO_ROOT / "packages" / "app" / "test" / "attack-support" / "sign-cases.ts"
TS_CASES = 2000
PY_CASES = 2000

TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
NONCE = st.from_regex(r"\A[A-Za-z0-9_-]{16,64}\Z")
UNICODE = st.characters(exclude_categories=["Cs"])


def node(*args: str) -> str:
    """Runs sign-cases.ts; its stdout."""
    result = subprocess.run(
        [str(NODE), str(SCRIPT), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def python_signatures(case: dict[str, Any]) -> tuple[str, str, str]:
    """tock_client's request, response and event signatures of a case."""
    request = _signing.sign_request(
        case["token"],
        timestamp=case["timestamp"],
        nonce=case["nonce"],
        method=case["method"],
        target=case["target"],
        body=base64.b64decode(case["body"]),
    )
    response = _signing.sign_response(
        case["token"],
        nonce=case["nonce"],
        status=case["status"],
        body=base64.b64decode(case["responseBody"]),
    )
    event = _signing.sign_event(
        case["token"],
        nonce=case["nonce"],
        event_id=case["eventId"],
        event_type=case["eventType"],
        data=case["eventData"],
    )
    return request, response, event


def test_python_reproduces_every_signature_the_ts_client_made() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ts-cases.json"
        node("generate", str(TS_CASES), "20261122", str(out))
        cases: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8"))
    assert len(cases) == TS_CASES
    mismatches = [
        i
        for i, case in enumerate(cases)
        if python_signatures(case)
        != (case["requestSignature"], case["responseSignature"], case["eventSignature"])
    ]
    assert mismatches == [], [cases[i] for i in mismatches[:3]]
    assert any(len(c["token"].encode("utf-8")) > 64 for c in cases), "a token longer than a block"
    assert any(not c["token"].isascii() for c in cases), "a non-ASCII token"
    print(f"\ncross-language TS -> Python: {len(cases)} cases, 0 mismatches")


case_strategy = st.fixed_dictionaries(
    {
        "token": st.one_of(
            st.text(alphabet=TOKEN_CHARS, min_size=43, max_size=43),
            st.text(alphabet=UNICODE, min_size=1, max_size=40),
            st.text(alphabet=TOKEN_CHARS, min_size=65, max_size=200),
        ),
        "method": st.one_of(
            st.sampled_from(["GET", "POST", "get", "Post"]),
            st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_.", min_size=1),
        ),
        "target": st.one_of(
            st.builds(
                lambda path, query: path if query is None else f"{path}?{query}",
                st.sampled_from(["/healthcheck", "/status", "/activities/search", "/entries"]),
                st.none() | st.from_regex(r"\A[A-Za-z0-9=&%._~+-]{0,60}\Z"),
            ),
            st.text(alphabet=UNICODE, max_size=100).map(lambda s: "/" + s),
        ),
        "body": st.one_of(st.binary(max_size=600), st.text(alphabet=UNICODE).map(str.encode)).map(
            lambda b: base64.b64encode(b).decode("ascii")
        ),
        "timestamp": st.integers(min_value=0, max_value=999_999_999_999).map(str),
        "nonce": NONCE,
        "status": st.integers(min_value=100, max_value=599),
        "responseBody": st.one_of(
            st.binary(max_size=600), st.text(alphabet=UNICODE).map(str.encode)
        ).map(lambda b: base64.b64encode(b).decode("ascii")),
        "eventId": st.one_of(
            st.builds(
                lambda run, seq: f"{run}.{seq}",
                st.from_regex(r"\A[A-Za-z0-9_-]{8,32}\Z"),
                st.integers(min_value=0),
            ),
            st.text(alphabet=UNICODE, max_size=40),
        ),
        "eventType": st.one_of(
            st.sampled_from(["status", "branch-prompt", "idle"]),
            st.text(alphabet=UNICODE, max_size=20),
        ),
        "eventData": st.text(alphabet=UNICODE, max_size=300),
    }
)


def test_the_ts_client_and_the_listener_accept_every_signature_python_made() -> None:
    # Hypothesis draws the cases; one node process checks them all (a node start per case
    # would take minutes). A mismatch names the cases, which is what a shrink would give.
    batch: list[dict[str, Any]] = []

    @settings(max_examples=PY_CASES, deadline=None, database=None)
    @given(case=case_strategy)
    def draw(case: dict[str, Any]) -> None:
        (
            case["requestSignature"],
            case["responseSignature"],
            case["eventSignature"],
        ) = python_signatures(case)
        batch.append(case)

    draw()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "py-cases.json"
        path.write_text(json.dumps(batch), encoding="utf-8")
        result = json.loads(node("verify", str(path)))
    assert result["checked"] == len(batch) >= PY_CASES // 2
    assert result["mismatches"] == [], [(m, batch[m["index"]]) for m in result["mismatches"][:3]]
    print(f"\ncross-language Python -> TS: {len(batch)} cases, 0 mismatches")
