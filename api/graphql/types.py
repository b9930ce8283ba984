"""GraphQL output types. Each is built from a core record by ``from_core``; no logic here."""

from __future__ import annotations

from datetime import date
from enum import Enum
from typing import TypeAlias, TypeVar

import strawberry

from api.core.confidence import Confidence
from api.core.models import Chunk, Discarded, Hit, Tesis, Validity
from api.core.validity import describe
from api.graphql.mirror import mirror
from api.graphql.tesis import TesisFields, WithText, sjf_url
from api.services.lookup import TesisDetail


@strawberry.enum
class ScoringProfile(Enum):
    DEFAULT = "default"
    SEED = "seed"


@strawberry.enum
class RetrievalMode(Enum):
    HYBRID = "hybrid"
    VECTOR = "vector"
    LEXICAL = "lexical"


@strawberry.enum(description="How ordering questions (earliest/latest) are answered.")
class TemporalMode(Enum):
    AUTO = "auto"
    OFF = "off"
    SORT = "sort"
    BLEND = "blend"


@strawberry.enum(description="How the reform rules treat an old criterion.")
class RulesMode(Enum):
    SAME_POINT = "same_point"
    LITERAL = "literal"


@strawberry.enum
class SortOrder(Enum):
    ASC = "ASC"
    DESC = "DESC"


@strawberry.enum
class GroupBy(Enum):
    YEAR = "anio"
    EPOCA = "epoca"
    MATERIA = "materias"
    TIPO = "tipo"
    INSTANCIA = "instancia"
    ORGANO = "organo"


@strawberry.enum
class TesisTipo(Enum):
    JURISPRUDENCIA = "Jurisprudencia"
    AISLADA = "Aislada"


@strawberry.enum(description="How far to trust a first answer ranked by relevance.")
class ConfidenceLevel(Enum):
    HIGH = "high"
    LOW = "low"


@strawberry.type(
    description="How far to trust a first answer ranked by relevance: how far the first tesis "
    "leads every other candidate, and how far the best passage is over the abstention floor. "
    "Only the configured ranking over tesis has one: not a date order, a lookup, the seed "
    "profile, a single retriever, the blend, a search with the gate off, or a generic corpus."
)
class AnswerConfidence:
    level: ConfidenceLevel = strawberry.field(
        description="HIGH: the first tesis leads every other by 0.15 of relevance or more and the "
        "best passage is 0.01 of cosine or more over the floor (right 91 % of the time on the "
        "dev questions); LOW otherwise (62 %)."
    )
    lead: float = strawberry.field(
        description="The first tesis' relevance less the best other's (the first's when alone)."
    )
    floor_margin: float | None = strawberry.field(
        description="The best passage's cosine less the abstention floor (negative when a "
        "rubro's or the glossary's words let the question through); null with no floor."
    )
    reasons: list[str] = strawberry.field(description="Why it is low, in Spanish, for the reader.")

    @classmethod
    def from_core(cls, confidence: Confidence | None) -> AnswerConfidence | None:
        if confidence is None:
            return None
        return mirror(cls, confidence, level=ConfidenceLevel(confidence.level))


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
        return mirror(cls, chunk)


@strawberry.type(description="Whether the criterion still stands, from SJF notes.")
class ValidityStatus:
    vigente: bool
    estado: str
    parcial: bool
    por_registro: int | None
    por_clave: str | None
    desde: date | None
    description: str = strawberry.field(description="e.g. 'superada por 2006225 (…) desde …'.")

    @classmethod
    def from_core(cls, v: Validity) -> ValidityStatus:
        return mirror(cls, v, description=describe(v))


@strawberry.type(description="One scored passage with every factor of its score.")
class SearchHit(TesisFields):
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
    rank: int = strawberry.field(
        description="1-based position in `hits`. In `withoutRecency`: this passage's position "
        "in `hits`, 0 when `hits` does not show it (set aside, or below the page). Of a "
        "discarded hit: its rank before the rules set it aside."
    )
    rank_without_recency: int = strawberry.field(
        description="1-based position by relevance alone, before the vigencia rules: in "
        "`withoutRecency`, its position in that list."
    )
    chunk: ChunkSpan
    status: ValidityStatus
    on_topic: bool = strawberry.field(
        description="Passed the relevance gate: recency and the rules reorder only these."
    )
    gate: float = strawberry.field(description="Fused relevance / the best candidate's, 0..1.")
    warning: str | None = strawberry.field(
        description="A flag for the reader, e.g. a criterion older than its materia's reform."
    )
    partial: bool = strawberry.field(description="The tesis text is cut in its source.")

    @classmethod
    def from_core(cls, hit: Hit) -> SearchHit:
        return cls.from_tesis(
            hit.passage,
            hit.score,
            hit,
            lexical_score=hit.score.lexical,
            chunk=ChunkSpan.from_core(hit.passage.chunk),
            status=ValidityStatus.from_core(hit.status),
        )


