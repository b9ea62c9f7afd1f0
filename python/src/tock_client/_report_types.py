"""Result types of ``GET /report``: the report, its rows and its amounts per currency.

See docs/protocol.md "GET /report"; the conventions are those of ``_types``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date

from ._wire import as_object, date_field, int_field, opt_str_field, str_field

_Date = date  # the type, under a name the `date` attribute of ReportRow does not hide


@dataclass(frozen=True)
class ReportRow:
    """One row of a ``Report``: an activity (``activity_id``, ``activity_name``) in a report by
    activity, a day (``date``) by day, a client (``client_id``, ``client_name``; both ``None``
    for time without a client) by client, or a tag (``tag``; ``None`` for untagged time) by
    tag; the fields of the other groupings are ``None``. ``billed_seconds`` is the billable
    part as billed (rounded by the ``rounding`` setting); ``amount`` a decimal string in
    ``currency`` (both ``None`` where no rate applies, or where the row is billed in several
    currencies), never a float; ``amounts`` the row's worth in each currency it is billed in,
    sorted by currency code (never added together)."""

    seconds: int
    activity_id: str | None = None
    activity_name: str | None = None
    date: _Date | None = None
    client_id: str | None = None
    client_name: str | None = None
    tag: str | None = None
    billed_seconds: int = 0
    amount: str | None = None
    currency: str | None = None
    amounts: tuple[Amount, ...] = ()

    @classmethod
    def from_wire(cls, value: object) -> ReportRow:
        """Build from a row by activity, day, client or tag (docs/protocol.md "GET /report")."""
        obj = as_object(value, "report row")
        seconds = int_field(obj, "seconds")
        billed = int_field(obj, "billedSeconds")
        amount = opt_str_field(obj, "amount")
        currency = opt_str_field(obj, "currency")
        parts = obj.get("amounts", [])
        if not isinstance(parts, list):
            raise ValueError("'amounts' is not a JSON array")
        row = cls(
            seconds=seconds,
            billed_seconds=billed,
            amount=amount,
            currency=currency,
            amounts=tuple(Amount.from_wire(part) for part in parts),
        )
        if "date" in obj:
            return replace(row, date=date_field(obj, "date"))
        if "clientID" in obj:
            client_id, client_name = (
                opt_str_field(obj, "clientID"),
                opt_str_field(obj, "clientName"),
            )
            return replace(row, client_id=client_id, client_name=client_name)
        if "tag" in obj:
            return replace(row, tag=opt_str_field(obj, "tag"))
        return replace(
            row,
            activity_id=str_field(obj, "activityID"),
            activity_name=str_field(obj, "activityName"),
        )


@dataclass(frozen=True)
class Amount:
    """What a report's range is worth in one currency: ``amount`` a decimal string."""

    currency: str
    amount: str

    @classmethod
    def from_wire(cls, value: object) -> Amount:
        """Build from ``{"currency","amount"}``."""
        obj = as_object(value, "amount")
        return cls(currency=str_field(obj, "currency"), amount=str_field(obj, "amount"))


@dataclass(frozen=True)
class Report:
    """``GET /report``: worked seconds over the local days ``from_date`` to ``to_date``
    (both included) of ``time_zone``; ``rows`` per activity (most first), per day (every
    day, in order), per client or per tag. ``total_seconds`` is the covered time, a second
    covered by several blocks counted once (by day: the sum of the rows); ``overlap_seconds``
    is how much more the activity rows add up to (time activities shared, counted once per
    activity there). ``amounts`` is what the range is worth per currency (never added across
    currencies); ``target_seconds`` and ``balance_seconds`` are ``None`` without targets."""

    from_date: date
    to_date: date
    time_zone: str
    total_seconds: int
    overlap_seconds: int
    rows: list[ReportRow]
    amounts: list[Amount] = field(default_factory=list)
    target_seconds: int | None = None
    balance_seconds: int | None = None

    @classmethod
    def from_wire(cls, value: object) -> Report:
        """Build from the wire report (docs/protocol.md "GET /report")."""
        obj = as_object(value, "report")
        rows = obj.get("rows")
        if not isinstance(rows, list):
            raise ValueError("'rows' is not a JSON array")
        amounts = obj.get("amounts")
        if not isinstance(amounts, list):
            raise ValueError("'amounts' is not a JSON array")
        target = obj.get("targetSeconds")
        balance = obj.get("balanceSeconds")
        return cls(
            from_date=date_field(obj, "from"),
            to_date=date_field(obj, "to"),
            time_zone=str_field(obj, "timeZone"),
            total_seconds=int_field(obj, "totalSeconds"),
            overlap_seconds=int_field(obj, "overlapSeconds"),
            rows=[ReportRow.from_wire(row) for row in rows],
            amounts=[Amount.from_wire(a) for a in amounts],
            target_seconds=None if target is None else int_field(obj, "targetSeconds"),
            balance_seconds=None if balance is None else int_field(obj, "balanceSeconds"),
        )
