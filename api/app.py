"""Starlette app: GraphQL at /graphql, liveness and dependencies at /health."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from graphql import GraphQLError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types import ExecutionResult

from api import __version__, graphiql, structured_log
from api.admission import AdmissionMiddleware
from api.core.redact import redact
from api.graphql.auth import is_authorized, presented_key
from api.graphql.context import Context
from api.graphql.errors import EXPECTED
from api.graphql.schema import build_schema
from api.graphql.websocket import CheckedTransportWSHandler
from api.guards import BodyLimitMiddleware, RateLimitMiddleware, TokenBuckets, rejected
from api.services.container import Services
from api.services.corpus import missing_corpus
from api.settings import Settings, get_settings

try:  # where Strawberry raises its request errors from: cross-web, or its own module before
    from cross_web import HTTPException
except ImportError:  # pragma: no cover - strawberry-graphql before it used cross-web
    from strawberry.http.exceptions import HTTPException  # type: ignore[attr-defined,no-redef]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
log = logging.getLogger("vigencia.requests")


class VigenciaGraphQL(GraphQL[Context, None]):
    """Builds each request's context from the services the lifespan created."""

    graphql_transport_ws_handler_class = CheckedTransportWSHandler

    def __init__(self, services: Callable[[], Services], settings: Settings) -> None:
        super().__init__(
            build_schema(
                introspection=settings.graphql_introspection, max_cost=settings.max_query_cost
            ),
            graphql_ide="graphiql" if settings.graphiql else None,
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
        )
        self.services = services
        self.timeout = settings.request_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """As Strawberry's, with a request it refuses before executing (unreadable JSON, a
        batch, a mutation over GET) answered in JSON like every other refusal (413, 429,
        503), not in plain text: a JSON client had nothing to parse."""
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        response: Response
        try:
            response = await self.run(Request(scope=scope, receive=receive))
        except HTTPException as exc:
            body = {"errors": [{"message": exc.reason, "extensions": {"code": "BAD_REQUEST"}}]}
            response = JSONResponse(body, exc.status_code)
        await response(scope, receive, send)

    async def execute_single(self, *args: Any, **kwargs: Any) -> ExecutionResult:
        """The request within its time budget; past it the client gets an error at once
        (work already handed to a thread finishes there, unseen)."""
        try:
            return await asyncio.wait_for(super().execute_single(*args, **kwargs), self.timeout)
        except TimeoutError:
            log.warning("request over its time budget of %g s", self.timeout)
            message = f"Request took longer than its time budget of {self.timeout:g} s."
            return ExecutionResult(
                data=None, errors=[GraphQLError(message, extensions={"code": "TIMEOUT"})]
            )

    async def get_context(self, request: Request | WebSocket, response: Any) -> Context:
        services = self.services()
        authorized = is_authorized(services.settings, presented_key(request))
        return Context.of(services, authorized, websocket=isinstance(request, WebSocket))

    async def render_graphql_ide(self, request: Request) -> Response:
        """GraphiQL from the vendored files (``api.graphiql``), never from a CDN."""
        return HTMLResponse(graphiql.PAGE)

    def decode_json(self, data: str | bytes) -> object:
        """``json.loads``, with what strawberry would let through as a 500 raised as invalid
        JSON (a 400): a number over Python's digit limit, nesting past the recursion limit,
        bytes that are not UTF-8, and lone surrogates (no store, cache or reply encodes them);
        and a body or WebSocket message that is not an object (``null``, ``42``, ``"x"``).
        """
        try:
            value = json.loads(data)
            if not isinstance(value, dict | list):  # a list is answered "batching disabled"
                raise json.JSONDecodeError("a GraphQL request must be a JSON object", "", 0)
            text = data.decode("latin-1") if isinstance(data, bytes) else data
            if _SURROGATE_ESCAPE.search(text) and isinstance(value, dict):
                # rare: then check the decoded strings; ``variables`` are checked by the
                # schema, so that a bad record in a batch is rejected alone, by name
                outside = {k: v for k, v in value.items() if k != "variables"}
                json.dumps(outside, ensure_ascii=False).encode("utf-8")
            elif _SURROGATE_ESCAPE.search(text):
                json.dumps(value, ensure_ascii=False).encode("utf-8")
        except json.JSONDecodeError as exc:
            log.warning("rejected request body: %s", exc.msg)
            raise
        except (ValueError, RecursionError) as exc:  # UnicodeError is a ValueError
            log.warning("rejected request body: unreadable JSON (%s)", type(exc).__name__)
            raise json.JSONDecodeError(f"unreadable JSON ({type(exc).__name__})", "", 0) from exc
        return value


