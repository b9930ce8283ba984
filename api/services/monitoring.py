"""What the monitoring resolvers and CLI call: reads of the log and the store, then the pure
core (``api.core.monitoring``, ``api.core.compare``).

Bounds are checked here and reported as ``InvalidRequest(field, reason)``, the exception the
GraphQL layer already turns into ``InputError``. Every function that reads the log takes it
as optional and raises ``LogError`` when it is not configured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from api.core.compare import Comparison, compare_hits
from api.core.intent import canonical_materia
from api.core.models import Filters
from api.core.monitoring import (
    Alert,
    CoverageCount,
    Distribution,
    LogEntry,
    MonitoringReport,
    MonitoringThresholds,
    build_report,
    detect_alerts,
    distribution,
)
from api.core.redact import redact
from api.core.reform import DEFAULT_CUTOFFS
from api.core.scoring import Profile
from api.errors import InvalidRequest, LogError
from api.monitoring.log_base import MAX_RECENT, SearchLog
from api.monitoring.recorder import Recorder
from api.services.search import SearchRequest, SearchService
from api.settings import Settings
from api.store.base import VectorStore

DEFAULT_WINDOW_HOURS = 168  # one week
MAX_WINDOW_HOURS = 8760  # one year
MAX_LOG_LIMIT = 200  # entries per searchLog page
MAX_LOG_OFFSET = 100_000
# Most entries a report reads (newest first); beyond it the report says ``truncated``.
MAX_REPORT_ENTRIES = 20_000
# A comparison's side A without a weight: recency off, the similarity order.
SIDE_A_RECENCY_WEIGHT = 0.0


def require_log(log: SearchLog | None) -> SearchLog:
    """The log, or ``LogError`` when none is configured."""
    if log is None:
        raise LogError("the search log is not configured")
    return log


def _bounded(field: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise InvalidRequest(field, f"{value} is outside {low}..{high}")
    return value


def check_window(window_hours: int) -> int:
    return _bounded("windowHours", window_hours, 1, MAX_WINDOW_HOURS)


def check_log_page(limit: int, offset: int) -> None:
    _bounded("limit", limit, 1, MAX_LOG_LIMIT)
    _bounded("offset", offset, 0, MAX_LOG_OFFSET)


def thresholds_from_settings(settings: Settings) -> MonitoringThresholds:
    """The alert thresholds ``alert_pre_reform_share`` and ``alert_inversion_gap``."""
    return MonitoringThresholds(
        pre_reform_share=settings.alert_pre_reform_share,
        inversion_gap=settings.alert_inversion_gap,
    )


def window_entries(
    log: SearchLog, since: datetime, cap: int = MAX_REPORT_ENTRIES
) -> tuple[list[LogEntry], bool]:
    """Entries logged at or after ``since``, newest first, and whether ``cap`` cut them."""
    entries: list[LogEntry] = []
    seen: set[str] = set()
    offset = 0
    while len(entries) < cap:
        want = min(MAX_RECENT, cap - len(entries))
        page = log.recent(want, offset, since)
        offset += len(page)
        fresh = [e for e in page if e.id not in seen]  # entries logged meanwhile shift pages
        seen.update(e.id for e in fresh)
        entries += fresh
        if len(page) < want:
            return entries, False
    return entries, bool(log.recent(1, offset, since))


def corpus_distribution(store: VectorStore) -> Distribution:
    return distribution(store.count_by("anio", Filters()), store.count_by("epoca", Filters()))


def tesis_epocas(store: VectorStore) -> tuple[str, ...]:
    """The épocas of the stored tesis, as stored; none when the store holds only the records
    of a generic corpus (they have no época)."""
    return tuple(sorted(name for name in store.count_by("epoca", Filters()) if name))


def coverage_counts(
    store: VectorStore, cutoffs: Mapping[str, int], holds_tesis: bool | None = None
) -> list[CoverageCount]:
    """Tesis of each materia with a reform cutoff published in or after the cutoff year; none
    when the store holds only a generic corpus's records (no reform to cover; an empty store
    still lacks every materia). ``holds_tesis``: what the caller already read (tesis, or an
    empty store); None reads it here."""
    if holds_tesis is None:
        holds_tesis = not store.count()[0] or bool(tesis_epocas(store))
    if not holds_tesis:
        return []
    counts = []
    for materia, cutoff in sorted(cutoffs.items()):
        name = canonical_materia(materia) or materia
        found = store.count_by("materias", Filters(materias=(name,), anio_min=cutoff))
        counts.append(CoverageCount(name, cutoff, found.get(name, 0)))
    return counts


@dataclass(frozen=True, slots=True)
class MonitoringScope:
    """What a report or an alert check reads: the last ``window_hours`` of ``log`` up to
    ``now`` (default: the present), ``store`` for coverage, and what alerts compare against."""

    log: SearchLog | None
    store: VectorStore
    window_hours: int
    thresholds: MonitoringThresholds
    cutoffs: Mapping[str, int] = field(default_factory=lambda: DEFAULT_CUTOFFS)
    now: datetime | None = None

    @classmethod
    def served(
        cls, log: SearchLog | None, search: SearchService, settings: Settings, window_hours: int
    ) -> MonitoringScope:
        """Over what ``search`` serves (the API's view): its store and reform cutoffs, and
        the alert thresholds of ``settings``."""
        thresholds = thresholds_from_settings(settings)
        return cls(log, search.store, window_hours, thresholds, search.config.reform.cutoffs)

    def window(self) -> tuple[list[LogEntry], bool, datetime]:
        """The entries of ``(now - window_hours, now]`` read from the log (newest first, up
        to ``MAX_REPORT_ENTRIES``), whether that cap cut them, and ``now``."""
        log = require_log(self.log)
        check_window(self.window_hours)
        now = self.now or datetime.now(UTC)
        entries, truncated = window_entries(log, now - timedelta(hours=self.window_hours))
        return entries, truncated, now


def monitoring_report(scope: MonitoringScope) -> MonitoringReport:
    """Distributions and alerts over the scope's window. Raises ``InvalidRequest``,
    ``LogError`` or ``StoreError``."""
    entries, truncated, now = scope.window()
    return build_report(
        entries,
        corpus=corpus_distribution(scope.store),
        coverage=coverage_counts(scope.store, scope.cutoffs),
        thresholds=scope.thresholds,
        now=now,
        window_hours=scope.window_hours,
        truncated=truncated,
    )


def alerts(scope: MonitoringScope) -> list[Alert]:
    """Only the alerts of ``monitoring_report`` (no corpus distribution is read)."""
    entries, _, now = scope.window()
    window = [e for e in entries if e.timestamp <= now]
    coverage = coverage_counts(scope.store, scope.cutoffs)
    return detect_alerts(window, scope.thresholds, coverage, now=now)


def served_report(
    log: SearchLog | None, search: SearchService, settings: Settings, window_hours: int
) -> MonitoringReport:
    """``monitoring_report`` over what ``search`` serves (the API's view)."""
    return monitoring_report(MonitoringScope.served(log, search, settings, window_hours))


def served_alerts(
    log: SearchLog | None, search: SearchService, settings: Settings, window_hours: int
) -> list[Alert]:
    """``alerts`` over what ``search`` serves (the API's view)."""
    return alerts(MonitoringScope.served(log, search, settings, window_hours))


@dataclass(frozen=True, slots=True)
class LogHealth:
    """Search-log writes since the process started; ``last_error`` safe to show a client."""

    status: str
    recorded: int
    failures: int
    last_error: str | None


def log_health(recorder: Recorder | None) -> LogHealth | None:
    """The recorder's write counts and status (``Recorder.write_status``); None without one."""
    if recorder is None:
        return None
    stats = recorder.stats()
    error = stats["last_error"]
    return LogHealth(
        status=recorder.write_status(),
        recorded=stats["recorded"],
        failures=stats["failures"],
        last_error=redact(error, hide_locations=True) if error else None,
    )


def compare_rankings(
    search: SearchService, request_a: SearchRequest, request_b: SearchRequest
) -> Comparison:
    """Run one question under two configurations and compare them at tesis level.

    Both must ask the same question; it is embedded once. Bad arguments raise
    ``InvalidRequest`` with the side in the field name ("a.recencyWeight"). Comparisons are
    not logged: they are a tuning tool and would skew the distributions.
    """
    if request_a.query.strip() != request_b.query.strip():
        raise InvalidRequest("query", "both rankings must answer the same question")
    for side, request in (("a", request_a), ("b", request_b)):
        try:
            request.validate()
        except InvalidRequest as exc:
            field = exc.field if exc.field in ("query", "topK") else f"{side}.{exc.field}"
            raise InvalidRequest(field, exc.reason) from exc
    vector = search.embed_query(request_a.query)
    result_a = search.search(request_a, vector)
    result_b = search.search(request_b, vector)
    return compare_hits(result_a.hits, result_b.hits)


def side_request(
    base: SearchRequest, recency_weight: float | None, profile: Profile | None, rules: bool
) -> SearchRequest:
    """One side of a comparison: ``base`` with its own weight, profile and vigencia rules."""
    return replace(
        base,
        recency_weight=recency_weight,
        profile=profile,
        apply_rules=rules,
    )


@dataclass(frozen=True, slots=True)
class RankingSide:
    """How one side ranks; a None weight or profile: the default (for side A's weight,
    ``SIDE_A_RECENCY_WEIGHT``, the similarity order; for B's, the configured one)."""

    recency_weight: float | None = None
    profile: Profile | None = None
    rules: bool = True


def compare_sides(
    search: SearchService, base: SearchRequest, a: RankingSide, b: RankingSide
) -> Comparison:
    """``compare_rankings`` of ``base`` ranked as ``a`` and as ``b``."""
    weight_a = SIDE_A_RECENCY_WEIGHT if a.recency_weight is None else a.recency_weight
    request_a = side_request(base, weight_a, a.profile, a.rules)
    request_b = side_request(base, b.recency_weight, b.profile, b.rules)
    return compare_rankings(search, request_a, request_b)


def recent_entries(log: SearchLog | None, limit: int, offset: int) -> Sequence[LogEntry]:
    """A bounded page of the log, newest first."""
    log = require_log(log)
    check_log_page(limit, offset)
    return log.recent(limit, offset)
