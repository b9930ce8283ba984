"""The ranking defaults: one source for ``SearchConfig``, ``Settings`` and their docs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from api.core.fusion import RetrievalMode
from api.core.scoring import Profile

RulesMode = Literal["same_point", "literal"]
RULES_MODES: tuple[RulesMode, ...] = ("same_point", "literal")


@dataclass(frozen=True, slots=True)
class SearchDefaults:
    """The scalar knobs of a search; ``SearchConfig`` adds the structured ones."""

    profile: Profile = "default"
    recency_weight: float = 0.05  # dev plateau 0.03-0.1; its lower half lifts a recent hit less
    mode: RetrievalMode = "hybrid"
    alpha: float = 0.4
    oversample: int = 5
    threshold: float = 0.0
    max_chunks_per_tesis: int = 2
    # the same as recency_weight: dev has no question about current law to tune it on, and
    # from 0.3 on a recent off-topic hit (relevance 0.82 of the best) outranks the on-point
    # criterion ("¿Está vigente el criterio de que la CFE no es autoridad?")
    current_weight: float = 0.1
    superseded_demotion: float = 0.5
    include_superseded: bool = True
    temporal_gate: float = 0.83  # dev plateau 0.81-0.84 (temporal 81.2 -> 87.5); its middle
    topic_gate: float = 0.65  # documents naming the topic: under this they mention it in passing
    blend_weight: float = 0.5
    rules_mode: RulesMode = "same_point"
    same_point_similarity: float = 0.93
    cross_lingual_alpha: float = 0.6


DEFAULTS = SearchDefaults()
