"""Search-log records and what monitoring computes from them (pure: no I/O, no clock).

A ``LogEntry`` is one search or chat as it was answered: the question, how it was read
(materia, temporal intent, route, reform cutoff), the parameters and profile, every hit with
its score factors and both ranks, the discarded hits with their codes, and the registros an
answer cited. Everything below is a function of a list of entries (plus corpus counts passed
in by the caller), so the same numbers come out of any log backend.

Usage::

    hist = boost_histograms(entries)              # [BoostHistogram("default", (Bin(..), ...))]
    found = detect_alerts(entries, MonitoringThresholds(), coverage, now=now)
    report = build_report(entries, corpus=corpus, coverage=coverage,
                          thresholds=MonitoringThresholds(), now=now, window_hours=168)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any, Literal

from api.core.epocas import canonical_epoca, epoca_number
from api.core.intent import canonical_materia
from api.core.models import Discarded, Hit, Validity
from api.core.validity import loses_force

LogKind = Literal["search", "chat"]
LOG_KINDS: tuple[LogKind, ...] = ("search", "chat")
Severity = Literal["info", "warning", "critical"]
SEVERITY_ORDER: Mapping[str, int] = MappingProxyType({"critical": 0, "warning": 1, "info": 2})

# Alert codes.
MANY_PRE_REFORM = "MANY_PRE_REFORM"  # share of pre-reform hits above a threshold
ALL_PRE_2000 = "ALL_PRE_2000"  # a search whose every hit predates 2000
INVERSION = "INVERSION"  # an older tesis outranks a newer one of equal similarity
SUPERSEDED_RETRIEVED = "SUPERSEDED_RETRIEVED"  # a criterion that lost force was shown
SUPERSEDED_CITED = "SUPERSEDED_CITED"  # ... and an answer cited it
COVERAGE_GAP = "COVERAGE_GAP"  # no tesis of a materia after its reform cutoff

# The "old law" line of the issue: sources before 2000 (pre-Novena law plus its first years).
MODERN_YEAR = 2000
# Boost = final / relevance is a product of factors near 1 (<= 1 under ``default``, up to
# about 2.6 under ``seed``), so 5 % steps resolve it; bins are aligned to multiples of it.
BOOST_BIN_WIDTH = 0.05
# INVERSION needs recency to have favoured the newer tesis by at least 5 % (its boost over
# the older one's): below that both sit on the flat tail of the decay (1976 vs 1977 differ by
# 0.2 %) and a swap between near-equal cosines is noise, not recency failing.
INVERSION_MIN_BOOST_RATIO = 1.05
MAX_EXAMPLES = 3  # example questions per alert
UNKNOWN = "desconocido"  # época or year key of a cited registro not found among the hits


# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LoggedHit:
    """One hit as the user saw it: metadata, status, every score factor and both ranks."""

    registro: int
    rubro: str
    anio: int
    epoca: str
    tipo: str
    materias: tuple[str, ...]
    estado: str
    parcial: bool
    similarity: float
    relevance: float
    recency_factor: float
    epoca_factor: float
    final_score: float
    boost: float  # final_score / relevance (ScoreBreakdown.boost)
    rank: int
    rank_without_recency: int

    @classmethod
    def of(cls, hit: Hit) -> LoggedHit:
        p, s = hit.passage, hit.score
        return cls(
            registro=p.registro,
            rubro=p.rubro,
            anio=p.anio,
            epoca=p.epoca,
            tipo=p.tipo,
            materias=tuple(p.materias),
            estado=hit.status.estado,
            parcial=hit.status.parcial,
            similarity=s.similarity,
            relevance=s.relevance,
            recency_factor=s.recency_factor,
            epoca_factor=s.epoca_factor,
            final_score=s.final_score,
            boost=s.boost,
            rank=hit.rank,
            rank_without_recency=hit.rank_without_recency,
        )

    @property
    def superseded(self) -> bool:
        """The criterion no longer stands (``loses_force`` of its SJF note)."""
        return loses_force(Validity(estado=self.estado, parcial=self.parcial))


@dataclass(frozen=True, slots=True)
class LoggedDiscard:
    """A hit the vigencia rules removed: PRE_REFORM, PRE_NOVENA or SUPERSEDED, and why."""

    registro: int
    anio: int
    code: str
    reason: str

    @classmethod
    def of(cls, d: Discarded) -> LoggedDiscard:
        return cls(d.hit.registro, d.hit.passage.anio, d.code, d.reason)


@dataclass(frozen=True, slots=True)
class Feedback:
    """A user's verdict on one registro of one logged search (the latest one counts)."""

    log_id: str
    registro: int
    useful: bool
    comment: str | None
    timestamp: datetime


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One search or chat. ``timestamp`` is timezone-aware (UTC); ``parameters`` is the request
    as given (JSON-able: top_k, filters, explicit weights...), the other fields what was used.
    ``feedback`` is attached by the log when read; it is stored separately."""

    id: str
    timestamp: datetime
    kind: LogKind
    question: str
    materia: str | None
    materia_source: str | None
    temporal: str | None
    route: str
    cutoff_year: int | None
    rules_applied: bool
    profile: str
    recency_weight: float
    mode: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    hits: tuple[LoggedHit, ...] = ()
    discarded: tuple[LoggedDiscard, ...] = ()
    cited: tuple[int, ...] = ()
    candidates: int = 0
    latency_ms: float = 0.0
    feedback: tuple[Feedback, ...] = ()
    abstain_reason: str | None = None  # the search found nothing that answers

    def pre_reform(self, hit: LoggedHit) -> bool:
        """The hit predates the reform cutoff of this search's materia."""
        return self.cutoff_year is not None and hit.anio < self.cutoff_year


