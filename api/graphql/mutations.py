"""Mutations that change data; each needs the API key when one is configured."""

from __future__ import annotations

from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from api.core.models import IngestReport
from api.core.validity import NotesImport
from api.graphql.auth import HasApiKey
from api.graphql.context import Info
from api.graphql.errors import outcome
from api.graphql.types import Outcome
from api.services import writes
from api.services.writes import MAX_RECORDS


@strawberry.type
class RejectedRecord:
    line: int
    registro: str | None
    field: str
    reason: str


@strawberry.type(description="What an ingest stored and what it refused, record by record.")
class IngestResult:
    read: int
    stored: int
    unchanged: int
    chunks: int
    rejected: list[RejectedRecord]
    warnings: list[str]

    @classmethod
    def from_core(cls, r: IngestReport) -> IngestResult:
        return cls(
            read=r.read,
            stored=r.stored,
            unchanged=r.unchanged,
            chunks=r.chunks,
            rejected=[
                RejectedRecord(line=x.line, registro=x.registro, field=x.field, reason=x.reason)
                for x in r.rejected
            ],
            warnings=[str(w) for w in r.warnings],
        )


@strawberry.type
class NotesResult:
    imported: int
    rejected: list[str]

    @classmethod
    def from_core(cls, parsed: NotesImport) -> NotesResult:
        return cls(imported=len(parsed.notes), rejected=list(parsed.rejected))


@strawberry.type
class DeleteResult:
    deleted: int


IngestResponse = Annotated[Outcome[IngestResult], strawberry.union("IngestResponse")]
NotesResponse = Annotated[Outcome[NotesResult], strawberry.union("NotesResponse")]
DeleteResponse = Annotated[Outcome[DeleteResult], strawberry.union("DeleteResponse")]


@strawberry.type
class DataMutation:
    @strawberry.mutation(
        permission_classes=[HasApiKey],
        description=f"Validate and store tesis records (JSONL fields), at most {MAX_RECORDS}.",
    )
    async def ingest_tesis(self, info: Info, records: list[JSON]) -> IngestResponse:
        ctx = info.context
        return await outcome(
            IngestResult.from_core, writes.ingest_batch, ctx.store, ctx.search, list(records)
        )

    @strawberry.mutation(
        permission_classes=[HasApiKey],
        description='Import SJF validity notes: {"tesis": {registro: {estado, por_registro…}}}.',
    )
    async def import_notes(self, info: Info, notes: JSON) -> NotesResponse:
        return await outcome(NotesResult.from_core, writes.import_notes, info.context.store, notes)

    @strawberry.mutation(permission_classes=[HasApiKey], description="Remove tesis by registro.")
    async def delete_tesis(self, info: Info, registros: list[int]) -> DeleteResponse:
        return await outcome(
            lambda deleted: DeleteResult(deleted=deleted),
            writes.delete_tesis,
            info.context.store,
            registros,
        )
