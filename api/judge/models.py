"""Judge records: the strict reply schema, the result, and the legal rules both judges apply.

The LLM must reply ``{"reranked": [{"registro", "startLine", "endLine", "relevancia", "razon"}],
"summary"}`` with ``relevancia`` in [0, 1]. Unknown keys are ignored and reported as warnings
(``unknown_keys``); a reply on a 0-10 scale is rescaled by the judge, with a warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from api.core.epoca_factors import DEFAULT_EPOCAS
from api.core.models import Hit
from api.core.validity import loses_force

MatchedBy = Literal["span", "registro", "none"]
JudgeKind = Literal["llm", "offline"]

# Legal post-processing (multipliers on a relevance in [0, 1]): a binding jurisprudencia beats
# an aislada of equal relevance, the current épocas (Décima on, after the 2011 reforms) beat
# older ones, and a criterion that lost force (``validity.loses_force``) is capped whatever its
# relevance. The época factors are the scoring defaults (``DEFAULT_EPOCAS``): unknown épocas
# (generic corpora) get 1.0.
AISLADA_FACTOR = 0.9
SUPERSEDED_CAP = 0.3
MAX_SCALE = 10.0  # replies on a 0-10 scale are accepted and divided by 10


class JudgedItem(BaseModel):
    """One entry of ``reranked``; lines are optional so a reply without them can fall back."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    registro: int
    start_line: int | None = Field(default=None, alias="startLine", ge=1)
    end_line: int | None = Field(default=None, alias="endLine", ge=1)
    relevancia: float = Field(ge=0.0, le=MAX_SCALE)
    razon: str = ""


class JudgeReply(BaseModel):
    model_config = ConfigDict(extra="allow")

    reranked: list[JudgedItem]
    summary: str = ""

    def unknown_keys(self) -> list[str]:
        """Warnings for keys outside the schema (they are ignored)."""
        warnings = [f"clave desconocida ignorada: {key!r}" for key in self.model_extra or {}]
        for i, item in enumerate(self.reranked):
            warnings.extend(
                f"clave desconocida ignorada en reranked[{i}]: {key!r}"
                for key in item.model_extra or {}
            )
        return warnings


@dataclass(frozen=True, slots=True)
class JudgedFragment:
    """A chunk's judged score (after the legal rules) and how the reply was matched to it."""

    registro: int
    chunk_index: int
    start_line: int
    end_line: int
    score: float
    reason: str
    matched_by: MatchedBy
    raw_score: float | None = None  # relevance before the legal rules; None if not judged

    @property
    def span(self) -> str:
        lines = (
            str(self.start_line)
            if self.start_line == self.end_line
            else f"{self.start_line}-{self.end_line}"
        )
        return f"registro {self.registro}, líneas {lines}"

    @classmethod
    def of(
        cls,
        hit: Hit,
        score: float,
        reason: str,
        matched_by: MatchedBy,
        raw_score: float | None = None,
    ) -> JudgedFragment:
        """The verdict on ``hit``'s chunk (registro and lines taken from the hit)."""
        chunk = hit.passage.chunk
        return cls(
            hit.registro,
            chunk.index,
            chunk.start_line,
            chunk.end_line,
            score,
            reason,
            matched_by,
            raw_score,
        )


@dataclass
class JudgeResult:
    """Judged fragments, best first (input order when ``error`` is set).

    Example::

        result = OfflineJudge(embedder).judge("suspensión provisional", hits)
        [(f.span, round(f.score, 2)) for f in result.items], result.summary
    """

    items: list[JudgedFragment]
    summary: str
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    judge: JudgeKind = "llm"


def epoca_factor(epoca: str) -> float:
    return DEFAULT_EPOCAS.default_factor(epoca)


def legal_score(relevance: float, hit: Hit) -> float:
    """Relevance in [0, 1] adjusted by tipo and época, then capped if superseded."""
    tipo_factor = 1.0 if hit.passage.tipo == "Jurisprudencia" else AISLADA_FACTOR
    score = max(0.0, min(1.0, relevance)) * tipo_factor * epoca_factor(hit.passage.epoca)
    return min(score, SUPERSEDED_CAP) if loses_force(hit.status) else score


def legal_notes(hit: Hit) -> str:
    """Short Spanish description of what the legal rules saw: 'jurisprudencia, Décima Época'."""
    tipo = "jurisprudencia" if hit.passage.tipo == "Jurisprudencia" else "tesis aislada"
    notes = f"{tipo}, {hit.passage.epoca or 'época desconocida'} ({hit.passage.anio})"
    if loses_force(hit.status):
        notes += f"; {hit.status.estado}: puntuación limitada a {SUPERSEDED_CAP}"
    return notes


def input_order(hits: Sequence[Hit]) -> list[JudgedFragment]:
    """The hits unjudged, as given, keeping their retrieval scores (for errors)."""
    return [JudgedFragment.of(h, h.score.final_score, "", "none") for h in hits]


class ChunkJudge:
    """What both judges share: no hits, nothing to judge; on a failure, the hits unjudged.

    Subclasses name their ``kind`` and judge a non-empty list in ``_judge``."""

    kind: ClassVar[JudgeKind]

    def judge(self, query: str, hits: Sequence[Hit], summary: bool = True) -> JudgeResult:
        if not hits:
            return JudgeResult([], spans_summary([]), judge=self.kind)
        return self._judge(query, hits, summary)

    def _judge(self, query: str, hits: Sequence[Hit], summary: bool) -> JudgeResult:
        raise NotImplementedError

    def _unjudged(self, hits: Sequence[Hit], error: str) -> JudgeResult:
        return JudgeResult(input_order(hits), "", [], error, self.kind)


def spans_summary(items: Sequence[JudgedFragment], top: int = 3) -> str:
    """'Fragmentos más pertinentes: registro 2006225, líneas 3-5 (0.82); …' (judged ones)."""
    best = [f"{item.span} ({item.score:.2f})" for item in items if item.matched_by != "none"][:top]
    if not best:
        return "Ningún fragmento fue valorado como pertinente."
    return "Fragmentos más pertinentes: " + "; ".join(best) + "."


def best_fragments_summary(items: Sequence[JudgedFragment]) -> str:
    """One short paragraph naming each tesis's best judged fragment by its lines, best tesis
    first: 'Mejor fragmento de cada tesis: registro 2006225, líneas 5-7 (0.90); …'."""
    best: dict[int, JudgedFragment] = {}
    for item in items:
        if item.matched_by == "none":
            continue
        if item.registro not in best or item.score > best[item.registro].score:
            best[item.registro] = item
    if not best:
        return "Ningún fragmento fue valorado como pertinente."
    ordered = sorted(best.values(), key=lambda i: -i.score)
    return (
        "Mejor fragmento de cada tesis: "
        + "; ".join(f"{i.span} ({i.score:.2f})" for i in ordered)
        + "."
    )