def entry_to_dict(entry: LogEntry) -> dict[str, Any]:
    """A JSON-able dict of everything but ``feedback`` (which is stored on its own)."""
    data: dict[str, Any] = {
        f.name: getattr(entry, f.name)
        for f in fields(entry)
        if f.name not in ("feedback", "hits", "discarded")
    }
    data["timestamp"] = entry.timestamp.isoformat()
    data["parameters"] = dict(entry.parameters)
    data["cited"] = list(entry.cited)
    data["hits"] = [_record_dict(h) for h in entry.hits]
    data["discarded"] = [_record_dict(d) for d in entry.discarded]
    return data


def entry_from_dict(data: Mapping[str, Any], feedback: Sequence[Feedback] = ()) -> LogEntry:
    """The inverse of ``entry_to_dict``; unknown keys are ignored. Raises on missing fields."""
    values = _known(LogEntry, data)
    values["timestamp"] = datetime.fromisoformat(str(data["timestamp"]))
    values["parameters"] = dict(data.get("parameters") or {})
    values["cited"] = tuple(int(r) for r in data.get("cited") or ())
    values["hits"] = tuple(
        LoggedHit(**{**_known(LoggedHit, h), "materias": tuple(h.get("materias") or ())})
        for h in data.get("hits") or ()
    )
    values["discarded"] = tuple(
        LoggedDiscard(**_known(LoggedDiscard, d)) for d in data.get("discarded") or ()
    )
    values["feedback"] = tuple(feedback)
    return LogEntry(**values)


def _record_dict(record: LoggedHit | LoggedDiscard) -> dict[str, Any]:
    data = {f.name: getattr(record, f.name) for f in fields(record)}
    if isinstance(record, LoggedHit):
        data["materias"] = list(record.materias)
    return data


def _known(cls: type[Any], raw: Mapping[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in raw.items() if k in names}


# --- distributions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bin:
    """Boosts in ``[low, high)``."""

    low: float
    high: float
    count: int


@dataclass(frozen=True, slots=True)
class BoostHistogram:
    profile: str
    bins: tuple[Bin, ...]

    @property
    def total(self) -> int:
        return sum(b.count for b in self.bins)


def boost_histograms(
    entries: Iterable[LogEntry], width: float = BOOST_BIN_WIDTH
) -> list[BoostHistogram]:
    """One histogram per profile over every logged hit; contiguous bins of ``width`` aligned
    to its multiples, from the lowest boost to the highest (so counts sum to the hits)."""
    if width <= 0:
        raise ValueError(f"width must be > 0, got {width}")
    per_profile: dict[str, Counter[int]] = {}
    for entry in entries:
        counts = per_profile.setdefault(entry.profile, Counter())
        for hit in entry.hits:
            # rounding first keeps 0.30 / 0.05 (= 5.999...) in the bin starting at 0.30
            counts[math.floor(round(hit.boost / width, 9))] += 1
    histograms = []
    for profile, counts in sorted(per_profile.items()):
        if not counts:
            continue
        bins = tuple(
            Bin(round(i * width, 10), round((i + 1) * width, 10), counts.get(i, 0))
            for i in range(min(counts), max(counts) + 1)
        )
        histograms.append(BoostHistogram(profile, bins))
    return histograms


@dataclass(frozen=True, slots=True)
class Distribution:
    """Counts by year (ascending) and by época (chronological); keys are strings."""

    by_year: tuple[tuple[str, int], ...]
    by_epoca: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.by_year)


