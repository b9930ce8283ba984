"""What a search returns: ranked hits, discards, timings, and how the question was read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from api.core.confidence import Confidence
from api.core.fusion import RetrievalMode
from api.core.intent import MateriaIntent, TemporalIntent
from api.core.language import Language
from api.core.models import Discarded, Hit
from api.core.scoring import Profile

# How a question is answered: by relevance, by date over the on-point documents, or both.
Route = Literal["relevance", "date_sorted", "blend"]


@dataclass(frozen=True, slots=True)
class SearchIntent:
    """What the question was read as, and how it was routed."""

    materia: MateriaIntent
    temporal: TemporalIntent
    route: Route
    cutoff_year: int | None
    rules_applied: bool
    topic: tuple[str, ...] = ()
    topic_words: tuple[str, ...] = ()  # the question's words that make the topic, as written
    language: Language = "es"
    date_field: str | None = None  # the extra date a date-sorted question used
    cited: tuple[int, ...] = ()  # registros the question cited by registro or clave (a lookup)
    not_found: tuple[str, ...] = ()  # cited tesis the corpus lacks, when it holds others cited
    named_filters: tuple[str, ...] = ()  # words of the question read as filters (época, year...)
    excluded: tuple[str, ...] = ()  # words the question excluded ("-doméstico", "NOT vehículo")

    @property
    def date_order(self) -> Literal["earliest", "latest"] | None:
        """How a date-sorted search ordered its hits (None for the other routes): its first
        hit is then the answer, the earliest or the latest criterion on the point."""
        if self.route != "date_sorted":
            return None
        return "earliest" if self.temporal.kind == "earliest" else "latest"


@dataclass(frozen=True, slots=True)
class SearchResult:
    hits: list[Hit]
    discarded: list[Discarded]
    candidates: int
    recency_weight: float
    profile: Profile
    mode: RetrievalMode
    timings_ms: dict[str, float]
    intent: SearchIntent
    without_recency: list[Hit] = field(default_factory=list)  # top-k by relevance alone
    abstain_reason: str | None = None  # set when nothing answers: hits are then empty
    confidence: Confidence | None = None  # a relevance-ranked answer's (see api.core.confidence)

    @property
    def abstained(self) -> bool:
        return self.abstain_reason is not None
