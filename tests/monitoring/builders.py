"""Log entries and hits built by hand, for the pure monitoring tests and the log contract."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from api.core.epocas import epoca_for_date
from api.core.monitoring import LogEntry, LoggedDiscard, LoggedHit, LogKind

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def logged_hit(
    registro: int,
    anio: int,
    *,
    rank: int = 1,
    similarity: float = 0.8,
    boost: float = 1.0,
    materias: tuple[str, ...] = ("Laboral",),
    estado: str = "vigente",
    parcial: bool = False,
    rank_without_recency: int | None = None,
) -> LoggedHit:
    """A hit of ``registro`` from mid-``anio`` (its época follows), relevance = similarity."""
    return LoggedHit(
        registro=registro,
        rubro=f"RUBRO {registro}.",
        anio=anio,
        epoca=epoca_for_date(datetime(anio, 7, 1).date()) or "",
        tipo="Jurisprudencia",
        materias=materias,
        estado=estado,
        parcial=parcial,
        similarity=similarity,
        relevance=similarity,
        recency_factor=boost,
        epoca_factor=1.0,
        final_score=similarity * boost,
        boost=boost,
        rank=rank,
        rank_without_recency=rank if rank_without_recency is None else rank_without_recency,
    )


def log_entry(
    hits: Sequence[LoggedHit] = (),
    *,
    log_id: str = "e1",
    question: str = "¿Qué dice la jurisprudencia?",
    at: datetime = NOW,
    kind: LogKind = "search",
    materia: str | None = "Laboral",
    cutoff_year: int | None = 2019,
    temporal: str | None = None,
    recency_weight: float = 0.5,
    profile: str = "default",
    cited: Sequence[int] = (),
    discarded: Sequence[LoggedDiscard] = (),
    parameters: Mapping[str, Any] | None = None,
) -> LogEntry:
    return LogEntry(
        id=log_id,
        timestamp=at,
        kind=kind,
        question=question,
        materia=materia,
        materia_source="question" if materia else None,
        temporal=temporal,
        route="relevance",
        cutoff_year=cutoff_year,
        rules_applied=False,
        profile=profile,
        recency_weight=recency_weight,
        mode="hybrid",
        parameters=dict(parameters or {"top_k": 10}),
        hits=tuple(hits),
        discarded=tuple(discarded),
        cited=tuple(cited),
        candidates=len(hits),
        latency_ms=12.5,
    )