def _year_key(key: str) -> tuple[int, str]:
    return (int(key), key) if key.lstrip("-").isdigit() else (10**6, key)


def _epoca_key(key: str) -> tuple[int, str]:
    number = epoca_number(key)
    return (number if number else 10**6, key)


def distribution(by_year: Mapping[str, int], by_epoca: Mapping[str, int]) -> Distribution:
    """Order raw counts (e.g. a store's ``count_by``); época names are canonicalized."""
    epocas: Counter[str] = Counter()
    for name, n in by_epoca.items():
        epocas[canonical_epoca(name) or name or UNKNOWN] += n
    return Distribution(
        by_year=tuple(
            sorted(((str(k), n) for k, n in by_year.items()), key=lambda kv: _year_key(kv[0]))
        ),
        by_epoca=tuple(sorted(epocas.items(), key=lambda kv: _epoca_key(kv[0]))),
    )


def _count(pairs: Iterable[tuple[str, str]]) -> Distribution:
    years: Counter[str] = Counter()
    epocas: Counter[str] = Counter()
    for year, epoca in pairs:
        years[year] += 1
        epocas[epoca] += 1
    return distribution(years, epocas)


def retrieved_distribution(entries: Iterable[LogEntry]) -> Distribution:
    """One count per logged hit (a tesis shown with two chunks counts twice, as in the
    boost histogram, so both totals equal the logged hits)."""
    return _count((str(h.anio), h.epoca) for e in entries for h in e.hits)


def cited_distribution(entries: Iterable[LogEntry]) -> Distribution:
    """One count per cited registro per answer, dated from the entry's hits."""
    pairs = []
    for entry in entries:
        known = {h.registro: (str(h.anio), h.epoca) for h in reversed(entry.hits)}
        pairs += [known.get(r, (UNKNOWN, UNKNOWN)) for r in entry.cited]
    return _count(pairs)


@dataclass(frozen=True, slots=True)
class Shares:
    """Shares of the logged hits: before 2000 and superseded over all hits; pre-reform over
    the hits of searches whose materia has a reform cutoff (``reform_hits``)."""

    pre_2000: float
    pre_reform: float
    superseded: float
    hits: int
    reform_hits: int


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def shares(entries: Sequence[LogEntry]) -> Shares:
    hits = [h for e in entries for h in e.hits]
    reform = [(e, h) for e in entries if e.cutoff_year is not None for h in e.hits]
    return Shares(
        pre_2000=_share(sum(h.anio < MODERN_YEAR for h in hits), len(hits)),
        pre_reform=_share(sum(e.pre_reform(h) for e, h in reform), len(reform)),
        superseded=_share(sum(h.superseded for h in hits), len(hits)),
        hits=len(hits),
        reform_hits=len(reform),
    )


@dataclass(frozen=True, slots=True)
class MateriaStats:
    """Searches per detected materia (None: no materia); ``pre_reform_share`` is None when
    the materia has no reform cutoff."""

    materia: str | None
    searches: int
    hits: int
    pre_reform_share: float | None


