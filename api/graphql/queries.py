"""Query resolvers: convert input, call a service in a worker thread, wrap the result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

import strawberry
from starlette.concurrency import run_in_threadpool

from api.errors import InvalidRequest, argument_names
from api.graphql.context import Info
from api.graphql.errors import listed, outcome
from api.graphql.inputs import FiltersInput, SearchInput, TimelineInput, filters_to_core
from api.graphql.types import (
    AnswerConfidence,
    Bucket,
    DiscardedHit,
    GroupBy,
    Outcome,
    SearchHit,
    TesisRecord,
    TimelineItem,
    Timings,
)
from api.services.lookup import tesis_detail
from api.services.recorded import search_and_record
from api.services.search import SearchIntent, SearchRequest, SearchResult
from api.services.search.request import MAX_TOP_K
from api.services.timeline import TimelinePage, distribution, timeline
from api.store.base import SortOrder


@strawberry.type(description="How the question was read and routed.")
class Intent:
    materia: str | None
    materia_triggers: list[str]
    materia_source: str | None = strawberry.field(description="filter, question or hits.")
    temporal: str | None = strawberry.field(description="earliest, latest, current or null.")
    temporal_triggers: list[str]
    mode: str = strawberry.field(description="relevance, date_sorted or blend.")
    cutoff_year: int | None = strawberry.field(description="Reform cutoff of the materia.")
    rules_applied: bool
    recency_weight: float
    topic: list[str] = strawberry.field(description="Topic terms of an ordering question.")
    topic_words: list[str] = strawberry.field(
        description="The question's words that make its topic, as written («suspensión»)."
    )
    language: str = strawberry.field(description="es, en, mixed or unknown.")
    cited: list[int] = strawberry.field(
        description="Registros the question cited by registro digital or clave: a lookup, "
        "answered with those tesis in the order cited."
    )
    not_found: list[str] = strawberry.field(
        description="Tesis the question cited that the corpus lacks («tesis 2a./J. 12/2019», "
        "«registro digital 123»), when it holds others cited: those answered."
    )

    named_filters: list[str] = strawberry.field(
        description="Words of the question read as filters (an época, a year, a circuit, a "
        "kind of tesis or a court, the last two in first/latest requests or when said not to "
        "be wanted: «décima época», «de 1980», «tesis aislada», «que no sea de la Séptima "
        "Época»)."
    )

    excluded: list[str] = strawberry.field(
        description='Words the question excluded ("-doméstico", "NOT vehículo"): no hit has '
        "them in its rubro or passage."
    )

    date_field: str | None = strawberry.field(
        description="The extra date of a generic corpus a date-sorted question used "
        '(pushed_at for "latest update"); null: the primary date.'
    )

    @classmethod
    def from_core(cls, intent: SearchIntent, recency_weight: float) -> Intent:
        return cls(
            materia=intent.materia.materia,
            materia_triggers=list(intent.materia.triggers),
            materia_source=intent.materia.source,
            temporal=intent.temporal.kind,
            temporal_triggers=list(intent.temporal.triggers),
            mode=intent.route,
            cutoff_year=intent.cutoff_year,
            rules_applied=intent.rules_applied,
            recency_weight=recency_weight,
            topic=list(intent.topic),
            topic_words=list(intent.topic_words),
            language=intent.language,
            cited=list(intent.cited),
            not_found=list(intent.not_found),
            named_filters=list(intent.named_filters),
            excluded=list(intent.excluded),
            date_field=intent.date_field,
        )


@strawberry.type(description="Ranked hits for a question, with the scoring that produced them.")
class SearchPayload:
    log_id: str | None = strawberry.field(description="Search-log id, for feedback.")
    hits: list[SearchHit]
    without_recency: list[SearchHit] = strawberry.field(
        description="The ranking without recency beside the real one: top-k by relevance alone "
        "(before the vigencia rules), each hit with all its factors."
    )
    discarded: list[DiscardedHit]
    intent: Intent
    candidates: int = strawberry.field(description="Candidates scored before the top-k cut.")
    recency_weight: float
    profile: str
    mode: str
    timings: Timings
    abstained: bool = strawberry.field(
        description="Nothing in the corpus answers the question: no hits, see abstainReason."
    )
    abstain_reason: str | None = strawberry.field(description="Why the search abstained.")
    confidence: AnswerConfidence | None = strawberry.field(
        description="How far to trust the first hit, when relevance ranked it."
    )

    @classmethod
    def from_core(cls, result: SearchResult, log_id: str | None = None) -> SearchPayload:
        return cls(
            log_id=log_id,
            hits=[SearchHit.from_core(h) for h in result.hits],
            without_recency=[SearchHit.from_core(h) for h in result.without_recency],
            discarded=[DiscardedHit.from_core(d) for d in result.discarded],
            intent=Intent.from_core(result.intent, result.recency_weight),
            candidates=result.candidates,
            recency_weight=result.recency_weight,
            profile=result.profile,
            mode=result.mode,
            timings=Timings(
                embed_ms=result.timings_ms.get("embed", 0.0),
                retrieve_ms=result.timings_ms.get("retrieve", 0.0),
                score_ms=result.timings_ms.get("score", 0.0),
            ),
            abstained=result.abstained,
            abstain_reason=result.abstain_reason,
            confidence=AnswerConfidence.from_core(result.confidence),
        )


@strawberry.type(description="A page of tesis in date order.")
class TimelinePayload:
    total: int
    items: list[TimelineItem]
    order: str = strawberry.field(description="The order of the items: ASC or DESC (echoed).")
    date_field: str | None = strawberry.field(
        description="The extra date the items are sorted by; null: the primary date."
    )


SearchResponse = Annotated[Outcome[SearchPayload], strawberry.union("SearchResponse")]


TimelineResponse = Annotated[Outcome[TimelinePayload], strawberry.union("TimelineResponse")]


DatedResponse = Annotated[
    Outcome[SearchPayload | TimelinePayload], strawberry.union("DatedResponse")
]


async def run_search(
    info: Info, request: Callable[[], SearchRequest], **arguments: str
) -> SearchResponse:
    """Search and log it; ``request`` is built in the worker, so its errors join the union,
    named as ``arguments`` renames them (``topK="limit"``)."""
    ctx = info.context

    def searched() -> tuple[SearchResult, str | None]:
        with argument_names(**arguments):
            return search_and_record(ctx.search, ctx.recorder, request())

    return await outcome(lambda found: SearchPayload.from_core(*found), searched)


def timeline_payload(page: TimelinePage) -> TimelinePayload:
    items = [TimelineItem.from_core(t, s) for t, s in page.items]
    return TimelinePayload(
        total=page.total, items=items, order=page.order, date_field=page.date_field
    )


async def dated(
    info: Info, order: SortOrder, query: str | None, filters: FiltersInput | None, limit: int
) -> DatedResponse:
    """Earliest/latest: a date-sorted search when there is a question, else the timeline."""
    if query and query.strip():
        ordering: Literal["earliest", "latest"] = "earliest" if order == "ASC" else "latest"
        return await run_search(
            info,
            lambda: SearchRequest(
                query=query, filters=filters_to_core(filters), top_k=limit, ordering=ordering
            ),
            topK="limit",
        )
    store = info.context.store

    def page() -> TimelinePage:
        if not 1 <= limit <= MAX_TOP_K:  # one bound, with a question or without
            raise InvalidRequest("limit", f"{limit} is outside 1..{MAX_TOP_K}")
        return timeline(store, filters_to_core(filters), order, limit, 0)

    return await outcome(timeline_payload, page)


def dated_field(order: SortOrder, description: str) -> DatedResponse:
    """``earliest`` or ``latest``: the same arguments, the other order."""

    async def resolve(
        info: Info,
        query: str | None = None,
        filters: FiltersInput | None = None,
        limit: Annotated[
            int, strawberry.argument(description=f"How many tesis, 1..{MAX_TOP_K}.")
        ] = 5,
    ) -> DatedResponse:
        return await dated(info, order, query, filters, limit)

    return strawberry.field(resolver=resolve, description=description)


@strawberry.type
class SearchQuery:
    """``search`` and ``timeline``; a base of ``Query`` so that they stay first in the schema
    (Strawberry lists assigned fields such as ``earliest`` before methods)."""

    @strawberry.field(description="Recency-aware search over the tesis.")
    async def search(self, info: Info, input: SearchInput) -> SearchResponse:
        return await run_search(info, input.to_core)

    @strawberry.field(description="Tesis in publication-date order, filtered.")
    async def timeline(self, info: Info, input: TimelineInput) -> TimelineResponse:
        store = info.context.store
        return await outcome(
            timeline_payload,
            lambda: timeline(
                store,
                filters_to_core(input.filters),
                input.order.value,
                input.limit,
                input.offset,
                input.date_field,
            ),
        )


@strawberry.type
class Query(SearchQuery):
    earliest: DatedResponse = dated_field(
        "ASC",
        "The earliest tesis: on the question's topic, date-sorted over the whole filtered set, "
        "when a query is given; else simply the oldest under the filters.",
    )
    latest: DatedResponse = dated_field(
        "DESC", "The latest tesis (on the question's topic when given)."
    )

    @strawberry.field(
        description="How many tesis per year, época, materia, tipo, instancia or organo."
    )
    async def distribution(
        self, info: Info, group_by: GroupBy, filters: FiltersInput | None = None
    ) -> list[Bucket]:
        store = info.context.store
        rows = await listed(lambda: distribution(store, group_by.value, filters_to_core(filters)))
        return [Bucket(key=key, count=count) for key, count in rows]

    @strawberry.field(description="One tesis by registro digital; null if not stored.")
    async def tesis(self, info: Info, registro: int) -> TesisRecord | None:
        found = await run_in_threadpool(tesis_detail, info.context.store, registro)
        return TesisRecord.from_core(found) if found else None
