"""One tesis by registro, with its chunks and its validity."""

from __future__ import annotations

from dataclasses import dataclass

from api.core.models import VIGENTE, Chunk, Tesis, Validity
from api.store.base import VectorStore


@dataclass(frozen=True, slots=True)
class TesisDetail:
    tesis: Tesis
    chunks: list[Chunk]
    status: Validity


def tesis_detail(store: VectorStore, registro: int) -> TesisDetail | None:
    """The stored tesis, or None."""
    found = store.get_tesis([registro]).get(registro)
    if found is None:
        return None
    status = store.get_validity([registro]).get(registro, VIGENTE)
    return TesisDetail(found, store.get_chunks(registro), status)
