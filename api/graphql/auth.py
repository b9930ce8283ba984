"""API-key checks: mutations need the key when one is configured; reads only if asked."""

from __future__ import annotations

import hmac
from typing import Any

from starlette.requests import HTTPConnection
from strawberry.permission import BasePermission

from api.settings import Settings


def presented_key(connection: HTTPConnection) -> str | None:
    """The key from ``Authorization: Bearer …`` or ``X-API-Key`` (headers only, never URLs)."""
    auth = connection.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return connection.headers.get("x-api-key")


def is_authorized(settings: Settings, key: str | None) -> bool:
    if settings.api_key is None:
        return True
    return key is not None and hmac.compare_digest(key.encode(), settings.api_key.encode())


class HasApiKey(BasePermission):
    message = "This operation needs the API key (Authorization: Bearer <key> or X-API-Key)."

    def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        return bool(info.context.authorized)