def _public(health: dict[str, Any]) -> dict[str, Any]:
    """The log's health without paths or URLs in its error texts (``/health`` is public)."""
    out = dict(health)
    if isinstance(out.get("last_error"), str):
        out["last_error"] = redact(out["last_error"], hide_locations=True)
    backend = out.get("backend")
    if isinstance(backend, dict) and isinstance(backend.get("detail"), str):
        out["backend"] = backend | {"detail": redact(backend["detail"], hide_locations=True)}
    return out


class ReadKeyMiddleware:
    """With ``read_requires_key``, refuse /graphql without the key (401) before GraphQL runs."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        needs_key = (
            self.settings.read_requires_key
            and scope["type"] in ("http", "websocket")
            and scope["path"].startswith("/graphql")
            and scope.get("method") != "OPTIONS"
        )
        if needs_key and not is_authorized(self.settings, presented_key(HTTPConnection(scope))):
            rejected(scope, 401, "API key required")
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4401})
                return
            response = JSONResponse({"errors": [{"message": "API key required"}]}, 401)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def warm_up(services: Services) -> None:
    """Warm the search path at start-up; a store or embedder that fails here is reported by
    ``/health`` and by the searches themselves, so the server starts anyway."""
    try:
        services.search.warm_up()
    except EXPECTED as exc:
        log.warning("warm-up skipped: %s", redact(str(exc)))


def create_app(settings: Settings | None = None, services: Services | None = None) -> Starlette:
    """Build the ASGI app; pass ``services`` to inject a store or embedder (tests)."""
    settings = settings or (services.settings if services else get_settings())
    structured_log.configure(settings.log_format)
    holder: dict[str, Services] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        built = services
        if built is None:  # production: build, then warm up before the first request
            built = await run_in_threadpool(Services.build, settings)
            await run_in_threadpool(warm_up, built)
        holder["services"] = built
        yield
        if services is None:
            built.close()

    async def health(request: Request) -> JSONResponse:
        built = holder["services"]
        store = await run_in_threadpool(built.store.health)
        if store["status"] == "ok":
            reports = built.settings.data_dir / "ingest_reports"
            lost = await run_in_threadpool(missing_corpus, built.store, reports)
            if lost is not None:
                store = store | {"status": "degraded", "detail": lost}
        if "detail" in store:  # /health is public: no paths or URLs
            store = store | {"detail": redact(store["detail"], hide_locations=True)}
        body = {
            "status": "ok" if store["status"] == "ok" else "degraded",
            "version": __version__,
            "store": store,
            "embedder": {"status": "ok", "model": built.embedder.model_id},
            "llm": {"configured": built.llm is not None},
            "log": (
                _public(await run_in_threadpool(built.recorder.health))
                if built.recorder
                else {"status": "off"}
            ),
        }
        return JSONResponse(body, status_code=200 if body["status"] == "ok" else 503)

    graphql = VigenciaGraphQL(lambda: holder["services"], settings)
    routes = [
        Route("/health", health),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql),
    ]
    if settings.graphiql:
        routes.append(graphiql.assets_route())
    middleware = [
        Middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["authorization", "content-type", "x-api-key"],
        ),
        Middleware(
            RateLimitMiddleware,
            buckets=(
                TokenBuckets(settings.rate_limit_per_minute, settings.rate_limit_burst)
                if settings.rate_limit_per_minute
                else None
            ),
            exempt_loopback=settings.rate_limit_exempt_loopback,
        ),
        Middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes),
        Middleware(ReadKeyMiddleware, settings=settings),
        Middleware(
            AdmissionMiddleware,
            max_running=settings.max_running_requests,
            max_wait_s=settings.max_queue_wait,
        ),
    ]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
