"""Request guards in front of GraphQL: a body-size limit and a per-client rate limit.

Both are plain ASGI middleware; each refusal is answered with a short JSON error and logged as
one line (no traceback), so a flood of rejected requests cannot flood the log with stacks.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("vigencia.requests")


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in ("localhost", "testclient")


def rejected(scope: Scope, status: int, reason: str) -> None:
    """The one log line of a refused request."""
    log.warning(
        "rejected %s %s from %s: %d %s",
        scope.get("method", "WS"),
        scope.get("path", ""),
        client_of(scope),
        status,
        reason,
    )


class BodyLimitMiddleware:
    """Refuse an HTTP body over ``max_bytes`` with 413, before the app reads any of it.

    A declared ``Content-Length`` over the limit is refused at once; otherwise the body is read
    here, at most ``max_bytes`` of it, and replayed to the app.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.max_bytes <= 0:
            await self.app(scope, receive, send)
            return
        refusal = f"request body over {self.max_bytes} bytes (VIGENCIA_MAX_BODY_BYTES)"
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send, refusal)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # disconnect: let the app see it
                await self.app(scope, _replay([], message, receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send, refusal)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        await self.app(scope, _replay(chunks, None, receive), send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, reason: str) -> None:
        rejected(scope, 413, reason)
        error = {"message": f"Payload too large: {reason}.", "extensions": {"code": "TOO_LARGE"}}
        response = JSONResponse({"errors": [error]}, 413)
        await response(scope, receive, send)


def _replay(chunks: list[bytes], last: Message | None, receive: Receive) -> Receive:
    pending: list[Message] = [{"type": "http.request", "body": b"".join(chunks)}]
    if last is not None:
        pending = [last]

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


class TokenBuckets:
    """Per-client token buckets: ``per_minute`` sustained, ``burst`` at once. Thread-safe."""

    MAX_CLIENTS = 10_000

    def __init__(
        self, per_minute: int, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}
        self.lock = threading.Lock()

    def take(self, client: str) -> float:
        """0 when the request may go ahead; else the seconds until a token is free."""
        now = self.clock()
        with self.lock:
            tokens, seen = self.buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - seen) * self.rate)
            if len(self.buckets) >= self.MAX_CLIENTS and client not in self.buckets:
                self._forget_full(now)
            if tokens >= 1.0:
                self.buckets[client] = (tokens - 1.0, now)
                return 0.0
            self.buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate if self.rate > 0 else math.inf

    def _forget_full(self, now: float) -> None:
        """Drop clients whose bucket has refilled (they would start full anyway)."""
        for key, (tokens, seen) in list(self.buckets.items()):
            if tokens + (now - seen) * self.rate >= self.burst:
                del self.buckets[key]
        if len(self.buckets) >= self.MAX_CLIENTS:
            self.buckets.clear()


class RateLimitMiddleware:
    """429 with ``Retry-After`` when one client (by address) exceeds its bucket on /graphql.

    ``exempt_loopback`` lets 127.0.0.1/::1 through (see docs/SECURITY.md for when to turn it
    off: behind a reverse proxy on the same host every client looks like loopback).
    """

    def __init__(self, app: ASGIApp, buckets: TokenBuckets | None, exempt_loopback: bool) -> None:
        self.app = app
        self.buckets = buckets
        self.exempt_loopback = exempt_loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.buckets is None
            or scope["type"] not in ("http", "websocket")
            or not scope["path"].startswith("/graphql")
            or scope.get("method") == "OPTIONS"
        ):
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        if self.exempt_loopback and is_loopback(client):
            await self.app(scope, receive, send)
            return
        wait = self.buckets.take(client)
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        retry = str(max(1, math.ceil(min(wait, 3600))))
        rejected(scope, 429, f"rate limit (retry after {retry} s)")
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4429})
            return
        response = JSONResponse(
            {
                "errors": [
                    {
                        "message": f"Too many requests: retry after {retry} s.",
                        "extensions": {"code": "RATE_LIMITED"},
                    }
                ]
            },
            429,
            headers={"retry-after": retry},
        )
        await response(scope, receive, send)
