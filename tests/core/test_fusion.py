from __future__ import annotations

import pytest

from api.core.fusion import ScaleFloor, merge_candidates, min_max, relative_scores, scale_floor
from api.core.models import Candidate, Chunk, Passage


def cand(registro: int, similarity: float, lexical: float, index: int = 0) -> Candidate:
    passage = Passage(
        chunk=Chunk(registro, index, "t", 0, 1, 1, 1, 1),
        rubro="R",
        epoca="",
        anio=2000,
        tipo="Aislada",
    )
    return Candidate(passage, similarity, lexical)


def test_min_max_handles_constant_lists() -> None:
    assert min_max([2.0, 2.0]) == [1.0, 1.0]
    assert min_max([1.0, 3.0, 2.0]) == [0.0, 1.0, 0.5]


def test_relative_score_fusion_mixes_normalized_signals() -> None:
    pool = [cand(1, 0.9, 0.0), cand(2, 0.8, 10.0), cand(3, 0.7, 5.0)]
    assert relative_scores(pool, "vector", 0.5) == pytest.approx([1.0, 0.5, 0.0])
    assert relative_scores(pool, "lexical", 0.5) == pytest.approx([0.0, 1.0, 0.5])
    assert relative_scores(pool, "hybrid", 0.3) == pytest.approx([0.3, 0.85, 0.35])
    with pytest.raises(ValueError, match="alpha"):
        relative_scores(pool, "hybrid", 2.0)


def test_a_scale_floor_keeps_the_reference_scale_for_deeper_candidates() -> None:
    assert min_max([1.0, 3.0, 0.0], low=1.0) == [0.0, 1.0, 0.0]  # under the floor: 0
    reference = [cand(1, 0.9, 0.0), cand(2, 0.8, 10.0), cand(3, 0.7, 5.0)]
    deeper = [*reference, cand(4, 0.5, 1.0)]
    floor = scale_floor(reference)
    assert floor == ScaleFloor(0.7, 0.0)
    # the reference candidates score as they did alone; without the floor, chunk 4's cosine
    # would stretch the vector scale and move them
    assert relative_scores(deeper, "hybrid", 0.3, floor)[:3] == pytest.approx(
        relative_scores(reference, "hybrid", 0.3)
    )
    assert relative_scores(deeper, "hybrid", 0.3)[:3] != pytest.approx(
        relative_scores(reference, "hybrid", 0.3)
    )
    assert scale_floor([]) is None


def test_merge_keeps_best_of_each_signal_per_chunk() -> None:
    merged = merge_candidates([cand(1, 0.9, 0.0)], [cand(1, 0.9, 7.0), cand(2, 0.5, 3.0)])
    assert {(c.passage.registro, c.similarity, c.lexical) for c in merged} == {
        (1, 0.9, 7.0),
        (2, 0.5, 3.0),
    }
