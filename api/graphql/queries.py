"""Query resolvers: convert input, call a service in a worker thread, wrap the result."""

from __future__ import annotations

from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool

from api.core.models import VIGENTE
from api.embeddings.base import EmbedderError
from api.graphql.context import Info
from api.graphql.inputs import SearchInput
from api.graphql.types import (
    InputError,
    SearchHit,
    ServiceError,
    TesisRecord,
    Timings,
)
from api.search import InvalidRequest, SearchResult
from api.store.base import StoreError


@strawberry.type(description="Ranked hits for a question, with the scoring that produced them.")
class SearchPayload:
    hits: list[SearchHit]
    candidates: int = strawberry.field(description="Candidates scored before the top-k cut.")
    recency_weight: float
    profile: str
    mode: str
    timings: Timings

    @classmethod
    def from_core(cls, result: SearchResult) -> SearchPayload:
        return cls(
            hits=[SearchHit.from_core(h) for h in result.hits],
            candidates=result.candidates,
            recency_weight=result.recency_weight,
            profile=result.profile,
            mode=result.mode,
            timings=Timings(
                embed_ms=result.timings_ms.get("embed", 0.0),
                retrieve_ms=result.timings_ms.get("retrieve", 0.0),
                score_ms=result.timings_ms.get("score", 0.0),
            ),
        )


SearchResponse = Annotated[
    SearchPayload | InputError | ServiceError, strawberry.union("SearchResponse")
]


def service_error(exc: Exception) -> ServiceError:
    service = "embedder" if isinstance(exc, EmbedderError) else "store"
    return ServiceError(service=service, message=str(exc))


@strawberry.type
class Query:
    @strawberry.field(description="Recency-aware search over the tesis.")
    async def search(self, info: Info, input: SearchInput) -> SearchResponse:
        try:
            request = input.to_core()
            result = await run_in_threadpool(info.context.search.search, request)
        except InvalidRequest as exc:
            return InputError(field=exc.field, message=exc.reason)
        except (StoreError, EmbedderError) as exc:
            return service_error(exc)
        return SearchPayload.from_core(result)

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
