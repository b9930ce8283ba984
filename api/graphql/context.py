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
    recorder: Recorder | None = None
    log: SearchLog | None = None

    @classmethod
    def of(cls, services: Services, authorized: bool = True) -> Context:
        """One request's view of the process's services (the same names), and whether it
        carried the API key."""
        shared = {f.name: getattr(services, f.name) for f in fields(cls) if f.name != "authorized"}
        return cls(authorized=authorized, **shared)


Info = strawberry.Info[Context, None]
