"""Property tests: signing and verifying agree, and any change breaks the signature."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from tock_client._signing import sign_request, sign_response, verify_response

tokens = st.text(min_size=1, max_size=64)
nonces = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=16, max_size=64)
methods = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"])
targets = st.text(min_size=1, max_size=200).map(lambda text: "/" + text)
bodies = st.binary(max_size=512)
statuses = st.integers(min_value=100, max_value=599)
timestamps = st.integers(min_value=0, max_value=999_999_999_999).map(str)


def flip_one_bit(data: bytes, index: int) -> bytes:
    """``data`` with one bit changed (``b"x"`` for empty data)."""
    if not data:
        return b"x"
    position = index % len(data)
    return data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1 :]


def other_text(text: str) -> str:
    """A string that differs from ``text``."""
    return text[:-1] + ("A" if text[-1:] != "A" else "B")


@given(tokens, nonces, statuses, bodies)
def test_a_response_signature_verifies_with_the_same_inputs(
    token: str, nonce: str, status: int, body: bytes
) -> None:
    signature = sign_response(token, nonce=nonce, status=status, body=body)
    assert verify_response(token, nonce=nonce, status=status, body=body, signature=signature)


@given(tokens, nonces, statuses, bodies, st.integers(min_value=0))
def test_changing_any_input_fails_response_verification(
    token: str, nonce: str, status: int, body: bytes, index: int
) -> None:
    signature = sign_response(token, nonce=nonce, status=status, body=body)
    digits = signature[3:]
    position = index % len(digits)
    tampered = "v1=" + digits[:position] + ("0" if digits[position] != "0" else "1")
    tampered += digits[position + 1 :]

    def verifies(token: str = token, nonce: str = nonce, status: int = status,
                 body: bytes = body, signature: str = signature) -> bool:  # fmt: skip
        return verify_response(token, nonce=nonce, status=status, body=body, signature=signature)

    assert not verifies(token=other_text(token))
    assert not verifies(nonce=other_text(nonce))
    assert not verifies(status=status + 1)
    assert not verifies(body=flip_one_bit(body, index))
    assert not verifies(signature=tampered)
    assert not verifies(signature=signature + "0")


@given(tokens, timestamps, nonces, methods, targets, bodies, st.integers(min_value=0))
def test_changing_any_signed_part_changes_the_request_signature(
    token: str, timestamp: str, nonce: str, method: str, target: str, body: bytes, index: int
) -> None:
    def sign(token: str = token, timestamp: str = timestamp, nonce: str = nonce,
             method: str = method, target: str = target, body: bytes = body) -> str:  # fmt: skip
        return sign_request(
            token, timestamp=timestamp, nonce=nonce, method=method, target=target, body=body
        )

    signature = sign()
    assert signature == sign()
    assert signature == sign(method=method.lower())  # the method is signed upper case
    assert signature != sign(token=other_text(token))
    assert signature != sign(timestamp=timestamp + "0")
    assert signature != sign(nonce=other_text(nonce))
    assert signature != sign(method="OPTIONS")
    assert signature != sign(target=other_text(target))
    assert signature != sign(body=flip_one_bit(body, index))
