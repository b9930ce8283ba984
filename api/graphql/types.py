"""GraphQL output types. Each is built from a core record by ``from_core``; no logic here."""

from __future__ import annotations

from datetime import date
from enum import Enum

import strawberry

from api.core.models import Chunk, Hit, Tesis, Validity


@strawberry.enum
class ScoringProfile(Enum):
    DEFAULT = "default"
    SEED = "seed"


@strawberry.enum
class RetrievalMode(Enum):
    HYBRID = "hybrid"
    VECTOR = "vector"
    LEXICAL = "lexical"


@strawberry.enum
class TesisTipo(Enum):
    JURISPRUDENCIA = "Jurisprudencia"
    AISLADA = "Aislada"


@strawberry.type(description="A span of the tesis text (rubro + texto) that was matched.")
class ChunkSpan:
    index: int
    start_char: int
    end_char: int
    start_line: int
    end_line: int
    tokens: int
    text: str

    @classmethod
    def from_core(cls, chunk: Chunk) -> ChunkSpan:
        return cls(
            index=chunk.index,
            start_char=chunk.start_char,
            end_char=chunk.end_char,
            start_line=chunk.start_line,
            end_line=chunk.end_line,
            tokens=chunk.tokens,
            text=chunk.text,
        )


@strawberry.type(description="Whether the criterion still stands, from SJF notes.")
class ValidityStatus:
    vigente: bool
    estado: str
    parcial: bool
    por_registro: int | None
    por_clave: str | None
    desde: date | None

    @classmethod
    def from_core(cls, v: Validity) -> ValidityStatus:
        return cls(
            vigente=v.vigente,
            estado=v.estado,
            parcial=v.parcial,
            por_registro=v.por_registro,
            por_clave=v.por_clave,
            desde=v.desde,
        )


@strawberry.type(description="One scored passage with every factor of its score.")
class SearchHit:
    registro: int
    rubro: str
    clave: str
    epoca: str
    anio: int
    fecha: date | None
    tipo: str
    materias: list[str]
    instancia: str
    similarity: float = strawberry.field(description="Raw cosine similarity to the question.")
    relevance: float = strawberry.field(
        description="What recency multiplies: the cosine (seed) or the fused relevance "
        "normalized within the candidates (default)."
    )
    lexical_score: float = strawberry.field(description="BM25 score (0 if not matched).")
    recency_factor: float
    epoca_factor: float
    final_score: float
    boost: float = strawberry.field(description="finalScore / relevance.")
    rank: int
    rank_without_recency: int
    chunk: ChunkSpan
    status: ValidityStatus

    @classmethod
    def from_core(cls, hit: Hit) -> SearchHit:
        p, s = hit.passage, hit.score
        return cls(
            registro=p.registro,
            rubro=p.rubro,
            clave=p.clave,
            epoca=p.epoca,
            anio=p.anio,
            fecha=p.fecha,
            tipo=p.tipo,
            materias=list(p.materias),
            instancia=p.instancia,
            similarity=s.similarity,
            relevance=s.relevance,
            lexical_score=s.lexical,
            recency_factor=s.recency_factor,
            epoca_factor=s.epoca_factor,
            final_score=s.final_score,
            boost=s.boost,
            rank=hit.rank,
            rank_without_recency=hit.rank_without_recency,
            chunk=ChunkSpan.from_core(p.chunk),
            status=ValidityStatus.from_core(hit.status),
        )


@strawberry.type
class Timings:
    embed_ms: float
    retrieve_ms: float
    score_ms: float


@strawberry.type(description="A tesis of the Semanario Judicial de la Federación.")
class TesisRecord:
    registro: int
    rubro: str
    texto: str
    clave: str
    epoca: str
    anio: int
    fecha: date | None
    tipo: str
    materias: list[str]
    instancia: str
    organo: str
    precedentes: str
    partial: bool = strawberry.field(description="Only part of the text is known.")
    url: str
    chunks: list[ChunkSpan]
    status: ValidityStatus

    @classmethod
    def from_core(cls, t: Tesis, chunks: list[Chunk], status: Validity) -> TesisRecord:
        return cls(
            registro=t.registro,
            rubro=t.rubro,
            texto=t.texto,
            clave=t.clave,
            epoca=t.epoca,
            anio=t.anio,
            fecha=t.fecha,
            tipo=t.tipo,
            materias=list(t.materias),
            instancia=t.instancia,
            organo=t.organo,
            precedentes=t.precedentes,
            partial=t.partial,
            url=sjf_url(t.registro),
            chunks=[ChunkSpan.from_core(c) for c in chunks],
            status=ValidityStatus.from_core(status),
        )


def sjf_url(registro: int) -> str:
    return f"https://sjf2.scjn.gob.mx/detalle/tesis/{registro}"


@strawberry.type(description="An argument was out of range or malformed.")
class InputError:
    field: str
    message: str


@strawberry.type(description="A backend (store, embedder) is unavailable; retry later.")
class ServiceError:
    service: str
    message: str
