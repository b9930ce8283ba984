"""``corpusStats``: what the corpus holds, for the dashboard's Corpus page."""

from __future__ import annotations

from typing import Annotated

import strawberry

from api.graphql.context import Info
from api.graphql.errors import outcome
from api.graphql.types import Bucket, InputError, ServiceError
from api.services.corpus import CorpusStats, corpus_overview


@strawberry.type(description="Tesis of a materia since its reform cutoff (0 = update the corpus).")
class CoverageGap:
    materia: str
    cutoff_year: int
    count_since: int


@strawberry.type(description="Summary of the newest ingest report.")
class IngestSummary:
    finished_at: str | None
    started_at: str | None
    read: int
    stored: int
    unchanged: int
    chunks: int
    rejected: int
    warnings: int


@strawberry.type
class CorpusStatsType:
    total: int
    chunks: int
    by_epoca: list[Bucket]
    by_materia: list[Bucket]
    by_tipo: list[Bucket]
    by_year: list[Bucket]
    coverage_gaps: list[CoverageGap]
    last_ingest: IngestSummary | None


CorpusStatsResponse = Annotated[
    CorpusStatsType | ServiceError, strawberry.union("CorpusStatsResponse")
]


def _buckets(rows: list[tuple[str, int]]) -> list[Bucket]:
    return [Bucket(key=key, count=count) for key, count in rows]


def stats_type(stats: CorpusStats) -> CorpusStatsType:
    return CorpusStatsType(
        total=stats.total,
        chunks=stats.chunks,
        by_epoca=_buckets(stats.by_epoca),
        by_materia=_buckets(stats.by_materia),
        by_tipo=_buckets(stats.by_tipo),
        by_year=_buckets(stats.by_year),
        coverage_gaps=[
            CoverageGap(materia=m, cutoff_year=c, count_since=n) for m, c, n in stats.coverage
        ],
        last_ingest=IngestSummary(**stats.last_ingest) if stats.last_ingest else None,
    )


@strawberry.type
class CorpusQuery:
    @strawberry.field(
        description="Counts by época, materia, tipo and year; coverage since each reform; last ingest."
    )
    async def corpus_stats(self, info: Info) -> CorpusStatsResponse:
        ctx = info.context
        found = await outcome(stats_type, corpus_overview, ctx.store, ctx.search, ctx.settings)
        assert not isinstance(found, InputError), "corpusStats takes no input"
        return found
