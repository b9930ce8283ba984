"""The one protocol every store implements, and the error they raise."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal, Protocol, TypedDict

from api.core.models import Candidate, Chunk, Filters, Tesis, TesisTipo, Validity
from api.core.text import analyze
from api.embeddings.base import Vectors

SortOrder = Literal["ASC", "DESC"]
GroupBy = Literal["anio", "epoca", "materias", "tipo", "instancia", "organo"]


class PassageFields(TypedDict):
    """The tesis fields a ``Passage`` repeats; each store reads them from a row in one place."""

    rubro: str
    epoca: str
    anio: int
    tipo: TesisTipo
    materias: tuple[str, ...]
    instancia: str
    clave: str
    fecha: date | None
    partial: bool


# The tesis text fields a ``Passage`` does not repeat: both stores keep them under these names.
TESIS_TEXTS = ("texto", "organo", "precedentes")

# BM25 in both stores reads the same terms: each chunk's rubro and text analyzed (accents
# folded, stopwords out, stems: ``analyze``), the rubro weighing twice the text, and a query's
# distinct analyzed terms. "suspensión" then finds the 1970s "SUSPENSION" in either store.
LEXICAL_WEIGHTS = (2.0, 1.0)  # rubro, text


def indexed_terms(text: str) -> str:
    """``text`` as both stores index it for BM25: its analyzed terms, space-separated."""
    return " ".join(analyze(text))


def query_terms(text: str) -> list[str]:
    """A BM25 query's distinct analyzed terms, sorted."""
    return sorted(set(analyze(text)))


@dataclass(frozen=True, slots=True)
class TesisEntry:
    """What ``upsert`` writes for one tesis: the record, its chunks and their vectors."""

    tesis: Tesis
    chunks: Sequence[Chunk]
    vectors: Vectors  # one row per chunk
    fingerprint: str  # hash of the record; unchanged records are skipped on re-ingest


@dataclass(frozen=True, slots=True)
class VectorQuery:
    """Chunks by cosine to ``vector`` under ``filters``, best first; ``limit=None`` asks for
    every chunk that passes the filters and ``min_similarity`` (the whole filtered set)."""

    vector: Vectors
    filters: Filters
    limit: int | None
    min_similarity: float | None = None


@dataclass(frozen=True, slots=True)
class ListQuery:
    """A page of tesis by publication date (then registro), or by the extra date
    ``date_field`` of generic records when given (records without it last)."""

    filters: Filters
    order: SortOrder
    limit: int
    offset: int = 0
    date_field: str | None = None


@dataclass(frozen=True, slots=True)
class UpsertResult:
    written: int  # tesis written
    chunks: int  # chunk objects written
    errors: tuple[str, ...] = ()  # per-object errors reported by the backend


class VectorStore(Protocol):
    """Tesis, their embedded chunks and validity notes, with filtered search.

    Every method raises ``StoreError`` (never a vendor exception) when the backend fails.
    """

    def upsert(self, entries: Sequence[TesisEntry]) -> UpsertResult:
        """Insert or replace tesis with all their chunks; idempotent per registro."""
        ...

    def fingerprints(self, registros: Sequence[int]) -> dict[int, str]:
        """Stored fingerprints of the given registros (absent ones are missing from the dict)."""
        ...

    def vector_search(self, query: VectorQuery) -> list[Candidate]:
        """Chunks by cosine similarity, best first (see ``VectorQuery``)."""
        ...

    def lexical_search(
        self, text: str, vector: Vectors, filters: Filters, limit: int
    ) -> list[Candidate]:
        """Chunks by BM25 over rubro + chunk text, best first; each carries its cosine to
        ``vector`` too, so lexical-only hits can be scored like the others."""
        ...

    def get_tesis(self, registros: Sequence[int]) -> dict[int, Tesis]:
        """Full records by registro."""
        ...

    def get_chunks(self, registro: int) -> list[Chunk]:
        """All chunks of one tesis in order."""
        ...

    def find_claves(self, claves: Sequence[str]) -> dict[str, int]:
        """The registro of the stored tesis each of ``claves`` names, keyed by the clave as
        given; claves are compared by ``api.core.cited.clave_key`` (any spacing, case or
        época), and one no tesis has is absent."""
        ...

    def list_tesis(self, query: ListQuery) -> list[Tesis]:
        """Tesis sorted and paged as ``query`` says (see ``ListQuery``)."""
        ...

    def date_fields(self) -> dict[str, str]:
        """Extra date fields of the stored generic records (name -> role); {} for tesis."""
        ...

    def count_by(self, group_by: GroupBy, filters: Filters) -> dict[str, int]:
        """Number of tesis per value of a property (each materia counted once per tesis)."""
        ...

    def count(self) -> tuple[int, int]:
        """(tesis, chunks) stored."""
        ...

    def generation(self) -> int:
        """A number that changes whenever tesis are written or deleted: what caches of the
        stored content (the court names a filter is matched against) are keyed on."""
        ...

    def delete(self, registros: Sequence[int]) -> int:
        """Remove tesis and their chunks; returns how many tesis were removed."""
        ...

    def upsert_validity(self, notes: Mapping[int, Validity]) -> int:
        """Store validity notes by registro (the tesis need not be stored yet)."""
        ...

    def get_validity(self, registros: Sequence[int]) -> dict[int, Validity]:
        """Notes for the given registros; registros without a note are absent."""
        ...

    def health(self) -> dict[str, str]:
        """``{"status": "ok" | "degraded", ...}`` without raising."""
        ...

    def close(self) -> None:
        """Release connections and files."""
        ...
