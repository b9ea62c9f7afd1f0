"""Authentication against the real app: wrong token, replayed nonce, clock drift.

See docs/protocol.md "Request signing", "Order of checks on the server".
"""

from __future__ import annotations

import time

import httpx
import pytest

from tock_client import AuthError, ReplayError, _base, _responses
from tock_client._auth import TockAuth
from tock_client._signing import new_nonce

from .conftest import TockApp, invoke

pytestmark = pytest.mark.contract

WRONG_TOKEN = "d3JvbmctdG9rZW4td3JvbmctdG9rZW4td3JvbmctdG8"


def send_status(app: TockApp, auth: TockAuth) -> httpx.Response:
    """``GET /status`` signed by ``auth``, bypassing the client (to control nonce and clock)."""
    with httpx.Client(base_url=f"http://127.0.0.1:{app.port}", auth=auth, trust_env=False) as http:
        return http.get("/status")


def test_a_wrong_token_is_an_auth_error(flavour: str, app: TockApp) -> None:
    with pytest.raises(AuthError) as caught:
        invoke(flavour, app, "get_status", token=WRONG_TOKEN)
    assert caught.value.status_code == 401
    assert caught.value.code == "bad_signature"
    assert WRONG_TOKEN not in str(caught.value)


def test_a_replayed_nonce_is_a_signed_409_and_a_replay_error(app: TockApp) -> None:
    nonce = new_nonce()
    auth = TockAuth(app.token, nonce_factory=lambda: nonce)
    assert send_status(app, auth).status_code == 200

    replayed = send_status(app, auth)
    assert replayed.status_code == 409
    assert "x-tock-response-signature" in replayed.headers
    with pytest.raises(ReplayError) as caught:
        _responses.parse_response(_base.get_status(), app.token, replayed)
    assert caught.value.code == "nonce_reused"


def test_a_timestamp_far_from_the_server_clock_is_clock_drift(app: TockApp) -> None:
    auth = TockAuth(app.token, clock=lambda: time.time() - 3600)
    response = send_status(app, auth)
    with pytest.raises(AuthError) as caught:
        _responses.parse_response(_base.get_status(), app.token, response)
    assert (caught.value.status_code, caught.value.code) == (401, "clock_drift")


def test_every_response_carries_the_api_version_and_no_store(app: TockApp) -> None:
    response = send_status(app, TockAuth(app.token))
    assert response.headers["x-tock-api-version"] == "1"
    assert response.headers["cache-control"] == "no-store"
    assert _responses.parse_response(_base.get_status(), app.token, response).today_seconds >= 0