@strawberry.type(description="A hit removed by the vigencia rules, with its reason and scores.")
class DiscardedHit:
    registro: int
    rubro: str
    epoca: str
    anio: int
    tipo: str
    code: str = strawberry.field(description="PRE_REFORM, PRE_NOVENA or SUPERSEDED.")
    reason: str
    newer: int | None = strawberry.field(
        description="The registro of the newer criterion on its point, on the page (PRE_REFORM "
        "and PRE_NOVENA); a chat's references include it."
    )
    similarity: float
    final_score: float
    hit: SearchHit

    @classmethod
    def from_core(cls, d: Discarded) -> DiscardedHit:
        return mirror(
            cls,
            d.hit.passage,
            code=d.code,
            reason=d.reason,
            newer=d.newer,
            similarity=d.hit.score.similarity,
            final_score=d.hit.score.final_score,
            hit=SearchHit.from_core(d.hit),
        )


@strawberry.type
class Timings:
    embed_ms: float
    retrieve_ms: float
    score_ms: float


@strawberry.type(description="A tesis of the Semanario Judicial de la Federación.")
class TesisRecord(WithText, TesisFields):
    instancia: str
    organo: str
    precedentes: str
    partial: bool = strawberry.field(description="Only part of the text is known.")
    url: str
    chunks: list[ChunkSpan]
    status: ValidityStatus

    @classmethod
    def from_core(cls, found: TesisDetail) -> TesisRecord:
        return cls.from_tesis(
            found.tesis,
            url=sjf_url(found.tesis.registro),
            chunks=[ChunkSpan.from_core(c) for c in found.chunks],
            status=ValidityStatus.from_core(found.status),
        )


@strawberry.type(
    description="One of a generic record's own fields, typed: `type` is string, int, float, "
    "bool or date, and the matching `…Value` field is set (`text` always holds it as text)."
)
class ExtraField:
    key: str
    type: str
    text: str
    string_value: str | None = None
    int_value: int | None = None
    float_value: float | None = None
    bool_value: bool | None = None
    date_value: date | None = None

    @classmethod
    def of(cls, key: str, value: object) -> ExtraField:
        if isinstance(value, bool):
            return cls(key=key, type="bool", text=str(value).lower(), bool_value=value)
        if isinstance(value, int):
            return cls(key=key, type="int", text=str(value), int_value=value)
        if isinstance(value, float):
            return cls(key=key, type="float", text=repr(value), float_value=value)
        if isinstance(value, date):
            return cls(key=key, type="date", text=value.isoformat(), date_value=value)
        return cls(key=key, type="string", text=str(value), string_value=str(value))


@strawberry.type(description="A tesis on a time axis.")
class TimelineItem(TesisFields):
    instancia: str
    status: ValidityStatus
    extra: list[ExtraField] = strawberry.field(
        description="A generic record's own fields (description, url, language, stars, ...) "
        "and its extra dates, typed; empty for tesis."
    )

    @classmethod
    def from_core(cls, t: Tesis, status: Validity) -> TimelineItem:
        return cls.from_tesis(
            t,
            status=ValidityStatus.from_core(status),
            extra=[ExtraField.of(k, v) for k, v in (*t.extra, *t.dates)],
        )


@strawberry.type
class Bucket:
    key: str
    count: int


@strawberry.type(description="An argument was out of range or malformed.")
class InputError:
    field: str
    message: str


@strawberry.type(description="A backend (store, embedder) is unavailable; retry later.")
class ServiceError:
    service: str
    message: str


T = TypeVar("T")
# What a resolver with an error union returns: its payload, or the expected failure.
Outcome: TypeAlias = T | InputError | ServiceError
