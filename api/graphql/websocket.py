"""graphql-transport-ws with every client message checked for shape before strawberry reads it.

A message that is not an object, or whose ``id``/``payload``/``query``/``variables`` have the
wrong type, closes the connection with 4400 (the protocol's "bad request") and one log line,
instead of raising inside the handler.
"""

from __future__ import annotations

import logging
from typing import Any

from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message

log = logging.getLogger("vigencia.requests")

_OPTIONAL_DICT = ("connection_init", "ping", "pong")


def message_problem(message: object) -> str | None:
    """Why ``message`` is not a well-formed graphql-transport-ws client message, or None."""
    if not isinstance(message, dict):
        return "a message must be a JSON object"
    kind = message.get("type")
    if not isinstance(kind, str):
        return "'type' must be a string"
    if kind in _OPTIONAL_DICT:
        payload = message.get("payload")
        return (
            None if payload is None or isinstance(payload, dict) else "'payload' must be an object"
        )
    if kind in ("subscribe", "complete") and not isinstance(message.get("id"), str):
        return "'id' must be a string"
    if kind != "subscribe":
        return None
    payload = message.get("payload")
    if not isinstance(payload, dict):
        return "'payload' must be an object"
    if not isinstance(payload.get("query"), str):
        return "'payload.query' must be a string"
    if not isinstance(payload.get("variables") or {}, dict):
        return "'payload.variables' must be an object"
    name = payload.get("operationName")
    if name is not None and not isinstance(name, str):
        return "'payload.operationName' must be a string"
    return None


class CheckedTransportWSHandler(BaseGraphQLTransportWSHandler[Any, None]):
    """Closes with 4400 on a malformed message; everything else as strawberry does."""

    async def handle_message(self, message: Message) -> None:
        problem = message_problem(message)
        if problem is not None:
            log.warning("rejected WebSocket message: %s", problem)
            await self.handle_invalid_message(f"Invalid message: {problem}")
            return
        await super().handle_message(message)
