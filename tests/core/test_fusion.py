from __future__ import annotations

import pytest

from api.core.fusion import merge_candidates, min_max, relative_scores
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


def test_merge_keeps_best_of_each_signal_per_chunk() -> None:
    merged = merge_candidates([cand(1, 0.9, 0.0)], [cand(1, 0.9, 7.0), cand(2, 0.5, 3.0)])
    assert {(c.passage.registro, c.similarity, c.lexical) for c in merged} == {
        (1, 0.9, 7.0),
        (2, 0.5, 3.0),
    }
