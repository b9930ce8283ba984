"""Per-request context handed to every resolver."""

from __future__ import annotations

from dataclasses import dataclass

import strawberry

from api.search import SearchService
from api.settings import Settings
from api.store.base import VectorStore


@dataclass
class Context:
    settings: Settings
    store: VectorStore
    search: SearchService


Info = strawberry.Info[Context, None]
