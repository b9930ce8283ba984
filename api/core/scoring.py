"""Recency-aware scoring: ``final = relevance x (1 + (recency - 1)w) x (1 + (época - 1)w)``.

Two profiles:

* ``seed`` reproduces seed 000 exactly: a piecewise recency boost >= 1 and época factors up to
  2.0, applied to the raw cosine. Kept for comparison; on e5's narrow cosine band its boost
  swamps relevance.
* ``default`` applies a bounded decay (Elasticsearch-style origin/offset/scale/decay, with a
  floor) that never decreases with recency, to a relevance score normalized within the
  candidate set. Factors are <= 1, so weight 0 gives exactly the relevance order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from api.core.epoca_factors import DEFAULT_EPOCAS, EpocaFactors
from api.core.fusion import RetrievalMode, ScaleFloor, relative_scores
from api.core.gate import gate_values
from api.core.models import Candidate, Hit, ScoreBreakdown
from api.core.weight_policy import check_weight

Profile = Literal["default", "seed"]
DecayFunction = Literal["exp", "gauss", "linear"]
PROFILES: tuple[Profile, ...] = ("default", "seed")


@dataclass(frozen=True, slots=True)
class DecayParams:
    """Decay of the ``default`` profile, in years.

    ``origin``: year with factor 1. ``offset``: years with no decay. ``scale`` and ``decay``:
    at ``offset + scale`` years the decay equals ``decay``. ``floor``: lowest factor.
    """

    origin: float = 2026.0
    offset: float = 2.0
    scale: float = 15.0
    decay: float = 0.5
    floor: float = 0.2
    function: DecayFunction = "exp"

    def __post_init__(self) -> None:
        if self.scale <= 0:
            raise ValueError(f"scale must be > 0, got {self.scale}")
        if not 0.0 < self.decay < 1.0:
            raise ValueError(f"decay must be in (0, 1), got {self.decay}")
        if not 0.0 <= self.floor < 1.0:
            raise ValueError(f"floor must be in [0, 1), got {self.floor}")
        if self.offset < 0:
            raise ValueError(f"offset must be >= 0, got {self.offset}")


def seed_recency(year: float) -> float:
    """Seed 000's piecewise boost; note it is not monotone (2019 > 2020)."""
    if year >= 2020:
        return 1 + (year - 2020) / 20
    if year >= 2010:
        return 1 + (year - 2010) / 30
    if year >= 2000:
        return 1 + (year - 2000) / 50
    return 1.0


def seed_epoca_factor(epoca: str, factors: EpocaFactors | None = None) -> float:
    return (factors or DEFAULT_EPOCAS).seed_factor(epoca)


def decay(age: float, params: DecayParams) -> float:
    """Elasticsearch's decay functions of a non-negative distance, in (0, 1]."""
    distance = max(0.0, age - params.offset)
    if params.function == "exp":
        return math.exp(math.log(params.decay) / params.scale * distance)
    if params.function == "gauss":
        sigma_sq = -(params.scale**2) / (2 * math.log(params.decay))
        return math.exp(-(distance**2) / (2 * sigma_sq))
    span = params.scale / (1 - params.decay)
    return max(0.0, (span - distance) / span)


def default_recency(year: float, params: DecayParams) -> float:
    """In [floor, 1], never decreasing with ``year``; future years count as the origin."""
    age = max(0.0, params.origin - year)
    return params.floor + (1 - params.floor) * decay(age, params)


def default_epoca_factor(epoca: str, factors: EpocaFactors | None = None) -> float:
    return (factors or DEFAULT_EPOCAS).default_factor(epoca)


def breakdown(
    similarity: float,
    year: float,
    epoca: str,
    recency_weight: float,
    profile: Profile = "default",
    relevance: float | None = None,
    params: DecayParams | None = None,
    lexical: float = 0.0,
    epocas: EpocaFactors | None = None,
) -> ScoreBreakdown:
    """Score one hit. ``relevance`` defaults to ``similarity`` (the seed's raw-cosine case)."""
    check_weight("recency_weight", recency_weight)
    if profile == "seed":
        recency, epoca_factor = seed_recency(year), seed_epoca_factor(epoca, epocas)
    elif profile == "default":
        recency = default_recency(year, params or DecayParams())
        epoca_factor = default_epoca_factor(epoca, epocas)
    else:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    base = similarity if relevance is None else relevance
    final = base * (1 + (recency - 1) * recency_weight) * (1 + (epoca_factor - 1) * recency_weight)
    return ScoreBreakdown(
        similarity=similarity,
        relevance=base,
        recency_factor=recency,
        epoca_factor=epoca_factor,
        final_score=final,
        recency_weight=recency_weight,
        profile=profile,
        lexical=lexical,
    )


def _ranked(hits: list[Hit], key_final: bool) -> list[Hit]:
    """Final-score order with on-topic hits first (off-topic ones by relevance alone), or
    plain relevance order."""

    def key(h: Hit) -> tuple[int, float, float, int, int]:
        if key_final:
            tier, primary = (0, h.score.final_score) if h.on_topic else (1, h.score.relevance)
        else:
            tier, primary = 0, h.score.relevance
        return (tier, -primary, -h.score.relevance, h.passage.registro, h.passage.chunk.index)

    return sorted(hits, key=key)


def rank(hits: Sequence[Hit]) -> list[Hit]:
    """Order by final score, every on-topic hit before every off-topic one (which follow in
    relevance order: recency never lifts them); set ``rank`` and ``rank_without_recency``."""
    plain = {id(h): i for i, h in enumerate(_ranked(list(hits), key_final=False), start=1)}
    return [
        h.ranked(i, plain[id(h)])
        for i, h in enumerate(_ranked(list(hits), key_final=True), start=1)
    ]


def score_candidates(
    candidates: Sequence[Candidate],
    recency_weight: float,
    profile: Profile = "default",
    mode: RetrievalMode = "hybrid",
    alpha: float = 0.5,
    params: DecayParams | None = None,
    gate: float | None = None,
    epocas: EpocaFactors | None = None,
    scale_from: ScaleFloor | None = None,
) -> list[Hit]:
    """Score and rank a candidate set.

    ``default`` multiplies the fused relevance normalized within this set; ``seed`` the raw
    cosine, as seed 000 did. With ``gate`` (see ``api.core.gate``), a hit whose gate value is
    below ``gate`` is off topic: it ranks after every on-topic hit. ``scale_from``: where
    the fused scales start (see ``api.core.fusion``); default, the candidates' own least values.
    """
    fused = relative_scores(candidates, mode, alpha, scale_from)
    gates = gate_values(
        [c.similarity for c in candidates], [c.lexical for c in candidates], mode, alpha
    )
    hits = [
        Hit(
            c.passage,
            breakdown(
                c.similarity,
                c.passage.anio,
                c.passage.epoca,
                recency_weight,
                profile,
                fused[i] if profile == "default" else None,
                params,
                c.lexical,
                epocas,
            ),
            on_topic=gate is None or gates[i] >= gate,
            gate=gates[i],
        )
        for i, c in enumerate(candidates)
    ]
    return rank(hits)
