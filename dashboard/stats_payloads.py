"""The shapes of the monitoring, search log, feedback and corpus answers, as
:mod:`dashboard.queries` selects them; like :mod:`dashboard.payloads`, types only.
"""

from __future__ import annotations

from typing import TypedDict

from dashboard.payloads import Scores


class Bucket(TypedDict):
    key: str
    count: int


class HistogramBin(TypedDict):
    low: float
    high: float
    count: int


class BoostHistogram(TypedDict):
    profile: str
    total: int
    bins: list[HistogramBin]


class TemporalSeries(TypedDict):
    series: str
    total: int
    byYear: list[Bucket]
    byEpoca: list[Bucket]


class Shares(TypedDict):
    preBefore2000: float
    preReform: float
    superseded: float
    hits: int
    reformHits: int


class MateriaBreakdown(TypedDict):
    materia: str | None
    searches: int
    hits: int
    preReformShare: float | None


class Alert(TypedDict):
    code: str
    severity: str
    count: int
    firstSeen: str
    lastSeen: str
    examples: list[str]
    message: str


class LogHealth(TypedDict):
    status: str
    recorded: int
    failures: int
    lastError: str | None


class MonitoringReport(TypedDict):
    windowHours: int
    since: str
    until: str
    searches: int
    hits: int
    truncated: bool
    abstentions: int
    lowConfidence: int
    boostHistogram: list[BoostHistogram]
    temporalSeries: list[TemporalSeries]
    shares: Shares
    byMateria: list[MateriaBreakdown]
    alerts: list[Alert]
    logHealth: LogHealth | None


class LoggedHit(Scores):
    registro: int
    rubro: str
    anio: int
    epoca: str
    tipo: str
    estado: str


class LoggedDiscard(TypedDict):
    registro: int
    anio: int
    code: str
    reason: str


class LoggedFeedback(TypedDict):
    registro: int
    useful: bool
    comment: str | None
    timestamp: str


class LogEntry(TypedDict):
    id: str
    timestamp: str
    kind: str
    question: str
    materia: str | None
    temporal: str | None
    route: str
    cutoffYear: int | None
    rulesApplied: bool
    profile: str
    recencyWeight: float
    mode: str
    candidates: int
    latencyMs: float
    cited: list[int]
    abstainReason: str | None
    hits: list[LoggedHit]
    discarded: list[LoggedDiscard]
    feedback: list[LoggedFeedback]


class FeedbackResult(TypedDict):
    logId: str
    registro: int
    useful: bool
    comment: str | None


class FeedbackCount(TypedDict):
    key: str
    useful: int
    notUseful: int


class FeedbackSummary(TypedDict):
    windowHours: int
    useful: int
    notUseful: int
    byDay: list[FeedbackCount]
    byMateria: list[FeedbackCount]


class CoverageGap(TypedDict):
    materia: str
    cutoffYear: int
    countSince: int


class IngestSummary(TypedDict):
    finishedAt: str | None
    startedAt: str | None
    read: int
    stored: int
    unchanged: int
    rejected: int
    warnings: int
    chunks: int


class CorpusStats(TypedDict):
    total: int
    chunks: int
    byEpoca: list[Bucket]
    byMateria: list[Bucket]
    byTipo: list[Bucket]
    byYear: list[Bucket]
    coverageGaps: list[CoverageGap]
    lastIngest: IngestSummary | None
