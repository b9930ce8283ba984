"""What the monitoring resolvers and CLI call: reads of the log and the store, then the pure
core (``api.core.monitoring``, ``api.core.compare``).

Bounds are checked here and reported as ``InvalidRequest(field, reason)``, the exception the
GraphQL layer already turns into ``InputError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from api.core.compare import Comparison, compare_hits
from api.core.intent import canonical_materia
from api.core.models import Filters
from api.core.monitoring import (
    Alert,
    CoverageCount,
    Distribution,
    Feedback,
    LogEntry,
    MonitoringReport,
    MonitoringThresholds,
    build_report,
    detect_alerts,
    distribution,
)
from api.core.reform import DEFAULT_CUTOFFS
from api.core.scoring import Profile
from api.errors import InvalidRequest, UnknownEntry
from api.monitoring.log_base import MAX_RECENT, SearchLog
from api.services.search import SearchRequest, SearchService
from api.store.base import VectorStore

MAX_WINDOW_HOURS = 8760  # one year
MAX_LOG_LIMIT = 200  # entries per searchLog page
MAX_LOG_OFFSET = 100_000
MAX_COMMENT_CHARS = 2000
MAX_LOG_ID_CHARS = 64
# Most entries a report reads (newest first); beyond it the report says ``truncated``.
MAX_REPORT_ENTRIES = 20_000
# Export grades: a search result marked useful is relevant (2); one an answer also cited is
# the answer itself (3). Grade 1 is left to hand labelling ("related, not the answer").
USEFUL_GRADE = 2
CITED_USEFUL_GRADE = 3


def _bounded(field: str, value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise InvalidRequest(field, f"{value} is outside {low}..{high}")
    return value


def check_window(window_hours: int) -> int:
    return _bounded("windowHours", window_hours, 1, MAX_WINDOW_HOURS)


def check_log_page(limit: int, offset: int) -> None:
    _bounded("limit", limit, 1, MAX_LOG_LIMIT)
    _bounded("offset", offset, 0, MAX_LOG_OFFSET)


def thresholds_from_settings(settings: object) -> MonitoringThresholds:
    """Thresholds from ``Settings`` (``alert_pre_reform_share``, ``alert_inversion_gap``);
    the defaults of ``MonitoringThresholds`` where a field is missing."""
    defaults = MonitoringThresholds()
    return MonitoringThresholds(
        pre_reform_share=getattr(settings, "alert_pre_reform_share", defaults.pre_reform_share),
        inversion_gap=getattr(settings, "alert_inversion_gap", defaults.inversion_gap),
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


def coverage_counts(store: VectorStore, cutoffs: Mapping[str, int]) -> list[CoverageCount]:
    """Tesis of each materia with a reform cutoff published in or after the cutoff year."""
    counts = []
    for materia, cutoff in sorted(cutoffs.items()):
        name = canonical_materia(materia) or materia
        found = store.count_by("materias", Filters(materias=(name,), anio_min=cutoff))
        counts.append(CoverageCount(name, cutoff, found.get(name, 0)))
    return counts


def monitoring_report(
    log: SearchLog,
    store: VectorStore,
    window_hours: int,
    thresholds: MonitoringThresholds,
    cutoffs: Mapping[str, int] = DEFAULT_CUTOFFS,
    now: datetime | None = None,
) -> MonitoringReport:
    """Distributions and alerts over the last ``window_hours``. Raises ``InvalidRequest``,
    ``LogError`` or ``StoreError``."""
    check_window(window_hours)
    now = now or datetime.now(UTC)
    entries, truncated = window_entries(log, now - timedelta(hours=window_hours))
    return build_report(
        entries,
        corpus=corpus_distribution(store),
        coverage=coverage_counts(store, cutoffs),
        thresholds=thresholds,
        now=now,
        window_hours=window_hours,
        truncated=truncated,
    )


def alerts(
    log: SearchLog,
    store: VectorStore,
    window_hours: int,
    thresholds: MonitoringThresholds,
    cutoffs: Mapping[str, int] = DEFAULT_CUTOFFS,
    now: datetime | None = None,
) -> list[Alert]:
    """Only the alerts of ``monitoring_report`` (no corpus distribution is read)."""
    check_window(window_hours)
    now = now or datetime.now(UTC)
    since = now - timedelta(hours=window_hours)
    entries, _ = window_entries(log, since)
    window = [e for e in entries if e.timestamp <= now]
    return detect_alerts(window, thresholds, coverage_counts(store, cutoffs), now=now)


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


def submit_feedback(
    log: SearchLog,
    log_id: str,
    registro: int,
    useful: bool,
    comment: str | None = None,
    now: datetime | None = None,
) -> Feedback:
    """Store a verdict on one registro of a logged search. The registro must be one the
    search showed, discarded or cited. Raises ``InvalidRequest`` or ``LogError``."""
    log_id = log_id.strip()
    if not log_id or len(log_id) > MAX_LOG_ID_CHARS:
        raise InvalidRequest("logId", f"must be 1..{MAX_LOG_ID_CHARS} characters")
    if registro <= 0:
        raise InvalidRequest("registro", f"{registro} is not a registro digital")
    text = comment.strip() if comment is not None else None
    if text is not None and len(text) > MAX_COMMENT_CHARS:
        raise InvalidRequest("comment", f"{len(text)} characters, at most {MAX_COMMENT_CHARS}")
    entry = log.get(log_id)
    if entry is None:
        raise InvalidRequest("logId", f"no logged search with id {log_id!r}")
    shown = {h.registro for h in entry.hits} | {d.registro for d in entry.discarded}
    if registro not in shown | set(entry.cited):
        raise InvalidRequest("registro", f"{registro} is not among the results of {log_id}")
    try:
        return log.add_feedback(log_id, registro, useful, text or None, now or datetime.now(UTC))
    except UnknownEntry as exc:  # pruned in between
        raise InvalidRequest("logId", str(exc)) from exc


def export_feedback(log: SearchLog) -> list[dict[str, Any]]:
    """Feedback as labelled queries for ``vigencia eval``: one line per question.

    ``{"query", "relevant": {registro: grade}, "current": [], "note"}``. Grades:
    ``USEFUL_GRADE`` (2) for a registro marked useful, ``CITED_USEFUL_GRADE`` (3) when an
    answer also cited it. Registros marked not useful are left out (grade 0). Searches of the
    same question (whitespace and case folded) are merged, the latest verdict per registro
    winning; questions without any useful registro are skipped. ``current`` is left empty:
    which criterion is in force is for a person to decide.
    """
    verdicts: dict[str, dict[int, tuple[datetime, int]]] = {}
    questions: dict[str, str] = {}
    searches: dict[str, set[str]] = {}
    entries: dict[str, LogEntry | None] = {}
    for item in log.feedback_for(None):
        if item.log_id not in entries:
            entries[item.log_id] = log.get(item.log_id)
        entry = entries[item.log_id]
        if entry is None:
            continue
        key = " ".join(entry.question.lower().split())
        questions.setdefault(key, entry.question)
        searches.setdefault(key, set()).add(entry.id)
        grade = 0
        if item.useful:
            grade = CITED_USEFUL_GRADE if item.registro in entry.cited else USEFUL_GRADE
        previous = verdicts.setdefault(key, {}).get(item.registro)
        if previous is None or previous[0] <= item.timestamp:
            verdicts[key][item.registro] = (item.timestamp, grade)
    lines = []
    for key, graded in verdicts.items():
        relevant = {str(r): g for r, (_, g) in sorted(graded.items()) if g > 0}
        if relevant:
            lines.append(
                {
                    "query": questions[key],
                    "relevant": relevant,
                    "current": [],
                    "note": f"from feedback on {len(searches[key])} logged searches",
                }
            )
    return lines


def recent_entries(log: SearchLog, limit: int, offset: int) -> Sequence[LogEntry]:
    """A bounded page of the log, newest first."""
    check_log_page(limit, offset)
    return log.recent(limit, offset)
