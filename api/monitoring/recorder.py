"""The recorder: every answered search or chat becomes a ``LogEntry`` in the search log.

Logging must never fail the user's request: ``record_search`` catches every error, counts it
(``failures``, ``last_error``) and returns None; ``health()`` reports the counts for
``/health``. Old entries are pruned from the request path at most once per
``prune_every`` (default hourly) when ``retention_days`` > 0.

Usage::

    recorder = Recorder(EmbeddedSearchLog(path), retention_days=90)
    result = search.search(request)
    log_id = recorder.record_search(request.query, request, result)  # None if the log failed
    recorder.health()  # {"status": "ok", "recorded": 1, "failures": 0, ...}
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from api.core.models import Filters
from api.core.monitoring import LogEntry, LoggedDiscard, LoggedHit, LogKind
from api.core.references import Reference
from api.core.search_result import SearchResult
from api.monitoring.log_base import SearchLog

logger = logging.getLogger(__name__)

Clock = Callable[[], datetime]
# How often the request path may run a retention prune (one indexed DELETE).
PRUNE_INTERVAL = timedelta(hours=1)
# Request fields that are the question itself, not parameters.
_QUESTION_FIELDS = frozenset({"query", "question"})


def utc_now() -> datetime:
    return datetime.now(UTC)


def _json_value(value: object) -> object:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    if isinstance(value, Filters):
        return {
            f.name: _json_value(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if getattr(value, f.name) not in (None, ())
        }
    return str(value)


def request_parameters(request: object) -> dict[str, Any]:
    """The request as given, JSON-able: every dataclass field but the question, without the
    ones left unset (None, empty filters). ``SearchRequest`` and ``ChatRequest`` both work."""
    if not dataclasses.is_dataclass(request) or isinstance(request, type):
        return {}
    params = {}
    for f in dataclasses.fields(request):
        value = _json_value(getattr(request, f.name))
        if f.name not in _QUESTION_FIELDS and value not in (None, {}):
            params[f.name] = value
    return params


def cited_registros(references: Sequence[Reference], numbers: Sequence[int]) -> tuple[int, ...]:
    """Registros of the references an answer cited (``CitationCheck.valid`` numbers)."""
    by_number = {ref.number: ref.registro for ref in references}
    return tuple(dict.fromkeys(by_number[n] for n in numbers if n in by_number))


def build_entry(
    log_id: str,
    now: datetime,
    question: str,
    request: object,
    result: SearchResult,
    kind: LogKind = "search",
    cited: Sequence[int] = (),
) -> LogEntry:
    """The log entry of one answered search (pure given its arguments)."""
    if kind not in ("search", "chat"):
        raise ValueError(f"kind must be 'search' or 'chat', got {kind!r}")
    intent = result.intent
    return LogEntry(
        id=log_id,
        timestamp=now,
        kind=kind,
        question=question.strip(),
        materia=intent.materia.materia,
        materia_source=intent.materia.source,
        temporal=intent.temporal.kind,
        route=intent.route,
        cutoff_year=intent.cutoff_year,
        rules_applied=intent.rules_applied,
        profile=result.profile,
        recency_weight=result.recency_weight,
        mode=result.mode,
        parameters=request_parameters(request),
        hits=tuple(LoggedHit.of(h) for h in result.hits),
        discarded=tuple(LoggedDiscard.of(d) for d in result.discarded),
        cited=tuple(int(r) for r in cited),
        candidates=result.candidates,
        latency_ms=round(sum(result.timings_ms.values()), 3),
        abstain_reason=result.abstain_reason,
        confidence=result.confidence.level if result.confidence is not None else None,
    )


class Recorder:
    """Writes log entries; never raises from ``record_search`` or ``prune``."""

    def __init__(
        self,
        log: SearchLog,
        retention_days: int = 90,
        clock: Clock = utc_now,
        prune_every: timedelta = PRUNE_INTERVAL,
        max_entries: int = 0,
    ) -> None:
        if retention_days < 0:
            raise ValueError(
                f"retention_days must be >= 0 (0 keeps everything), got {retention_days}"
            )
        self.log = log
        self.retention_days = retention_days
        self.max_entries = max(0, max_entries)
        self.clock = clock
        self.prune_every = prune_every
        self.recorded = 0
        self.failures = 0
        self.pruned = 0
        self.last_error: str | None = None
        self.last_failure_at: datetime | None = None
        self.last_success_at: datetime | None = None
        self._last_prune: datetime | None = None
        self._lock = threading.Lock()

    def record_search(
        self,
        question: str,
        request: object,
        result: SearchResult,
        kind: LogKind = "search",
        cited: Sequence[int] = (),
    ) -> str | None:
        """Log one answered search or chat; its id, or None when logging failed (counted)."""
        try:
            now = self.clock()
            entry = build_entry(uuid.uuid4().hex, now, question, request, result, kind, cited)
            log_id = self.log.append(entry)
        except Exception as exc:  # a log failure must never fail the user's request
            self._failed("record", exc)
            return None
        with self._lock:
            self.recorded += 1
            self.last_success_at = now
        self._maybe_prune(now)
        return log_id

    def _failed(self, action: str, exc: Exception) -> None:
        logger.warning("search log %s failed: %s", action, exc)
        with self._lock:
            self.failures += 1
            self.last_error = f"{action}: {type(exc).__name__}: {exc}"
            try:
                self.last_failure_at = self.clock()
            except Exception:  # a broken clock is not worth a second failure
                self.last_failure_at = None

    def _maybe_prune(self, now: datetime) -> None:
        if self.retention_days == 0 and self.max_entries == 0:
            return
        # by size: check every tenth of the bound, so the log never passes ~1.1 x max_entries
        by_size = self.max_entries > 0 and self.recorded % max(1, self.max_entries // 10) == 0
        if (
            not by_size
            and self._last_prune is not None
            and now - self._last_prune < self.prune_every
        ):
            return
        self.prune(now)

    def prune(self, now: datetime | None = None) -> int | None:
        """Delete entries older than ``retention_days`` and those past the newest
        ``max_entries``; how many, or None (failed or off)."""
        if self.retention_days == 0 and self.max_entries == 0:
            return None
        try:
            moment = now or self.clock()
            self._last_prune = moment
            removed = 0
            if self.retention_days:
                removed += self.log.prune(moment - timedelta(days=self.retention_days))
            if self.max_entries:
                # the newest entry past the bound: it and everything older go
                past = self.log.recent(limit=1, offset=self.max_entries)
                if past:
                    removed += self.log.prune(past[0].timestamp + timedelta(microseconds=1))
        except Exception as exc:  # same rule as record_search
            self._failed("prune", exc)
            return None
        with self._lock:
            self.pruned += removed
        return removed

    def stats(self) -> dict[str, Any]:
        """Counters only (no I/O)."""
        with self._lock:
            return {
                "recorded": self.recorded,
                "failures": self.failures,
                "last_error": self.last_error,
                "last_failure_at": _iso(self.last_failure_at),
                "pruned": self.pruned,
                "retention_days": self.retention_days,
                "max_entries": self.max_entries,
            }

    def write_status(self) -> str:
        """ "degraded" while the latest write (or prune) failed, else "ok" (no I/O)."""
        with self._lock:
            failed_last = self.last_failure_at is not None and (
                self.last_success_at is None or self.last_failure_at >= self.last_success_at
            )
        return "degraded" if failed_last else "ok"

    def health(self) -> dict[str, Any]:
        """``stats()`` plus the backend's health; "degraded" when the backend is, or when
        ``write_status`` is."""
        try:
            backend = self.log.health()
        except Exception as exc:  # the protocol says it never raises; be sure
            backend = {"status": "degraded", "detail": str(exc)}
        degraded = backend.get("status") != "ok" or self.write_status() != "ok"
        return {"status": "degraded" if degraded else "ok", **self.stats(), "backend": backend}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()
