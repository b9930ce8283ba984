"""Alerts: conditions the ranking should not produce, found in a window of log entries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Literal

from api.core.intent import canonical_materia
from api.core.monitoring.distributions import BOOST_BIN_WIDTH
from api.core.monitoring.records import MODERN_YEAR, LogEntry, LoggedHit

Severity = Literal["info", "warning", "critical"]
SEVERITY_ORDER: Mapping[str, int] = MappingProxyType({"critical": 0, "warning": 1, "info": 2})

# Alert codes.
MANY_PRE_REFORM = "MANY_PRE_REFORM"  # share of pre-reform hits above a threshold
ALL_PRE_2000 = "ALL_PRE_2000"  # a search whose every hit predates 2000
INVERSION = "INVERSION"  # an older tesis outranks a newer one of equal similarity
SUPERSEDED_RETRIEVED = "SUPERSEDED_RETRIEVED"  # a criterion that lost force was shown
SUPERSEDED_CITED = "SUPERSEDED_CITED"  # ... and an answer cited it
COVERAGE_GAP = "COVERAGE_GAP"  # no tesis of a materia after its reform cutoff
# INVERSION needs recency to have favoured the newer tesis by at least 5 % (its boost over
# the older one's): below that both sit on the flat tail of the decay (1976 vs 1977 differ by
# 0.2 %) and a swap between near-equal cosines is noise, not recency failing.
INVERSION_MIN_BOOST_RATIO = 1.05
MAX_EXAMPLES = 3  # example questions per alert


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
    """MANY_PRE_REFORM: of the tesis hits of searches whose materia has a reform cutoff, the
    share that predates it is above ``threshold`` (a generic corpus's records are not law)."""
    reform = [(e, sum(e.pre_reform(h) for h in e.hits)) for e in entries if e.cutoff_year]
    pre = sum(n for _, n in reform)
    total = sum(not h.generic for e, _ in reform for h in e.hits)
    if not total or pre / total <= threshold:
        return None
    message = (
        f"{pre} de {total} fuentes ({pre / total:.0%}) anteriores a la reforma de su materia "
        f"(umbral {threshold:.0%})"
    )
    return _alert(MANY_PRE_REFORM, "warning", [(e, n) for e, n in reform if n], message)


def all_pre_2000_alert(entries: Sequence[LogEntry]) -> Alert | None:
    """ALL_PRE_2000: searches with tesis among their hits, all before 2000 (a generic corpus's
    records are not law). Info when every such search asked for old law (an ``anio_max``
    filter before 2000), else warning."""
    old = [(e, 1) for e in entries if _all_tesis_before(e, MODERN_YEAR)]
    if not old:
        return None
    severity: Severity = "info" if all(_asked_for_old(e) for e, _ in old) else "warning"
    message = f"{len(old)} búsquedas con todas sus fuentes anteriores a {MODERN_YEAR}"
    return _alert(ALL_PRE_2000, severity, old, message)


def _all_tesis_before(entry: LogEntry, year: int) -> bool:
    tesis = [h for h in entry.hits if not h.generic]
    return bool(tesis) and all(h.anio < year for h in tesis)


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
