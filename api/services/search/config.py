"""How searches rank by default: the core defaults, plus what ``Settings`` and tuning set."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from api.core.epoca_factors import EpocaFactors
from api.core.gate import NULL_QUESTIONS, GateConfig
from api.core.intent import detect_materia
from api.core.reform import DEFAULT_CUTOFFS, ReformConfig
from api.core.scoring import DecayParams
from api.core.search_defaults import SearchDefaults
from api.settings import Settings

# The ``Settings`` field each scalar default is read from; the others keep the core value.
SETTING_OF: Mapping[str, str] = MappingProxyType(
    {
        "profile": "scoring_profile",
        "recency_weight": "recency_weight",
        "mode": "retrieval_mode",
        "alpha": "hybrid_alpha",
        "oversample": "oversample",
        "threshold": "similarity_threshold",
        "max_chunks_per_tesis": "max_chunks_per_tesis",
        "current_weight": "current_recency_weight",
        "superseded_demotion": "superseded_demotion",
        "temporal_gate": "temporal_gate",
        "blend_weight": "temporal_blend_weight",
        "rules_mode": "reform_rules_mode",
        "same_point_similarity": "same_point_similarity",
        "cross_lingual_alpha": "cross_lingual_alpha",
    }
)


@dataclass(frozen=True, slots=True)
class SearchConfig(SearchDefaults):
    decay: DecayParams = field(default_factory=DecayParams)
    reform: ReformConfig = field(default_factory=ReformConfig)
    gate: GateConfig = field(default_factory=GateConfig)
    epocas: EpocaFactors = field(default_factory=EpocaFactors)
    # Per-materia defaults fitted by ``vigencia tune`` (materia read from the question).
    materia_weights: dict[str, float] = field(default_factory=dict)
    materia_alphas: dict[str, float] = field(default_factory=dict)
    # The questions no document should answer, per language, that calibrate abstention.
    null_questions: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: NULL_QUESTIONS)

    def defaults_for(self, query: str, explicit: tuple[str, ...]) -> tuple[float, float]:
        """The recency weight and alpha a question's materia was tuned to, else the global."""
        if not (self.materia_weights or self.materia_alphas):
            return self.recency_weight, self.alpha
        materia = detect_materia(query, explicit).materia or ""
        return (
            self.materia_weights.get(materia, self.recency_weight),
            self.materia_alphas.get(materia, self.alpha),
        )

    @classmethod
    def from_settings(cls, settings: Settings, today: date | None = None) -> SearchConfig:
        s = settings
        origin = s.decay_origin_year or (today or date.today()).year
        return cls(
            **{name: getattr(s, setting) for name, setting in SETTING_OF.items()},
            decay=DecayParams(
                float(origin),
                s.decay_offset_years,
                s.decay_scale_years,
                s.decay_value,
                s.decay_floor,
            ),
            reform=ReformConfig(
                s.reform_cutoffs or DEFAULT_CUTOFFS,
                s.reform_recent_year,
                s.reform_min_gap_years,
                s.reform_keep_most_recent,
                s.reform_discard_pre_novena,
            ),
            gate=GateConfig(
                s.relevance_gate,
                s.abstain_margin,
                s.abstain_cross_margin,
                s.relevance_gate_enabled,
                s.abstain_short_margin,
            ),
            epocas=EpocaFactors.parse(s.epoca_factors, s.seed_epoca_factors),
            materia_weights=dict(s.materia_recency_weights or {}),
            materia_alphas=dict(s.materia_alphas or {}),
            null_questions={
                **NULL_QUESTIONS,
                **{lang: tuple(qs) for lang, qs in (s.null_questions or {}).items()},
            },
        )
