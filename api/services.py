"""The long-lived objects one process needs, built once from settings."""

from __future__ import annotations

from dataclasses import dataclass

from api.embeddings.base import Embedder
from api.factory import build_embedder, build_store
from api.search import SearchConfig, SearchService
from api.settings import Settings
from api.store.base import VectorStore


@dataclass
class Services:
    settings: Settings
    store: VectorStore
    embedder: Embedder
    search: SearchService

    @classmethod
    def build(
        cls,
        settings: Settings,
        store: VectorStore | None = None,
        embedder: Embedder | None = None,
    ) -> Services:
        embedder = embedder or build_embedder(settings)
        store = store or build_store(settings, dim=embedder.dim)
        search = SearchService(store, embedder, SearchConfig.from_settings(settings))
        return cls(settings=settings, store=store, embedder=embedder, search=search)

    def close(self) -> None:
        self.store.close()
