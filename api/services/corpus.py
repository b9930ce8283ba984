"""What the corpus holds: counts by property, coverage since each reform, the last ingest."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from api.core.models import Filters
from api.errors import StoreError
from api.services.monitoring import coverage_counts
from api.services.search import SearchService
from api.services.timeline import distribution
from api.settings import Settings
from api.store.base import VectorStore


@dataclass(frozen=True, slots=True)
class CorpusStats:
    total: int
    chunks: int
    by_epoca: list[tuple[str, int]]
    by_materia: list[tuple[str, int]]
    by_tipo: list[tuple[str, int]]
    by_year: list[tuple[str, int]]
    coverage: list[tuple[str, int, int]]  # materia, reform cutoff, tesis since the cutoff
    last_ingest: dict[str, Any] | None


def last_ingest(reports_dir: Path) -> dict[str, Any] | None:
    """The summary of the newest ingest report (``last.json``), or None."""
    path = reports_dir / "last.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return {
        "finished_at": report.get("finished_at"),
        "started_at": report.get("started_at"),
        "read": report.get("read", 0),
        "stored": report.get("stored", 0),
        "unchanged": report.get("unchanged", 0),
        "chunks": report.get("chunks", 0),
        "rejected": len(report.get("rejected", [])),
        "warnings": len(report.get("warnings", [])),
    }


def corpus_stats(store: VectorStore, cutoffs: Mapping[str, int], reports_dir: Path) -> CorpusStats:
    """Counts of every record by year; by época, materia and tipo of the tesis only (a generic
    corpus's records have none of them, and no reform coverage)."""
    every = Filters()
    by_epoca = [(name, n) for name, n in distribution(store, "epoca", every) if name]
    epocas = tuple(sorted(name for name, _ in by_epoca))  # read once: each is a full scan
    tesis, chunks = store.count()
    coverage = coverage_counts(store, cutoffs, holds_tesis=bool(epocas) or not tesis)
    return CorpusStats(
        total=tesis,
        chunks=chunks,
        by_epoca=by_epoca,
        by_materia=distribution(store, "materias", every),
        by_tipo=distribution(store, "tipo", Filters(epocas=epocas)) if epocas else [],
        by_year=distribution(store, "anio", every),
        coverage=[(c.materia, c.cutoff, c.count) for c in coverage],
        last_ingest=last_ingest(reports_dir),
    )


def corpus_overview(store: VectorStore, search: SearchService, settings: Settings) -> CorpusStats:
    """``corpus_stats`` with the reform cutoffs searches use and the ingest reports' folder."""
    return corpus_stats(store, search.config.reform.cutoffs, settings.data_dir / "ingest_reports")


def missing_corpus(store: VectorStore, reports_dir: Path) -> str | None:
    """Why an empty store is a loss (the last ingest left tesis in it), or None.

    A store file deleted under a stopped server comes back empty on restart; the ingest
    report beside it still says what was there.
    """
    try:
        if store.count()[0] > 0:
            return None
    except StoreError:  # the store's own health reports it
        return None
    last = last_ingest(reports_dir)
    if last is None or last["stored"] + last["unchanged"] == 0:
        return None
    held = last["stored"] + last["unchanged"]
    return (
        f"the store is empty, but the last ingest ({last['finished_at']}) left {held} tesis "
        "in it: was its file deleted? Run `vigencia ingest` again"
    )
