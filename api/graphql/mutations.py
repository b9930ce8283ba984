"""Mutations that change data; each needs the API key when one is configured."""

from __future__ import annotations

from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON

from api.core.models import IngestReport
from api.core.validity import parse_notes
from api.errors import EmbedderError, StoreError
from api.graphql.auth import HasApiKey
from api.graphql.context import Info
from api.graphql.errors import service_error
from api.graphql.types import InputError, ServiceError
from api.ingest.pipeline import ingest_records

MAX_RECORDS = 1000
MAX_DELETE = 1000


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


@strawberry.type
class DeleteResult:
    deleted: int


IngestResponse = Annotated[
    IngestResult | InputError | ServiceError, strawberry.union("IngestResponse")
]
NotesResponse = Annotated[
    NotesResult | InputError | ServiceError, strawberry.union("NotesResponse")
]
DeleteResponse = Annotated[
    DeleteResult | InputError | ServiceError, strawberry.union("DeleteResponse")
]


@strawberry.type
class DataMutation:
    @strawberry.mutation(
        permission_classes=[HasApiKey],
        description=f"Validate and store tesis records (JSONL fields), at most {MAX_RECORDS}.",
    )
    async def ingest_tesis(self, info: Info, records: list[JSON]) -> IngestResponse:
        if not 1 <= len(records) <= MAX_RECORDS:
            return InputError(field="records", message=f"{len(records)} records, 1..{MAX_RECORDS}")
        ctx = info.context
        try:
            report = await run_in_threadpool(
                ingest_records, list(records), "api", ctx.store, ctx.search.embedder
            )
        except (StoreError, EmbedderError) as exc:
            return service_error(exc)
        return IngestResult.from_core(report)

    @strawberry.mutation(
        permission_classes=[HasApiKey],
        description='Import SJF validity notes: {"tesis": {registro: {estado, por_registro…}}}.',
    )
    async def import_notes(self, info: Info, notes: JSON) -> NotesResponse:
        if not isinstance(notes, dict) or not isinstance(notes.get("tesis"), dict):
            return InputError(field="notes", message='expected {"tesis": {registro: note}}')
        parsed = parse_notes(notes)
        try:
            await run_in_threadpool(info.context.store.upsert_validity, parsed.notes)
        except StoreError as exc:
            return service_error(exc)
        return NotesResult(imported=len(parsed.notes), rejected=list(parsed.rejected))

    @strawberry.mutation(permission_classes=[HasApiKey], description="Remove tesis by registro.")
    async def delete_tesis(self, info: Info, registros: list[int]) -> DeleteResponse:
        if not 1 <= len(registros) <= MAX_DELETE:
            return InputError(field="registros", message=f"{len(registros)} items, 1..{MAX_DELETE}")
        try:
            deleted = await run_in_threadpool(info.context.store.delete, registros)
        except StoreError as exc:
            return service_error(exc)
        return DeleteResult(deleted=deleted)
