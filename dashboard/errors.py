"""What can go wrong talking to the API, as exceptions the pages show in Spanish.

Pure: no Streamlit. :func:`refusal` reads an error-only answer by its ``extensions.code`` and
HTTP status (the codes ``api/`` emits), so a busy or rate-limited API is not taken for a
version mismatch.

>>> refusal("u", [{"message": "busy", "extensions": {"code": "OVERLOADED"}}], 503, "2").code
'OVERLOADED'
>>> refusal("u", [{"message": "Cannot query field 'x' on type 'Query'."}]).code
'SCHEMA_MISMATCH'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any


class ApiError(Exception):
    """Base of every failure the pages show; ``url`` is the endpoint tried."""

    def __init__(self, url: str, message: str) -> None:
        super().__init__(message)
        self.url = url
        self.message = message


class ApiUnreachable(ApiError):
    """No usable HTTP answer: refused, timed out, or an HTTP error status."""


class ApiInputError(ApiError):
    """The API rejected an argument (``InputError``)."""

    def __init__(self, url: str, field: str, message: str) -> None:
        super().__init__(url, message)
        self.field = field


class ApiServiceError(ApiError):
    """A backend of the API (store, embedder, LLM) failed (``ServiceError``)."""

    def __init__(self, url: str, service: str, message: str) -> None:
        super().__init__(url, message)
        self.service = service


class ApiResponseError(ApiError):
    """The API refused the request: ``code`` says why (``OVERLOADED``, ``RATE_LIMITED``,
    ``TIMEOUT``, ``QUERY_TOO_COMPLEX``, ``SCHEMA_MISMATCH``…; None when it gave none),
    ``retry_after`` the seconds it asked to wait."""

    def __init__(
        self, url: str, message: str, code: str | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(url, message)
        self.code = code
        self.retry_after = retry_after


# Refusals answered before GraphQL runs, by HTTP status (the 401 carries no code).
STATUS_CODES = {401: "UNAUTHENTICATED", 413: "TOO_LARGE", 429: "RATE_LIMITED", 503: "OVERLOADED"}
# graphql-core's validation errors, which carry no code: the dashboard's documents and the
# API's schema disagree (one of them is out of date).
_MISMATCH = re.compile(
    r"Cannot query field|Unknown (argument|type|fragment)|is not defined by type|"
    r"is required, but it was not provided|can never be of type"
)
_NEEDS_KEY = ("API key required", "This operation needs the API key")


def retry_seconds(header: str | None) -> int | None:
    """``Retry-After`` in seconds (the API sends whole seconds), or None."""
    text = (header or "").strip()
    return int(text) if text.isdigit() else None


def refusal(
    url: str, errors: Sequence[Any], status: int = 200, retry_after: str | None = None
) -> ApiError:
    """The exception for an answer that holds only ``errors``."""
    first = errors[0] if errors and isinstance(errors[0], dict) else {}
    extensions = first.get("extensions") or {}
    message = "; ".join(str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in errors)
    code = extensions.get("code") or STATUS_CODES.get(status)
    field, service = extensions.get("field"), extensions.get("service")
    if code == "BAD_USER_INPUT" and field:
        reason = str(first.get("message", "")).removeprefix(f"{field}: ")
        return ApiInputError(url, str(field), reason)
    if code == "SERVICE_UNAVAILABLE" and service:
        return ApiServiceError(url, str(service), message)
    if not code and message.startswith(_NEEDS_KEY):
        code = "UNAUTHENTICATED"
    if not code and _MISMATCH.search(message):
        code = "SCHEMA_MISMATCH"
    return ApiResponseError(url, message, code, retry_seconds(retry_after))
