"""Starlette app: GraphQL at /graphql, liveness and dependencies at /health."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL

from api import __version__
from api.graphql.context import Context
from api.graphql.schema import schema
from api.services import Services
from api.settings import Settings, get_settings


class VigenciaGraphQL(GraphQL[Context, None]):
    """Builds each request's context from the services the lifespan created."""

    def __init__(self, services: Callable[[], Services], graphiql: bool) -> None:
        super().__init__(schema, graphql_ide="graphiql" if graphiql else None)
        self.services = services

    async def get_context(self, request: Request | WebSocket, response: Any) -> Context:
        s = self.services()
        return Context(
            settings=s.settings, store=s.store, search=s.search, chat=s.chat, judge=s.judge
        )


def create_app(settings: Settings | None = None, services: Services | None = None) -> Starlette:
    """Build the ASGI app; pass ``services`` to inject a store or embedder (tests)."""
    settings = settings or (services.settings if services else get_settings())
    holder: dict[str, Services] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        built = services or await run_in_threadpool(Services.build, settings)
        holder["services"] = built
        yield
        if services is None:
            built.close()

    async def health(request: Request) -> JSONResponse:
        built = holder["services"]
        store = await run_in_threadpool(built.store.health)
        body = {
            "status": "ok" if store["status"] == "ok" else "degraded",
            "version": __version__,
            "store": store,
            "embedder": {"status": "ok", "model": built.embedder.model_id},
        }
        return JSONResponse(body, status_code=200 if body["status"] == "ok" else 503)

    graphql = VigenciaGraphQL(lambda: holder["services"], graphiql=settings.graphiql)
    routes = [
        Route("/health", health),
        Route("/graphql", graphql, methods=["GET", "POST"]),
        WebSocketRoute("/graphql", graphql),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
