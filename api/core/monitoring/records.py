"""Search-log records: one ``LogEntry`` per search or chat, with its hits, discards and feedback.

A ``LogEntry`` is one search or chat as it was answered: the question, how it was read
(materia, temporal intent, route, reform cutoff), the parameters and profile, every hit with
its score factors and both ranks, the discarded hits with their codes, and the registros an
answer cited.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from api.core.models import Discarded, Hit, Validity
from api.core.validity import loses_force

LogKind = Literal["search", "chat"]
LOG_KINDS: tuple[LogKind, ...] = ("search", "chat")
# The "old law" line of the issue: sources before 2000 (pre-Novena law plus its first years).
MODERN_YEAR = 2000
# What a logged hit copies, by name, from its passage and its score breakdown.
_PASSAGE_FIELDS = ("registro", "rubro", "anio", "epoca", "tipo")
_SCORE_FIELDS = (
    "similarity",
    "relevance",
    "recency_factor",
    "epoca_factor",
    "final_score",
    "boost",
)


@dataclass(frozen=True, slots=True)
class LoggedHit:
    """One hit as the user saw it: metadata, status, every score factor and both ranks."""

    registro: int
    rubro: str
    anio: int
    epoca: str
    tipo: str
    materias: tuple[str, ...]
    estado: str
    parcial: bool
    similarity: float
    relevance: float
    recency_factor: float
    epoca_factor: float
    final_score: float
    boost: float  # final_score / relevance (ScoreBreakdown.boost)
    rank: int
    rank_without_recency: int

    @classmethod
    def of(cls, hit: Hit) -> LoggedHit:
        return cls(
            **{name: getattr(hit.passage, name) for name in _PASSAGE_FIELDS},
            **{name: getattr(hit.score, name) for name in _SCORE_FIELDS},
            materias=tuple(hit.passage.materias),
            estado=hit.status.estado,
            parcial=hit.status.parcial,
            rank=hit.rank,
            rank_without_recency=hit.rank_without_recency,
        )

    @property
    def generic(self) -> bool:
        """A record of a generic corpus (no época): no reform, época or tipo speaks of it."""
        return not self.epoca

    @property
    def superseded(self) -> bool:
        """The criterion no longer stands (``loses_force`` of its SJF note)."""
        return loses_force(Validity(estado=self.estado, parcial=self.parcial))


@dataclass(frozen=True, slots=True)
class LoggedDiscard:
    """A hit the vigencia rules removed: PRE_REFORM, PRE_NOVENA or SUPERSEDED, and why."""

    registro: int
    anio: int
    code: str
    reason: str

    @classmethod
    def of(cls, d: Discarded) -> LoggedDiscard:
        return cls(d.hit.registro, d.hit.passage.anio, d.code, d.reason)


@dataclass(frozen=True, slots=True)
class Feedback:
    """A user's verdict on one registro of one logged search (the latest one counts)."""

    log_id: str
    registro: int
    useful: bool
    comment: str | None
    timestamp: datetime


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One search or chat. ``timestamp`` is timezone-aware (UTC); ``parameters`` is the request
    as given (JSON-able: top_k, filters, explicit weights...), the other fields what was used.
    ``feedback`` is attached by the log when read; it is stored separately."""

    id: str
    timestamp: datetime
    kind: LogKind
    question: str
    materia: str | None
    materia_source: str | None
    temporal: str | None
    route: str
    cutoff_year: int | None
    rules_applied: bool
    profile: str
    recency_weight: float
    mode: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    hits: tuple[LoggedHit, ...] = ()
    discarded: tuple[LoggedDiscard, ...] = ()
    cited: tuple[int, ...] = ()
    candidates: int = 0
    latency_ms: float = 0.0
    feedback: tuple[Feedback, ...] = ()
    abstain_reason: str | None = None  # the search found nothing that answers
    confidence: str | None = None  # high or low, for an answer ranked by relevance

    def pre_reform(self, hit: LoggedHit) -> bool:
        """The hit is a tesis that predates the reform cutoff of this search's materia."""
        return self.cutoff_year is not None and not hit.generic and hit.anio < self.cutoff_year
