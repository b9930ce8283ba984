"""Changes to the stored data through the API: ingest a batch, import notes, delete tesis."""

from __future__ import annotations

from collections.abc import Sequence

from api.core.models import IngestReport
from api.core.validity import NotesImport, parse_notes
from api.errors import InvalidRequest
from api.ingest.pipeline import ingest_records
from api.services.search import SearchService
from api.store.base import VectorStore

MAX_RECORDS = 1000
MAX_DELETE = 1000


def ingest_batch(store: VectorStore, search: SearchService, records: list[object]) -> IngestReport:
    """Validate and store up to ``MAX_RECORDS`` records, embedded as searches embed."""
    if not 1 <= len(records) <= MAX_RECORDS:
        raise InvalidRequest("records", f"{len(records)} records, 1..{MAX_RECORDS}")
    report = ingest_records(records, "api", store, search.embedder)
    search.corpus.forget()  # tesis into an empty or generic store: read its kind again
    return report


def import_notes(store: VectorStore, notes: object) -> NotesImport:
    """Store the validity notes of ``{"tesis": {registro: note}}``; what was parsed."""
    if not isinstance(notes, dict) or not isinstance(notes.get("tesis"), dict):
        raise InvalidRequest("notes", 'expected {"tesis": {registro: note}}')
    parsed = parse_notes(notes)
    store.upsert_validity(parsed.notes)
    return parsed


def delete_tesis(store: VectorStore, registros: Sequence[int]) -> int:
    """Remove up to ``MAX_DELETE`` tesis; how many were stored."""
    if not 1 <= len(registros) <= MAX_DELETE:
        raise InvalidRequest("registros", f"{len(registros)} items, 1..{MAX_DELETE}")
    return store.delete(registros)
