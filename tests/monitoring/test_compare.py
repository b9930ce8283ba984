"""Ranking comparison: rank changes, entered/dropped and Kendall's tau-b over the union."""

from __future__ import annotations

import math

import pytest

from api.core.compare import (
    RankChange,
    compare_hits,
    kendall_tau_b,
    rank_changes,
    tesis_ranking,
)
from api.core.reform import ReformConfig, apply_reform_rules
from tests.core.test_seed_replay import CASE, build_hits
from tests.fakes import make_hit


@pytest.mark.parametrize(
    ("a", "b", "tau"),
    [
        ([1, 2, 3], [1, 2, 3], 1.0),
        ([1, 2, 3], [3, 2, 1], -1.0),
        # 4 is missing from A and 3 from B: each goes after its list; only (3, 4) is discordant
        ([1, 2, 3], [1, 2, 4], (5 - 1) / 6),
        # disjoint: ties among the missing ones; C - D = -4 over sqrt((6 - 1)(6 - 1))
        ([1, 2], [3, 4], -0.8),
        ([1, 2, 2, 3], [1, 2, 3], 1.0),  # duplicates count once (first occurrence)
    ],
)
def test_kendall_tau_b(a: list[int], b: list[int], tau: float) -> None:
    assert kendall_tau_b(a, b) == pytest.approx(tau)


@pytest.mark.parametrize(("a", "b"), [([], []), ([7], [7]), ([7], [])])
def test_kendall_tau_is_undefined_below_two_registros(a: list[int], b: list[int]) -> None:
    assert kendall_tau_b(a, b) is None


def test_kendall_tau_is_symmetric_and_bounded() -> None:
    a, b = [5, 1, 9, 3, 7], [1, 5, 3, 8, 9, 2]
    tau = kendall_tau_b(a, b)
    assert tau is not None and -1.0 <= tau <= 1.0
    assert kendall_tau_b(b, a) == pytest.approx(tau)


def test_rank_changes_cover_both_lists() -> None:
    assert rank_changes([10, 20, 30], [20, 40, 10]) == [
        RankChange(20, 2, 1, 1),
        RankChange(40, None, 2, None),
        RankChange(10, 1, 3, -2),
        RankChange(30, 3, None, None),
    ]


def test_tesis_ranking_keeps_the_best_chunk_of_each_registro() -> None:
    hits = [
        make_hit(300, 1, rank=3, final_score=0.5, anio=2020),
        make_hit(100, 0, rank=1, final_score=0.9, anio=1990),
        make_hit(300, 0, rank=2, final_score=0.7, anio=2020),
    ]
    ranked = tesis_ranking(hits)
    assert [(t.registro, t.rank, t.final_score, t.anio) for t in ranked] == [
        (100, 1, 0.9, 1990),
        (300, 2, 0.7, 2020),
    ]


def test_seed_000_replay_without_and_with_the_vigencia_rules() -> None:
    """A: seed 000's ten sources (recency 0.3, seed profile) with no rules; B: the same after
    the reform rules. The 1992 Octava Época tesis 219831 (and the 2009 one) are dropped."""
    without_rules = build_hits(CASE["recency_weight"])
    with_rules = apply_reform_rules(without_rules, "Laboral", ReformConfig()).kept

    comparison = compare_hits(without_rules, with_rules)

    assert 219831 in comparison.dropped
    assert set(comparison.dropped) == {d["registro"] for d in CASE["expected"]["discarded"]}
    assert comparison.entered == ()
    assert comparison.kendall_tau is not None and math.isfinite(comparison.kendall_tau)
    assert -1.0 <= comparison.kendall_tau < 1.0  # the rules changed the ranking
    assert len(comparison.a) == len({r["registro"] for r in CASE["hits"]})
    assert [t.rank for t in comparison.b] == list(range(1, len(comparison.b) + 1))
    [change] = [c for c in comparison.changes if c.registro == 219831]
    assert change.rank_b is None and change.delta is None and change.rank_a is not None
    # the kept tesis keep their relative order: every one of them moves up or stays
    assert all(c.delta >= 0 for c in comparison.changes if c.delta is not None)
