"""GraphQL output types of ranking monitoring, each a thin copy of a core record.

A type declares its fields as ``fields_of`` the record (``api.core.monitoring``,
``api.core.compare``, ``api.services.monitoring``) where they are the same, and ``mirror(cls,
record, **values)`` builds it; ``values`` are the fields that differ (nested types, renames).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, cast

import strawberry
from strawberry.scalars import JSON

from api.core import compare as core_compare
from api.core import monitoring as core
from api.graphql.mirror import fields_of, mirror
from api.graphql.types import Bucket, Outcome
from api.services import monitoring as service

# --- distributions and alerts


@strawberry.type(description="Boosts (finalScore / relevance) in [low, high).")
class HistogramBin:
    __annotations__ = fields_of(core.Bin)


@strawberry.type(description="Boost distribution of the logged hits of one scoring profile.")
class BoostHistogram:
    profile: str
    bins: list[HistogramBin]
    total: int

    @classmethod
    def from_core(cls, h: core.BoostHistogram) -> BoostHistogram:
        return mirror(cls, h, bins=[mirror(HistogramBin, b) for b in h.bins])


@strawberry.type(description="Counts by year (ascending) and by época (chronological).")
class TemporalSeries:
    series: str = strawberry.field(description="retrieved, cited or corpus.")
    by_year: list[Bucket]
    by_epoca: list[Bucket]
    total: int

    @classmethod
    def from_core(cls, series: str, d: core.Distribution) -> TemporalSeries:
        return cls(
            series=series,
            by_year=[Bucket(key=k, count=n) for k, n in d.by_year],
            by_epoca=[Bucket(key=k, count=n) for k, n in d.by_epoca],
            total=d.total,
        )


@strawberry.type
class TemporalDistributions:
    retrieved: TemporalSeries = strawberry.field(description="One count per logged hit.")
    cited: TemporalSeries = strawberry.field(description="One count per citation in answers.")
    corpus: TemporalSeries = strawberry.field(description="Every stored tesis.")


@strawberry.type(
    description="Shares (0..1) of the tesis among the logged hits in the window (a generic "
    "corpus's records are no criteria); hits counts every logged hit."
)
class SourceShares:
    __annotations__ = fields_of(core.Shares)
    pre_2000: float = strawberry.field(
        name="preBefore2000", description="Tesis published before 2000, over the tesis hits."
    )
    pre_reform: float = strawberry.field(
        description="Before their search's materia reform cutoff, over the tesis hits of "
        "searches whose materia has one (reformHits)."
    )
    superseded: float = strawberry.field(
        description="Criteria that lost force (SJF notes), over the tesis hits."
    )


@strawberry.type
class MateriaBreakdown:
    __annotations__ = fields_of(core.MateriaStats)
    materia: str | None = strawberry.field(description="Detected materia; null: none.")
    pre_reform_share: float | None = strawberry.field(
        description="Null when the materia has no reform cutoff."
    )


@strawberry.type(description="A condition the ranking should not produce, seen in the window.")
class MonitoringAlert:
    __annotations__ = fields_of(core.Alert)
    code: str = strawberry.field(
        description="MANY_PRE_REFORM, ALL_PRE_2000, INVERSION, SUPERSEDED_RETRIEVED, "
        "SUPERSEDED_CITED or COVERAGE_GAP."
    )
    severity: str = strawberry.field(description="info, warning or critical.")
    examples: list[str] = strawberry.field(description="Up to 3 questions, newest first.")

    @classmethod
    def from_core(cls, a: core.Alert) -> MonitoringAlert:
        return mirror(cls, a)


@strawberry.type(description="Search-log writes since the process started.")
class LogHealth:
    __annotations__ = fields_of(service.LogHealth)


@strawberry.type(description="Boost and temporal distributions, shares and alerts of a window.")
class MonitoringReport:
    __annotations__ = fields_of(
        core.MonitoringReport, "window_hours", "since", "until", "searches", "hits"
    )
    boost_histogram: list[BoostHistogram]
    temporal: TemporalDistributions
    temporal_series: list[TemporalSeries] = strawberry.field(
        description="The three series of `temporal` as a list."
    )
    shares: SourceShares
    by_materia: list[MateriaBreakdown]
    alerts: list[MonitoringAlert]
    truncated: bool = strawberry.field(description="The window held more entries than read.")
    abstentions: int = strawberry.field(
        description="Searches and chats that found nothing that answers (no hits, a reason)."
    )
    low_confidence: int = strawberry.field(
        description="Answers ranked by relevance given low confidence (see AnswerConfidence)."
    )
    log_health: LogHealth | None

    @classmethod
    def from_core(
        cls, r: core.MonitoringReport, health: service.LogHealth | None = None
    ) -> MonitoringReport:
        series = [
            TemporalSeries.from_core(name, d)
            for name, d in (("retrieved", r.retrieved), ("cited", r.cited), ("corpus", r.corpus))
        ]
        return mirror(
            cls,
            r,
            boost_histogram=[BoostHistogram.from_core(h) for h in r.histograms],
            temporal=TemporalDistributions(retrieved=series[0], cited=series[1], corpus=series[2]),
            temporal_series=series,
            shares=mirror(SourceShares, r.shares),
            by_materia=[mirror(MateriaBreakdown, m) for m in r.by_materia],
            alerts=[MonitoringAlert.from_core(a) for a in r.alerts],
            log_health=None if health is None else mirror(LogHealth, health),
        )


# --- the log


@strawberry.type(name="LoggedHit", description="A hit as it was shown, with every factor.")
class LoggedHitType:
    __annotations__ = fields_of(core.LoggedHit, without=("parcial",))
    boost: float = strawberry.field(description="finalScore / relevance.")


@strawberry.type(name="LoggedDiscard")
class LoggedDiscardType:
    __annotations__ = fields_of(core.LoggedDiscard)


@strawberry.type(description="A user's verdict on one registro of a logged search.")
class LoggedFeedback:
    __annotations__ = fields_of(core.Feedback, without=("log_id",))


@strawberry.type(name="LogEntry", description="One search or chat as it was answered.")
class LogEntryType:
    id: str
    timestamp: datetime
    kind: str = strawberry.field(description="search or chat.")
    question: str
    materia: str | None
    temporal: str | None = strawberry.field(description="earliest, latest, current or null.")
    route: str = strawberry.field(description="relevance, date_sorted or blend.")
    cutoff_year: int | None
    rules_applied: bool
    profile: str
    recency_weight: float
    mode: str
    parameters: JSON = strawberry.field(description="The request as given (unset fields left out).")
    candidates: int
    latency_ms: float
    abstain_reason: str | None = strawberry.field(description="Why it answered nothing.")
    hits: list[LoggedHitType]
    discarded: list[LoggedDiscardType]
    cited: list[int]
    feedback: list[LoggedFeedback]

    @classmethod
    def from_core(cls, e: core.LogEntry) -> LogEntryType:
        return mirror(
            cls,
            e,
            parameters=cast(JSON, dict(e.parameters)),
            hits=[mirror(LoggedHitType, h) for h in e.hits],
            discarded=[mirror(LoggedDiscardType, d) for d in e.discarded],
            feedback=[mirror(LoggedFeedback, f) for f in e.feedback],
        )


@strawberry.type(description="Feedback stored with its log entry.")
class FeedbackResult:
    __annotations__ = fields_of(core.Feedback, without=("timestamp",))

    @classmethod
    def from_core(cls, f: core.Feedback) -> FeedbackResult:
        return mirror(cls, f)


# --- comparison


@strawberry.type(name="RankedTesis", description="A tesis in one ranking (best chunk).")
class RankedTesisType:
    __annotations__ = fields_of(core_compare.RankedTesis)


@strawberry.type(name="RankChange")
class RankChangeType:
    __annotations__ = fields_of(core_compare.RankChange)
    delta: int | None = strawberry.field(description="rankA - rankB: positive moved up in B.")


@strawberry.type(name="Comparison", description="One question ranked two ways, per tesis.")
class ComparisonType:
    a: list[RankedTesisType]
    b: list[RankedTesisType]
    rank_changes: list[RankChangeType]
    entered: list[int] = strawberry.field(description="In B, not in A.")
    dropped: list[int] = strawberry.field(description="In A, not in B.")
    kendall_tau: float | None = strawberry.field(
        description="Kendall tau-b over the union, missing registros tied after each list; "
        "null when undefined (fewer than two registros)."
    )

    @classmethod
    def from_core(cls, c: core_compare.Comparison) -> ComparisonType:
        return mirror(
            cls,
            c,
            a=[mirror(RankedTesisType, t) for t in c.a],
            b=[mirror(RankedTesisType, t) for t in c.b],
            rank_changes=[mirror(RankChangeType, x) for x in c.changes],
        )


MonitoringResponse = Annotated[Outcome[MonitoringReport], strawberry.union("MonitoringResponse")]
CompareResponse = Annotated[Outcome[ComparisonType], strawberry.union("CompareResponse")]
FeedbackResponse = Annotated[Outcome[FeedbackResult], strawberry.union("FeedbackResponse")]
