"""tock-client: the Python client for Tock's signed loopback listener.

``Client`` (sync) and ``AsyncClient`` wrap the endpoints of the listener one to one (the
event stream as ``events()``, reports as ``get_report()``), sign every request with the token
(``SERVICE_TOKEN``) and check that every response and every event was signed by Tock.
Errors are subclasses of ``TockError``; results are frozen dataclasses.
"""

from ._async_client import AsyncClient
from ._client import Client
from ._errors import (
    AuthError,
    HTTPError,
    NetworkError,
    NotFoundError,
    ReplayError,
    TockError,
    UnavailableError,
    ValidationError,
)
from ._report_types import Amount, Report, ReportRow
from ._suggestion_types import Suggestion, Suggestions, SuggestionSource
from ._types import (
    ActivityRef,
    BranchPrompt,
    Budget,
    Entry,
    Event,
    Health,
    Idle,
    StartResult,
    Status,
    StoppedSession,
)
from ._version import __version__

__all__ = [
    "ActivityRef",
    "Amount",
    "AsyncClient",
    "AuthError",
    "BranchPrompt",
    "Budget",
    "Client",
    "Entry",
    "Event",
    "HTTPError",
    "Health",
    "Idle",
    "NetworkError",
    "NotFoundError",
    "ReplayError",
    "Report",
    "ReportRow",
    "StartResult",
    "Status",
    "StoppedSession",
    "Suggestion",
    "SuggestionSource",
    "Suggestions",
    "TockError",
    "UnavailableError",
    "ValidationError",
    "__version__",
]
