"""The long-lived objects one process needs, built once from settings."""

from __future__ import annotations

from dataclasses import dataclass

from api.embeddings.base import Embedder
from api.judge import Judge
from api.judge.llm_judge import LLMJudge
from api.judge.offline_judge import OfflineJudge
from api.llm.base import LLM
from api.monitoring import Recorder, SearchLog
from api.preflight import check_data_dir
from api.services.chat import ChatService
from api.services.factory import (
    EMBEDDING_CACHE_FILE,
    LOG_FILE,
    STORE_FILE,
    build_embedder,
    build_llm,
    build_search_log,
    build_store,
)
from api.services.search import SearchConfig, SearchService
from api.settings import Settings
from api.store.base import VectorStore

DATA_FILES = (STORE_FILE, EMBEDDING_CACHE_FILE, LOG_FILE)


@dataclass
class Services:
    settings: Settings
    store: VectorStore
    embedder: Embedder
    search: SearchService
    chat: ChatService
    judge: Judge
    llm: LLM | None = None
    log: SearchLog | None = None
    recorder: Recorder | None = None

    @classmethod
    def build(
        cls,
        settings: Settings,
        store: VectorStore | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        log: SearchLog | None = None,
    ) -> Services:
        """Wire everything from settings; pass ``store``/``embedder``/``llm``/``log`` to inject.

        Nothing connects here: stores, the log and the LLM open on first use.
        """
        if store is None and embedder is None:  # our own files: refuse early, naming the path
            check_data_dir(settings, DATA_FILES)
        embedder = embedder or build_embedder(settings)
        store = store or build_store(settings, dim=embedder.dim)
        llm = llm or build_llm(settings)
        search = SearchService(store, embedder, SearchConfig.from_settings(settings))
        chat = ChatService(search, llm, settings.llm_timeout, settings.max_references)
        judge: Judge = (
            LLMJudge(llm, settings.llm_timeout) if llm is not None else OfflineJudge(embedder)
        )
        if log is None and settings.search_log_enabled:
            log = build_search_log(settings)
        recorder = (
            Recorder(
                log,
                settings.search_log_retention_days,
                max_entries=settings.search_log_max_entries,
            )
            if log
            else None
        )
        return cls(settings, store, embedder, search, chat, judge, llm, log, recorder)

    def close(self) -> None:
        self.store.close()
        if self.log is not None:
            self.log.close()
