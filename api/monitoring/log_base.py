"""The protocol every search-log backend implements, and the errors it raises."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from api.core.monitoring import Feedback, LogEntry

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

    def add_feedback(
        self,
        log_id: str,
        registro: int,
        useful: bool,
        comment: str | None = None,
        at: datetime | None = None,
    ) -> Feedback:
        """Record a verdict on one registro of an entry; a later verdict on the same
        (entry, registro) replaces the earlier one. Raises ``UnknownEntry``."""
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
