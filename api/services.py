"""The long-lived objects one process needs, built once from settings."""

from __future__ import annotations

from dataclasses import dataclass

from api.chat import ChatService
from api.embeddings.base import Embedder
from api.factory import build_embedder, build_llm, build_store
from api.judge import Judge
from api.judge.llm_judge import LLMJudge
from api.judge.offline_judge import OfflineJudge
from api.llm.base import LLM
from api.search import SearchConfig, SearchService
from api.settings import Settings
from api.store.base import VectorStore


@dataclass
class Services:
    settings: Settings
    store: VectorStore
    embedder: Embedder
    search: SearchService
    chat: ChatService
    judge: Judge
    llm: LLM | None = None

    @classmethod
    def build(
        cls,
        settings: Settings,
        store: VectorStore | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
    ) -> Services:
        """Wire everything from settings; pass ``store``/``embedder``/``llm`` to inject."""
        embedder = embedder or build_embedder(settings)
        store = store or build_store(settings, dim=embedder.dim)
        llm = llm or build_llm(settings)
        search = SearchService(store, embedder, SearchConfig.from_settings(settings))
        chat = ChatService(search, llm, settings.llm_timeout, settings.max_references)
        judge: Judge = (
            LLMJudge(llm, settings.llm_timeout) if llm is not None else OfflineJudge(embedder)
        )
        return cls(settings, store, embedder, search, chat, judge, llm)

    def close(self) -> None:
        self.store.close()
