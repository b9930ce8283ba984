"""Ranking monitoring: the search log (embedded or Weaviate), the recorder and the services
that the GraphQL resolvers and the CLI call. The math lives in ``api.core.monitoring`` and
``api.core.compare``.

Usage::

    log = build_search_log(settings)              # follows VIGENCIA_STORE
    recorder = Recorder(log, retention_days=settings.search_log_retention_days)
"""

from __future__ import annotations

from pathlib import Path

from api.errors import LogError, UnknownEntry
from api.monitoring.log_base import SearchLog
from api.monitoring.recorder import Recorder
from api.settings import Settings

__all__ = ["LogError", "Recorder", "SearchLog", "UnknownEntry", "build_search_log", "log_path"]

LOG_FILE = "search_log.sqlite"


def log_path(data_dir: Path) -> Path:
    """Where the embedded log lives: next to the embedded store, in its own file."""
    return data_dir / LOG_FILE


def build_search_log(settings: Settings) -> SearchLog:
    """The log of the active store: a Weaviate collection pair (same server and prefix as
    the store), or the embedded SQLite file under ``data_dir``. Nothing connects yet."""
    if settings.store == "weaviate":
        from api.monitoring.weaviate_log import WeaviateSearchLog

        assert settings.weaviate_url is not None  # checked by Settings
        return WeaviateSearchLog(
            url=settings.weaviate_url,
            grpc_port=settings.weaviate_grpc_port,
            api_key=settings.weaviate_api_key,
            prefix=settings.weaviate_collection_prefix,
        )
    from api.monitoring.embedded_log import EmbeddedSearchLog

    return EmbeddedSearchLog(log_path(settings.data_dir))
