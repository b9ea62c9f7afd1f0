"""Readers of the wire's JSON for the result types' ``from_wire`` (``_types`` and its kin).

Each reads one field of a JSON object and raises ``ValueError`` when it does not have the
contract's type, which the response parser turns into ``HTTPError`` ``invalid_response``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timezone


def as_object(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def str_field(obj: Mapping[str, object], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{key!r} is not a string")
    return value


def opt_str_field(obj: Mapping[str, object], key: str) -> str | None:
    return None if obj.get(key) is None else str_field(obj, key)


def bool_field(obj: Mapping[str, object], key: str) -> bool:
    value = obj.get(key)
    if not isinstance(value, bool):
        raise ValueError(f"{key!r} is not a boolean")
    return value


def int_field(obj: Mapping[str, object], key: str) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key!r} is not an integer")
    return value


def number_field(obj: Mapping[str, object], key: str) -> float:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{key!r} is not a number")
    return value


def parse_time(text: str) -> datetime:
    """An ISO-8601 time from the wire (``...Z`` or with an offset) as an aware UTC datetime.

    ``datetime.fromisoformat`` on Python 3.10 does not read a ``Z`` suffix, hence the rewrite.
    A time without an offset is taken as UTC, the contract's only time zone.
    """
    value = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def time_field(obj: Mapping[str, object], key: str) -> datetime:
    return parse_time(str_field(obj, key))


def opt_time_field(obj: Mapping[str, object], key: str) -> datetime | None:
    return None if obj.get(key) is None else time_field(obj, key)


def date_field(obj: Mapping[str, object], key: str) -> date:
    text = str_field(obj, key)
    if len(text) != 10:
        raise ValueError(f"{key!r} is not a date YYYY-MM-DD")
    return date.fromisoformat(text)
