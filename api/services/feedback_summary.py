"""Users' useful / not useful verdicts of a window, counted per day and per materia.

The latest verdict per (search, registro) counts; each one's materia is its logged search's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from api.core.monitoring import Feedback
from api.errors import InvalidRequest, LogError
from api.monitoring.log_base import SearchLog
from api.services.monitoring import MAX_WINDOW_HOURS

NO_MATERIA = ""


@dataclass(frozen=True, slots=True)
class FeedbackCount:
    key: str  # day (YYYY-MM-DD, UTC) or materia ('' = none)
    useful: int
    not_useful: int


@dataclass(frozen=True, slots=True)
class FeedbackTotals:
    window_hours: int
    useful: int
    not_useful: int
    by_day: list[FeedbackCount]  # days with verdicts, ascending
    by_materia: list[FeedbackCount]  # most verdicts first


def _counts(pairs: Sequence[tuple[str, bool]]) -> list[FeedbackCount]:
    good = Counter(k for k, useful in pairs if useful)
    bad = Counter(k for k, useful in pairs if not useful)
    return [FeedbackCount(key=k, useful=good[k], not_useful=bad[k]) for k in {*good, *bad}]


def summarize(
    log: SearchLog | None, window_hours: int, now: datetime | None = None
) -> FeedbackTotals:
    """The latest verdict per (search, registro) in the window, counted by day and materia."""
    if log is None:
        raise LogError("the search log is not configured")
    if not 1 <= window_hours <= MAX_WINDOW_HOURS:
        raise InvalidRequest("windowHours", f"{window_hours} is outside 1..{MAX_WINDOW_HOURS}")
    since = (now or datetime.now(UTC)) - timedelta(hours=window_hours)
    latest: dict[tuple[str, int], Feedback] = {}
    for item in log.feedback_for(None):
        if item.timestamp >= since:
            latest[(item.log_id, item.registro)] = item  # oldest first: the last one wins
    materias: dict[str, str] = {}
    for log_id in {k[0] for k in latest}:
        entry = log.get(log_id)
        materias[log_id] = (entry.materia or NO_MATERIA) if entry else NO_MATERIA
    items = list(latest.values())
    by_day = sorted(
        _counts([(f.timestamp.date().isoformat(), f.useful) for f in items]), key=lambda c: c.key
    )
    by_materia = sorted(
        _counts([(materias[f.log_id], f.useful) for f in items]),
        key=lambda c: (-(c.useful + c.not_useful), c.key),
    )
    useful = sum(f.useful for f in items)
    return FeedbackTotals(window_hours, useful, len(items) - useful, by_day, by_materia)
