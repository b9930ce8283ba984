"""Ranking monitoring: the search log protocol and backends (embedded or Weaviate) and the
recorder. Which log goes with which store is chosen in ``api.services.factory``; the use
cases are in ``api.services.monitoring``, the math in ``api.core.monitoring`` and
``api.core.compare``.

Usage::

    log = build_search_log(settings)              # api.services.factory: follows VIGENCIA_STORE
    recorder = Recorder(log, retention_days=settings.search_log_retention_days)
"""

from __future__ import annotations

from api.errors import LogError, UnknownEntry
from api.monitoring.log_base import SearchLog
from api.monitoring.recorder import Recorder

__all__ = ["LogError", "Recorder", "SearchLog", "UnknownEntry"]
