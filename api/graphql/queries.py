"""Query resolvers: convert input, call a service in a worker thread, wrap the result."""

from __future__ import annotations

from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool

from api.core.models import VIGENTE
from api.errors import EmbedderError, InvalidRequest, StoreError
from api.graphql.context import Info
from api.graphql.errors import graphql_error, service_error
from api.graphql.inputs import FiltersInput, SearchInput, TimelineInput, filters_to_core
from api.graphql.types import (
    Bucket,
    DiscardedHit,
    GroupBy,
    InputError,
    SearchHit,
    ServiceError,
    TesisRecord,
    TimelineItem,
    Timings,
)
from api.services.search import SearchIntent, SearchRequest, SearchResult
from api.services.timeline import TimelinePage, distribution, timeline
from api.store.base import SortOrder
from api.structured_log import log_rerank


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
    language: str = strawberry.field(description="es, en, mixed or unknown.")

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
            language=intent.language,
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
        )


@strawberry.type(description="A page of tesis in date order.")
class TimelinePayload:
    total: int
    items: list[TimelineItem]
    order: str = strawberry.field(description="The order of the items: ASC or DESC (echoed).")
    date_field: str | None = strawberry.field(
        description="The extra date the items are sorted by; null: the primary date."
    )


SearchResponse = Annotated[
    SearchPayload | InputError | ServiceError, strawberry.union("SearchResponse")
]


TimelineResponse = Annotated[
    TimelinePayload | InputError | ServiceError, strawberry.union("TimelineResponse")
]


DatedResponse = Annotated[
    SearchPayload | TimelinePayload | InputError | ServiceError, strawberry.union("DatedResponse")
]


def search_and_record(info: Info, request: SearchRequest) -> tuple[SearchResult, str | None]:
    """Search, then log it (the recorder never raises; a failed write is counted)."""
    result = info.context.search.search(request)
    log_rerank(request.query, result)
    recorder = info.context.recorder
    log_id = recorder.record_search(request.query, request, result) if recorder else None
    return result, log_id


async def run_search(info: Info, request: SearchRequest) -> SearchResponse:
    try:
        result, log_id = await run_in_threadpool(search_and_record, info, request)
    except InvalidRequest as exc:
        return InputError(field=exc.field, message=exc.reason)
    except (StoreError, EmbedderError) as exc:
        return service_error(exc)
    return SearchPayload.from_core(result, log_id)


def timeline_payload(page: TimelinePage) -> TimelinePayload:
    items = [TimelineItem.from_core(t, s) for t, s in page.items]
    return TimelinePayload(
        total=page.total, items=items, order=page.order, date_field=page.date_field
    )


async def dated(
    info: Info, order: SortOrder, query: str | None, filters: FiltersInput | None, limit: int
) -> DatedResponse:
    """Earliest/latest: a date-sorted search when there is a question, else the timeline."""
    try:
        core_filters = filters_to_core(filters)
        if query and query.strip():
            request = SearchRequest(
                query=query,
                filters=core_filters,
                top_k=limit,
                ordering="earliest" if order == "ASC" else "latest",
            )
            return await run_search(info, request)
        page = await run_in_threadpool(timeline, info.context.store, core_filters, order, limit, 0)
    except InvalidRequest as exc:
        return InputError(field=exc.field, message=exc.reason)
    except StoreError as exc:
        return service_error(exc)
    return timeline_payload(page)


@strawberry.type
class Query:
    @strawberry.field(description="Recency-aware search over the tesis.")
    async def search(self, info: Info, input: SearchInput) -> SearchResponse:
        try:
            request = input.to_core()
        except InvalidRequest as exc:
            return InputError(field=exc.field, message=exc.reason)
        return await run_search(info, request)

    @strawberry.field(description="Tesis in publication-date order, filtered.")
    async def timeline(self, info: Info, input: TimelineInput) -> TimelineResponse:
        try:
            filters = filters_to_core(input.filters)
            page = await run_in_threadpool(
                timeline,
                info.context.store,
                filters,
                input.order.value,
                input.limit,
                input.offset,
                input.date_field,
            )
        except InvalidRequest as exc:
            return InputError(field=exc.field, message=exc.reason)
        except StoreError as exc:
            return service_error(exc)
        return timeline_payload(page)

    @strawberry.field(
        description="The earliest tesis: on the question's topic, date-sorted over the whole "
        "filtered set, when a query is given; else simply the oldest under the filters."
    )
    async def earliest(
        self,
        info: Info,
        query: str | None = None,
        filters: FiltersInput | None = None,
        limit: int = 5,
    ) -> DatedResponse:
        return await dated(info, "ASC", query, filters, limit)

    @strawberry.field(description="The latest tesis (on the question's topic when given).")
    async def latest(
        self,
        info: Info,
        query: str | None = None,
        filters: FiltersInput | None = None,
        limit: int = 5,
    ) -> DatedResponse:
        return await dated(info, "DESC", query, filters, limit)

    @strawberry.field(description="How many tesis per year, época, materia, tipo or instancia.")
    async def distribution(
        self, info: Info, group_by: GroupBy, filters: FiltersInput | None = None
    ) -> list[Bucket]:
        try:
            core_filters = filters_to_core(filters)
            rows = await run_in_threadpool(
                distribution, info.context.store, group_by.value, core_filters
            )
        except (InvalidRequest, StoreError) as exc:
            raise graphql_error(exc) from exc
        return [Bucket(key=key, count=count) for key, count in rows]

    @strawberry.field(description="One tesis by registro digital; null if not stored.")
    async def tesis(self, info: Info, registro: int) -> TesisRecord | None:
        store = info.context.store

        def load() -> TesisRecord | None:
            found = store.get_tesis([registro]).get(registro)
            if found is None:
                return None
            status = store.get_validity([registro]).get(registro, VIGENTE)
            return TesisRecord.from_core(found, store.get_chunks(registro), status)

        return await run_in_threadpool(load)
