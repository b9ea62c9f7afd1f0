"""423 once the license key expires, and 429 during a lockout, each on an app of its own."""

from __future__ import annotations

import base64
import json
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tock_client import AuthError, HTTPError

from .conftest import TockApp, invoke, start_app

pytestmark = pytest.mark.contract

KEY_LIFETIME_SECONDS = 2.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def mint_license_key(private_key: Ed25519PrivateKey, expires: datetime) -> str:
    """``base64url(payload) + "." + base64url(Ed25519 signature over the payload bytes)``."""
    payload = json.dumps(
        {
            "licensee": "tock-client contract tests",
            "issued": iso(datetime.now(timezone.utc) - timedelta(minutes=1)),
            "expires": iso(expires),
        }
    ).encode("utf-8")
    return f"{b64url(payload)}.{b64url(private_key.sign(payload))}"


@pytest.fixture
def licensing_app() -> Iterator[tuple[TockApp, Ed25519PrivateKey]]:
    """An app that trusts a key pair made for this test instead of the vendor's."""
    private_key = Ed25519PrivateKey.generate()
    raw_public = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    env = {"TOCK_LICENSE_PUBLIC_KEY": base64.b64encode(raw_public).decode("ascii")}
    with tempfile.TemporaryDirectory(prefix="tock-contract-license-") as home:
        app = start_app(Path(home), env)
        try:
            yield app, private_key
        finally:
            app.stop()


def test_a_valid_license_key_is_reported_as_licensed(
    flavour: str, licensing_app: tuple[TockApp, Ed25519PrivateKey]
) -> None:
    app, private_key = licensing_app
    # A day of validity: no machine is slow enough for the key to expire during the test, so
    # the assertion always runs (the expiry is the next test's).
    expires = datetime.now(timezone.utc) + timedelta(days=1)
    app.cli("license", "activate", mint_license_key(private_key, expires))
    health = invoke(flavour, app, "healthcheck")
    assert (health.status, health.license) == ("ok", "licensed")
    invoke(flavour, app, "get_status")  # a licensed app answers every operation


def test_an_expired_license_key_locks_every_operation_but_healthcheck(
    flavour: str, licensing_app: tuple[TockApp, Ed25519PrivateKey]
) -> None:
    app, private_key = licensing_app
    # About 2 s of validity, stretched when the machine is slow: the key must still be valid
    # when `tock license activate` reaches the app, or activation is refused (and app.cli
    # fails the test). Whether the app still says "licensed" right after depends on how fast
    # the machine is, so it is not asserted here: the test above asserts it with a key that
    # cannot expire in time.
    started = time.monotonic()
    app.cli("license")
    lifetime = max(KEY_LIFETIME_SECONDS, 3 * (time.monotonic() - started) + 1)
    expires = datetime.now(timezone.utc) + timedelta(seconds=lifetime)
    app.cli("license", "activate", mint_license_key(private_key, expires))
    assert invoke(flavour, app, "healthcheck").license in {"licensed", "locked"}

    deadline = time.monotonic() + lifetime + 5
    while invoke(flavour, app, "healthcheck").license != "locked":
        assert time.monotonic() < deadline, "the app did not lock when the key expired"
        time.sleep(0.2)

    for method, args in [
        ("get_current", ()),
        ("get_status", ()),
        ("search_activities", ("",)),
        ("start_activity", ("Writing",)),
        ("stop_activity", ()),
        ("notify_branch_change", ("main",)),
    ]:
        with pytest.raises(HTTPError) as caught:
            invoke(flavour, app, method, *args)
        assert (caught.value.status_code, caught.value.code) == (423, "license_locked")
        assert caught.value.message == "license locked"
    with pytest.raises(HTTPError) as caught:
        invoke(flavour, app, "log_entry", name="Writing", duration_minutes=5)
    assert caught.value.code == "license_locked"

    health = invoke(flavour, app, "healthcheck")
    assert (health.status, health.license) == ("ok", "locked")


def test_a_key_signed_by_someone_else_is_refused(
    licensing_app: tuple[TockApp, Ed25519PrivateKey],
) -> None:
    app, _ = licensing_app
    forged = mint_license_key(
        Ed25519PrivateKey.generate(), datetime.now(timezone.utc) + timedelta(days=1)
    )
    result = app.cli("license", "activate", forged, check=False)
    assert result.returncode != 0
    assert result.stderr.strip()
    assert invoke("sync", app, "healthcheck").license == "trial"


@pytest.fixture
def fresh_app() -> Iterator[TockApp]:
    """An app of its own, for a test that locks it out."""
    with tempfile.TemporaryDirectory(prefix="tock-contract-lockout-") as home:
        app = start_app(Path(home))
        try:
            yield app
        finally:
            app.stop()


def test_the_eleventh_failed_authentication_locks_out_with_retry_after(
    flavour: str, fresh_app: TockApp
) -> None:
    wrong_token = fresh_app.token[::-1]
    for _ in range(11):
        with pytest.raises(AuthError):
            invoke(flavour, fresh_app, "get_status", token=wrong_token)
    with pytest.raises(HTTPError) as caught:
        invoke(flavour, fresh_app, "get_status")
    assert (caught.value.status_code, caught.value.code) == (429, "locked_out")
    assert caught.value.retry_after is not None
    assert 0 < caught.value.retry_after <= 60