def by_materia(entries: Sequence[LogEntry]) -> list[MateriaStats]:
    groups: dict[str | None, list[LogEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.materia, []).append(entry)
    stats = []
    for materia, group in groups.items():
        hits = [(e, h) for e in group for h in e.hits]
        has_cutoff = any(e.cutoff_year is not None for e in group)
        pre = sum(e.pre_reform(h) for e, h in hits)
        stats.append(
            MateriaStats(
                materia, len(group), len(hits), _share(pre, len(hits)) if has_cutoff else None
            )
        )
    return sorted(stats, key=lambda s: (-s.searches, s.materia or "~"))


# --- alerts ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonitoringThresholds:
    """``pre_reform_share``: MANY_PRE_REFORM fires above this share (0..1).
    ``inversion_gap``: INVERSION needs the two cosines within this distance (0..1).
    ``bin_width``: width of the boost histogram bins."""

    pre_reform_share: float = 0.3
    inversion_gap: float = 0.02
    bin_width: float = BOOST_BIN_WIDTH

    def __post_init__(self) -> None:
        for name in ("pre_reform_share", "inversion_gap"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value}")
        if self.bin_width <= 0:
            raise ValueError(f"bin_width must be > 0, got {self.bin_width}")


@dataclass(frozen=True, slots=True)
class CoverageCount:
    """How many stored tesis of ``materia`` date from its reform cutoff onward."""

    materia: str
    cutoff: int
    count: int


@dataclass(frozen=True, slots=True)
class Alert:
    code: str
    severity: Severity
    count: int
    first_seen: datetime
    last_seen: datetime
    examples: tuple[str, ...]  # up to MAX_EXAMPLES distinct questions, newest first
    message: str


def _alert(
    code: str, severity: Severity, hits: Sequence[tuple[LogEntry, int]], message: str
) -> Alert:
    """An alert over ``(entry, occurrences)`` pairs; entries must not be empty."""
    newest_first = sorted((e for e, _ in hits), key=lambda e: e.timestamp, reverse=True)
    examples = tuple(dict.fromkeys(e.question for e in newest_first))[:MAX_EXAMPLES]
    return Alert(
        code=code,
        severity=severity,
        count=sum(n for _, n in hits),
        first_seen=newest_first[-1].timestamp,
        last_seen=newest_first[0].timestamp,
        examples=examples,
        message=message,
    )


def inversions(entry: LogEntry, gap: float) -> list[tuple[LoggedHit, LoggedHit]]:
    """(older, newer) pairs where an older tesis ranks above a newer one although recency
    favoured the newer one (a boost at least ``INVERSION_MIN_BOOST_RATIO`` times larger),
    their cosines are within ``gap`` and they share a materia: relevance from elsewhere (e.g.
    BM25) overrode recency between equals.

    Compared at tesis level (best chunk per registro). A demoted (superseded) newer tesis has
    the smaller boost, so it is never part of an inversion. Not checked when recency was off
    (weight 0: similarity order was asked for) or for questions about the earliest criteria
    (oldest first is the answer there).
    """
    if entry.recency_weight == 0 or entry.temporal == "earliest":
        return []
    seen: set[int] = set()
    tesis = []
    for hit in sorted(entry.hits, key=lambda h: h.rank):
        if hit.registro not in seen:
            seen.add(hit.registro)
            tesis.append(hit)
    return [
        (older, newer)
        for i, older in enumerate(tesis)
        for newer in tesis[i + 1 :]
        if older.anio < newer.anio
        and newer.boost >= older.boost * INVERSION_MIN_BOOST_RATIO
        and set(older.materias) & set(newer.materias)
        and abs(older.similarity - newer.similarity) <= gap + 1e-12
    ]


def _asked_for_old(entry: LogEntry) -> bool:
    anio_max = (entry.parameters.get("filters") or {}).get("anio_max")
    return isinstance(anio_max, int) and anio_max < MODERN_YEAR


def pre_reform_alert(entries: Sequence[LogEntry], threshold: float) -> Alert | None:
    """MANY_PRE_REFORM: of the hits of searches whose materia has a reform cutoff, the share
    that predates it is above ``threshold``."""
    reform = [(e, sum(e.pre_reform(h) for h in e.hits)) for e in entries if e.cutoff_year]
    pre, total = sum(n for _, n in reform), sum(len(e.hits) for e, _ in reform)
    if not total or pre / total <= threshold:
        return None
    message = (
        f"{pre} de {total} fuentes ({pre / total:.0%}) anteriores a la reforma de su materia "
        f"(umbral {threshold:.0%})"
    )
    return _alert(MANY_PRE_REFORM, "warning", [(e, n) for e, n in reform if n], message)


def all_pre_2000_alert(entries: Sequence[LogEntry]) -> Alert | None:
    """ALL_PRE_2000: searches with hits, all before 2000. Info when every such search asked
    for old law (an ``anio_max`` filter before 2000), else warning."""
    old = [(e, 1) for e in entries if e.hits and all(h.anio < MODERN_YEAR for h in e.hits)]
    if not old:
        return None
    severity: Severity = "info" if all(_asked_for_old(e) for e, _ in old) else "warning"
    message = f"{len(old)} búsquedas con todas sus fuentes anteriores a {MODERN_YEAR}"
    return _alert(ALL_PRE_2000, severity, old, message)


def inversion_alert(entries: Sequence[LogEntry], gap: float) -> Alert | None:
    """INVERSION: searches with at least one pair from ``inversions``."""
    inverted = [(e, pairs) for e in entries if (pairs := inversions(e, gap))]
    if not inverted:
        return None
    older, newer = inverted[0][1][0]
    message = (
        "una tesis anterior supera a una más reciente de la misma materia con similitud casi "
        f"igual (p. ej. {older.registro} de {older.anio} antes que {newer.registro} de "
        f"{newer.anio}: {older.similarity:.3f} frente a {newer.similarity:.3f})"
    )
    return _alert(INVERSION, "warning", [(e, 1) for e, _ in inverted], message)


def superseded_alerts(entries: Sequence[LogEntry]) -> list[Alert]:
    """SUPERSEDED_RETRIEVED (warning: shown, flagged and demoted) per hit that lost force;
    SUPERSEDED_CITED (critical) per citation of one in an answer."""
    alerts = []
    shown = [(e, n) for e in entries if (n := sum(h.superseded for h in e.hits))]
    if shown:
        message = "criterios que perdieron vigencia aparecen entre los resultados"
        alerts.append(_alert(SUPERSEDED_RETRIEVED, "warning", shown, message))
    cited = [(e, n) for e in entries if (n := _superseded_cited(e))]
    if cited:
        message = "una respuesta citó un criterio que perdió vigencia"
        alerts.append(_alert(SUPERSEDED_CITED, "critical", cited, message))
    return alerts


def detect_alerts(
    entries: Sequence[LogEntry],
    thresholds: MonitoringThresholds,
    coverage: Sequence[CoverageCount] = (),
    *,
    now: datetime,
) -> list[Alert]:
    """Every alert over ``entries``, most severe first, then by count."""
    found = [
        pre_reform_alert(entries, thresholds.pre_reform_share),
        all_pre_2000_alert(entries),
        inversion_alert(entries, thresholds.inversion_gap),
    ]
    alerts = [a for a in found if a is not None]
    alerts += superseded_alerts(entries) + coverage_alerts(entries, coverage, now=now)
    return sorted(alerts, key=lambda a: (SEVERITY_ORDER[a.severity], -a.count, a.code))


def _superseded_cited(entry: LogEntry) -> int:
    lost = {h.registro for h in entry.hits if h.superseded}
    return sum(r in lost for r in entry.cited)


def coverage_alerts(
    entries: Sequence[LogEntry], coverage: Sequence[CoverageCount], *, now: datetime
) -> list[Alert]:
    """COVERAGE_GAP for each materia with no tesis since its cutoff: "actualizar la base".

    ``count`` is how many searches of the window asked about that materia (critical when
    any did: people are being answered from superseded law; warning otherwise).
    """
    alerts = []
    for gap in coverage:
        if gap.count > 0:
            continue
        wanted = canonical_materia(gap.materia)
        affected = [(e, 1) for e in entries if e.materia and canonical_materia(e.materia) == wanted]
        message = (
            f"ninguna tesis de {gap.materia} desde {gap.cutoff} (corte de la reforma): "
            "actualizar la base"
        )
        if affected:
            alerts.append(_alert(COVERAGE_GAP, "critical", affected, message))
        else:
            alerts.append(Alert(COVERAGE_GAP, "warning", 0, now, now, (), message))
    return alerts


# --- the report ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MonitoringReport:
    window_hours: int
    since: datetime
    until: datetime
    searches: int
    hits: int
    histograms: tuple[BoostHistogram, ...]
    retrieved: Distribution
    cited: Distribution
    corpus: Distribution
    shares: Shares
    by_materia: tuple[MateriaStats, ...]
    alerts: tuple[Alert, ...]
    truncated: bool = False  # the window held more entries than were read
    abstentions: int = 0  # searches and chats that found nothing that answers


def build_report(
    entries: Sequence[LogEntry],
    *,
    corpus: Distribution,
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
        histograms=tuple(boost_histograms(window, thresholds.bin_width)),
        retrieved=retrieved_distribution(window),
        cited=cited_distribution(window),
        corpus=corpus,
        shares=shares(window),
        by_materia=tuple(by_materia(window)),
        alerts=tuple(detect_alerts(window, thresholds, coverage, now=now)),
        truncated=truncated,
        abstentions=sum(1 for e in window if e.abstain_reason is not None),
    )
