"""Frozen domain records shared by ingest, stores, scoring and the API."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any, Literal

TesisTipo = Literal["Jurisprudencia", "Aislada"]
TESIS_TIPOS: tuple[TesisTipo, ...] = ("Jurisprudencia", "Aislada")
Scalar = str | int | float | bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TesisMeta:
    """The tesis metadata a tesis, and each passage and reference of it, carries."""

    rubro: str
    epoca: str
    anio: int
    tipo: TesisTipo
    materias: tuple[str, ...] = ()
    instancia: str = ""
    clave: str = ""
    fecha: date | None = None
    partial: bool = False  # the tesis text is cut in its source

    @property
    def sort_date(self) -> date:
        """Publication date when known, else mid-year of ``anio`` (for date ordering)."""
        return self.fecha or date(self.anio, 7, 1)

    @property
    def generic(self) -> bool:
        """A record of a non-legal dated corpus (no época, see ``api.ingest.generic``): no
        reform, época or tipo rule speaks of it."""
        return not self.epoca


def tesis_meta(source: TesisMeta) -> dict[str, Any]:
    """The ``TesisMeta`` fields of a tesis, passage or reference, by name."""
    return {f.name: getattr(source, f.name) for f in fields(TesisMeta)}


@dataclass(frozen=True, slots=True)
class Tesis(TesisMeta):
    """One tesis of the Semanario Judicial de la Federación, validated."""

    registro: int
    texto: str
    organo: str = ""
    precedentes: str = ""
    # Generic records only: extra dates by field name, and the record's own scalar fields.
    dates: tuple[tuple[str, date], ...] = ()
    date_roles: tuple[tuple[str, str], ...] = ()  # role of each extra date field
    extra: tuple[tuple[str, Scalar], ...] = ()

    def date_of(self, field: str | None) -> date | None:
        """The date of ``field`` (an extra date), or the primary ``fecha`` for None."""
        if field is None:
            return self.fecha
        return dict(self.dates).get(field)

    @property
    def full_text(self) -> str:
        """The text that is chunked: rubro, a blank line, then texto."""
        return f"{self.rubro}\n\n{self.texto}" if self.texto else self.rubro


@dataclass(frozen=True, slots=True)
class Chunk:
    """A span of ``Tesis.full_text``; offsets are character positions, lines are 1-based."""

    registro: int
    index: int
    text: str
    start_char: int
    end_char: int
    start_line: int
    end_line: int
    tokens: int

    @property
    def chunk_id(self) -> str:
        return f"{self.registro}:{self.index}"


@dataclass(frozen=True, slots=True)
class Passage(TesisMeta):
    """A stored chunk plus the tesis metadata that filters and scoring need."""

    chunk: Chunk

    @property
    def registro(self) -> int:
        return self.chunk.registro

    @classmethod
    def of(cls, tesis: Tesis, chunk: Chunk) -> Passage:
        return cls(chunk=chunk, **tesis_meta(tesis))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A passage retrieved by a store: cosine similarity to the query and its BM25 score."""

    passage: Passage
    similarity: float
    lexical: float = 0.0


@dataclass(frozen=True, slots=True)
class Filters:
    """Metadata filters every store applies before ranking. Empty tuples mean 'any'."""

    materias: tuple[str, ...] = ()
    tipo: TesisTipo | None = None
    epocas: tuple[str, ...] = ()
    anio_min: int | None = None
    anio_max: int | None = None
    instancia: str | None = None
    organo: str | None = None  # the court or chamber that issued it ("Segunda Sala")
    circuito: int | None = None  # a collegiate court's circuit, read from its organo (1-32)
    registros: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Validity:
    """Whether a criterion still stands, from SJF notes. ``estado`` is 'vigente' when no note."""

    estado: str = "vigente"
    parcial: bool = False
    por_registro: int | None = None
    por_clave: str | None = None
    desde: date | None = None

    @property
    def vigente(self) -> bool:
        return self.estado == "vigente"


VIGENTE = Validity()


@dataclass(frozen=True, slots=True)
class Rejection:
    """A record ingest refused: where it was, which field, and why."""

    source: str
    line: int
    registro: str | None
    field: str
    reason: str

    def __str__(self) -> str:
        who = f"registro {self.registro}" if self.registro else "record"
        return f"{self.source}:{self.line}: {who}: {self.field}: {self.reason}"


@dataclass(frozen=True, slots=True)
class IngestWarning:
    source: str
    line: int
    registro: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: registro {self.registro}: {self.field}: {self.message}"


@dataclass(slots=True)
class IngestReport:
    read: int = 0
    stored: int = 0
    unchanged: int = 0
    chunks: int = 0
    embedded: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    warnings: list[IngestWarning] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Every factor of a hit's final score.

    ``similarity`` is the raw cosine; ``relevance`` is what the recency and época factors
    multiply (the cosine under the ``seed`` profile, a score normalized within the candidate
    set under ``default``).
    """

    similarity: float
    relevance: float
    recency_factor: float
    epoca_factor: float
    final_score: float
    recency_weight: float
    profile: str
    lexical: float = 0.0

    @property
    def boost(self) -> float:
        """final / relevance: how much recency and época moved this hit."""
        return self.final_score / self.relevance if self.relevance else 1.0


@dataclass(frozen=True, slots=True)
class Hit:
    """A scored, ranked passage. Ranks are 1-based.

    ``gate``: relevance / best relevance of the candidate set; ``on_topic``: the gate passed
    (see ``api.core.gate``); ``warning``: a sentence for the reader, e.g. a pre-reform flag.
    """

    passage: Passage
    score: ScoreBreakdown
    rank: int = 0
    rank_without_recency: int = 0
    status: Validity = VIGENTE
    on_topic: bool = True
    gate: float = 1.0
    warning: str | None = None

    @property
    def registro(self) -> int:
        return self.passage.registro

    def ranked(self, rank: int, rank_without_recency: int) -> Hit:
        """This hit at new ranks (what ``dataclasses.replace`` does, at half its cost: a
        search re-ranks hundreds of hits)."""
        return Hit(
            self.passage,
            self.score,
            rank,
            rank_without_recency,
            self.status,
            self.on_topic,
            self.gate,
            self.warning,
        )


@dataclass(frozen=True, slots=True)
class Discarded:
    """A hit removed by re-ranking, with a machine code and a sentence a lawyer can read."""

    hit: Hit
    code: str
    reason: str
    newer: int | None = None  # the registro of the newer criterion on its point (same-point rule)
