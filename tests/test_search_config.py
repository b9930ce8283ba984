"""``SearchConfig.from_settings`` reads each scalar default from the setting ``SETTING_OF`` names."""

from __future__ import annotations

from dataclasses import fields

from api.core.search_defaults import DEFAULTS, SearchDefaults
from api.services.search.config import SETTING_OF, SearchConfig
from api.settings import Settings


def test_the_table_names_real_defaults_and_settings() -> None:
    assert set(SETTING_OF) <= {f.name for f in fields(SearchDefaults)}
    assert set(SETTING_OF.values()) <= set(Settings.model_fields)


def test_settings_reach_the_config_and_the_rest_keep_the_core_defaults() -> None:
    settings = Settings(
        scoring_profile="seed",
        hybrid_alpha=0.2,
        similarity_threshold=0.3,
        current_recency_weight=0.9,
        temporal_blend_weight=0.25,
        reform_rules_mode="literal",
    )
    config = SearchConfig.from_settings(settings)
    assert (config.profile, config.alpha, config.threshold) == ("seed", 0.2, 0.3)
    assert (config.current_weight, config.blend_weight, config.rules_mode) == (0.9, 0.25, "literal")
    assert (config.include_superseded, config.topic_gate) == (
        DEFAULTS.include_superseded,
        DEFAULTS.topic_gate,
    )
    assert SearchConfig.from_settings(Settings()).recency_weight == DEFAULTS.recency_weight
