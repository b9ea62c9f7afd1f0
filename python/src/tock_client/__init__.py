"""tock-client: the Python client for Tock's signed loopback listener.

``Client`` (sync) and ``AsyncClient`` wrap the eight endpoints of the listener one to one,
sign every request with the token (``SERVICE_TOKEN``) and check that every response was
signed by Tock. Errors are subclasses of ``TockError``; results are frozen dataclasses.
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
from ._types import ActivityRef, BranchPrompt, Entry, Health, StartResult, Status, StoppedSession
from ._version import __version__

__all__ = [
    "ActivityRef",
    "AsyncClient",
    "AuthError",
    "BranchPrompt",
    "Client",
    "Entry",
    "HTTPError",
    "Health",
    "NetworkError",
    "NotFoundError",
    "ReplayError",
    "StartResult",
    "Status",
    "StoppedSession",
    "TockError",
    "UnavailableError",
    "ValidationError",
    "__version__",
]
