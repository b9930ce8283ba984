"""Issue 13, item 8: época multipliers are settings (JSON), bound-checked, and used."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from api.core.epoca_factors import EpocaFactors
from api.core.scoring import breakdown
from api.services.search import SearchConfig
from api.settings import Settings


def test_defaults_match_the_documented_factors() -> None:
    factors = EpocaFactors()
    assert [
        factors.default_factor(e)
        for e in ("Décima Época", "Novena Época", "Octava Época", "Quinta Época", "")
    ] == [1.0, 0.9, 0.8, 0.75, 1.0]
    assert factors.seed_factor("Duodécima Época") == 2.0 and factors.seed_factor("") == 1.0


def test_settings_json_changes_the_factor_a_hit_gets() -> None:
    settings = Settings(
        epoca_factors={"Novena Época": 0.5, "older": 0.4}, seed_epoca_factors={"10": 3.0}
    )
    config = SearchConfig.from_settings(settings)
    novena = breakdown(0.8, 2000, "Novena Época", 1.0, relevance=1.0, epocas=config.epocas)
    quinta = breakdown(0.8, 1950, "Quinta Época", 1.0, relevance=1.0, epocas=config.epocas)
    seed = breakdown(0.8, 2014, "Décima Época", 1.0, "seed", epocas=config.epocas)
    assert (novena.epoca_factor, quinta.epoca_factor, seed.epoca_factor) == (0.5, 0.4, 3.0)
    assert config.epocas.default_factor("Octava Época") == 0.8  # unlisted keep theirs


@pytest.mark.parametrize(
    ("default", "seed", "message"),
    [
        ({"Novena Época": 1.5}, None, "outside (0, 1]"),
        ({"older": 0}, None, "outside (0, 1]"),
        ({"Vigésima": 0.5}, None, "unknown época"),
        (None, {"Décima Época": 0.5}, "outside [1, 5]"),
    ],
)
def test_out_of_bounds_factors_are_refused_at_startup(
    default: dict[str, float] | None, seed: dict[str, float] | None, message: str
) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        Settings(epoca_factors=default, seed_epoca_factors=seed)


def test_env_json_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGENCIA_EPOCA_FACTORS", '{"Octava Época": 0.6}')
    assert Settings().epoca_factors == {"Octava Época": 0.6}
