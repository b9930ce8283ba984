"""Ingest: read -> validate -> skip unchanged -> chunk -> embed (cached) -> upsert, in batches."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime
from pathlib import Path

from api.core.chunking import DEFAULT_MAX_TOKENS, chunk_tesis, embedding_text
from api.core.models import IngestReport, Rejection, Tesis
from api.embeddings.base import Embedder
from api.ingest.generic import GenericFields, parse_generic
from api.ingest.loaders import RawRecord, read_records
from api.ingest.records import Parsed, parse_record, tesis_to_record
from api.store.base import TesisEntry, VectorStore

CHUNKER_VERSION = f"sentences-{DEFAULT_MAX_TOKENS}-v2"
Progress = Callable[[IngestReport], None]
BATCH_SIZE = 64  # records chunked, embedded and upserted together


def fingerprint(tesis: Tesis, model_id: str) -> str:
    """Changes when the record, the chunker or the embedding model changes."""
    payload = json.dumps(tesis_to_record(tesis), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(f"{CHUNKER_VERSION}|{model_id}|{payload}".encode()).hexdigest()[:24]


Source = tuple[str, Iterable[RawRecord | Rejection]]


@dataclass(frozen=True, slots=True)
class Located:
    """A valid record and where it was read (to name it in a later rejection)."""

    source: str
    line: int
    tesis: Tesis


def kind(tesis: Tesis) -> str:
    """'tesis' or 'generic record': a generic record has no época."""
    return "generic record" if tesis.generic else "tesis"


def _valid_tesis(
    sources: Iterable[Source], report: IngestReport, today: date, generic: GenericFields | None
) -> Iterator[Located]:
    first_seen: dict[int, tuple[str, int]] = {}
    for name, items in sources:
        for item in items:
            if isinstance(item, Rejection):
                report.read += 1
                report.rejected.append(item)
                continue
            line, raw = item
            report.read += 1
            parsed = (
                parse_record(raw, name, line, today)
                if generic is None
                else parse_generic(raw, name, line, today, generic)
            )
            if not isinstance(parsed, Parsed):
                report.rejected.append(parsed)
                continue
            registro = parsed.tesis.registro
            if registro in first_seen:
                where = "{}:{}".format(*first_seen[registro])
                report.rejected.append(
                    Rejection(
                        name,
                        line,
                        str(registro),
                        "registro",
                        f"duplicate of the record at {where}; first one kept",
                    )
                )
                continue
            first_seen[registro] = (name, line)
            report.warnings.extend(parsed.warnings)
            yield Located(name, line, parsed.tesis)


def _batches(items: Iterator[Located], size: int) -> Iterator[list[Located]]:
    batch: list[Located] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


@dataclass(frozen=True, slots=True)
class Options:
    """How a run reads and batches: the date épocas are checked against, records per batch,
    a callback after each batch, and ``generic`` for a non-legal dated corpus."""

    today: date | None = None
    batch_size: int = BATCH_SIZE
    progress: Progress | None = None
    generic: GenericFields | None = None


def ingest(
    paths: Iterable[Path],
    store: VectorStore,
    embedder: Embedder,
    today: date | None = None,
    batch_size: int = BATCH_SIZE,
    progress: Progress | None = None,
    generic: GenericFields | None = None,
) -> IngestReport:
    """Store every valid record; report every bad one. Re-running stores nothing new.

    ``generic`` reads a non-legal dated corpus (see ``api.ingest.generic``).
    """
    id_field = generic.id if generic else None
    sources = ((path.name, read_records(path, id_field)) for path in paths)
    options = Options(today, batch_size, progress, generic)
    return ingest_sources(sources, store, embedder, options)


def ingest_records(
    records: Sequence[object], source: str, store: VectorStore, embedder: Embedder
) -> IngestReport:
    """Ingest records already in memory (the API's ``ingestTesis``); line = position + 1."""
    items: list[RawRecord | Rejection] = [
        (i, r) if isinstance(r, dict) else Rejection(source, i, None, "record", "not an object")
        for i, r in enumerate(records, start=1)
    ]
    return ingest_sources([(source, items)], store, embedder)


def ingest_sources(
    sources: Iterable[Source],
    store: VectorStore,
    embedder: Embedder,
    options: Options = Options(),
) -> IngestReport:
    today, batch_size, progress = options.today, options.batch_size, options.progress
    report = IngestReport()
    valid = _valid_tesis(sources, report, today or date.today(), options.generic)
    for batch in _batches(valid, batch_size):
        prints = {r.tesis.registro: fingerprint(r.tesis, embedder.model_id) for r in batch}
        stored = store.fingerprints(list(prints))
        updates = [r for r in batch if stored.get(r.tesis.registro) != prints[r.tesis.registro]]
        report.unchanged += len(batch) - len(updates)
        clashes = _kind_clashes([r for r in updates if r.tesis.registro in stored], store)
        report.rejected.extend(clashes)
        refused = {int(c.registro) for c in clashes if c.registro is not None}
        changed = [r.tesis for r in updates if r.tesis.registro not in refused]
        chunked = [(t, chunk_tesis(t)) for t in changed]
        texts = [embedding_text(t.rubro, c) for t, chunks in chunked for c in chunks]
        if not texts:
            if progress:
                progress(report)
            continue
        vectors = embedder.embed(texts, "passage")
        entries, offset = [], 0
        for tesis, chunks in chunked:
            rows = vectors[offset : offset + len(chunks)]
            offset += len(chunks)
            entries.append(TesisEntry(tesis, chunks, rows, prints[tesis.registro]))
        if entries:
            result = store.upsert(entries)
            report.stored += result.written
            report.chunks += result.chunks
            report.rejected.extend(
                Rejection("store", 0, None, "upsert", error) for error in result.errors
            )
        report.embedded += len(texts)
        if progress:
            progress(report)
    return report


def _kind_clashes(updates: Sequence[Located], store: VectorStore) -> list[Rejection]:
    """A rejection per record that would replace a stored record of the other kind (a generic
    record over a tesis, or the reverse): ids of two corpora may collide, and the stored one
    must not be lost."""
    if not updates:
        return []
    current = store.get_tesis([r.tesis.registro for r in updates])
    clashes = []
    for r in updates:
        old = current.get(r.tesis.registro)
        if old is not None and kind(old) != kind(r.tesis):
            reason = (
                f"{r.tesis.registro} is already stored as a {kind(old)}; a {kind(r.tesis)} "
                "does not replace it (give it another id, or delete the stored one first)"
            )
            clashes.append(Rejection(r.source, r.line, str(r.tesis.registro), "registro", reason))
    return clashes


def write_report(report: IngestReport, directory: Path, started_at: datetime | None = None) -> Path:
    """Save the report as JSON (timestamped, plus ``last.json``); returns the timestamped path."""
    directory.mkdir(parents=True, exist_ok=True)
    payload = {
        "started_at": started_at.isoformat(timespec="seconds") if started_at else None,
        "finished_at": datetime.now().isoformat(timespec="seconds"),
        "read": report.read,
        "stored": report.stored,
        "unchanged": report.unchanged,
        "chunks": report.chunks,
        "rejected": [asdict(r) | {"message": str(r)} for r in report.rejected],
        "warnings": [asdict(w) | {"message": str(w)} for w in report.warnings],
    }
    text = json.dumps(payload, ensure_ascii=False, indent=1)
    path = directory / f"ingest-{datetime.now():%Y%m%d-%H%M%S-%f}.json"
    path.write_text(text, encoding="utf-8")
    (directory / "last.json").write_text(text, encoding="utf-8")
    return path
