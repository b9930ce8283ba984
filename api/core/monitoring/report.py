"""The monitoring report: everything ``monitoring`` shows over one window of the log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from api.core.monitoring import distributions as dist
from api.core.monitoring.alerts import Alert, CoverageCount, MonitoringThresholds, detect_alerts
from api.core.monitoring.records import LogEntry


@dataclass(frozen=True, slots=True)
class MonitoringReport:
    window_hours: int
    since: datetime
    until: datetime
    searches: int
    hits: int
    histograms: tuple[dist.BoostHistogram, ...]
    retrieved: dist.Distribution
    cited: dist.Distribution
    corpus: dist.Distribution
    shares: dist.Shares
    by_materia: tuple[dist.MateriaStats, ...]
    alerts: tuple[Alert, ...]
    truncated: bool = False  # the window held more entries than were read
    abstentions: int = 0  # searches and chats that found nothing that answers
    low_confidence: int = 0  # answers ranked by relevance whose first hit was in doubt


def build_report(
    entries: Sequence[LogEntry],
    *,
    corpus: dist.Distribution,
    coverage: Sequence[CoverageCount],
    thresholds: MonitoringThresholds,
    now: datetime,
    window_hours: int,
    truncated: bool = False,
) -> MonitoringReport:
    """Everything ``monitoring`` shows, over the entries in ``(now - window, now]``."""
    since = now - timedelta(hours=window_hours)
    window = [e for e in entries if since <= e.timestamp <= now]
    return MonitoringReport(
        window_hours=window_hours,
        since=since,
        until=now,
        searches=len(window),
        hits=sum(len(e.hits) for e in window),
        histograms=tuple(dist.boost_histograms(window, thresholds.bin_width)),
        retrieved=dist.retrieved_distribution(window),
        cited=dist.cited_distribution(window),
        corpus=corpus,
        shares=dist.shares(window),
        by_materia=tuple(dist.by_materia(window)),
        alerts=tuple(detect_alerts(window, thresholds, coverage, now=now)),
        truncated=truncated,
        abstentions=sum(1 for e in window if e.abstain_reason is not None),
        low_confidence=sum(1 for e in window if e.confidence == "low"),
    )
