"""Settings of retrieval and scoring; defaults come from the core dataclasses that use them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from api.core.gate import GateConfig
from api.core.reform import DEFAULT_CUTOFFS, ReformConfig
from api.core.scoring import DecayParams
from api.core.search_defaults import DEFAULTS
from api.setting_fields import count, margin, share

# The core dataclasses state every ranking default once; the fields below refer to them.
_DECAY, _REFORM, _GATE = DecayParams(), ReformConfig(), GateConfig()
_CUTOFFS = ", ".join(f"{materia} {year}" for materia, year in DEFAULT_CUTOFFS.items())


class RankingSettings(BaseModel):
    """``VIGENCIA_*`` fields of retrieval and scoring (``Settings`` inherits them)."""

    scoring_profile: Literal["default", "seed"] = Field(
        DEFAULTS.profile,
        description="`default` (normalized relevance, monotone decay) or `seed` (seed 000).",
    )
    recency_weight: float = share(
        DEFAULTS.recency_weight, "Default recency weight w in 0..1 (0 = similarity order)."
    )
    retrieval_mode: Literal["hybrid", "vector", "lexical"] = Field(
        DEFAULTS.mode,
        description="Candidate retrieval: BM25 + vector fusion, vector only, or BM25 only.",
    )
    hybrid_alpha: float = share(
        DEFAULTS.alpha, "Hybrid weight of the vector side (1 = vector, 0 = BM25)."
    )
    oversample: int = count(
        DEFAULTS.oversample, "Candidates fetched per requested hit before scoring.", 1, 50
    )
    decay_origin_year: int | None = Field(
        None, description="Year where recency is 1 (default: the current year)."
    )
    decay_scale_years: float = Field(
        _DECAY.scale,
        gt=0,
        description="Years past the offset at which the decay reaches `decay_value`.",
    )
    decay_offset_years: float = Field(
        _DECAY.offset, ge=0, description="Years from the origin with no decay at all."
    )
    decay_value: float = Field(
        _DECAY.decay,
        gt=0,
        lt=1,
        description="Decay reached at `offset + scale` years (Elasticsearch style).",
    )
    decay_floor: float = Field(
        _DECAY.floor, ge=0, lt=1, description="Lowest recency factor any date can get."
    )
    max_chunks_per_tesis: int = count(
        DEFAULTS.max_chunks_per_tesis, "Most chunks of one tesis among the hits (diversity).", 1, 10
    )
    current_recency_weight: float = share(
        DEFAULTS.current_weight,
        "Recency weight for questions about current law (actual, vigente, tras la reforma).",
    )
    superseded_demotion: float = share(
        DEFAULTS.superseded_demotion, "Final-score factor of hits whose criterion lost force."
    )
    temporal_gate: float = share(
        DEFAULTS.temporal_gate,
        "Earliest/latest questions sort by date the tesis whose gate value "
        "(closeness to the best candidate) is at least this: on the point, not merely related.",
    )
    temporal_blend_weight: float = share(
        DEFAULTS.blend_weight, "Date weight of the two-pass `blend` temporal mode."
    )
    reform_cutoffs: dict[str, int] | None = Field(
        None,
        description='Reform cutoff year per materia as JSON, e.g. `{"Laboral": 2019}` '
        f"(default: {_CUTOFFS}).",
    )
    reform_recent_year: int = Field(
        _REFORM.recent_year,
        description="Reform rules apply only when some hit is from this year or later.",
    )
    reform_min_gap_years: int = count(
        _REFORM.min_gap_years, "... and the hits span more than this many years."
    )
    reform_keep_most_recent: int = count(
        _REFORM.keep_most_recent,
        "If every hit would be discarded, keep this many of the newest.",
        least=1,
    )
    reform_discard_pre_novena: bool = Field(
        _REFORM.discard_pre_novena,
        description="Reform rules also discard hits before the Novena Época (1995).",
    )
    materia_recency_weights: dict[str, float] | None = Field(
        None,
        description="Recency weight per materia as JSON, each in 0..1 (written by `vigencia "
        'tune`), e.g. `{"Laboral": 0.7}`; other materias use `recency_weight`.',
    )
    materia_alphas: dict[str, float] | None = Field(
        None,
        description="Hybrid alpha per materia as JSON, each in 0..1 (written by `vigencia "
        "tune`); other materias use `hybrid_alpha`.",
    )
    epoca_factors: dict[str, float] | None = Field(
        None,
        description="Época factors of the `default` profile as JSON, by name or ordinal, each "
        'in (0, 1], e.g. `{"Novena Época": 0.85, "older": 0.6}` (default: Décima on 1.0, '
        "Novena 0.9, Octava 0.8, older 0.75).",
    )
    seed_epoca_factors: dict[str, float] | None = Field(
        None,
        description="Época factors of the `seed` profile as JSON, each in [1, 5] (default: "
        "Novena 1.2, Décima 1.5, Undécima 1.8, Duodécima 2.0).",
    )
    similarity_threshold: float = share(
        DEFAULTS.threshold, "Default minimum cosine similarity of a hit."
    )
    reform_rules_mode: Literal["same_point", "literal"] = Field(
        DEFAULTS.rules_mode,
        description="`same_point`: an old criterion is set aside only when a newer hit is on "
        "the same point (else flagged); `literal`: seed 000's cutoffs, within the page.",
    )
    same_point_similarity: float = share(
        DEFAULTS.same_point_similarity,
        "Passage-to-passage cosine from which two hits are on the same point.",
    )
    relevance_gate: float = share(
        _GATE.relative,
        "A hit is on topic when its fused relevance is at least this share of the "
        "best; recency and the rules reorder only on-topic hits.",
    )
    relevance_gate_enabled: bool = Field(
        _GATE.enabled, description="Apply the relevance gate and abstain when nothing is on topic."
    )
    abstain_margin: float = margin(
        _GATE.margin,
        "Search abstains unless its best cosine beats the best null question's "
        "(gibberish, small talk) by this much; the floor is measured per store and language.",
    )
    abstain_short_margin: float = margin(
        _GATE.short_margin,
        "The abstention margin for a Spanish question of 5 content words or fewer (a short "
        "question's best cosine sits lower); from 5 to 10 words it moves to the margin above.",
    )
    abstain_cross_margin: float = margin(
        _GATE.cross_margin,
        "The abstention margin for English and mixed questions (their cosines to "
        "the Spanish corpus are lower).",
    )
    null_questions: dict[Literal["es", "en"], list[str]] | None = Field(
        None,
        description="The null questions that calibrate abstention, as JSON per language "
        '(`{"es": ["…"], "en": ["…"]}`), replacing the built-in ones (gibberish, small talk, '
        "recipes, weather, football) for that language: a corpus that answers some of those (a "
        "news archive covers weather and football) needs questions it cannot answer.",
    )
    cross_lingual_alpha: float = share(
        DEFAULTS.cross_lingual_alpha,
        "Least hybrid vector weight for English and mixed questions (BM25 sees "
        "only their glossary translation).",
    )
