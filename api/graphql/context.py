"""Per-request context handed to every resolver."""

from __future__ import annotations

from dataclasses import dataclass

import strawberry

from api.judge import Judge
from api.monitoring import Recorder, SearchLog
from api.services.chat import ChatService
from api.services.search import SearchService
from api.settings import Settings
from api.store.base import VectorStore


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


Info = strawberry.Info[Context, None]
