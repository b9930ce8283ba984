"""Per-request context handed to every resolver."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import strawberry

from api.judge import Judge
from api.monitoring import Recorder, SearchLog
from api.services.chat import ChatService
from api.services.search import SearchService
from api.settings import Settings
from api.store.base import VectorStore

if TYPE_CHECKING:
    from api.services.container import Services


@dataclass
class Context:
    settings: Settings
    store: VectorStore
    search: SearchService
    chat: ChatService
    judge: Judge
    authorized: bool = True  # the request carried the API key (or none is configured)
    websocket: bool = False  # the request came over a WebSocket (subscriptions need one)
    recorder: Recorder | None = None
    log: SearchLog | None = None

    @classmethod
    def of(cls, services: Services, authorized: bool = True, websocket: bool = False) -> Context:
        """One request's view of the process's services (the same names), whether it
        carried the API key, and whether it came over a WebSocket."""
        own = {"authorized", "websocket"}
        shared = {f.name: getattr(services, f.name) for f in fields(cls) if f.name not in own}
        return cls(authorized=authorized, websocket=websocket, **shared)


Info = strawberry.Info[Context, None]
