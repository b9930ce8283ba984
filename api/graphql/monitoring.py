"""GraphQL for ranking monitoring: thin types over ``api.core.monitoring``/``api.core.compare``
and resolvers over ``api.services.monitoring``.

``MonitoringQuery`` and ``MonitoringMutation`` are merged into the schema's root types. The
resolvers read ``info.context.log`` (a ``SearchLog``) and ``info.context.recorder`` (a
``Recorder``), besides ``store``, ``search`` and ``settings``. Expected failures are union
members (``InputError``, ``ServiceError``); the two list fields (``searchLog``, ``alerts``)
report them as GraphQL errors with ``extensions.code`` BAD_USER_INPUT or
SERVICE_UNAVAILABLE, since a list cannot be a union member.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, cast

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON

from api.core import compare as core_compare
from api.core import monitoring as core
from api.core.redact import redact
from api.core.scoring import Profile
from api.errors import LogError
from api.graphql.auth import HasApiKey
from api.graphql.context import Info
from api.graphql.errors import EXPECTED, failure, graphql_error
from api.graphql.inputs import FiltersInput, filters_to_core
from api.graphql.types import Bucket, InputError, ScoringProfile, ServiceError
from api.monitoring.log_base import SearchLog
from api.services import monitoring as service
from api.services.search import SearchRequest

DEFAULT_WINDOW_HOURS = 168  # one week


# --- distributions and alerts


@strawberry.type(description="Boosts (finalScore / relevance) in [low, high).")
class HistogramBin:
    low: float
    high: float
    count: int


@strawberry.type(description="Boost distribution of the logged hits of one scoring profile.")
class BoostHistogram:
    profile: str
    bins: list[HistogramBin]
    total: int

    @classmethod
    def from_core(cls, h: core.BoostHistogram) -> BoostHistogram:
        bins = [HistogramBin(low=b.low, high=b.high, count=b.count) for b in h.bins]
        return cls(profile=h.profile, bins=bins, total=h.total)


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


@strawberry.type(description="Shares (0..1) of the logged hits in the window.")
class SourceShares:
    pre_before_2000: float = strawberry.field(description="Published before 2000.")
    pre_reform: float = strawberry.field(
        description="Before their search's materia reform cutoff, over the hits of searches "
        "whose materia has one (reformHits)."
    )
    superseded: float = strawberry.field(description="Criteria that lost force (SJF notes).")
    hits: int
    reform_hits: int


@strawberry.type
class MateriaBreakdown:
    materia: str | None = strawberry.field(description="Detected materia; null: none.")
    searches: int
    hits: int
    pre_reform_share: float | None = strawberry.field(
        description="Null when the materia has no reform cutoff."
    )


@strawberry.type(description="A condition the ranking should not produce, seen in the window.")
class MonitoringAlert:
    code: str = strawberry.field(
        description="MANY_PRE_REFORM, ALL_PRE_2000, INVERSION, SUPERSEDED_RETRIEVED, "
        "SUPERSEDED_CITED or COVERAGE_GAP."
    )
    severity: str = strawberry.field(description="info, warning or critical.")
    count: int
    first_seen: datetime
    last_seen: datetime
    examples: list[str] = strawberry.field(description="Up to 3 questions, newest first.")
    message: str

    @classmethod
    def from_core(cls, a: core.Alert) -> MonitoringAlert:
        return cls(
            code=a.code,
            severity=a.severity,
            count=a.count,
            first_seen=a.first_seen,
            last_seen=a.last_seen,
            examples=list(a.examples),
            message=a.message,
        )


@strawberry.type(description="Search-log writes since the process started.")
class LogHealth:
    status: str
    recorded: int
    failures: int
    last_error: str | None

    @classmethod
    def from_recorder(cls, recorder: Any) -> LogHealth | None:
        if recorder is None:
            return None
        stats = recorder.stats()
        status = "ok" if stats["failures"] == 0 else "degraded"
        return cls(
            status=status,
            recorded=stats["recorded"],
            failures=stats["failures"],
            last_error=redact(stats["last_error"], hide_locations=True)
            if stats["last_error"]
            else None,
        )


@strawberry.type(description="Boost and temporal distributions, shares and alerts of a window.")
class MonitoringReport:
    window_hours: int
    since: datetime
    until: datetime
    searches: int
    hits: int
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
    log_health: LogHealth | None

    @classmethod
    def from_core(cls, r: core.MonitoringReport, recorder: Any = None) -> MonitoringReport:
        series = [
            TemporalSeries.from_core("retrieved", r.retrieved),
            TemporalSeries.from_core("cited", r.cited),
            TemporalSeries.from_core("corpus", r.corpus),
        ]
        s = r.shares
        return cls(
            window_hours=r.window_hours,
            since=r.since,
            until=r.until,
            searches=r.searches,
            hits=r.hits,
            boost_histogram=[BoostHistogram.from_core(h) for h in r.histograms],
            temporal=TemporalDistributions(retrieved=series[0], cited=series[1], corpus=series[2]),
            temporal_series=series,
            shares=SourceShares(
                pre_before_2000=s.pre_2000,
                pre_reform=s.pre_reform,
                superseded=s.superseded,
                hits=s.hits,
                reform_hits=s.reform_hits,
            ),
            by_materia=[
                MateriaBreakdown(
                    materia=m.materia,
                    searches=m.searches,
                    hits=m.hits,
                    pre_reform_share=m.pre_reform_share,
                )
                for m in r.by_materia
            ],
            alerts=[MonitoringAlert.from_core(a) for a in r.alerts],
            truncated=r.truncated,
            abstentions=r.abstentions,
            log_health=LogHealth.from_recorder(recorder),
        )


# --- the log


@strawberry.type(name="LoggedHit", description="A hit as it was shown, with every factor.")
class LoggedHitType:
    registro: int
    rubro: str
    anio: int
    epoca: str
    tipo: str
    materias: list[str]
    estado: str
    similarity: float
    relevance: float
    recency_factor: float
    epoca_factor: float
    final_score: float
    boost: float = strawberry.field(description="finalScore / relevance.")
    rank: int
    rank_without_recency: int

    @classmethod
    def from_core(cls, h: core.LoggedHit) -> LoggedHitType:
        return cls(
            registro=h.registro,
            rubro=h.rubro,
            anio=h.anio,
            epoca=h.epoca,
            tipo=h.tipo,
            materias=list(h.materias),
            estado=h.estado,
            similarity=h.similarity,
            relevance=h.relevance,
            recency_factor=h.recency_factor,
            epoca_factor=h.epoca_factor,
            final_score=h.final_score,
            boost=h.boost,
            rank=h.rank,
            rank_without_recency=h.rank_without_recency,
        )


@strawberry.type(name="LoggedDiscard")
class LoggedDiscardType:
    registro: int
    anio: int
    code: str
    reason: str


@strawberry.type(description="A user's verdict on one registro of a logged search.")
class LoggedFeedback:
    registro: int
    useful: bool
    comment: str | None
    timestamp: datetime


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
        return cls(
            id=e.id,
            timestamp=e.timestamp,
            kind=e.kind,
            question=e.question,
            materia=e.materia,
            temporal=e.temporal,
            route=e.route,
            cutoff_year=e.cutoff_year,
            rules_applied=e.rules_applied,
            profile=e.profile,
            recency_weight=e.recency_weight,
            mode=e.mode,
            parameters=cast(JSON, dict(e.parameters)),
            candidates=e.candidates,
            latency_ms=e.latency_ms,
            abstain_reason=e.abstain_reason,
            hits=[LoggedHitType.from_core(h) for h in e.hits],
            discarded=[
                LoggedDiscardType(registro=d.registro, anio=d.anio, code=d.code, reason=d.reason)
                for d in e.discarded
            ],
            cited=list(e.cited),
            feedback=[
                LoggedFeedback(
                    registro=f.registro, useful=f.useful, comment=f.comment, timestamp=f.timestamp
                )
                for f in e.feedback
            ],
        )


@strawberry.type(description="Feedback stored with its log entry.")
class FeedbackResult:
    log_id: str
    registro: int
    useful: bool
    comment: str | None


# --- comparison


@strawberry.type(name="RankedTesis", description="A tesis in one ranking (best chunk).")
class RankedTesisType:
    registro: int
    rank: int
    final_score: float
    anio: int


@strawberry.type(name="RankChange")
class RankChangeType:
    registro: int
    rank_a: int | None
    rank_b: int | None
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
        def ranked(items: tuple[core_compare.RankedTesis, ...]) -> list[RankedTesisType]:
            return [
                RankedTesisType(
                    registro=t.registro, rank=t.rank, final_score=t.final_score, anio=t.anio
                )
                for t in items
            ]

        return cls(
            a=ranked(c.a),
            b=ranked(c.b),
            rank_changes=[
                RankChangeType(registro=x.registro, rank_a=x.rank_a, rank_b=x.rank_b, delta=x.delta)
                for x in c.changes
            ],
            entered=list(c.entered),
            dropped=list(c.dropped),
            kendall_tau=c.kendall_tau,
        )


@strawberry.input(description="One side of a comparison; omitted fields: see CompareInput.")
class RankingSideInput:
    recency_weight: float | None = None
    profile: ScoringProfile | None = None
    vigencia_rules: bool = strawberry.field(
        default=True, description="Apply reform-cutoff and pre-Novena discards."
    )

    def to_core(self, base: SearchRequest, recency_weight: float | None) -> SearchRequest:
        profile: Profile | None = None
        if self.profile is not None:
            profile = self.profile.value
        return service.side_request(base, recency_weight, profile, self.vigencia_rules)


@strawberry.input(
    description="One question ranked two ways. A defaults to recency weight 0 (similarity "
    "order), B to the configured weight."
)
class CompareInput:
    query: str
    filters: FiltersInput | None = None
    top_k: int = 10
    a: RankingSideInput | None = None
    b: RankingSideInput | None = None

    def to_core(self) -> tuple[SearchRequest, SearchRequest]:
        filters = filters_to_core(self.filters)
        base = SearchRequest(query=self.query, filters=filters, top_k=self.top_k)
        a, b = self.a or RankingSideInput(), self.b or RankingSideInput()
        weight_a = 0.0 if a.recency_weight is None else a.recency_weight
        return a.to_core(base, weight_a), b.to_core(base, b.recency_weight)


MonitoringResponse = Annotated[
    MonitoringReport | InputError | ServiceError, strawberry.union("MonitoringResponse")
]
CompareResponse = Annotated[
    ComparisonType | InputError | ServiceError, strawberry.union("CompareResponse")
]
FeedbackResponse = Annotated[
    FeedbackResult | InputError | ServiceError, strawberry.union("FeedbackResponse")
]


# --- resolvers


def _log(info: Info) -> SearchLog:
    log: SearchLog | None = info.context.log
    if log is None:
        raise LogError("the search log is not configured")
    return log


@strawberry.type
class MonitoringQuery:
    @strawberry.field(
        description="Boost and temporal distributions, shares and alerts. API key needed when one is set.",
        permission_classes=[HasApiKey],
    )
    async def monitoring(
        self, info: Info, window_hours: int = DEFAULT_WINDOW_HOURS
    ) -> MonitoringResponse:
        ctx = info.context
        try:
            report = await run_in_threadpool(
                service.monitoring_report,
                _log(info),
                ctx.store,
                window_hours,
                service.thresholds_from_settings(ctx.settings),
                ctx.search.config.reform.cutoffs,
            )
        except EXPECTED as exc:
            return failure(exc)
        return MonitoringReport.from_core(report, ctx.recorder)

    @strawberry.field(
        description="Logged searches and chats, newest first (limit 1..200). API key needed when one is set.",
        permission_classes=[HasApiKey],
    )
    async def search_log(self, info: Info, limit: int = 20, offset: int = 0) -> list[LogEntryType]:
        try:
            entries = await run_in_threadpool(service.recent_entries, _log(info), limit, offset)
        except EXPECTED as exc:
            raise graphql_error(exc) from exc
        return [LogEntryType.from_core(e) for e in entries]

    @strawberry.field(
        description="Alerts of the window, most severe first. API key needed when one is set.",
        permission_classes=[HasApiKey],
    )
    async def alerts(
        self, info: Info, window_hours: int = DEFAULT_WINDOW_HOURS
    ) -> list[MonitoringAlert]:
        ctx = info.context
        try:
            found = await run_in_threadpool(
                service.alerts,
                _log(info),
                ctx.store,
                window_hours,
                service.thresholds_from_settings(ctx.settings),
                ctx.search.config.reform.cutoffs,
            )
        except EXPECTED as exc:
            raise graphql_error(exc) from exc
        return [MonitoringAlert.from_core(a) for a in found]

    @strawberry.field(description="One question ranked two ways (A/B), compared per tesis.")
    async def compare_rankings(self, info: Info, input: CompareInput) -> CompareResponse:
        try:
            request_a, request_b = input.to_core()
            comparison = await run_in_threadpool(
                service.compare_rankings, info.context.search, request_a, request_b
            )
        except EXPECTED as exc:
            return failure(exc)
        return ComparisonType.from_core(comparison)


@strawberry.type
class MonitoringMutation:
    @strawberry.mutation(
        permission_classes=[HasApiKey],
        description="Mark one registro of a logged search useful or not.",
    )
    async def feedback(
        self,
        info: Info,
        log_id: str,
        registro: int,
        useful: bool,
        comment: str | None = None,
    ) -> FeedbackResponse:
        try:
            stored = await run_in_threadpool(
                service.submit_feedback, _log(info), log_id, registro, useful, comment
            )
        except EXPECTED as exc:
            return failure(exc)
        return FeedbackResult(
            log_id=stored.log_id,
            registro=stored.registro,
            useful=stored.useful,
            comment=stored.comment,
        )
