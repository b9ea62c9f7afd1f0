"""Result types of ``GET /suggestions``: a day's suggestions and what capture saw in each.

See docs/protocol.md "Suggestions"; the conventions are those of ``_types``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from ._wire import as_object, date_field, int_field, opt_str_field, str_field, time_field

_Date = date  # the type, under a name the `date` attribute of Suggestions does not hide


@dataclass(frozen=True)
class SuggestionSource:
    """What capture saw in a ``Suggestion``: the ``source`` (``"window"`` or ``"editor"``), the
    application, the title (``None`` unless the capture setting *titles* is on), the editor's
    project and branch, and the whole ``seconds`` it was seen."""

    source: str
    app: str | None
    title: str | None
    project: str | None
    branch: str | None
    seconds: int

    @classmethod
    def from_wire(cls, value: object) -> SuggestionSource:
        """Build from ``{"source","app","title","project","branch","seconds"}``."""
        obj = as_object(value, "suggestion source")
        return cls(
            source=str_field(obj, "source"),
            app=opt_str_field(obj, "app"),
            title=opt_str_field(obj, "title"),
            project=opt_str_field(obj, "project"),
            branch=opt_str_field(obj, "branch"),
            seconds=int_field(obj, "seconds"),
        )


@dataclass(frozen=True)
class Suggestion:
    """A stretch of untracked time where capture saw work (docs/protocol.md "Suggestions"):
    ``activity_name`` ``None`` is unlabelled (accepting it needs ``activity_name``);
    ``activity_id`` is ``None`` too when a rule names an activity that does not exist yet;
    ``rule_id`` the rule that labelled it; ``sources`` most seconds first."""

    id: str
    start: datetime
    end: datetime
    seconds: int
    activity_id: str | None
    activity_name: str | None
    sources: list[SuggestionSource]
    rule_id: str | None

    @classmethod
    def from_wire(cls, value: object) -> Suggestion:
        """Build from ``{"id","start","end","seconds","activityID","activityName",...}``."""
        obj = as_object(value, "suggestion")
        sources = obj.get("sources")
        if not isinstance(sources, list):
            raise ValueError("'sources' is not a JSON array")
        return cls(
            id=str_field(obj, "id"),
            start=time_field(obj, "start"),
            end=time_field(obj, "end"),
            seconds=int_field(obj, "seconds"),
            activity_id=opt_str_field(obj, "activityID"),
            activity_name=opt_str_field(obj, "activityName"),
            sources=[SuggestionSource.from_wire(s) for s in sources],
            rule_id=opt_str_field(obj, "ruleID"),
        )


@dataclass(frozen=True)
class Suggestions:
    """``GET /suggestions``: a local day (``date``) and its suggestions, oldest first."""

    date: _Date
    suggestions: list[Suggestion]

    @classmethod
    def from_wire(cls, value: object) -> Suggestions:
        """Build from ``{"date","suggestions"}``."""
        obj = as_object(value, "suggestions")
        items = obj.get("suggestions")
        if not isinstance(items, list):
            raise ValueError("'suggestions' is not a JSON array")
        return cls(
            date=date_field(obj, "date"), suggestions=[Suggestion.from_wire(s) for s in items]
        )
