"""The protocol every search-log backend implements, and what the backends share."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from api.core.monitoring import Feedback, LogEntry, entry_from_dict

logger = logging.getLogger(__name__)

MAX_RECENT = 1000  # most entries one ``recent`` call returns


def check_page(limit: int, offset: int) -> None:
    """``ValueError`` naming the argument when a page request is out of range."""
    if not 1 <= limit <= MAX_RECENT:
        raise ValueError(f"limit must be in 1..{MAX_RECENT}, got {limit}")
    if offset < 0:
        raise ValueError(f"offset must be >= 0, got {offset}")


class SearchLog(Protocol):
    """Searches and chats as they were answered, with user feedback, kept for a while.

    Every method raises ``LogError`` (never a vendor exception) when the backend fails;
    ``health`` never raises. Timestamps are timezone-aware.
    """

    def append(self, entry: LogEntry) -> str:
        """Store one entry under ``entry.id`` (its ``feedback`` is ignored); returns the id."""
        ...

    def recent(
        self, limit: int = 20, offset: int = 0, since: datetime | None = None
    ) -> list[LogEntry]:
        """Entries newest first (``since``: at or after it), each with its feedback."""
        ...

    def get(self, log_id: str) -> LogEntry | None:
        """One entry with its feedback, or None."""
        ...

    def add_feedback(self, feedback: Feedback) -> Feedback:
        """Record a verdict on one registro of an entry; a later verdict on the same
        (entry, registro) replaces the earlier one. Raises ``UnknownEntry``; returns the
        verdict as stored."""
        ...

    def feedback_for(self, log_ids: Sequence[str] | None = None) -> list[Feedback]:
        """Feedback on the given entries (None: all of it), oldest first."""
        ...

    def prune(self, older_than: datetime) -> int:
        """Delete entries logged before ``older_than`` and their feedback; returns how many
        entries went."""
        ...

    def health(self) -> dict[str, str]:
        """``{"status": "ok" | "degraded", "log": backend, "detail": ...}`` without raising."""
        ...

    def close(self) -> None:
        """Release connections and files."""
        ...


def oldest_first(feedback: Iterable[Feedback]) -> list[Feedback]:
    """Feedback in the order ``feedback_for`` returns it."""
    return sorted(feedback, key=lambda f: (f.timestamp, f.log_id, f.registro))


class LogBackend:
    """The shared half of a backend: decoding stored entries with their feedback, which
    subclasses read (``feedback_for``)."""

    def feedback_for(self, log_ids: Sequence[str] | None = None) -> list[Feedback]:
        raise NotImplementedError

    def _decode(self, rows: Sequence[tuple[str, str]]) -> list[LogEntry]:
        """Entries from ``(id, JSON)`` rows, each with its feedback; an unreadable one is
        logged and skipped, not fatal."""
        by_entry: dict[str, list[Feedback]] = {}
        for item in self.feedback_for([log_id for log_id, _ in rows]) if rows else []:
            by_entry.setdefault(item.log_id, []).append(item)
        entries = []
        for log_id, payload in rows:
            try:
                entries.append(entry_from_dict(json.loads(payload), by_entry.get(log_id, ())))
            except (ValueError, TypeError, KeyError) as exc:
                logger.warning("search log entry %s is unreadable: %s", log_id, exc)
        return entries
