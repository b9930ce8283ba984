from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.core.models import Candidate, Chunk, Passage
from api.core.scoring import (
    DecayParams,
    breakdown,
    default_recency,
    score_candidates,
    seed_recency,
)


@pytest.mark.parametrize(
    ("similarity", "year", "expected"),
    [(1.0, 2025, 1.333), (0.888, 2021, 1.118), (0.826, 2023, 1.070)],
)
def test_seed_profile_reproduces_seed_000(similarity: float, year: int, expected: float) -> None:
    result = breakdown(
        similarity=similarity,
        year=year,
        epoca="Undécima Época",
        recency_weight=0.3,
        profile="seed",
    )
    assert result.final_score == pytest.approx(expected, abs=5e-4)
    assert result.epoca_factor == 1.8


def test_seed_curve_is_not_monotone_and_default_is() -> None:
    assert seed_recency(2019) > seed_recency(2020)  # the seed's flaw, kept for comparison
    params = DecayParams(origin=2026)
    assert default_recency(2019, params) < default_recency(2020, params)


@pytest.mark.parametrize("function", ["exp", "gauss", "linear"])
@given(
    a=st.floats(1800, 2100),
    b=st.floats(1800, 2100),
    floor=st.floats(0.0, 0.9),
    scale=st.floats(0.5, 60),
    decay=st.floats(0.05, 0.95),
    offset=st.floats(0, 10),
)
def test_default_recency_is_monotone_and_bounded(
    function: str, a: float, b: float, floor: float, scale: float, decay: float, offset: float
) -> None:
    params = DecayParams(2026, offset, scale, decay, floor, function)  # type: ignore[arg-type]
    older, newer = sorted((a, b))
    assert default_recency(older, params) <= default_recency(newer, params) + 1e-12
    for year in (a, b):
        assert floor - 1e-12 <= default_recency(year, params) <= 1.0


def _candidate(registro: int, year: int, similarity: float, epoca: str = "") -> Candidate:
    chunk = Chunk(registro, 0, "t", 0, 1, 1, 1, 1)
    return Candidate(
        Passage(chunk=chunk, rubro="R", epoca=epoca, anio=year, tipo="Aislada"),
        similarity,
        similarity * 3,
    )


@given(
    st.lists(
        st.tuples(
            st.integers(1900, 2026),
            st.floats(-1, 1),
            st.sampled_from(["", "Séptima Época", "Novena Época", "Undécima Época"]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.sampled_from(["hybrid", "vector", "lexical"]),
)
def test_weight_zero_gives_exactly_the_relevance_order(rows, mode) -> None:
    candidates = [_candidate(i, y, s, e) for i, (y, s, e) in enumerate(rows)]
    hits = score_candidates(candidates, 0.0, "default", mode, 0.5)
    assert [h.rank for h in hits] == [h.rank_without_recency for h in hits]
    assert all(h.score.final_score == h.score.relevance for h in hits)


def test_recency_lifts_a_recent_tesis_over_a_slightly_closer_old_one() -> None:
    old, new = (
        _candidate(1, 1979, 0.90, "Séptima Época"),
        _candidate(2, 2023, 0.89, "Undécima Época"),
    )
    plain = score_candidates([old, new], 0.0, "default", "vector")
    assert [h.registro for h in plain] == [1, 2]
    boosted = score_candidates([old, new, _candidate(3, 2000, 0.5)], 0.5, "default", "vector")
    assert [h.registro for h in boosted][:2] == [2, 1]
    assert boosted[0].rank_without_recency == 2


def test_default_profile_multiplies_normalized_relevance_not_raw_cosine() -> None:
    hits = score_candidates(
        [_candidate(1, 2020, 0.85), _candidate(2, 2020, 0.80)], 0.3, "default", "vector"
    )
    assert [h.score.relevance for h in hits] == [1.0, 0.0]
    assert hits[0].score.similarity == pytest.approx(0.85)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"recency_weight": 1.5}, "recency_weight"),
        ({"profile": "nope"}, "profile"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs: dict, message: str) -> None:
    args = {"similarity": 0.5, "year": 2000, "epoca": "", "recency_weight": 0.3} | kwargs
    with pytest.raises(ValueError, match=message):
        breakdown(**args)


@pytest.mark.parametrize(
    ("field", "value"), [("scale", 0), ("decay", 1.0), ("floor", 1.0), ("offset", -1)]
)
def test_decay_params_are_validated(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        DecayParams(**{field: value})


def test_a_re_ranked_hit_keeps_every_other_field() -> None:
    from dataclasses import fields, replace

    from api.core.models import Validity
    from tests.fakes import make_hit

    base = make_hit(7, status=Validity("superada", por_registro=9), rank=3)
    odd = replace(base, rank_without_recency=5, on_topic=False, gate=0.4, warning="ojo")
    moved = odd.ranked(1, 2)
    assert moved == replace(odd, rank=1, rank_without_recency=2)
    kept = {f.name for f in fields(odd)} - {"rank", "rank_without_recency"}
    assert all(getattr(moved, n) == getattr(odd, n) for n in kept)
