"""Load shedding in front of GraphQL: a bounded number of requests run at once, and a request
that cannot start within ``max_wait_s`` is refused at once (503, ``Retry-After``) instead of
joining a backlog.

Why here, before the thread pool and the embedder queue: with 100 clients a request used to
wait for a server thread, then for the embedder, and only the embedder's deadline was ever
checked, so answers came back after 15 s. With the gate, an answer takes at most the wait plus
one request's own work, and a refusal takes the wait; ``/health``, the GraphiQL page and
WebSockets pass freely (a WebSocket connection bounds its own operations).
Each gated response says where its time went in a ``Server-Timing`` header (``queue``: waiting
for a slot, ``app``: running), so a client can tell the server's time from the network's.
"""

from __future__ import annotations

import asyncio
import math
import time
from urllib.parse import parse_qs

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.guards import rejected


class AdmissionMiddleware:
    """At most ``max_running`` /graphql HTTP requests run; the rest wait up to ``max_wait_s``.

    ``max_running`` = 0 turns the gate off. Waiters are admitted first come, first served.
    """

    def __init__(self, app: ASGIApp, max_running: int, max_wait_s: float) -> None:
        self.app = app
        self.max_running = max_running
        self.max_wait_s = max_wait_s
        self.retry_after = str(max(1, math.ceil(max_wait_s)))
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def slots(self) -> asyncio.Semaphore:
        """The semaphore of the running loop (a test may serve one app from several loops)."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:
            self._slots, self._loop = asyncio.Semaphore(self.max_running), loop
        return self._slots

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.max_running <= 0 or not gated(scope):
            await self.app(scope, receive, send)
            return
        arrived = time.perf_counter()
        slots = self.slots()
        try:
            await asyncio.wait_for(slots.acquire(), self.max_wait_s)
        except TimeoutError:
            await self._refuse(scope, receive, timed(send, arrived, time.perf_counter()))
            return
        try:
            await self.app(scope, receive, timed(send, arrived, time.perf_counter()))
        finally:
            slots.release()

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        rejected(scope, 503, f"busy: no slot within {self.max_wait_s:g} s")
        message = f"The service is busy: retry in {self.retry_after} s."
        response = JSONResponse(
            {"errors": [{"message": message, "extensions": {"code": "OVERLOADED"}}]},
            503,
            headers={"retry-after": self.retry_after},
        )
        await response(scope, receive, send)


def gated(scope: Scope) -> bool:
    """Whether a request runs GraphQL: a POST to /graphql, or a GET carrying an operation in
    its query string (a GET without one asks for the GraphiQL page). GETs had passed freely:
    200 concurrent GET searches slowed a lookup sent beside them to 7 s."""
    if scope["type"] != "http" or not scope["path"].startswith("/graphql"):
        return False
    method = scope.get("method")
    if method != "GET":
        return method == "POST"
    # as the GraphQL view reads it: "?%71uery=…" is an operation too
    return "query" in parse_qs(scope.get("query_string", b"").decode("latin-1"))


def timed(send: Send, arrived: float, admitted: float) -> Send:
    """``send`` that adds ``Server-Timing: queue;dur=…, app;dur=…`` (ms) to the response."""

    async def send_timed(message: Message) -> None:
        if message["type"] == "http.response.start":
            queue_ms = (admitted - arrived) * 1000
            app_ms = (time.perf_counter() - admitted) * 1000
            timing = f"queue;dur={queue_ms:.1f}, app;dur={app_ms:.1f}".encode()
            message = {
                **message,
                "headers": [*message.get("headers", []), (b"server-timing", timing)],
            }
        await send(message)

    return send_timed
