"""Date ordering: strict date sort (one hit per tesis) and the two-pass blend."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.core.fusion import min_max
from api.core.models import Chunk, Hit, Passage
from api.core.scoring import breakdown, rank
from api.core.temporal import best_per_registro, sort_by_date, temporal_blend


def hit(
    registro: int,
    similarity: float,
    anio: int,
    fecha: date | None = None,
    index: int = 0,
) -> Hit:
    """A hit of a generic corpus (no época), scored with relevance = similarity."""
    chunk = Chunk(registro, index, "", 0, 0, 1, 1, 0)
    passage = Passage(
        chunk=chunk, rubro=f"doc {registro}", epoca="", anio=anio, tipo="Aislada", fecha=fecha
    )
    return Hit(passage, breakdown(similarity, anio, "", 0.0))


# Seed 003's case: "raffle" (2024-01-17) is the first repository, "checker" (2024-10-26) a
# later one, and the most similar hit is neither.
REPOS = rank(
    [
        hit(1, 0.70, 2024, date(2024, 1, 17)),  # raffle
        hit(2, 0.95, 2024, date(2024, 10, 26)),  # checker
        hit(3, 0.90, 2024, date(2024, 6, 1)),
        hit(4, 0.80, 2025, date(2025, 2, 3)),
        hit(2, 0.60, 2024, date(2024, 10, 26), index=1),  # a second chunk of checker
    ]
)


def test_earliest_sorts_oldest_first_one_hit_per_registro() -> None:
    ordered = sort_by_date(REPOS, "earliest")
    assert [h.registro for h in ordered] == [1, 3, 2, 4]
    assert [h.rank for h in ordered] == [1, 2, 3, 4]
    # Relevance order among the same hits: 2 (0.95), 3, 4, 1.
    assert [h.rank_without_recency for h in ordered] == [4, 2, 1, 3]
    # The best chunk of registro 2 stays.
    assert next(h for h in ordered if h.registro == 2).passage.chunk.index == 0


def test_latest_sorts_newest_first() -> None:
    assert [h.registro for h in sort_by_date(REPOS, "latest")] == [4, 2, 3, 1]


def test_sort_date_falls_back_to_mid_year_and_ties_go_to_the_better_score() -> None:
    hits = [
        hit(1, 0.5, 2010),
        hit(2, 0.9, 2010, date(2010, 7, 1)),
        hit(3, 0.7, 2010, date(2010, 3, 1)),
    ]
    assert [h.registro for h in sort_by_date(hits, "earliest")] == [3, 2, 1]
    assert [h.registro for h in sort_by_date(hits, "latest")] == [2, 1, 3]


def test_scores_and_status_are_unchanged() -> None:
    ordered = sort_by_date(REPOS, "latest")
    assert {h.registro: h.score for h in ordered} == {
        h.registro: h.score for h in REPOS if h.passage.chunk.index == 0
    }


def test_best_per_registro() -> None:
    best = best_per_registro(REPOS)
    assert sorted((h.registro, h.passage.chunk.index) for h in best) == [
        (1, 0),
        (2, 0),
        (3, 0),
        (4, 0),
    ]


@pytest.mark.parametrize("kind", ["oldest", "current", ""])
def test_bad_kind(kind: str) -> None:
    with pytest.raises(ValueError, match="kind"):
        sort_by_date(REPOS, kind)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="kind"):
        temporal_blend(REPOS, kind, 0.5)  # type: ignore[arg-type]


# --- blend -------------------------------------------------------------------------------


def test_blend_weight_zero_is_the_relevance_order() -> None:
    blended = temporal_blend(REPOS, "latest", 0.0)
    assert [h.score.relevance for h in blended] == sorted(
        (h.score.relevance for h in REPOS), reverse=True
    )
    assert all(h.rank == h.rank_without_recency for h in blended)


@pytest.mark.parametrize(("kind", "first"), [("earliest", 1), ("latest", 4)])
def test_blend_weight_one_is_the_date_order(kind: str, first: int) -> None:
    blended = temporal_blend(REPOS, kind, 1.0)  # type: ignore[arg-type]
    assert blended[0].registro == first
    assert blended[0].score.final_score == pytest.approx(1.0)


def test_blend_formula() -> None:
    hits = [hit(1, 0.9, 2000), hit(2, 0.5, 2020), hit(3, 0.7, 2010)]
    blended = {h.registro: h.score.final_score for h in temporal_blend(hits, "latest", 0.25)}
    # relevance_norm: 1, 0, 0.5; date_norm (latest): 0, 1, ~0.5 (mid-year dates).
    assert blended[1] == pytest.approx(0.75)
    assert blended[2] == pytest.approx(0.25)
    assert blended[3] == pytest.approx(0.75 * 0.5 + 0.25 * 0.5, abs=1e-3)
    earliest = {h.registro: h.score.final_score for h in temporal_blend(hits, "earliest", 0.25)}
    assert earliest[1] == pytest.approx(1.0)
    assert earliest[2] == pytest.approx(0.0)


def test_blend_bounds_and_constants() -> None:
    with pytest.raises(ValueError, match="weight"):
        temporal_blend(REPOS, "latest", 1.5)
    assert temporal_blend([], "latest", 0.5) == []
    same = temporal_blend([hit(1, 0.5, 2020), hit(2, 0.5, 2020)], "earliest", 0.5)
    assert [h.score.final_score for h in same] == [1.0, 1.0]
    assert min_max([3.0, 1.0, 2.0]) == [1.0, 0.0, 0.5]


rows = st.lists(
    st.tuples(
        st.integers(min_value=1, max_value=8),
        st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
        st.dates(min_value=date(1900, 1, 1), max_value=date(2030, 12, 31)),
    ),
    max_size=20,
)


@given(rows, st.sampled_from(["earliest", "latest"]))
def test_sort_by_date_properties(data: list[tuple[int, float, date]], kind: str) -> None:
    hits = [hit(r, s, d.year, d, index=i) for i, (r, s, d) in enumerate(data)]
    ordered = sort_by_date(hits, kind)  # type: ignore[arg-type]
    assert sorted(h.registro for h in ordered) == sorted({r for r, _, _ in data})
    days = [h.passage.sort_date for h in ordered]
    assert days == sorted(days, reverse=kind == "latest")
    assert [h.rank for h in ordered] == list(range(1, len(ordered) + 1))
    assert sorted(h.rank_without_recency for h in ordered) == list(range(1, len(ordered) + 1))


@given(rows, st.sampled_from(["earliest", "latest"]), st.floats(0.0, 1.0))
def test_blend_properties(data: list[tuple[int, float, date]], kind: str, weight: float) -> None:
    hits = [hit(r, s, d.year, d, index=i) for i, (r, s, d) in enumerate(data)]
    blended = temporal_blend(hits, kind, weight)  # type: ignore[arg-type]
    assert len(blended) == len(hits)
    assert all(-1e-9 <= h.score.final_score <= 1 + 1e-9 for h in blended)
    finals = [h.score.final_score for h in blended]
    assert finals == sorted(finals, reverse=True)
