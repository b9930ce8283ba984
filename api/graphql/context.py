"""Per-request context handed to every resolver."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import strawberry

from api.chat import ChatService
from api.judge import Judge
from api.search import SearchService
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
    recorder: Any = None  # api.monitoring.recorder.Recorder once monitoring is wired
    log: Any = None


Info = strawberry.Info[Context, None]
